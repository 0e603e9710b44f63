package secrets

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/sources"
)

// DefaultMaxFileSize is the largest file Scan reads when Options.MaxFileSize
// is zero. Larger files (data dumps, bundles, databases) are listed in
// Report.Skipped.
const DefaultMaxFileSize = 10 << 20

// DefaultSkipDirs are the directory names Scan never enters when
// Options.SkipDirs is nil: version control metadata (history is scanned
// from git itself, with Options.History) and installed third-party
// packages, whose secrets are not the project's to rotate. gitleaks' own
// allowlist also excludes node_modules, Python virtualenvs and
// site-packages, and Go's vendored modules from well-known hosts.
var DefaultSkipDirs = []string{".git", ".hg", ".svn", "node_modules", "bower_components"}

// VendoredDirs are the directory names Options.SkipVendored adds. They are
// scanned by default: a vendored copy is often the project's own code.
var VendoredDirs = []string{"vendor", "third_party", "third-party", "Pods"}

// Options configure Scan.
type Options struct {
	// FingerprintKey keys every Detection.Fingerprint; at least
	// MinKeySize bytes. Required.
	FingerprintKey []byte
	// History also scans every commit reachable from any ref (git log -p
	// --all), which needs the git command and a repository at or above
	// the scanned directory.
	History bool
	// HistoryLogOptions replaces the git log options, for example
	// "--since=2025-01-01 --all" or "main..HEAD". Empty means gitleaks'
	// default: --full-history --all --diff-filter=tuxdb.
	HistoryLogOptions string
	// MaxFileSize is the largest file read, in bytes; 0 means
	// DefaultMaxFileSize, a negative value no limit.
	MaxFileSize int64
	// SkipDirs are directory names never entered, anywhere in the tree.
	// nil means DefaultSkipDirs; an empty, non-nil slice enters every
	// directory (still excluding gitleaks' allowlisted paths).
	SkipDirs []string
	// SkipVendored adds VendoredDirs to SkipDirs.
	SkipVendored bool
	// Exclude are globs (the ignore file's syntax) of paths relative to
	// the scanned directory that are neither read nor reported.
	Exclude []string
	// Ignore are the accepted detections, from LoadIgnoreFile.
	Ignore []IgnoreEntry
	// HonorInlineAllow lets a "gitleaks:allow" comment on a line silence
	// the detections on it, as the gitleaks command does. Off by default:
	// an accepted secret goes into the ignore file, with a reason and an
	// expiry, where a reviewer sees it.
	HonorInlineAllow bool
	// Workers bounds the files scanned at once; 0 means GOMAXPROCS.
	Workers int
	// ToolVersion is the agent's version, for the report.
	ToolVersion string
	// Now stamps Report.Created; nil leaves it zero.
	Now func() time.Time
}

// ErrNoKey is returned by Scan without a valid Options.FingerprintKey.
var ErrNoKey = errors.New("secrets: a fingerprint key of at least 16 bytes is required")

// Scan looks for secrets under root (a directory or one file) and, with
// Options.History, in the history of the git repository root is in.
//
// Files that cannot be read are listed in Report.Skipped and the scan goes
// on; Scan fails only when root itself cannot be scanned, the history
// cannot be read, or ctx ends.
func Scan(ctx context.Context, root string, opts Options) (*Report, error) {
	fp, err := NewFingerprinter(opts.FingerprintKey)
	if err != nil {
		return nil, ErrNoKey
	}
	for _, g := range opts.Exclude {
		if err := checkGlob(g); err != nil {
			return nil, fmt.Errorf("exclude %q: %w", g, err)
		}
	}
	det, cfg, err := newDetector()
	if err != nil {
		return nil, fmt.Errorf("load the gitleaks rules: %w", err)
	}
	det.IgnoreGitleaksAllow = !opts.HonorInlineAllow
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	s := &scanner{
		root:    root,
		opts:    opts,
		det:     det,
		cfg:     &cfg,
		skipDir: map[string]bool{},
		maxSize: opts.MaxFileSize,
		seen:    map[hitKey]bool{},
	}
	if s.maxSize == 0 {
		s.maxSize = DefaultMaxFileSize
	}
	dirs := opts.SkipDirs
	if dirs == nil {
		dirs = DefaultSkipDirs
	}
	if opts.SkipVendored {
		dirs = append(slices.Clone(dirs), VendoredDirs...)
	}
	for _, d := range dirs {
		s.skipDir[d] = true
	}
	s.workers = opts.Workers
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}

	if info.IsDir() {
		err = s.scanTree(ctx)
	} else {
		err = s.scanSingle(ctx, info)
	}
	if err != nil {
		return nil, err
	}
	if opts.History {
		if err := s.scanHistory(ctx); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.report(fp), nil
}

