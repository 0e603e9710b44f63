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
// wraps the error with the input, and reads a purl as Repair does.
func Parse(s string) (packageurl.PackageURL, error) {
	p, err := packageurl.FromString(s)
	if err == nil && !strings.Contains(p.Name, "/") {
		return p, nil
	}
	if r := Repair(s); r != s {
		if q, err := packageurl.FromString(r); err == nil {
			return q, nil
		}
	}
	if err != nil {
		return p, fmt.Errorf("parse purl %q: %w", s, err)
	}
	return p, nil
}

// Repair returns s with the slashes of its namespace and name written as
// slashes: older Syft releases percent-encode the slash of an npm scope or
// a Go module path ("pkg:npm/@babel%2Ftraverse@7.17.3",
// "pkg:golang/github.com%2Fpkg%2Ferrors@v0.9.1"), which the purl
// specification reads as one name with a slash in it, and which
// packageurl-go refuses for a scope. Any other s is returned as it is.
func Repair(s string) string {
	end := len(s)
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		end = i
	}
	path := s[:end]
	if at := strings.LastIndexByte(path, '@'); at > strings.LastIndexByte(path, '/') && at > len("pkg:") {
		// The version, which may hold anything.
		if slash := strings.Index(path, "/"); slash >= 0 && at > slash+1 {
			path = path[:at]
		}
	}
	if !strings.Contains(path, "%2F") && !strings.Contains(path, "%2f") {
		return s
	}
	fixed := strings.NewReplacer("%2F", "/", "%2f", "/").Replace(path)
	return fixed + s[len(path):]
}

// ToEcosystem maps a purl to the OSV ecosystem, the package name as OSV
// writes it, and the version OSV compares (Version). For deb and apk purls
// with a distro qualifier the ecosystem carries the release ("Debian:11",
// "Ubuntu:22.04", "Alpine:v3.18"); without one it is the bare ecosystem. A
// distribution's binary package is named by its source package (the
// source, origin or upstream qualifier), as OSV's Debian and Alpine records
// are keyed. The error wraps the parse error, or ErrUnsupported when the
// type has no OSV ecosystem.
func ToEcosystem(p string) (eco, name, version string, err error) {
	u, err := Parse(p)
	if err != nil {
		return "", "", "", err
	}
	eco, name, err = FromPackageURL(u)
	if err != nil {
		return "", "", "", err
	}
	return eco, name, Version(u), nil
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
		if goStdlib(ns, n) {
			return "Go", "stdlib", nil
		}
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
	case "bioconductor":
		return "Bioconductor", n, nil
	case "hackage":
		return "Hackage", n, nil
	case "conan":
		if q := u.Qualifiers.Map(); q["user"] != "" || q["channel"] != "" {
			// A package of another remote (pkga/0.1@user/testing): not
			// ConanCenter's package of that name.
			return "", "", fmt.Errorf("conan purl %q names a user or channel, not a ConanCenter package: %w", u.String(), ErrUnsupported)
		}
		return "ConanCenter", n, nil
	case "julia":
		return "Julia", n, nil
	case "githubactions":
		return "GitHub Actions", joinSlash(), nil
	case "deb":
		q := u.Qualifiers.Map()
		switch ns {
		case "debian":
			return withRelease("Debian", debianRelease(q["distro"])), sourceName(n, q), nil
		case "ubuntu":
			return withRelease("Ubuntu", ubuntuRelease(q["distro"])), sourceName(n, q), nil
		}
	case "apk":
		q := u.Qualifiers.Map()
		switch ns {
		case "alpine":
			return withRelease("Alpine", alpineRelease(q["distro"])), sourceName(n, q), nil
		case "wolfi":
			return "Wolfi", sourceName(n, q), nil
		case "chainguard":
			return "Chainguard", sourceName(n, q), nil
		}
	case "rpm":
		if eco, ok := rpmEcosystems[ns]; ok {
			return withRelease(eco, rpmRelease(eco, ns, u.Qualifiers.Map()["distro"])), n, nil
		}
	}
	return "", "", fmt.Errorf("purl type %q namespace %q: %w", u.Type, ns, ErrUnsupported)
}

