package sbom

import (
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// Conan recipes' requirements.
//
// A C or C++ project that uses Conan rarely commits a conan.lock; its
// conanfile.txt ([requires] zlib/1.2.11) or conanfile.py (requires =
// "zlib/1.2.11", self.requires("zlib/1.2.11")) names each package at the
// version Conan installs: a reference without a range is exact. This
// reader takes those references (a range, "[>=1.0 <2.0]", names no version
// and is left without one); tool, build and test requirements are
// development-only. A project with conan.lock beside it is read from the
// lockfile, which holds the transitive packages too.

var conanfile = ownExtractor{name: "cpp/conanfile", required: isConanfile, read: readConanfile}

func isConanfile(p string) bool {
	b := path.Base(p)
	return b == "conanfile.txt" || b == "conanfile.py"
}

var (
	// A reference: name/version, then @user/channel and #revision.
	conanRef = lazyRegexp(`^([a-zA-Z0-9_][a-zA-Z0-9_.+-]*)/([^@#\s/]+)(?:@([^#\s]*))?(?:#\S*)?$`)
	// self.requires("ref") and its tool, build and test kinds.
	conanCall = lazyRegexp(`\bself\.(requires|tool_requires|build_requires|test_requires)\s*\(\s*["']([^"']+)["']`)
	// requires = "ref", ("ref", "ref") or ["ref", ...], across lines to
	// the closing bracket.
	conanAttr = lazyRegexp(`(?m)^\s*(requires|tool_requires|build_requires|test_requires)\s*=\s*([\[(]?)`)
	conanStr  = lazyRegexp(`["']([^"'\n]+)["']`)
)

func readConanfile(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if in.FS != nil && anyFile(in.FS, path.Dir(in.Path), "conan.lock") {
		return nil, nil // the lockfile is read instead
	}
	type req struct {
		ref string
		dev bool
	}
	var reqs []req
	kindDev := func(kind string) bool { return kind != "requires" }
	if path.Base(in.Path) == "conanfile.txt" {
		section := ""
		for line := range strings.Lines(string(b)) {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
				continue
			}
			if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
				section = line[1 : len(line)-1]
				continue
			}
			switch section {
			case "requires", "tool_requires", "build_requires", "test_requires":
				if line != "" {
					reqs = append(reqs, req{line, kindDev(section)})
				}
			}
		}
	} else {
		code := stripHashComments(b)
		for _, m := range conanCall().FindAllSubmatch(code, -1) {
			reqs = append(reqs, req{string(m[2]), kindDev(string(m[1]))})
		}
		for _, loc := range conanAttr().FindAllSubmatchIndex(code, -1) {
			kind := string(code[loc[2]:loc[3]])
			rest := code[loc[1]:]
			end := strings.IndexByte(string(rest), '\n')
			if loc[5] > loc[4] { // a bracket: to its close
				end = strings.IndexAny(string(rest), ")]")
			}
			if end < 0 {
				end = len(rest)
			}
			for _, s := range conanStr().FindAllSubmatch(rest[:end], -1) {
				reqs = append(reqs, req{string(s[1]), kindDev(kind)})
			}
		}
	}
	var out []*extractor.Package
	for _, r := range reqs {
		m := conanRef().FindStringSubmatch(strings.TrimSpace(r.ref))
		if m == nil {
			if name, _, ok := strings.Cut(r.ref, "/"); ok && conanRef().MatchString(name+"/x") {
				out = append(out, conanPackage(in.Path, name, "", "", r.dev)) // a range: no version
			}
			continue
		}
		version := m[2]
		if strings.HasPrefix(version, "[") || strings.ContainsAny(version, "*$") {
			version = ""
		}
		out = append(out, conanPackage(in.Path, m[1], version, m[3], r.dev))
	}
	return out, nil
}

// conanPackage is a requirement's package; userChannel is what its
// reference has after "@" ("my_user/my_channel", "_/_" for none): a
// recipe of a company's own remote, not ConanCenter's, as conan.lock's
// references keep it (conanLock).
func conanPackage(p, name, version, userChannel string, dev bool) *extractor.Package {
	m := &conanMeta{groups: []string{}}
	if dev {
		m.groups = []string{"dev"}
	}
	user, channel, _ := strings.Cut(userChannel, "/")
	if user != "_" {
		m.user = user
	}
	if channel != "_" {
		m.channel = channel
	}
	return &extractor.Package{Name: name, Version: version, PURLType: purl.TypeConan,
		Location: extractor.LocationFromPath(p), Metadata: m}
}

var hashComment = lazyRegexp(`(?m)^\s*#.*$|\s#[^"'\n]*$`)

// stripHashComments removes the comment lines and trailing comments of a
// language whose comments start with "#" (Python, Elixir): not a "#"
// inside a string on its line, nor Elixir's "#{...}" in a string.
func stripHashComments(b []byte) []byte { return hashComment().ReplaceAll(b, nil) }
