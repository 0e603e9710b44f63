package sbom

import (
	"bufio"
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
)

// The Ruby gems installed on a host or in an image.
//
// RubyGems records each gem it installs as a specification in its gem
// home: <GEM_HOME>/specifications/<name>-<version>.gemspec, and the gems
// that ship inside Ruby itself (uri, net-imap, rexml, openssl...) under
// specifications/default/. Those records are read with scalibr's gemspec
// extractor; a project's own <name>.gemspec (the gem being developed) is
// not a dependency and is not read. A project's gems come from its
// Gemfile.lock; bundler's vendor/bundle, where a deployment installs them,
// is read only without one (hiddenRecords). The records dpkg, apk or RPM
// installed (Debian's ruby packages) are left to their package, as
// programs are.

// rubyInstalled is scalibr's gemspec extractor on installed gems'
// records only, adding the licenses each declares.
type rubyInstalled struct {
	filesystem.Extractor
}

// FileRequired implements filesystem.Extractor.
func (rubyInstalled) FileRequired(api filesystem.FileAPI) bool {
	return isInstalledGemspec(api.Path())
}

// installedRecord implements installedReader.
func (rubyInstalled) installedRecord() {}

// isInstalledGemspec reports whether p is a gem's record in a gem home:
// .../specifications/<file>.gemspec or .../specifications/default/<file>.gemspec.
func isInstalledGemspec(p string) bool {
	if !strings.HasSuffix(p, ".gemspec") || strings.HasPrefix(path.Base(p), ".") {
		return false
	}
	dir := path.Dir(p)
	if path.Base(dir) == "default" {
		dir = path.Dir(dir)
	}
	return path.Base(dir) == "specifications"
}

// Extract implements filesystem.Extractor.
func (e rubyInstalled) Extract(ctx context.Context, input *filesystem.ScanInput) (inventory.Inventory, error) {
	return extractLicensed(ctx, e.Extractor, input, gemspecLicenses)
}

// gemspecLicense is the license line RubyGems writes in a specification:
// s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze], or s.license = "MIT".
var (
	gemspecLicense = lazyRegexp(`^\s*\w+\.licenses?\s*=\s*(.+)$`)
	gemspecQuoted  = lazyRegexp(`"([^"\\]{1,100})"|'([^'\\]{1,100})'`)
)

// gemspecLicenses reads the licenses a gem's specification declares.
func gemspecLicenses(data []byte) []string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		m := gemspecLicense().FindSubmatch(sc.Bytes())
		if m == nil {
			continue
		}
		var out []string
		for _, q := range gemspecQuoted().FindAllSubmatch(m[1], 16) {
			s := string(q[1]) + string(q[2])
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