// rpmEcosystems maps an rpm purl namespace (the vendor, or the os-release
// ID that OS extraction writes) to its OSV ecosystem.
var rpmEcosystems = map[string]string{
	"redhat":              "Red Hat",
	"rhel":                "Red Hat",
	"almalinux":           "AlmaLinux",
	"rocky":               "Rocky Linux",
	"opensuse":            "openSUSE",
	"opensuse-leap":       "openSUSE",
	"opensuse-tumbleweed": "openSUSE",
	"suse":                "SUSE",
	"sles":                "SUSE",
	"mageia":              "Mageia",
	"openeuler":           "openEuler",
	"azurelinux":          "Azure Linux",
	"mariner":             "Azure Linux",
}

// rpmRelease turns a distro qualifier ("rhel-8.4", "sles-15.3",
// "opensuse-leap-15.5") into the release part of the OSV ecosystem the
// distribution's records name, "" when it is not known (the package then
// meets every release's records):
//   - Red Hat, AlmaLinux, Rocky Linux: the major release ("Red Hat:
//     enterprise_linux:8::appstream", "AlmaLinux:9"; intel matches the
//     release against each ":"-part);
//   - SUSE: "15 SP3", the end of its product names ("SUSE:Linux
//     Enterprise Server 15 SP3"); openSUSE: "Leap 15.5" or "Tumbleweed";
//   - Azure Linux: the version, "3.0"; others: none.
func rpmRelease(eco, ns, distro string) string {
	v := strings.TrimPrefix(distro, ns+"-")
	if i := strings.LastIndexByte(v, '-'); i >= 0 {
		v = v[i+1:]
	}
	m := releaseNumber.FindStringSubmatch(v)
	switch eco {
	case "Red Hat", "AlmaLinux", "Rocky Linux":
		if m != nil {
			return m[1]
		}
	case "SUSE":
		switch {
		case m == nil:
		case m[2] == "" || m[2] == "0":
			return m[1]
		default:
			return m[1] + " SP" + m[2]
		}
	case "openSUSE":
		switch {
		case ns == "opensuse-tumbleweed":
			return "Tumbleweed"
		case ns == "opensuse-leap" && m != nil && m[2] != "":
			return "Leap " + m[1] + "." + m[2]
		}
	case "Azure Linux":
		if m != nil && m[2] != "" {
			return m[1] + "." + m[2]
		}
	}
	return ""
}

// sourceName is the name OSV keys a distribution package by: its source
// package. OS extraction writes it as "source" (dpkg) or "origin" (apk);
// Syft writes "upstream", possibly as "name@version". Without any, the
// binary package's name is also its source's.
func sourceName(n string, q map[string]string) string {
	for _, k := range []string{"source", "origin", "upstream"} {
		if s := q[k]; s != "" {
			if i := strings.IndexByte(s, '@'); i > 0 {
				s = s[:i]
			}
			return s
		}
	}
	return n
}

