package sbom

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/os/osrelease"
	rpmmeta "github.com/google/osv-scalibr/extractor/filesystem/os/rpm/metadata"
	"github.com/google/osv-scalibr/purl"
)

// Azure Linux's (CBL-Mariner's) distroless images keep no RPM database:
// the packages they were built from are listed, one a line, in
// var/lib/rpmmanifest/container-manifest-2, as `rpm -qa` prints them with
// the query format
//
//	name  version-release  install time  build time  vendor  epoch  size  arch  signature  source rpm
//
// separated by tabs, "(none)" for no epoch. scalibr reads RPM databases
// only; Sentinel reads the manifest, relative to the scanned root as the
// OS extractors claim their files, into the same RPM packages (their
// distribution from the image's os-release), so that an unpacked
// distroless image lists its packages as a full one does.

var rpmManifest = ownExtractor{name: "os/rpmmanifest", required: isRPMManifest, read: readRPMManifest}

func isRPMManifest(p string) bool { return p == "var/lib/rpmmanifest/container-manifest-2" }

func readRPMManifest(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	var osr map[string]string
	if in.FS != nil {
		osr, _ = osrelease.GetOSRelease(in.FS) // none: the packages have no distribution
	}
	var pkgs []*extractor.Package
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 8 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("line %d: %d tab-separated fields, want name, version-release, ..., arch (at least 8)", n, len(f))
		}
		m := &rpmmeta.Metadata{
			PackageName:  f[0],
			Vendor:       f[4],
			Architecture: f[7],
			OSName:       osr["NAME"],
			OSPrettyName: osr["PRETTY_NAME"],
			OSID:         osr["ID"],
			OSVersionID:  osr["VERSION_ID"],
			OSBuildID:    osr["BUILD_ID"],
		}
		if e, err := strconv.Atoi(f[5]); err == nil && e > 0 {
			m.Epoch = e
		}
		if len(f) >= 10 {
			m.SourceRPM = f[9]
		}
		pkgs = append(pkgs, &extractor.Package{Name: f[0], Version: f[1], PURLType: purl.TypeRPM, Metadata: m, Location: extractor.LocationFromPath(in.Path)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the manifest: %w", err)
	}
	return pkgs, nil
}
