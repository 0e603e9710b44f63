package sbom_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

var fixedNow = func() time.Time { return time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC) }

func mustBOMBytes(tb testing.TB, res *sbom.Result, root string) []byte {
	tb.Helper()
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{
		ToolVersion: "0.0.0-test",
		Host:        "build-host-01",
		Root:        root,
		Now:         fixedNow,
		Projects:    res.Projects,
	})
	b, err := sbom.Marshal(bom)
	if err != nil {
		tb.Fatalf("Marshal: %v", err)
	}
	return b
}

// TestBOMGolden pins the SBOM of one small case. Clock, host and tool version
// are injected, so nothing needs scrubbing. Regenerate with -update.
func TestBOMGolden(t *testing.T) {
	const name = "npm-v3-retirejs-chrome"
	res := mustExtract(t, filepath.Join(lockfiles, name))
	got := mustBOMBytes(t, res, "/src/retire.js/chrome/build")
	golden := filepath.Join("testdata", "golden", name+".cdx.json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := mustRead(t, golden)
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("SBOM of %s mismatch (-want +got), rerun with -update if intended:\n%s", name, diff)
	}
	if err := validation.Validate(got); err != nil {
		t.Errorf("golden SBOM does not validate: %v", err)
	}
}

// TestBOMEveryCase: the SBOM of every lockfile case, and of all of them
// together, validates against the official 1.5 schema, has one component per
// extracted component with purl as bom-ref, and is byte-identical when built
// twice.
func TestBOMEveryCase(t *testing.T) {
	dirs := []string{"."}
	for _, c := range lockCases {
		dirs = append(dirs, c.dir)
	}
	for _, d := range dirs {
		t.Run(strings.ReplaceAll(d, ".", "all"), func(t *testing.T) {
			res := mustExtract(t, filepath.Join(lockfiles, d))
			b1 := mustBOMBytes(t, res, d)
			if err := validation.Validate(b1); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			res2 := mustExtract(t, filepath.Join(lockfiles, d))
			if b2 := mustBOMBytes(t, res2, d); !bytes.Equal(b1, b2) {
				t.Error("two runs gave different bytes")
			}
			var doc struct {
				SpecVersion string `json:"specVersion"`
				Components  []struct {
					BOMRef     string `json:"bom-ref"`
					Purl       string `json:"purl"`
					Type       string `json:"type"`
					Properties []struct{ Name, Value string }
				} `json:"components"`
				Dependencies []struct {
					Ref       string   `json:"ref"`
					DependsOn []string `json:"dependsOn"`
				} `json:"dependencies"`
				Metadata struct {
					Component struct {
						BOMRef string `json:"bom-ref"`
					} `json:"component"`
				} `json:"metadata"`
			}
			if err := json.Unmarshal(b1, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.SpecVersion != "1.5" {
				t.Errorf("specVersion = %q, want 1.5", doc.SpecVersion)
			}
			// The components, then the projects other than the main one
			// (metadata.component) as applications.
			wantN := len(res.Components) + len(res.Projects)
			if res.MainProject() != nil {
				wantN--
			}
			if len(doc.Components) != wantN {
				t.Fatalf("%d components in SBOM, want %d extracted and %d projects", len(doc.Components), len(res.Components), len(res.Projects))
			}
			refs := map[string]bool{doc.Metadata.Component.BOMRef: true}
			for _, c := range doc.Components[len(res.Components):] {
				refs[c.BOMRef] = true
				if c.Type != "application" {
					t.Errorf("project %s has type %q", c.BOMRef, c.Type)
				}
			}
			for i, c := range doc.Components[:len(res.Components)] {
				if c.BOMRef != c.Purl || c.Purl != res.Components[i].Purl {
					t.Errorf("component %d: bom-ref %q purl %q, want %q", i, c.BOMRef, c.Purl, res.Components[i].Purl)
				}
				refs[c.BOMRef] = true
				locs := 0
				for _, p := range c.Properties {
					if p.Name == sbom.PropLocation {
						locs++
					}
				}
				if locs != len(res.Components[i].Locations) {
					t.Errorf("%s: %d location properties, want %d", c.Purl, locs, len(res.Components[i].Locations))
				}
			}
			for _, d := range doc.Dependencies {
				for _, r := range append([]string{d.Ref}, d.DependsOn...) {
					if !refs[r] {
						t.Errorf("dependency ref %q names no component", r)
					}
				}
			}
		})
	}
}

// TestValidateRejects: documents that break the 1.5 schema fail Validate.
func TestValidateRejects(t *testing.T) {
	res := mustExtract(t, filepath.Join(lockfiles, "npm-v2-endoflife-site"))
	good := mustBOMBytes(t, res, "site")
	if err := validation.Validate(good); err != nil {
		t.Fatalf("Validate(good) = %v", err)
	}
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	comp0 := func(m map[string]any) map[string]any { return m["components"].([]any)[0].(map[string]any) }
	tests := []struct {
		name string
		doc  []byte
	}{
		{"not_json", []byte("{")},
		{"empty_object", []byte("{}")},
		{"wrong_bom_format", edit(func(m map[string]any) { m["bomFormat"] = "SPDX" })},
		{"missing_spec_version", edit(func(m map[string]any) { delete(m, "specVersion") })},
		{"bad_serial", edit(func(m map[string]any) { m["serialNumber"] = "not-a-urn" })},
		{"bad_timestamp", edit(func(m map[string]any) { m["metadata"].(map[string]any)["timestamp"] = "yesterday" })},
		{"component_without_name", edit(func(m map[string]any) { delete(comp0(m), "name") })},
		{"component_bad_type", edit(func(m map[string]any) { comp0(m)["type"] = "gadget" })},
		{"unknown_top_level_field", edit(func(m map[string]any) { m["extra"] = true })},
		{"bad_rating_method", edit(func(m map[string]any) {
			m["vulnerabilities"] = []any{map[string]any{"id": "X", "ratings": []any{map[string]any{"method": "CVSSv9"}}}}
		})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := validation.Validate(tc.doc)
			if err == nil {
				t.Fatalf("Validate(%s) = nil, want an error", tc.name)
			}
			if !errors.Is(err, validation.ErrInvalidBOM) {
				t.Errorf("Validate(%s) = %v, want it to wrap ErrInvalidBOM", tc.name, err)
			}
		})
	}
}

