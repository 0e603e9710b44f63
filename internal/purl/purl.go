// Package purl translates between package URLs (purls) and the
// (ecosystem, name, version) triples that OSV advisories use, and normalises
// package names the way each ecosystem compares them.
//
// Every entry point names a component by purl; the advisory data names it by
// OSV ecosystem and package name. This package is the one place that knows how
// the two line up, so the SBOM extractor, the inventory and the intel index
// agree on what "the same package" means.
//
// Parsing uses github.com/package-url/packageurl-go. Note that it lowercases
// the namespace and name of some types (golang, composer, deb, apk, ...);
// NormalizeName lowercases the OSV side of those ecosystems too, so both
// sides meet.
package purl

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/package-url/packageurl-go"
)

// ErrUnsupported is returned (wrapped) by ToEcosystem for a purl that parses
// but whose type has no OSV ecosystem (pkg:github, pkg:generic, pkg:docker,
// ...). Callers that only want matches treat it as "no advisories".
var ErrUnsupported = errors.New("purl type has no OSV ecosystem")

// Parse parses a purl. It is a thin wrapper over packageurl.FromString that
// wraps the error with the input.
func Parse(s string) (packageurl.PackageURL, error) {
	p, err := packageurl.FromString(s)
	if err != nil {
		return p, fmt.Errorf("parse purl %q: %w", s, err)
	}
	return p, nil
}

// ToEcosystem maps a purl to the OSV ecosystem, the package name as OSV
// writes it, and the version. For deb and apk purls with a distro qualifier
// the ecosystem carries the release ("Debian:11", "Ubuntu:22.04",
// "Alpine:v3.18"); without one it is the bare ecosystem. The error wraps the
// parse error, or ErrUnsupported when the type has no OSV ecosystem.
func ToEcosystem(p string) (eco, name, version string, err error) {
	u, err := Parse(p)
	if err != nil {
		return "", "", "", err
	}
	eco, name, err = FromPackageURL(u)
	if err != nil {
		return "", "", "", err
	}
	return eco, name, u.Version, nil
}

// FromPackageURL is ToEcosystem for an already parsed purl; it returns the
// ecosystem and the OSV package name.
func FromPackageURL(u packageurl.PackageURL) (eco, name string, err error) {
	ns, n := u.Namespace, u.Name
	joinSlash := func() string {
		if ns == "" {
			return n
		}
		return ns + "/" + n
	}
	switch u.Type {
	case "npm":
		return "npm", joinSlash(), nil
	case "pypi":
		return "PyPI", NormalizeName("PyPI", n), nil
	case "golang":
		return "Go", joinSlash(), nil
	case "maven":
		if ns == "" {
			return "", "", fmt.Errorf("maven purl %q without group: %w", u.String(), ErrUnsupported)
		}
		return "Maven", ns + ":" + n, nil
	case "cargo":
		return "crates.io", n, nil
	case "gem":
		return "RubyGems", n, nil
	case "nuget":
		return "NuGet", n, nil
	case "composer":
		return "Packagist", joinSlash(), nil
	case "pub":
		return "Pub", n, nil
	case "hex":
		return "Hex", n, nil
	case "swift":
		return "SwiftURL", joinSlash(), nil
	case "bitnami":
		return "Bitnami", n, nil
	case "cran":
		return "CRAN", n, nil
	case "hackage":
		return "Hackage", n, nil
	case "conan":
		return "ConanCenter", n, nil
	case "julia":
		return "Julia", n, nil
	case "githubactions":
		return "GitHub Actions", joinSlash(), nil
	case "deb":
		switch ns {
		case "debian":
			return withRelease("Debian", debianRelease(u.Qualifiers.Map()["distro"])), n, nil
		case "ubuntu":
			return withRelease("Ubuntu", ubuntuRelease(u.Qualifiers.Map()["distro"])), n, nil
		}
	case "apk":
		switch ns {
		case "alpine":
			return withRelease("Alpine", alpineRelease(u.Qualifiers.Map()["distro"])), n, nil
		case "wolfi":
			return "Wolfi", n, nil
		case "chainguard":
			return "Chainguard", n, nil
		}
	case "rpm":
		if eco, ok := rpmEcosystems[ns]; ok {
			return eco, n, nil
		}
	}
	return "", "", fmt.Errorf("purl type %q namespace %q: %w", u.Type, ns, ErrUnsupported)
}

var rpmEcosystems = map[string]string{
	"redhat":    "Red Hat",
	"almalinux": "AlmaLinux",
	"rocky":     "Rocky Linux",
	"opensuse":  "openSUSE",
	"suse":      "SUSE",
	"mageia":    "Mageia",
	"openeuler": "openEuler",
}

func withRelease(eco, release string) string {
	if release == "" {
		return eco
	}
	return eco + ":" + release
}

