package purl_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/testing/purltest"
)

func TestToEcosystem(t *testing.T) {
	tests := []struct {
		purl                 string
		eco, name, version   string
		wantErr, unsupported bool
	}{
		{purl: "pkg:npm/lodash@4.17.15", eco: "npm", name: "lodash", version: "4.17.15"},
		{purl: "pkg:npm/%40angular/core@12.1.0", eco: "npm", name: "@angular/core", version: "12.1.0"},
		{purl: "pkg:pypi/Django_Rest.Framework@3.14.0", eco: "PyPI", name: "django-rest-framework", version: "3.14.0"},
		{purl: "pkg:golang/github.com/BurntSushi/toml@v1.6.0", eco: "Go", name: "github.com/burntsushi/toml", version: "v1.6.0"},
		{purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", eco: "Maven", name: "org.apache.logging.log4j:log4j-core", version: "2.14.1"},
		{purl: "pkg:cargo/hyper@0.10.1", eco: "crates.io", name: "hyper", version: "0.10.1"},
		{purl: "pkg:gem/rails@7.0.0", eco: "RubyGems", name: "rails", version: "7.0.0"},
		{purl: "pkg:nuget/Newtonsoft.Json@13.0.1", eco: "NuGet", name: "Newtonsoft.Json", version: "13.0.1"},
		{purl: "pkg:composer/drupal/core@8.5.0", eco: "Packagist", name: "drupal/core", version: "8.5.0"},
		{purl: "pkg:pub/http@0.13.0", eco: "Pub", name: "http", version: "0.13.0"},
		{purl: "pkg:hex/plug@1.0.0", eco: "Hex", name: "plug", version: "1.0.0"},
		{purl: "pkg:swift/github.com/apple/swift-nio-http2@1.27.0", eco: "SwiftURL", name: "github.com/apple/swift-nio-http2", version: "1.27.0"},
		{purl: "pkg:deb/debian/openssl@1.1.0l-1~deb9u5?distro=debian-9", eco: "Debian:9", name: "openssl", version: "1.1.0l-1~deb9u5"},
		{purl: "pkg:deb/debian/curl@7.74.0-1.3?distro=bullseye", eco: "Debian:11", name: "curl", version: "7.74.0-1.3"},
		{purl: "pkg:deb/debian/curl@7.74.0-1.3", eco: "Debian", name: "curl", version: "7.74.0-1.3"},
		{purl: "pkg:deb/ubuntu/openssl@3.0.2-0ubuntu1.10?distro=ubuntu-22.04", eco: "Ubuntu:22.04", name: "openssl", version: "3.0.2-0ubuntu1.10"},
		{purl: "pkg:apk/alpine/musl@1.2.4-r2?distro=alpine-3.18.4", eco: "Alpine:v3.18", name: "musl", version: "1.2.4-r2"},
		{purl: "pkg:rpm/redhat/openssl@3.0.7", eco: "Red Hat", name: "openssl", version: "3.0.7"},
		{purl: "pkg:bitnami/joomla@3.9.22", eco: "Bitnami", name: "joomla", version: "3.9.22"},
		// The Go standard library as OSV names it, as cyclonedx-gomod
		// writes it (std, its tag), and with Syft's or a tag's version.
		{purl: "pkg:golang/stdlib@1.22.0", eco: "Go", name: "stdlib", version: "1.22.0"},
		{purl: "pkg:golang/std@go1.22.0", eco: "Go", name: "stdlib", version: "1.22.0"},
		{purl: "pkg:golang/stdlib@go1.21.13", eco: "Go", name: "stdlib", version: "1.21.13"},
		{purl: "pkg:golang/example.com/std@go1.0.0", eco: "Go", name: "example.com/std", version: "go1.0.0"},
		// Distribution packages are named by their source package, as
		// OSV's Debian and Alpine records are keyed: Sentinel's OS
		// extraction writes source= (dpkg) and origin= (apk), Syft upstream=.
		{purl: "pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&distro=debian-12&source=openssl", eco: "Debian:12", name: "openssl", version: "3.0.11-1~deb12u2"},
		{purl: "pkg:deb/debian/cpp@4:12.2.0-3?arch=amd64&distro=debian-12&source=gcc-defaults&source_version=1.203", eco: "Debian:12", name: "gcc-defaults", version: "1.203"},
		{purl: "pkg:deb/debian/libc6@2.36-9+deb12u4?arch=amd64&upstream=glibc&distro=debian-12", eco: "Debian:12", name: "glibc", version: "2.36-9+deb12u4"},
		{purl: "pkg:deb/debian/libgcc-s1@12.2.0-14?arch=amd64&upstream=gcc-12%4012.2.0-14&distro=debian-12", eco: "Debian:12", name: "gcc-12", version: "12.2.0-14"},
		{purl: "pkg:apk/alpine/musl-utils@1.2.4-r0?arch=x86_64&distro=alpine-3.18.0&origin=musl", eco: "Alpine:v3.18", name: "musl", version: "1.2.4-r0"},
		{purl: "pkg:rpm/rocky/openssl-libs@3.0.7-27.el9?arch=x86_64&distro=rocky-9.4&epoch=1", eco: "Rocky Linux:9", name: "openssl-libs", version: "1:3.0.7-27.el9"},
		// Trivy writes a Debian or Ubuntu epoch as a qualifier too.
		{purl: "pkg:deb/ubuntu/openssh@8.9p1-3ubuntu0.10?arch=amd64&distro=ubuntu-22.04&epoch=1", eco: "Ubuntu:22.04", name: "openssh", version: "1:8.9p1-3ubuntu0.10"},
		{purl: "pkg:rpm/rhel/bash@5.1.8-6.el9?arch=x86_64&distro=rhel-9.2", eco: "Red Hat:9", name: "bash", version: "5.1.8-6.el9"},
		// OS extraction's namespaces for SUSE, openSUSE and Azure Linux,
		// with the release their OSV records name.
		{purl: "pkg:rpm/suse/openssl-1_1@1.1.1d-11.20.1?arch=x86_64&distro=sles-15.3", eco: "SUSE:15 SP3", name: "openssl-1_1", version: "1.1.1d-11.20.1"},
		{purl: "pkg:rpm/suse/bash@4.4-19.6.1?distro=sles-15", eco: "SUSE:15", name: "bash", version: "4.4-19.6.1"},
		{purl: "pkg:rpm/opensuse-leap/bash@4.4-19.6.1?distro=opensuse-leap-15.5", eco: "openSUSE:Leap 15.5", name: "bash", version: "4.4-19.6.1"},
		{purl: "pkg:rpm/opensuse-tumbleweed/bash@5.2.26-13.1?distro=opensuse-tumbleweed-20240101", eco: "openSUSE:Tumbleweed", name: "bash", version: "5.2.26-13.1"},
		{purl: "pkg:rpm/azurelinux/bash@5.2.15-1.azl3?distro=azurelinux-3.0", eco: "Azure Linux:3.0", name: "bash", version: "5.2.15-1.azl3"},
		{purl: "pkg:generic/openssl@1.1.1", wantErr: true, unsupported: true},
		{purl: "pkg:maven/log4j-core@2.14.1", wantErr: true, unsupported: true},
		{purl: "not a purl", wantErr: true},
	}
	for _, tt := range tests {
		eco, name, version, err := purl.ToEcosystem(tt.purl)
		if tt.wantErr {
			if err == nil {
				t.Errorf("ToEcosystem(%q) error = nil, want error", tt.purl)
			} else if got := errors.Is(err, purl.ErrUnsupported); got != tt.unsupported {
				t.Errorf("ToEcosystem(%q) errors.Is(ErrUnsupported) = %v, want %v (%v)", tt.purl, got, tt.unsupported, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ToEcosystem(%q): %v", tt.purl, err)
			continue
		}
		if diff := cmp.Diff([3]string{tt.eco, tt.name, tt.version}, [3]string{eco, name, version}); diff != "" {
			t.Errorf("ToEcosystem(%q) mismatch (-want +got):\n%s", tt.purl, diff)
		}
	}
}

func TestFromEcosystem(t *testing.T) {
	tests := []struct{ eco, name, version, want string }{
		{"npm", "@angular/core", "12.1.0", "pkg:npm/%40angular/core@12.1.0"},
		{"npm", "lodash", "", "pkg:npm/lodash"},
		{"PyPI", "Django_Rest.Framework", "3.14.0", "pkg:pypi/django-rest-framework@3.14.0"},
		{"Go", "golang.org/x/net", "0.17.0", "pkg:golang/golang.org/x/net@0.17.0"},
		{"Maven", "org.apache.logging.log4j:log4j-core", "2.14.1", "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"},
		{"Maven", "no-colon", "1", ""},
		{"crates.io", "hyper", "0.10.1", "pkg:cargo/hyper@0.10.1"},
		{"Packagist", "drupal/core", "8.5.0", "pkg:composer/drupal/core@8.5.0"},
		{"Packagist:https://packages.drupal.org/8", "drupal/views", "7.x-3.0", "pkg:composer/drupal/views@7.x-3.0"},
		{"Debian:9", "openssl", "1.1.0l-1~deb9u6", "pkg:deb/debian/openssl@1.1.0l-1~deb9u6?distro=debian-9"},
		{"Ubuntu:22.04:LTS", "openssl", "3.0.2", "pkg:deb/ubuntu/openssl@3.0.2?distro=ubuntu-22.04"},
		{"Alpine:v3.18", "musl", "1.2.4-r3", "pkg:apk/alpine/musl@1.2.4-r3?distro=alpine-3.18"},
		{"SwiftURL", "github.com/apple/swift-nio-http2", "1.28.0", "pkg:swift/github.com/apple/swift-nio-http2@1.28.0"},
		{"OSS-Fuzz", "unrar", "5.6.1.2", ""},
	}
	for _, tt := range tests {
		if got := purltest.FromEcosystem(tt.eco, tt.name, tt.version); got != tt.want {
			t.Errorf("FromEcosystem(%q, %q, %q) = %q, want %q", tt.eco, tt.name, tt.version, got, tt.want)
		}
	}
}

// TestRoundTrip: purltest.FromEcosystem then ToEcosystem gives the same ecosystem,
// the normalised name and the version.
func TestRoundTrip(t *testing.T) {
	for _, c := range [][3]string{
		{"npm", "@babel/core", "7.0.0"}, {"PyPI", "requests", "2.31.0"}, {"Go", "github.com/lib/pq", "v1.10.9"},
		{"Maven", "com.fasterxml.jackson.core:jackson-databind", "2.13.4.2"}, {"crates.io", "tokio", "1.0.0"},
		{"RubyGems", "rack", "2.2.3"}, {"NuGet", "newtonsoft.json", "13.0.1"}, {"Packagist", "laravel/framework", "9.0.0"},
		{"Pub", "http", "1.0.0"}, {"Hex", "plug", "1.14.0"}, {"Debian:12", "openssl", "3.0.11-1~deb12u2"}, {"Alpine:v3.19", "musl", "1.2.4_git20230717-r5"},
	} {
		p := purltest.FromEcosystem(c[0], c[1], c[2])
		eco, name, version, err := purl.ToEcosystem(p)
		if err != nil {
			t.Errorf("ToEcosystem(FromEcosystem(%q)) = %q: %v", c, p, err)
			continue
		}
		want := [3]string{c[0], purl.NormalizeName(c[0], c[1]), c[2]}
		got := [3]string{eco, purl.NormalizeName(eco, name), version}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip of %q via %q mismatch (-want +got):\n%s", c, p, diff)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	tests := []struct{ eco, name, want string }{
		{"PyPI", "Django_Rest.Framework", "django-rest-framework"},
		{"PyPI", "zope..interface", "zope-interface"},
		{"PyPI", "requests", "requests"},
		{"crates.io", "Serde_JSON", "serde-json"},
		{"NuGet", "Newtonsoft.Json", "newtonsoft.json"},
		{"Packagist", "Drupal/Core", "drupal/core"},
		{"Go", "github.com/BurntSushi/toml", "github.com/burntsushi/toml"},
		{"Debian:11", "OpenSSL", "openssl"},
		{"Maven", "org.Apache:Foo", "org.Apache:Foo"},
		{"npm", "@Scope/Name", "@Scope/Name"},
		{"RubyGems", "ActiveSupport", "ActiveSupport"},
	}
	for _, tt := range tests {
		if got := purl.NormalizeName(tt.eco, tt.name); got != tt.want {
			t.Errorf("NormalizeName(%q, %q) = %q, want %q", tt.eco, tt.name, got, tt.want)
		}
	}
}

// TestResolveAgreesWithParse holds Resolve's fast path to the general
// parser followed by FromPackageURL, on the purls of the other tests and
// on forms near the fast path's edges.
func TestResolveAgreesWithParse(t *testing.T) {
	purls := []string{
		"pkg:npm/lodash@4.17.15", "pkg:npm/@angular/core@12.1.0", "pkg:npm/%40angular/core@12.1.0",
		"pkg:npm/@angular/core", "pkg:npm/@angular", "pkg:npm/@1.0", "pkg:npm/lodash", "pkg:npm/a@b@c",
		"pkg:pypi/Django_Rest.Framework@3.14.0", "pkg:pypi/django@4.2", "pkg:pypi/zope.interface@5.0",
		"pkg:golang/github.com/BurntSushi/toml@v1.6.0", "pkg:golang/stdlib@1.21.0", "pkg:golang/golang.org/x/net",
		"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", "pkg:maven/log4j-core@2.14.1", "pkg:maven/a/b/c@1",
		"pkg:cargo/hyper@0.10.1", "pkg:gem/rails@7.0.0", "pkg:nuget/Newtonsoft.Json@13.0.1",
		"pkg:composer/Drupal/Core@8.5.0", "pkg:pub/http@0.13.0", "pkg:hex/plug@1.0.0",
		"pkg:npm//lodash@1", "pkg:npm/a//b@1", "pkg:npm/a/@1", "pkg:npm/@s/n@", "pkg:NPM/lodash@1",
		"pkg:/npm/lodash@1", "PKG:npm/lodash@1", "pkg:npm/lodash@1?x=y", "pkg:npm/lodash@1#sub",
		"pkg:npm/lo dash@1", "pkg:npm/lodash@1.0.0+build", "pkg:deb/debian/curl@7.74.0-1.3?distro=bullseye",
		"pkg:generic/openssl@1.1.1", "pkg:npm/", "pkg:npm", "pkg:", "not a purl", "pkg:maven/@x/y@1",
	}
	for _, p := range purls {
		u, eco, name, err := purl.Resolve(p)
		wu, werr := purl.Parse(p)
		var weco, wname string
		if werr == nil {
			weco, wname, werr = purl.FromPackageURL(wu)
		}
		if (err == nil) != (werr == nil) || (err != nil && errors.Is(err, purl.ErrUnsupported) != errors.Is(werr, purl.ErrUnsupported)) {
			t.Errorf("Resolve(%q) error = %v, Parse+FromPackageURL error = %v", p, err, werr)
			continue
		}
		if err != nil && !errors.Is(err, purl.ErrUnsupported) {
			continue
		}
		if diff := cmp.Diff([2]string{weco, wname}, [2]string{eco, name}); diff != "" {
			t.Errorf("Resolve(%q) ecosystem, name mismatch (-want +got):\n%s", p, diff)
		}
		if diff := cmp.Diff(wu, u); diff != "" {
			t.Errorf("Resolve(%q) purl mismatch (-want +got):\n%s", p, diff)
		}
	}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"pkg:npm/@angular/core@12.1.0", "pkg:pypi/Django_Rest@1", "pkg:golang/A/B@v1", "pkg:maven/g/a@1", "pkg:npm/%40babel/core@7.20.2", "pkg:npm/%40scope@1", "pkg:bitnami/wordpress@6.1.9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		u, eco, name, err := purl.Resolve(p)
		wu, werr := purl.Parse(p)
		var weco, wname string
		if werr == nil {
			weco, wname, werr = purl.FromPackageURL(wu)
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("Resolve(%q) error = %v, want %v", p, err, werr)
		}
		if err == nil && (eco != weco || name != wname || !cmp.Equal(u, wu)) {
			t.Fatalf("Resolve(%q) = %+v %q %q, want %+v %q %q", p, u, eco, name, wu, weco, wname)
		}
	})
}

// TestRepairEncodedSlash: a slash of the namespace percent-encoded, as
// older Syft releases write npm scopes and Go module paths, reads as a
// slash; the version and qualifiers are left as they are.
func TestRepairEncodedSlash(t *testing.T) {
	for _, tc := range []struct{ in, want, ns, name string }{
		{"pkg:npm/@babel%2Ftraverse@7.17.3", "pkg:npm/@babel/traverse@7.17.3", "@babel", "traverse"},
		{"pkg:npm/@babel%2ftraverse", "pkg:npm/@babel/traverse", "@babel", "traverse"},
		{"pkg:golang/github.com%2Fpkg%2Ferrors@v0.9.1", "pkg:golang/github.com/pkg/errors@v0.9.1", "github.com/pkg", "errors"},
		{"pkg:npm/@babel%2Ftraverse@7.17.3?vcs_url=a%2Fb", "pkg:npm/@babel/traverse@7.17.3?vcs_url=a%2Fb", "@babel", "traverse"},
		{"pkg:npm/lodash@4.17.21", "pkg:npm/lodash@4.17.21", "", "lodash"},
		{"pkg:generic/x@1%2F2", "pkg:generic/x@1%2F2", "", "x"},
	} {
		if got := purl.Repair(tc.in); got != tc.want {
			t.Errorf("Repair(%q) = %q, want %q", tc.in, got, tc.want)
		}
		u, err := purl.Parse(tc.in)
		if err != nil || u.Namespace != tc.ns || u.Name != tc.name {
			t.Errorf("Parse(%q) = %q %q, %v; want %q %q", tc.in, u.Namespace, u.Name, err, tc.ns, tc.name)
		}
	}
}
