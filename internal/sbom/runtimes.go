package sbom

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/purl"
)

// The language runtimes a project pins: Node.js in .nvmrc and
// .node-version, any tool in asdf's .tool-versions and mise's mise.toml
// (scalibr's readers), Python in pyenv's .python-version and Heroku's
// runtime.txt, Ruby in .ruby-version, Go in goenv's .go-version
// (Sentinel's). Each is a component named as endoflife.date names the
// runtime, pkg:generic/node@14.17.0, pkg:generic/python@3.7.2 (Go as the
// standard library, pkg:golang/stdlib, as go.mod's toolchain is), so that
// a project still built for Node.js 14 or Python 3.7 has its runtime's
// end-of-life finding. A version that is an alias ("lts/*", "system",
// "latest") or another implementation ("pypy3.9-7.3.9", "jruby-9.4")
// names no release and gives nothing.

// runtimeProducts maps a tool's name, as version managers write it, to the
// product endoflife.date names ("" for Go, whose component is its
// standard library).
var runtimeProducts = map[string]string{
	"node": "node", "nodejs": "node",
	"python": "python",
	"ruby":   "ruby",
	"php":    "php",
	"golang": "", "go": "",
}

// runtimePackage is the component of tool at version v, or nil where v
// names no release.
func runtimePackage(tool, v, loc string) *extractor.Package {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if v == "" || v[0] < '0' || v[0] > '9' || strings.ContainsAny(v, " \t/") {
		return nil
	}
	tool = strings.ToLower(strings.TrimSpace(tool))
	if tool == "" || strings.ContainsAny(tool, ":/ \t") {
		return nil // a mise backend's package ("npm:prettier", "aqua:owner/repo"): its registry's, not a runtime
	}
	p := &extractor.Package{Name: tool, Version: v, PURLType: purl.TypeGeneric, Location: extractor.LocationFromPath(loc)}
	if product, ok := runtimeProducts[tool]; ok {
		p.Name = product
		if product == "" {
			p.Name, p.PURLType = "stdlib", purl.TypeGolang
		}
	}
	return p
}

// runtimeTools wraps scalibr's .nvmrc, .node-version, .tool-versions and
// mise readers: their packages become runtimePackage's.
type runtimeTools struct{ filesystem.Extractor }

// Extract implements filesystem.Extractor.
func (r runtimeTools) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, err := r.Extractor.Extract(ctx, in)
	if err != nil {
		return inv, err
	}
	var pkgs []*extractor.Package
	for _, p := range inv.Packages {
		if rp := runtimePackage(p.Name, p.Version, in.Path); rp != nil {
			pkgs = append(pkgs, rp)
		}
	}
	inv.Packages = pkgs
	return inv, nil
}

// runtimeFiles is Sentinel's reader of the version files scalibr does not
// read.
var runtimeFiles = ownExtractor{name: "runtime/versionfiles", required: isRuntimeFile, read: readRuntimeFile}

// runtimeFileTools are the version files read here and the runtime each
// pins.
var runtimeFileTools = map[string]string{".python-version": "python", ".ruby-version": "ruby", "runtime.txt": "python", ".go-version": "go"}

func isRuntimeFile(p string) bool { _, ok := runtimeFileTools[path.Base(p)]; return ok }

func readRuntimeFile(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	base := path.Base(in.Path)
	tool := runtimeFileTools[base]
	var pkgs []*extractor.Package
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		switch base {
		case ".ruby-version":
			line = strings.TrimPrefix(line, "ruby-") // rvm's "ruby-2.7.2"
		case "runtime.txt":
			v, ok := strings.CutPrefix(line, "python-") // Heroku's "python-3.11.4"
			if !ok {
				continue
			}
			line = v
		}
		if p := runtimePackage(tool, line, in.Path); p != nil {
			pkgs = append(pkgs, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("not a %s file: %w", base, err)
	}
	return pkgs, nil
}

// gemfileLock is scalibr's Gemfile.lock reader with the Ruby the lockfile
// records under RUBY VERSION ("ruby 3.2.2p53") as the runtime.
type gemfileLock struct{ filesystem.Extractor }

// Extract implements filesystem.Extractor.
func (e gemfileLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err != nil || b == nil {
		return inv, err
	}
	if p := runtimePackage("ruby", lockedRuby(b), in.Path); p != nil {
		inv.Packages = append(inv.Packages, p)
	}
	return inv, nil
}

// lockedRuby is the Ruby version of a Gemfile.lock's RUBY VERSION section
// without its patch level ("3.2.2p53" is 3.2.2), or "".
func lockedRuby(b []byte) string {
	_, rest, ok := bytes.Cut(b, []byte("\nRUBY VERSION\n"))
	if !ok {
		return ""
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 2 || f[0] != "ruby" {
		return ""
	}
	v := f[1]
	if i := strings.IndexByte(v, 'p'); i > 0 {
		v = v[:i]
	}
	return v
}
