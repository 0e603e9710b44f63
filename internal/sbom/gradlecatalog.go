package sbom

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/purl"
)

// A Gradle version catalog (gradle/libs.versions.toml) declares the
// versions of a build's libraries: what a Gradle project without
// lockfiles says about its dependencies. scalibr's reader wants every
// [versions] entry a string, so one rich version ({ strictly = "3.0" })
// made it refuse the file, and it took a range for a version; this reader
// keeps the file and reads each version as Gradle selects it. A project
// whose root has Gradle lockfiles is read from them, which hold the
// versions resolved, transitive ones included.

type gradleCatalog struct {
	filesystem.Extractor // scalibr's, for its name and the files it claims
}

// Extract implements filesystem.Extractor.
func (g gradleCatalog) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	if in.FS != nil {
		root := path.Dir(in.Path)
		if path.Base(root) == "gradle" {
			root = path.Dir(root)
		}
		if anyFile(in.FS, root, "gradle.lockfile", "settings-gradle.lockfile", "buildscript-gradle.lockfile") {
			return inventory.Inventory{}, nil // the lockfiles are read instead
		}
	}
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	libs, err := readGradleCatalog(b)
	if err != nil {
		return inventory.Inventory{}, err
	}
	pkgs := make([]*extractor.Package, 0, len(libs))
	for _, l := range libs {
		pkgs = append(pkgs, &extractor.Package{Name: l.group + ":" + l.artifact, Version: l.version, PURLType: purl.TypeMaven,
			Metadata: &javalockfile.Metadata{GroupID: l.group, ArtifactID: l.artifact}, Location: extractor.LocationFromPath(in.Path)})
	}
	return inventory.Inventory{Packages: pkgs}, nil
}

// catalogLib is one [libraries] entry.
type catalogLib struct{ group, artifact, version string }

// readGradleCatalog reads the [libraries] of a version catalog, in name
// order: "group:artifact:version" strings, and tables with module (or
// group and name) and a version written inline, as version.ref into
// [versions], or as a rich version. [bundles] and [plugins] name no
// library of their own.
func readGradleCatalog(b []byte) ([]catalogLib, error) {
	var doc catalogDoc
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, fmt.Errorf("not a TOML version catalog: %w", err)
	}
	boot := doc.springBoot()
	var out []catalogLib
	for _, key := range slices.Sorted(maps.Keys(doc.Libraries)) {
		var l catalogLib
		switch v := doc.Libraries[key].(type) {
		case string:
			parts := strings.Split(v, ":")
			if len(parts) < 2 || len(parts) > 3 {
				continue
			}
			l.group, l.artifact = parts[0], parts[1]
			if len(parts) == 3 {
				l.version = gradleVersion(parts[2])
			}
		case map[string]any:
			if m, ok := v["module"].(string); ok {
				g, a, ok := strings.Cut(m, ":")
				if !ok {
					continue
				}
				l.group, l.artifact = g, a
			} else {
				l.group, _ = v["group"].(string)
				l.artifact, _ = v["name"].(string)
			}
			l.version = catalogVersion(v["version"], doc.Versions)
		}
		if l.group = strings.TrimSpace(l.group); l.group == "" || strings.TrimSpace(l.artifact) == "" {
			continue
		}
		l.artifact = strings.TrimSpace(l.artifact)
		if l.version == "" && l.group == "org.springframework.boot" {
			l.version = boot // the plugin's dependency management sets it
		}
		out = append(out, l)
	}
	return out, nil
}

// catalogDoc is what Sentinel reads of a version catalog.
type catalogDoc struct {
	Versions  map[string]any `toml:"versions"`
	Libraries map[string]any `toml:"libraries"`
	Plugins   map[string]any `toml:"plugins"`
}

// springBoot is the version of the Spring Boot plugin the catalog
// declares ("" when none): the version of Spring Boot's own modules
// (org.springframework.boot:*), which a catalog lists without one. A
// plugin is "id:version", or a table with id and version.
func (doc *catalogDoc) springBoot() string {
	for _, key := range slices.Sorted(maps.Keys(doc.Plugins)) {
		switch v := doc.Plugins[key].(type) {
		case string:
			if id, ver, ok := strings.Cut(v, ":"); ok && strings.TrimSpace(id) == "org.springframework.boot" {
				return gradleVersion(ver)
			}
		case map[string]any:
			if id, _ := v["id"].(string); strings.TrimSpace(id) == "org.springframework.boot" {
				return catalogVersion(v["version"], doc.Versions)
			}
		}
	}
	return ""
}

// catalogSpringBoot is springBoot of the catalog b; "" when b is not one.
func catalogSpringBoot(b []byte) string {
	var doc catalogDoc
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return ""
	}
	return doc.springBoot()
}

// catalogVersion is the version a library entry's version field selects:
// a string; a table with ref (into [versions], whose entry may itself be
// rich); or a rich version, of which Gradle takes prefer, else an exact
// strictly or require. A range, a dynamic version ("1.+") or an unknown
// ref selects none that can be known from the file.
func catalogVersion(raw any, versions map[string]any) string {
	switch v := raw.(type) {
	case string:
		return gradleVersion(v)
	case map[string]any:
		if ref, ok := v["ref"].(string); ok {
			if r, ok := versions[ref]; ok {
				if _, nested := r.(map[string]any); nested || isString(r) {
					return catalogVersion(r, nil)
				}
			}
			return ""
		}
		for _, k := range []string{"prefer", "strictly", "require"} {
			if s, ok := v[k].(string); ok {
				if ver := gradleVersion(s); ver != "" {
					return ver
				}
			}
		}
	}
	return ""
}

func isString(v any) bool { _, ok := v.(string); return ok }

// gradleVersion is s when it names one version: not a range ("[1.0,2.0)",
// "]1.0, 2.0["), not dynamic ("1.+", "latest.release"), not empty.
func gradleVersion(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "[]()+,") || strings.HasPrefix(s, "latest.") {
		return ""
	}
	return s
}
