package sbom

import (
	"fmt"
	"go/version"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	sentinel "github.com/sentinel-sca/sentinel"
)

// The Go standard library.
//
// scalibr lists the standard library of a go.mod as pkg:golang/stdlib at the
// version of its toolchain directive, or else of its go directive. The go
// directive is not the toolchain: it is the minimum Go version the module
// needs ("go 1.12" is met by Go 1.12.0 and by Go 1.26), so reading it as the
// standard library's version reports every advisory fixed in a later patch
// release of that minor version, for code that is most likely built with a
// newer Go.
//
// Sentinel's decision:
//   - with a toolchain directive ("toolchain go1.22.5"), the standard
//     library is pkg:golang/stdlib@1.22.5, property sentinel:go_toolchain;
//   - with only a go directive, the standard library is listed without a
//     version (pkg:golang/stdlib), with the directive in the property
//     sentinel:go_minimum, and a warning: an unknown patch level is not
//     matched against advisories. The built binary (or `go version -m`)
//     knows the real toolchain; the go.mod does not.
//
// Only the main modules' go.mod files are read: vendor/ and the module
// cache's "<module>@v<version>" directories are not walked.
//
// A module that a go.work above it uses is built in workspace mode: the
// go.work's toolchain directive is the toolchain, and its replace
// directives win over the module's own (goWorkspace).

// Property names of the standard library component.
const (
	PropGoToolchain = "sentinel:go_toolchain"
	PropGoMinimum   = "sentinel:go_minimum"
)

// goStdlib applies the decision above to the components of one go.mod and
// returns a warning when the standard library's version is unknown.
func goStdlib(p string, data []byte, comps []sentinel.Component, work *modfile.WorkFile) ([]sentinel.Component, *FileError) {
	f, err := parseGoMod(p, data)
	if err != nil {
		return comps, nil
	}
	toolchain, fromWork := f.Toolchain, false
	if work != nil {
		comps = workReplaces(work, comps)
		if work.Toolchain != nil && work.Toolchain.Name != "" {
			toolchain, fromWork = work.Toolchain, true
		}
	}
	for i := range comps {
		c := &comps[i]
		if c.Name != "stdlib" {
			continue
		}
		if toolchain != nil && toolchain.Name != "" {
			if v, ok := strings.CutPrefix(toolchain.Name, "go"); ok && fromWork {
				c.Version, c.Purl = v, "pkg:golang/stdlib@"+v // scalibr read the go.mod's
			}
			c.Properties = map[string]string{PropGoToolchain: toolchain.Name}
			return comps, nil
		}
		if f.Go == nil {
			return comps, nil
		}
		c.Version = ""
		c.Purl = "pkg:golang/stdlib"
		c.Properties = map[string]string{PropGoMinimum: f.Go.Version}
		return comps, &FileError{Path: p, Extractor: "go/gomod", Reason: fmt.Sprintf(
			"no toolchain directive: go %s is the minimum Go version, not the toolchain that builds the module; "+
				"the standard library is listed without a version and not matched against advisories", f.Go.Version)}
	}
	return comps, nil
}

// maxGoVersion returns the higher of two go directive versions.
func maxGoVersion(a, b string) string {
	if version.Compare("go"+strings.TrimPrefix(a, "go"), "go"+strings.TrimPrefix(b, "go")) >= 0 {
		return a
	}
	return b
}

// parseGoMod parses a main module's go.mod (toolchain and replace
// directives included), falling back to the lax parse that keeps only what
// a dependency's go.mod may say when the strict one refuses the file.
func parseGoMod(p string, data []byte) (*modfile.File, error) {
	f, err := modfile.Parse(p, data, nil)
	if err == nil {
		return f, nil
	}
	return modfile.ParseLax(p, data, nil)
}

// goWorkspace returns the go.work of the nearest directory at or above
// the go.mod at p that uses the module, or nil.
func goWorkspace(fsys fs.FS, p string) *modfile.WorkFile {
	if fsys == nil {
		return nil
	}
	mod := path.Dir(p)
	for dir := mod; ; dir = path.Dir(dir) {
		name := path.Join(dir, "go.work")
		if b, err := fs.ReadFile(fsys, name); err == nil {
			if wf, err := modfile.ParseWork(name, b, nil); err == nil {
				for _, u := range wf.Use {
					if path.Join(dir, filepath.ToSlash(u.Path)) == mod {
						return wf
					}
				}
			}
			return nil // the nearest go.work decides, used or not
		}
		if dir == "." {
			return nil
		}
	}
}

// workReplaces applies a go.work's replace directives to one module's
// components: a module replaced by another version or module is that one;
// one replaced by a directory is the workspace's own code, no component.
func workReplaces(wf *modfile.WorkFile, comps []sentinel.Component) []sentinel.Component {
	if len(wf.Replace) == 0 {
		return comps
	}
	out := comps[:0]
	for _, c := range comps {
		for _, r := range wf.Replace {
			if r.Old.Path != c.Name || (r.Old.Version != "" && strings.TrimPrefix(r.Old.Version, "v") != c.Version) {
				continue
			}
			if r.New.Version == "" {
				c.Name = "" // a directory
				break
			}
			c.Name, c.Version = r.New.Path, strings.TrimPrefix(r.New.Version, "v")
			ns, n := path.Split(c.Name)
			c.Purl = projectPurl("golang", strings.TrimSuffix(ns, "/"), n, c.Version)
			break
		}
		if c.Name != "" {
			out = append(out, c)
		}
	}
	return out
}

// goSelected keeps, of a module the file gives at several versions (a
// go.mod that requires it twice, go.sum's older versions of the module
// graph before Go 1.17), the highest: the one minimal version selection
// builds with. A version that is not semantic is kept as it is.
func goSelected(comps []sentinel.Component) []sentinel.Component {
	best := map[string]string{}
	for _, c := range comps {
		v := "v" + c.Version
		if !semver.IsValid(v) {
			continue
		}
		if b, ok := best[c.Name]; !ok || semver.Compare(v, b) > 0 {
			best[c.Name] = v
		}
	}
	return slices.DeleteFunc(comps, func(c sentinel.Component) bool {
		b, ok := best[c.Name]
		return ok && semver.IsValid("v"+c.Version) && "v"+c.Version != b
	})
}