// scanner holds one Scan's state. Workers append to hits under mu.
type scanner struct {
	root    string
	opts    Options
	det     *detect.Detector
	cfg     *config.Config
	skipDir map[string]bool
	maxSize int64
	workers int

	mu       sync.Mutex
	hits     []hit
	seen     map[hitKey]bool
	skipped  []Skipped
	warnings []string
	files    int
	bytes    int64
	binary   int
	commits  int
}

// hit is a detection before fingerprinting; it holds the raw value.
type hit struct {
	ruleID, description string
	file                string
	line, column        int
	commit, commitDate  string
	secret, companion   string
	entropy             float32
	tags                []string
	pathOnly            bool
}

type hitKey struct {
	rule, file, commit, secret string
	line                       int
}

func (s *scanner) add(hs []hit) {
	if len(hs) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range hs {
		k := hitKey{h.ruleID, h.file, h.commit, h.secret, h.line}
		if s.seen[k] {
			continue
		}
		s.seen[k] = true
		s.hits = append(s.hits, h)
	}
}

func (s *scanner) skip(path, reason string) {
	s.mu.Lock()
	s.skipped = append(s.skipped, Skipped{Path: path, Reason: reason})
	s.mu.Unlock()
}

// excluded reports whether a relative path is excluded by Options.Exclude.
func (s *scanner) excluded(rel string) bool {
	for _, g := range s.opts.Exclude {
		if matchGlob(g, rel) {
			return true
		}
	}
	return false
}

type fileJob struct {
	abs, rel string
}

