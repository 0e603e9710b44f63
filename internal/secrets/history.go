package secrets

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/fatih/semgroup"
	"github.com/zricethezav/gitleaks/v8/cmd/scm"
	"github.com/zricethezav/gitleaks/v8/sources"
)

// ErrNoGit is returned for a history scan where the git command is missing
// or root is not inside a git repository.
var ErrNoGit = errors.New("history scanning needs the git command and a git repository")

// scanHistory runs the rules on every line added by every commit, through
// gitleaks' git source: it parses `git log -p -U0` as git prints it, so it
// needs the git command, and sees exactly what gitleaks git would. The
// paths are relative to the repository's top level, and the whole
// repository is scanned even when root is a directory inside it.
func (s *scanner) scanHistory(ctx context.Context) error {
	if _, err := exec.LookPath("git"); err != nil {
		return fmt.Errorf("%w: git is not on PATH", ErrNoGit)
	}
	out, err := exec.CommandContext(ctx, "git", "-C", s.root, "rev-parse", "--is-inside-work-tree").Output()
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		return fmt.Errorf("%w: %s is not inside a git work tree", ErrNoGit, s.root)
	}
	cmd, err := sources.NewGitLogCmdContext(ctx, s.root, s.opts.HistoryLogOptions)
	if err != nil {
		return fmt.Errorf("start git log: %w", err)
	}
	src := &sources.Git{
		Cmd:    cmd,
		Config: s.cfg,
		// The remote only builds links to findings, which a report
		// does not carry; NoPlatform keeps gitleaks from asking git
		// for it.
		Remote: &sources.RemoteInfo{Platform: scm.NoPlatform},
		Sema:   semgroup.NewGroup(ctx, int64(s.workers)),
	}
	commits := map[string]bool{}
	var gitErr error
	err = src.Fragments(ctx, func(f sources.Fragment, err error) error {
		if err != nil {
			// git wrote to stderr, which gitleaks reports as one error
			// after the fact; what was read is still scanned.
			s.mu.Lock()
			gitErr = err
			s.mu.Unlock()
			return nil
		}
		s.mu.Lock()
		if f.CommitSHA != "" && !commits[f.CommitSHA] {
			commits[f.CommitSHA] = true
			s.commits++
		}
		s.mu.Unlock()
		if s.historySkipped(f.FilePath) {
			return nil
		}
		s.add(s.detect(ctx, f, f.Raw))
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("read git history: %w", err)
	}
	if gitErr != nil {
		s.warnings = append(s.warnings, "git log reported errors; the history scan may be incomplete")
	}
	return nil
}

// historySkipped applies the tree walk's exclusions to a path from history.
func (s *scanner) historySkipped(p string) bool {
	if p == "" {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if s.skipDir[el] {
			return true
		}
	}
	return pathAllowed(s.cfg, p) || s.excluded(p)
}
