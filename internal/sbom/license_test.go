package sbom_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

// TestLicensesFromLockfiles: the licenses package-lock.json (v2) and
// composer.lock record are the components' licenses; the expected map is
// read from the files.
func TestLicensesFromLockfiles(t *testing.T) {
	t.Run("package-lock", func(t *testing.T) {
		dir := filepath.Join(lockfiles, "npm-v2-dependabot-npm-helpers")
		var lock struct {
			Packages map[string]struct {
				Name, Version string
				License       string
			}
		}
		mustJSON(t, filepath.Join(dir, "package-lock.json"), &lock)
		want := map[string]string{}
		for key, p := range lock.Packages {
			i := strings.LastIndex(key, "node_modules/")
			if i < 0 || p.License == "" {
				continue
			}
			name := key[i+len("node_modules/"):]
			want[name+"@"+p.Version] = p.License
		}
		got := map[string]string{}
		for _, c := range mustExtract(t, dir).Components {
			if len(c.Licenses) > 0 {
				got[c.Name+"@"+c.Version] = strings.Join(c.Licenses, " | ")
			}
		}
		if len(want) < 400 {
			t.Fatalf("the lockfile records %d licenses", len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("licenses mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("composer.lock", func(t *testing.T) {
		dir := filepath.Join(lockfiles, "composer-dependabot-helpers-v2")
		var lock struct {
			Packages []struct {
				Name, Version string
				License       []string
			} `json:"packages"`
			PackagesDev []struct {
				Name, Version string
				License       []string
			} `json:"packages-dev"`
		}
		mustJSON(t, filepath.Join(dir, "composer.lock"), &lock)
		want := map[string]string{}
		for _, p := range append(lock.Packages, lock.PackagesDev...) {
			want[p.Name+"@"+p.Version] = strings.Join(p.License, " | ")
		}
		got := map[string]string{}
		for _, c := range mustExtract(t, dir).Components {
			got[c.Name+"@"+c.Version] = strings.Join(c.Licenses, " | ")
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("licenses mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestLicensesInCycloneDX: an SPDX id is written as a license id (spelt as
// the SPDX list spells it), a compound expression as one expression, and
// anything else as a license name; the documents validate.
func TestLicensesInCycloneDX(t *testing.T) {
	type lic struct {
		License *struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"license"`
		Expression string `json:"expression"`
	}
	forms := func(ls []lic) []string {
		var out []string
		for _, l := range ls {
			switch {
			case l.Expression != "":
				out = append(out, "expression:"+l.Expression)
			case l.License.ID != "":
				out = append(out, "id:"+l.License.ID)
			default:
				out = append(out, "name:"+l.License.Name)
			}
		}
		return out
	}
	for _, tc := range []struct {
		dir  string
		want map[string][]string // bom-ref -> license forms
	}{
		{"npm-v2-dependabot-npm-helpers", map[string][]string{
			"pkg:npm/%40dependabot/helper":         nil, // no license in its package.json
			"pkg:npm/%40humanwhocodes/retry@0.4.2": {"id:Apache-2.0"},
			"pkg:npm/rc@1.2.8":                     {"expression:(BSD-2-Clause OR MIT OR Apache-2.0)"},
		}},
		{"cargo-ripgrep", map[string][]string{
			"pkg:cargo/ripgrep@15.2.0": {"expression:Unlicense OR MIT"}, // Cargo.toml: license = "Unlicense OR MIT"
		}},
		{"npm-v3-retirejs-chrome", map[string][]string{
			"pkg:npm/retirejs-chrome@1.0.0": {"id:ISC"},
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			res := mustExtract(t, filepath.Join(lockfiles, tc.dir))
			b := mustBOMBytes(t, res, tc.dir)
			if err := validation.Validate(b); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			var doc struct {
				Metadata struct {
					Component struct {
						BOMRef   string `json:"bom-ref"`
						Licenses []lic  `json:"licenses"`
					} `json:"component"`
				} `json:"metadata"`
				Components []struct {
					BOMRef   string `json:"bom-ref"`
					Licenses []lic  `json:"licenses"`
				} `json:"components"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{doc.Metadata.Component.BOMRef: forms(doc.Metadata.Component.Licenses)}
			for _, c := range doc.Components {
				got[c.BOMRef] = forms(c.Licenses)
			}
			for ref, w := range tc.want {
				if diff := cmp.Diff(w, got[ref]); diff != "" {
					t.Errorf("%s licenses mismatch (-want +got):\n%s", ref, diff)
				}
			}
		})
	}
}
