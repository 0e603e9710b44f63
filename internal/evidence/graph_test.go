package evidence_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

// TestConsolidatedGraphFromStore ingests, on each engine, the SBOM the
// agent builds from a real package-lock.json (a dependency graph keyed by
// purl) and a document with other bom-refs on another host that adds an
// edge to a shared component; the consolidated SBOM built from the store
// carries the union of both graphs by purl, validates against CycloneDX
// 1.5, and is byte-identical when built twice.
func TestConsolidatedGraphFromStore(t *testing.T) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		t.Run(engine, func(t *testing.T) {
			ctx := t.Context()
			dsn := filepath.Join(t.TempDir(), "s.db")
			if engine == store.Postgres {
				dsn = pgtest.DSN(t)
			}
			db, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var org *sentinel.Organization
			if err := db.InTx(ctx, func(tx *store.Tx) (err error) { org, err = tx.CreateOrg(ctx, "acme", "Acme"); return err }); err != nil {
				t.Fatal(err)
			}
			svc := &inventory.Service{DB: store.Bind[inventory.Tx](db)}

			res, err := sbom.Extract(ctx, filepath.Join("..", "sbom", "testdata", "lockfiles", "npm-v3-retirejs-chrome"), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			bom := sbom.NewBOM(res.Components, sbom.BOMOptions{ToolVersion: "0.0.0-test", Host: "build-host-01",
				Now: func() time.Time { return created }})
			doc, err := sbom.Marshal(bom)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{}
			if bom.Dependencies != nil {
				for _, d := range *bom.Dependencies {
					want[d.Ref] = append(want[d.Ref], *d.Dependencies...)
				}
			}
			const hashJS, inherits, extra = "pkg:npm/hash.js@1.1.7", "pkg:npm/inherits@2.0.4", "pkg:npm/extra@1.0.0"
			if !slices.Contains(want[hashJS], inherits) {
				t.Fatalf("the lockfile's graph changed: %s depends on %v", hashJS, want[hashJS])
			}
			want[hashJS] = append(want[hashJS], extra)
			if _, err := svc.Ingest(ctx, org, "key_t", "", "", doc); err != nil {
				t.Fatal(err)
			}
			other := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[
				{"bom-ref":"h","type":"library","name":"hash.js","version":"1.1.7","purl":"` + hashJS + `"},
				{"bom-ref":"i","type":"library","name":"inherits","version":"2.0.4","purl":"` + inherits + `"},
				{"bom-ref":"x","type":"library","name":"extra","version":"1.0.0","purl":"` + extra + `"}],
				"dependencies":[{"ref":"h","dependsOn":["x","i"]},{"ref":"x"}]}`
			if _, err := svc.Ingest(ctx, org, "key_t", "", "db-1", []byte(other)); err != nil {
				t.Fatal(err)
			}

			build := func(ca time.Time) []byte {
				t.Helper()
				var buf bytes.Buffer
				_, err := evidence.Build(ctx, &buf, db, evidence.Options{Org: org, BundleID: "bundle_graphgraphgraph",
					CreatedAt: created, WindowStart: created.AddDate(0, 0, -90), WindowEnd: created,
					CA: MustCA(t, ca), Identity: testIdentity, Issuer: testIssuer, TempDir: t.TempDir()})
				if err != nil {
					t.Fatalf("Build: %v", err)
				}
				return zipFiles(t, buf.Bytes())["sbom/consolidated.cdx.json"]
			}
			first := build(created.Add(-24 * time.Hour))
			if second := build(created.Add(-time.Hour)); !bytes.Equal(first, second) {
				t.Fatalf("consolidated differs between builds:\n%s\n%s", first, second)
			}
			if err := validation.Validate(first); err != nil {
				t.Errorf("consolidated is not valid CycloneDX 1.5: %v", err)
			}

			var got struct {
				Components []struct {
					Purl string `json:"purl"`
				} `json:"components"`
				Dependencies []struct {
					Ref       string   `json:"ref"`
					DependsOn []string `json:"dependsOn"`
				} `json:"dependencies"`
			}
			if err := json.Unmarshal(first, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Components) != len(*bom.Components)+1 { // + extra
				t.Errorf("%d components, want %d", len(got.Components), len(*bom.Components)+1)
			}
			gotDeps := map[string][]string{}
			var refs []string
			for _, d := range got.Dependencies {
				if !slices.IsSorted(d.DependsOn) {
					t.Errorf("dependsOn of %s not sorted: %v", d.Ref, d.DependsOn)
				}
				gotDeps[d.Ref] = d.DependsOn
				refs = append(refs, d.Ref)
			}
			if !slices.IsSorted(refs) {
				t.Errorf("dependencies not sorted by ref: %v", refs)
			}
			for ref, on := range want {
				slices.Sort(on)
				want[ref] = slices.Compact(on)
			}
			if diff := cmp.Diff(want, gotDeps); diff != "" {
				t.Errorf("consolidated dependency graph mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(string(first), `{"dependsOn":["`+extra+`","`+inherits+`","pkg:npm/minimalistic-assert@1.0.1"],"ref":"`+hashJS+`"}`) {
				t.Errorf("hash.js's dependencies are not the union of both hosts' graphs:\n%s", first)
			}
		})
	}
}
