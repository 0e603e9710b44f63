// Package purltest builds purls from OSV (ecosystem, name, version)
// triples, for tests and benchmarks that derive components from advisory
// records. Production code goes the other way only (purl.ToEcosystem).
package purltest

import (
	"regexp"
	"strings"

	"github.com/package-url/packageurl-go"

	"github.com/sentinel-sca/sentinel/internal/purl"
)

var releaseNumber = regexp.MustCompile(`^(\d+)(?:\.(\d+))?`)

// release2 keeps the first parts of a dotted release ("22.04:LTS" ->
// "22.04"), "" when it is not one.
func release2(r string, parts int) string {
	m := releaseNumber.FindStringSubmatch(r)
	if m == nil || (parts == 2 && m[2] == "") {
		return ""
	}
	if parts == 2 {
		return m[1] + "." + m[2]
	}
	return m[1]
}

// rpmNamespaces are the rpm purl namespaces of OSV's rpm ecosystems.
var rpmNamespaces = map[string]string{
	"Red Hat": "redhat", "AlmaLinux": "almalinux", "Rocky Linux": "rocky", "openSUSE": "opensuse",
	"SUSE": "suse", "Mageia": "mageia", "openEuler": "openeuler",
}

// FromEcosystem builds a purl from an OSV ecosystem (with or without a
// ":release" suffix), an OSV package name and a version (may be empty). It
// returns "" when the ecosystem has no purl type (OSS-Fuzz, Linux, GIT ...)
// or the name cannot be expressed (a Maven name without a colon).
func FromEcosystem(eco, name, version string) string {
	base, release, _ := strings.Cut(eco, ":")
	var typ, ns, n string
	var quals packageurl.Qualifiers
	splitLast := func() {
		if i := strings.LastIndex(name, "/"); i >= 0 {
			ns, n = name[:i], name[i+1:]
		} else {
			n = name
		}
	}
	switch base {
	case "npm":
		typ = "npm"
		splitLast()
	case "PyPI":
		typ, n = "pypi", purl.NormalizeName("PyPI", name)
	case "Go":
		typ = "golang"
		splitLast()
	case "Maven":
		g, a, ok := strings.Cut(name, ":")
		if !ok {
			return ""
		}
		typ, ns, n = "maven", g, a
	case "crates.io":
		typ, n = "cargo", name
	case "RubyGems":
		typ, n = "gem", name
	case "NuGet":
		typ, n = "nuget", name
	case "Packagist":
		typ = "composer"
		splitLast()
	case "Pub":
		typ, n = "pub", name
	case "Hex":
		typ, n = "hex", name
	case "SwiftURL":
		typ = "swift"
		splitLast()
	case "Bitnami":
		typ, n = "bitnami", name
	case "CRAN":
		typ, n = "cran", name
	case "Hackage":
		typ, n = "hackage", name
	case "ConanCenter":
		typ, n = "conan", name
	case "Julia":
		typ, n = "julia", name
	case "GitHub Actions":
		typ = "githubactions"
		splitLast()
	case "Debian":
		typ, ns, n = "deb", "debian", name
		if release != "" {
			quals = packageurl.Qualifiers{{Key: "distro", Value: "debian-" + release}}
		}
	case "Ubuntu":
		typ, ns, n = "deb", "ubuntu", name
		if r := release2(strings.TrimPrefix(release, "Pro:"), 2); r != "" {
			quals = packageurl.Qualifiers{{Key: "distro", Value: "ubuntu-" + r}}
		}
	case "Alpine":
		typ, ns, n = "apk", "alpine", name
		if r := release2(strings.TrimPrefix(release, "v"), 2); r != "" {
			quals = packageurl.Qualifiers{{Key: "distro", Value: "alpine-" + r}}
		}
	case "Wolfi":
		typ, ns, n = "apk", "wolfi", name
	case "Chainguard":
		typ, ns, n = "apk", "chainguard", name
	default:
		if rns, ok := rpmNamespaces[base]; ok {
			typ, ns, n = "rpm", rns, name
		}
	}
	if typ == "" || n == "" {
		return ""
	}
	return packageurl.NewPackageURL(typ, ns, n, version, quals, "").ToString()
}
