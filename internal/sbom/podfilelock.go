package sbom

import (
	"bufio"
	"bytes"
	"context"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
)

// podfileLock is scalibr's Podfile.lock extractor, which lists each
// subspec a project uses ("ARAnalytics/CoreIOS (5.0.1)") as a pod of its
// own, and every pod as a release of the trunk. A subspec is part of its
// pod, released with it: the pod is the component, once. The lockfile's
// EXTERNAL SOURCES say which pods are not the trunk's: one from a folder
// of the project (:path:) is the project's own code, not a component; one
// from a git repository carries it, with the commit CHECKOUT OPTIONS
// records.
type podfileLock struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e podfileLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if b == nil {
		return inv, err
	}
	sources := podSources(b)
	external, checkout := sources["EXTERNAL SOURCES:"], sources["CHECKOUT OPTIONS:"]
	seen := map[string]bool{}
	pkgs := inv.Packages[:0]
	for _, p := range inv.Packages {
		p.Name, _, _ = strings.Cut(p.Name, "/")
		if p.Name == "" || seen[p.Name+"@"+p.Version] {
			continue
		}
		seen[p.Name+"@"+p.Version] = true
		src := external[p.Name]
		if src[":path"] != "" {
			continue
		}
		if repo := src[":git"]; repo != "" {
			commit := checkout[p.Name][":commit"]
			if commit == "" {
				commit = src[":tag"]
			}
			p.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: commit}
		}
		pkgs = append(pkgs, p)
	}
	inv.Packages = pkgs
	return inv, err
}

// podSources reads Podfile.lock's sections by their heading ("EXTERNAL
// SOURCES:", "CHECKOUT OPTIONS:"): for each pod, its options (":git",
// ":path", ":commit", ":tag", ...) and their values.
func podSources(b []byte) map[string]map[string]map[string]string {
	out := map[string]map[string]map[string]string{}
	var section map[string]map[string]string
	var pod string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case line != "" && line[0] != ' ':
			section, pod = map[string]map[string]string{}, ""
			out[line] = section
		case section == nil:
		case strings.HasPrefix(line, "    "):
			if k, v, ok := strings.Cut(strings.TrimSpace(line), ": "); ok && pod != "" {
				section[pod][k] = strings.Trim(strings.TrimSpace(v), `"'`)
			}
		case strings.HasPrefix(line, "  "):
			pod = strings.Trim(strings.TrimSuffix(strings.TrimSpace(line), ":"), `"'`)
			section[pod] = map[string]string{}
		}
	}
	return out
}