// scanTree walks the tree on one goroutine and scans files on s.workers.
// Symbolic links are never followed: a link could lead out of the tree or
// into a loop, and its target is scanned where it lives if it is inside.
func (s *scanner) scanTree(ctx context.Context) error {
	jobs := make(chan fileJob, 4*s.workers)
	var wg sync.WaitGroup
	for range s.workers {
		wg.Go(func() {
			for j := range jobs {
				if ctx.Err() != nil {
					continue
				}
				s.scanFile(ctx, j)
			}
		})
	}
	walkErr := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, relErr := filepath.Rel(s.root, p)
		if relErr != nil {
			return relErr
		}
		rel = filepath.ToSlash(rel)
		if err != nil {
			if rel == "." {
				return err
			}
			s.skip(rel, "cannot be read: "+reasonOf(err))
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if s.skipDir[d.Name()] || pathAllowed(s.cfg, rel) || s.excluded(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if pathAllowed(s.cfg, rel) || s.excluded(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			s.skip(rel, "cannot be read: "+reasonOf(err))
			return nil
		}
		if info.Size() == 0 {
			return nil
		}
		if s.maxSize > 0 && info.Size() > s.maxSize {
			s.skip(rel, fmt.Sprintf("larger than %s (%s)", byteSize(s.maxSize), byteSize(info.Size())))
			return nil
		}
		select {
		case jobs <- fileJob{abs: p, rel: rel}:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	if walkErr != nil {
		return fmt.Errorf("scan %s: %w", s.root, walkErr)
	}
	return ctx.Err()
}

// scanSingle scans root when it is a file; paths are then its base name.
func (s *scanner) scanSingle(ctx context.Context, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("scan %s: not a regular file or directory", s.root)
	}
	rel := filepath.Base(s.root)
	if s.maxSize > 0 && info.Size() > s.maxSize {
		s.skip(rel, fmt.Sprintf("larger than %s (%s)", byteSize(s.maxSize), byteSize(info.Size())))
		return nil
	}
	s.scanFile(ctx, fileJob{abs: s.root, rel: rel})
	return ctx.Err()
}

// binarySniff is how much of a file is looked at for a NUL byte, git's
// own test for binary content.
const binarySniff = 8000

// scanFile reads one file and runs the rules on it, in chunks.
func (s *scanner) scanFile(ctx context.Context, j fileJob) {
	data, err := readLimited(j.abs, s.maxSize)
	if err != nil {
		s.skip(j.rel, "cannot be read: "+reasonOf(err))
		return
	}
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		// Binary: only rules that look at the path alone (PKCS#12
		// files) can match.
		s.mu.Lock()
		s.binary++
		s.mu.Unlock()
		s.add(s.detect(ctx, sources.Fragment{FilePath: j.rel}, ""))
		return
	}
	s.mu.Lock()
	s.files++
	s.bytes += int64(len(data))
	s.mu.Unlock()
	text := string(data)
	for c := range chunks(text) {
		if ctx.Err() != nil {
			return
		}
		s.add(s.detect(ctx, sources.Fragment{Raw: c.text, FilePath: j.rel, StartLine: c.line}, c.text))
	}
}

func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if info, err := f.Stat(); err == nil && info.Size() > 0 && (limit <= 0 || info.Size() <= limit) {
		buf.Grow(int(info.Size()) + 1)
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit)
	}
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), err
}

// detect runs the rules on one fragment and turns the engine's findings
// into hits. text is the fragment's content as the lines are counted from
// frag.StartLine (empty for path-only checks).
func (s *scanner) detect(ctx context.Context, frag sources.Fragment, text string) []hit {
	//lint:ignore SA1019 DetectContext takes only the deprecated alias in v8; sources.Fragment replaces it in v9.
	found := s.det.DetectContext(ctx, detect.Fragment(frag))
	if len(found) == 0 {
		return nil
	}
	out := make([]hit, 0, len(found))
	for i := range found {
		f := &found[i]
		h := hit{
			ruleID:      f.RuleID,
			description: f.Description,
			file:        f.File,
			line:        f.StartLine,
			commit:      f.Commit,
			secret:      f.Secret,
			entropy:     f.Entropy,
			tags:        slices.Clone(f.Tags),
			pathOnly:    f.Secret == "" && strings.HasPrefix(f.Match, "file detected:"),
		}
		if frag.CommitInfo != nil {
			h.commitDate = frag.CommitInfo.Date
		}
		if h.file == "" {
			h.file = frag.FilePath
		}
		if !h.pathOnly && text != "" {
			rel := f.StartLine - frag.StartLine
			line := lineAt(text, rel)
			if i := strings.Index(line, f.Secret); i >= 0 {
				h.column = utf8.RuneCountInString(line[:i]) + 1
			}
			if f.RuleID == "aws-access-token" {
				h.companion = findAWSSecret(text, rel, f.Secret)
			}
		}
		out = append(out, h)
	}
	return out
}

// lineAt returns line n (0-based) of text, without its newline.
func lineAt(text string, n int) string {
	for ; n > 0; n-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return ""
		}
		text = text[i+1:]
	}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	return strings.TrimSuffix(text, "\r")
}