// TestBOMMetadata checks the metadata the service reads back.
func TestBOMMetadata(t *testing.T) {
	res := mustExtract(t, filepath.Join(lockfiles, "cargo-ripgrep"))
	b := mustBOMBytes(t, res, "/src/ripgrep")
	var doc struct {
		SerialNumber string `json:"serialNumber"`
		Metadata     struct {
			Timestamp string `json:"timestamp"`
			Tools     struct {
				Components []struct{ Name, Version string } `json:"components"`
			} `json:"tools"`
			Component struct {
				Name string `json:"name"`
				Type string `json:"type"`
			} `json:"component"`
			Properties []struct{ Name, Value string } `json:"properties"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.SerialNumber, "urn:uuid:") {
		t.Errorf("serialNumber %q", doc.SerialNumber)
	}
	if doc.Metadata.Timestamp != "2026-11-21T22:19:05Z" {
		t.Errorf("timestamp %q", doc.Metadata.Timestamp)
	}
	if diff := cmp.Diff([]struct{ Name, Version string }{{"sentinel", "0.0.0-test"}}, doc.Metadata.Tools.Components); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if doc.Metadata.Component.Name != "ripgrep" || doc.Metadata.Component.Type != "application" {
		t.Errorf("metadata.component = %+v", doc.Metadata.Component)
	}
	wantProps := []struct{ Name, Value string }{{sbom.PropHost, "build-host-01"}, {sbom.PropRoot, "/src/ripgrep"}}
	if diff := cmp.Diff(wantProps, doc.Metadata.Properties); diff != "" {
		t.Errorf("metadata properties (-want +got):\n%s", diff)
	}
	// A different timestamp gives a different serial number.
	other := sbom.NewBOM(res.Components, sbom.BOMOptions{Now: func() time.Time { return fixedNow().Add(time.Second) }, Host: "build-host-01", Root: "/src/ripgrep"})
	if other.SerialNumber == doc.SerialNumber {
		t.Error("serial number does not depend on the timestamp")
	}
}

// TestBOMDeclaresLeaves: where a lockfile's graph was read, every package
// it lists is in the SBOM's dependencies, one that depends on nothing as
// an empty element (CycloneDX: such components "MUST be declared as empty
// elements within the graph"); the SBOM stays valid against the 1.5
// schema and reads back to the same graph. Without the graph's files,
// no empty element is written (unknown is not "none").
func TestBOMDeclaresLeaves(t *testing.T) {
	for _, dir := range []string{"npm-v3-retirejs-chrome", "cargo-ripgrep", "yarn-berry-reselect"} {
		t.Run(dir, func(t *testing.T) {
			res := mustExtract(t, filepath.Join(lockfiles, dir))
			if len(res.GraphFiles()) == 0 {
				t.Fatalf("no graph read in %s", dir)
			}
			bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Root: dir, Now: fixedNow, Projects: res.Projects, GraphFiles: res.GraphFiles()})
			b, err := sbom.Marshal(bom)
			if err != nil {
				t.Fatal(err)
			}
			if err := validation.Validate(b); err != nil {
				t.Fatalf("the SBOM is not valid CycloneDX 1.5: %v", err)
			}
			declared := map[string]bool{}
			for _, d := range *bom.Dependencies {
				declared[d.Ref] = true
			}
			leaves := 0
			for _, c := range res.Components {
				if !declared[c.Purl] {
					t.Errorf("%s is not declared in the dependency graph", c.Purl)
				}
				if len(c.DependsOn) == 0 {
					leaves++
				}
			}
			if leaves == 0 {
				t.Errorf("no package without dependencies in %s; the test needs one", dir)
			}
			back, err := sbom.ReadSBOM(b)
			if err != nil {
				t.Fatal(err)
			}
			for i := range back.Components {
				want := componentByPurl(t, res.Components, back.Components[i].Purl).DependsOn
				if diff := cmp.Diff(set(want), set(back.Components[i].DependsOn), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s dependsOn after reading back (-want +got):\n%s", back.Components[i].Purl, diff)
				}
			}

			unknown := sbom.NewBOM(res.Components, sbom.BOMOptions{Root: dir, Now: fixedNow, Projects: res.Projects})
			if unknown.Dependencies != nil {
				for _, d := range *unknown.Dependencies {
					if d.Dependencies == nil {
						t.Errorf("%s declared without dependencies though no graph file was given", d.Ref)
					}
				}
			}
		})
	}
}
