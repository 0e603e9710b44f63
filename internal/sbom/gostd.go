package sbom

import (
	"fmt"
	"go/version"
	"strings"

	"golang.org/x/mod/modfile"

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

// Property names of the standard library component.
const (
	PropGoToolchain = "sentinel:go_toolchain"
	PropGoMinimum   = "sentinel:go_minimum"
)

// goStdlib applies the decision above to the components of one go.mod and
// returns a warning when the standard library's version is unknown.
func goStdlib(p string, data []byte, comps []sentinel.Component) ([]sentinel.Component, *FileError) {
	f, err := parseGoMod(p, data)
	if err != nil {
		return comps, nil
	}
	for i := range comps {
		c := &comps[i]
		if c.Name != "stdlib" {
			continue
		}
		if f.Toolchain != nil && f.Toolchain.Name != "" {
			c.Properties = map[string]string{PropGoToolchain: f.Toolchain.Name}
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