// report turns the hits into the Report: fingerprints, redaction,
// providers, suppression, order and counts.
func (s *scanner) report(fp *Fingerprinter) *Report {
	r := &Report{
		Schema:           Schema,
		SchemaVersion:    SchemaVersion,
		Tool:             Tool{Name: "sentinel", Version: s.opts.ToolVersion},
		Engine:           Engine{Name: EngineName, Version: EngineVersion, Rules: len(s.cfg.Rules)},
		Root:             s.root,
		FingerprintKeyID: fp.KeyID(),
		History:          s.opts.History,
		Skipped:          s.skipped,
		Warnings:         s.warnings,
		Detections:       []Detection{},
	}
	if s.opts.Now != nil {
		r.Created = s.opts.Now().UTC()
	}
	// A secret access key paired with an AWS key id is AWS's, whichever
	// rule found it.
	awsSecrets := map[string]bool{}
	for _, h := range s.hits {
		if h.companion != "" {
			awsSecrets[h.companion] = true
		}
	}
	for _, h := range s.hits {
		d := Detection{
			RuleID:      h.ruleID,
			Description: h.description,
			Provider:    ProviderForRule(h.ruleID),
			Verifiable:  Verifiable(h.ruleID),
			File:        h.file,
			Line:        h.line,
			Column:      h.column,
			Commit:      h.commit,
			CommitDate:  h.commitDate,
			Entropy:     math.Round(float64(h.entropy)*100) / 100,
			Tags:        h.tags,
		}
		switch {
		case h.pathOnly:
			// The file is the secret (a PKCS#12 bundle): fingerprint its
			// path, there is no value to verify.
			d.Fingerprint = fp.Fingerprint("file:" + h.file)
			d.Redacted = "(file)"
			d.Verifiable = false
		default:
			d.Fingerprint = fp.Fingerprint(h.secret)
			d.Redacted = Redact(h.secret)
			d.cred = NewCredential(h.secret, h.companion)
		}
		if h.ruleID == "aws-access-token" {
			// Only a long-term key (AKIA) with its secret key can be
			// checked: a temporary one (ASIA) also needs its session
			// token, which is never found with it.
			d.Paired = h.companion != ""
			d.Verifiable = d.Paired && strings.HasPrefix(h.secret, "AKIA")
		} else if awsSecrets[h.secret] {
			d.Provider = ProviderAWS
		}
		if sup := s.suppression(&d); sup != nil {
			d.Suppression = sup
			r.Suppressed = append(r.Suppressed, d)
			continue
		}
		r.Detections = append(r.Detections, d)
	}
	order := func(a, b Detection) int {
		return cmp.Or(
			strings.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			strings.Compare(a.RuleID, b.RuleID),
			strings.Compare(a.Commit, b.Commit),
		)
	}
	slices.SortFunc(r.Detections, order)
	slices.SortFunc(r.Suppressed, order)
	slices.SortFunc(r.Skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })

	sum := &r.Summary
	sum.Files, sum.Bytes, sum.BinaryFiles, sum.Commits = s.files, s.bytes, s.binary, s.commits
	sum.Detections, sum.Suppressed = len(r.Detections), len(r.Suppressed)
	distinct := map[string]bool{}
	for _, d := range r.Detections {
		distinct[d.Fingerprint] = true
		if d.Verifiable {
			sum.Verifiable++
		}
		p := d.Provider
		if p == "" {
			p = "other"
		}
		if sum.Providers == nil {
			sum.Providers = map[string]int{}
		}
		sum.Providers[p]++
	}
	sum.Secrets = len(distinct)
	return r
}

func (s *scanner) suppression(d *Detection) *Suppression {
	for i := range s.opts.Ignore {
		e := &s.opts.Ignore[i]
		if e.matches(d) {
			return &Suppression{Source: e.Source, Reason: e.Reason, Expires: e.Expires}
		}
	}
	return nil
}

// reasonOf shortens a file error to what went wrong, without the path the
// report already shows.
func reasonOf(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrPermission) {
		return "permission denied"
	}
	return err.Error()
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