var (
	debianCodenames = map[string]string{
		"hamm": "2.0", "slink": "2.1", "potato": "2.2", "woody": "3.0", "sarge": "3.1",
		"etch": "4", "lenny": "5", "squeeze": "6", "wheezy": "7", "jessie": "8",
		"stretch": "9", "buster": "10", "bullseye": "11", "bookworm": "12",
		"trixie": "13", "forky": "14",
	}
	ubuntuCodenames = map[string]string{
		"trusty": "14.04", "xenial": "16.04", "bionic": "18.04", "focal": "20.04",
		"jammy": "22.04", "noble": "24.04", "oracular": "24.10", "plucky": "25.04",
		"questing": "25.10", "resolute": "26.04",
	}
	releaseNumber = regexp.MustCompile(`^(\d+)(?:\.(\d+))?`)
)

// debianRelease turns a distro qualifier ("debian-11", "debian-11.5",
// "bullseye", "11") into the major release OSV uses ("11").
func debianRelease(distro string) string {
	d := strings.TrimPrefix(strings.ToLower(distro), "debian-")
	if r, ok := debianCodenames[d]; ok {
		return r
	}
	if m := releaseNumber.FindStringSubmatch(d); m != nil {
		return m[1]
	}
	return ""
}

// ubuntuRelease turns "ubuntu-22.04", "22.04" or "jammy" into "22.04".
func ubuntuRelease(distro string) string {
	d := strings.TrimPrefix(strings.ToLower(distro), "ubuntu-")
	if r, ok := ubuntuCodenames[d]; ok {
		return r
	}
	if m := releaseNumber.FindStringSubmatch(d); m != nil && m[2] != "" {
		return m[1] + "." + m[2]
	}
	return ""
}

// alpineRelease turns "alpine-3.18.4", "3.18" or "v3.18" into "v3.18".
func alpineRelease(distro string) string {
	d := strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(distro), "alpine-"), "v")
	if m := releaseNumber.FindStringSubmatch(d); m != nil && m[2] != "" {
		return "v" + m[1] + "." + m[2]
	}
	return ""
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
		typ, n = "pypi", NormalizeName("PyPI", name)
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
		if r := ubuntuRelease(strings.TrimPrefix(release, "Pro:")); r != "" {
			quals = packageurl.Qualifiers{{Key: "distro", Value: "ubuntu-" + r}}
		}
	case "Alpine":
		typ, ns, n = "apk", "alpine", name
		if r := alpineRelease(release); r != "" {
			quals = packageurl.Qualifiers{{Key: "distro", Value: "alpine-" + strings.TrimPrefix(r, "v")}}
		}
	case "Wolfi":
		typ, ns, n = "apk", "wolfi", name
	case "Chainguard":
		typ, ns, n = "apk", "chainguard", name
	default:
		for k, v := range rpmEcosystems {
			if v == base {
				typ, ns, n = "rpm", k, name
			}
		}
	}
	if typ == "" || n == "" {
		return ""
	}
	return packageurl.NewPackageURL(typ, ns, n, version, quals, "").ToString()
}

// NormalizeName returns the form of an OSV package name under which two names
// denote the same package in that ecosystem: PEP 503 for PyPI; lowercase for
// the case-insensitive registries (NuGet, Packagist, crates.io, Pub, Hex) and
// for the ecosystems packageurl-go lowercases (Go, Debian, Ubuntu, Alpine);
// crates.io also treats '-' and '_' alike. Other names are returned as they
// are. eco may carry a ":release" suffix.
func NormalizeName(eco, name string) string {
	base, _, _ := strings.Cut(eco, ":")
	switch base {
	case "PyPI":
		return pep503(name)
	case "crates.io":
		return strings.ReplaceAll(strings.ToLower(name), "_", "-")
	case "NuGet", "Packagist", "Pub", "Hex", "Go", "Debian", "Ubuntu", "Alpine",
		"Wolfi", "Chainguard", "Bitnami", "SwiftURL":
		return strings.ToLower(name)
	}
	return name
}

// BaseEcosystem strips the ":release" suffix: "Debian:11" -> "Debian",
// "Packagist:https://packages.drupal.org/8" -> "Packagist".
func BaseEcosystem(eco string) string {
	base, _, _ := strings.Cut(eco, ":")
	return base
}

// pep503 lowercases name and replaces each run of '-', '_' and '.' with one
// '-'. It returns name itself when it is already normal.
func pep503(name string) string {
	normal := true
	prevSep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		sep := c == '-' || c == '_' || c == '.'
		if ('A' <= c && c <= 'Z') || (sep && (c != '-' || prevSep)) {
			normal = false
			break
		}
		prevSep = sep
	}
	if normal {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	prevSep = false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			if !prevSep {
				b.WriteByte('-')
			}
			prevSep = true
			continue
		}
		prevSep = false
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