// Version returns the version OSV compares for u: a Debian package's
// source version (the source_version qualifier, or the version in Syft's
// "upstream=name@version") where it differs from the binary package's, an
// rpm or deb version with its epoch qualifier ("1:3.0.7-27.el9"), the Go standard library's
// release without the "go" its tags carry ("go1.22.0" is 1.22.0); else
// u.Version.
func Version(u packageurl.PackageURL) string {
	switch u.Type {
	case "golang":
		if goStdlib(u.Namespace, u.Name) {
			return strings.TrimPrefix(u.Version, "go")
		}
		return u.Version
	case "deb", "rpm":
	default:
		return u.Version
	}
	q := u.Qualifiers.Map()
	switch u.Type {
	case "deb":
		if v := q["source_version"]; v != "" {
			return v
		}
		if up := q["upstream"]; up != "" {
			if _, v, ok := strings.Cut(up, "@"); ok && v != "" {
				return v
			}
		}
		// Trivy writes a Debian epoch as a qualifier, as rpm purls do.
		if e := q["epoch"]; e != "" && e != "0" && u.Version != "" && !strings.Contains(u.Version, ":") {
			return e + ":" + u.Version
		}
	case "rpm":
		if e := q["epoch"]; e != "" && e != "0" && u.Version != "" && !strings.Contains(u.Version, ":") {
			return e + ":" + u.Version
		}
	}
	return u.Version
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
		"Wolfi", "Chainguard", "Bitnami", "SwiftURL", "GitHub Actions":
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

// Resolve is Parse followed by FromPackageURL: the parsed purl, its OSV
// ecosystem and its OSV package name. The error wraps the parse error, or
// ErrUnsupported when the purl parses but has no OSV ecosystem (u is then
// valid). The match path calls it once per component, so the common forms
// ("pkg:npm/%40scope/name@1.2.3" aside, any purl of the registry types below
// without qualifiers, subpath or percent-escapes) are read without the
// general parser and without allocating; TestResolveAgreesWithParse holds
// that path to Parse and FromPackageURL.
func Resolve(s string) (u packageurl.PackageURL, eco, name string, err error) {
	if u, eco, name, ok := resolveFast(s); ok {
		return u, eco, name, nil
	}
	u, err = Parse(s)
	if err != nil {
		return u, "", "", err
	}
	eco, name, err = FromPackageURL(u)
	return u, eco, name, err
}

// goStdlib reports whether a golang purl's namespace and name are the
// standard library's: OSV's "stdlib", which Syft and Sentinel write, or
// "std", as cyclonedx-gomod does.
func goStdlib(ns, n string) bool {
	return ns == "" && (n == "stdlib" || n == "std")
}

// fastTypes are the purl types resolveFast reads, with their OSV ecosystem:
// registry types whose only adjustments are lowercasing (golang, composer)
// or PyPI's name normalisation.
var fastTypes = map[string]string{
	"npm": "npm", "pypi": "PyPI", "golang": "Go", "maven": "Maven", "cargo": "crates.io",
	"gem": "RubyGems", "nuget": "NuGet", "composer": "Packagist", "pub": "Pub", "hex": "Hex",
	"bitnami": "Bitnami",
}

// resolveFast reads "pkg:<type>/<namespace segments>/<name>@<version>" made
// only of characters that need no decoding, for the types in fastTypes. ok
// is false for anything else, which the general parser then reads.
func resolveFast(s string) (u packageurl.PackageURL, eco, name string, ok bool) {
	if len(s) < 6 || s[:4] != "pkg:" {
		return u, "", "", false
	}
	rest := s[4:]
	// A scoped npm package's "@" is percent-encoded in its namespace,
	// as purl writers do ("pkg:npm/%40babel/core@7.20.2").
	if strings.HasPrefix(rest, "npm/%40") {
		rest = "npm/@" + rest[len("npm/%40"):]
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '?' || c == '#' || c == '%' || c <= ' ' || c >= 0x7f:
			return u, "", "", false
		}
	}
	slash := strings.IndexByte(rest, '/')
	if slash <= 0 {
		return u, "", "", false
	}
	typ := rest[:slash]
	eco, known := fastTypes[typ]
	if !known {
		return u, "", "", false
	}
	rest = rest[slash+1:]
	if rest == "" || rest[0] == '/' || (rest[0] == '@' && (typ != "npm" || !strings.Contains(rest, "/"))) {
		return u, "", "", false
	}
	var version string
	if at := strings.LastIndexByte(rest, '@'); at > 0 {
		rest, version = rest[:at], rest[at+1:]
	} else if at == 0 {
		return u, "", "", false // "@scope" alone: the parser's error
	}
	if typ == "golang" || typ == "composer" || typ == "bitnami" {
		rest = strings.ToLower(rest) // no allocation when already lowercase
	}
	var ns, n string
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		ns, n = rest[:i], rest[i+1:]
	} else {
		n = rest
	}
	if n == "" || strings.Contains(ns, "//") || strings.HasSuffix(ns, "/") || strings.HasPrefix(ns, "/") {
		return u, "", "", false // empty segments: the parser drops them
	}
	switch typ {
	case "pypi":
		n = strings.ToLower(strings.ReplaceAll(n, "_", "-"))
	case "maven":
		if ns == "" {
			return u, "", "", false // ErrUnsupported, with its message
		}
	case "bitnami":
		if ns != "" {
			return u, "", "", false // a namespace keeps its case in the parser
		}
	case "golang":
		if goStdlib(ns, n) {
			return u, "", "", false // its name and version are OSV's (Version)
		}
	}
	u = packageurl.PackageURL{Type: typ, Namespace: ns, Name: n, Version: version, Qualifiers: packageurl.Qualifiers{}}
	switch typ {
	case "npm", "golang", "composer":
		name = rest // ns + "/" + n, without allocating
	case "pypi":
		name = NormalizeName("PyPI", n)
	case "maven":
		name = ns + ":" + n
	default:
		name = n
	}
	return u, eco, name, true
}
