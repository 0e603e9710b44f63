package sbom

import (
	"strconv"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	apkmeta "github.com/google/osv-scalibr/extractor/filesystem/os/apk/metadata"
	dpkgmeta "github.com/google/osv-scalibr/extractor/filesystem/os/dpkg/metadata"
	rpmmeta "github.com/google/osv-scalibr/extractor/filesystem/os/rpm/metadata"
	packageurl "github.com/package-url/packageurl-go"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// OS packages.
//
// dpkg (Debian, Ubuntu; /var/lib/dpkg/status and status.d), apk (Alpine;
// /lib/apk/db/installed) and RPM (the Berkeley DB, NDB and SQLite
// databases) are read by scalibr's OS extractors, which claim those paths
// relative to the scanned root only: they find a host's packages when the
// root is "/" (or an unpacked image's root filesystem), and nothing in a
// source tree. Their purls are written here rather than by scalibr, in the
// form the advisory side reads (internal/purl):
//
//	pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&distro=debian-12&source=openssl
//	pkg:apk/alpine/musl-utils@1.2.4-r0?arch=x86_64&distro=alpine-3.18.0&origin=musl
//	pkg:rpm/rocky/openssl-libs@3.0.7-27.el9?arch=x86_64&distro=rocky-9.4&epoch=1
//
// The distro qualifier is "<os-release ID>-<VERSION_ID>" (the codename when
// there is no VERSION_ID, as on Debian testing). OSV's Debian and Alpine
// records are keyed by source package, so the binary package's source
// (dpkg "Source:", apk "o:" origin) goes in the purl as well, with the
// source version when it differs from the binary's (source_version).

// osComponent converts a package of an OS extractor, or reports false when
// p is not one.
func osComponent(p *extractor.Package, loc string) (sentinel.Component, bool) {
	q := map[string]string{}
	var typ, ns, eco string
	switch m := p.Metadata.(type) {
	case *dpkgmeta.Metadata:
		typ, ns = "deb", strings.ToLower(m.OSID)
		if ns == "" {
			ns = "debian"
		}
		q["distro"] = osDistro(ns, m.OSVersionID, m.OSVersionCodename)
		q["arch"] = m.Architecture
		if m.SourceName != "" && m.SourceName != p.Name {
			q["source"] = m.SourceName
		}
		if m.SourceVersion != "" && m.SourceVersion != p.Version {
			q["source_version"] = m.SourceVersion
		}
		if p.PURLType == "opkg" {
			typ = "opkg"
		}
	case *apkmeta.Metadata:
		typ, ns = "apk", strings.ToLower(m.OSID)
		if ns == "" {
			ns = "alpine"
		}
		q["distro"] = osDistro(ns, m.OSVersionID, "")
		q["arch"] = m.Architecture
		if m.OriginName != "" && m.OriginName != p.Name {
			q["origin"] = m.OriginName
		}
	case *rpmmeta.Metadata:
		typ, ns = "rpm", m.ToNamespace()
		q["distro"] = osDistro(strings.ToLower(m.OSID), m.OSVersionID, "")
		q["arch"] = m.Architecture
		if m.Epoch > 0 {
			q["epoch"] = strconv.Itoa(m.Epoch)
		}
		if m.SourceRPM != "" {
			q["upstream"] = m.SourceRPM
		}
	default:
		return sentinel.Component{}, false
	}
	for k, v := range q {
		if v == "" {
			delete(q, k)
		}
	}
	u := packageurl.NewPackageURL(typ, ns, p.Name, p.Version, packageurl.QualifiersFromMap(q), "")
	pstr := u.ToString()
	if e, _, _, err := purl.ToEcosystem(pstr); err == nil {
		eco = e
	}
	return sentinel.Component{
		Purl:      pstr,
		Ecosystem: eco,
		Name:      p.Name,
		Version:   p.Version,
		Type:      "library",
		Locations: []string{loc},
		Licenses:  p.Licenses,
	}, true
}

// osDistro is the distro qualifier: "debian-12", "ubuntu-22.04",
// "alpine-3.18.0"; the codename when there is no version.
func osDistro(id, version, codename string) string {
	switch {
	case id == "":
		return ""
	case version != "":
		return id + "-" + version
	case codename != "":
		return id + "-" + codename
	}
	return ""
}
