package agents_test

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestSubmitKeepsDependencyGraph submits, through the agent listener, the
// SBOM the agent builds from a real package-lock.json with a dependency
// graph, and finds the graph in the store as edges between purls; then a
// hand-written document whose bom-refs are not purls, to check the
// translation: nested components, a component without purl, the root
// metadata component, unknown references and a second purl of the same
// package.
func TestSubmitKeepsDependencyGraph(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	c := e.agentClient(t)

	res, err := sbom.Extract(ctx, filepath.Join("..", "sbom", "testdata", "lockfiles", "npm-v3-retirejs-chrome"), sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{ToolVersion: "0.0.0-test", Host: "build-host-01",
		Now: func() time.Time { return time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC) }})
	doc, err := sbom.Marshal(bom)
	if err != nil {
		t.Fatal(err)
	}
	var want []sentinel.DependencyEdge
	if bom.Dependencies != nil {
		for _, d := range *bom.Dependencies {
			for _, to := range *d.Dependencies {
				want = append(want, sentinel.DependencyEdge{From: d.Ref, To: to})
			}
		}
	}
	if len(want) < 10 {
		t.Fatalf("the lockfile's SBOM has %d edges; the test needs a graph", len(want))
	}
	slices.SortFunc(want, func(a, b sentinel.DependencyEdge) int { return strings.Compare(a.From+"\x00"+a.To, b.From+"\x00"+b.To) })

	status, m := e.submitRaw(t, c, "", bytes.NewReader(doc))
	if status != 201 {
		t.Fatalf("submit: %d %v", status, m)
	}
	id, _ := m["id"].(string)
	got, err := e.s.DB.SubmissionEdges(ctx, e.acme.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored dependency graph mismatch (-want +got):\n%s", diff)
	}
	if got, _ := e.s.DB.SubmissionEdges(ctx, e.beta.ID, id); len(got) != 0 {
		t.Errorf("another organization reads %d edges of the submission", len(got))
	}

	const refs = `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,
	"metadata":{"component":{"bom-ref":"root","type":"application","name":"app"}},
	"components":[
		{"bom-ref":"c1","type":"library","name":"a","version":"1.0.0","purl":"pkg:npm/a@1.0.0",
			"components":[{"bom-ref":"c1.1","type":"library","name":"nested","version":"2.0.0","purl":"pkg:npm/nested@2.0.0"}]},
		{"bom-ref":"c2","type":"library","name":"b","version":"1.0.0","purl":"pkg:npm/b@1.0.0"},
		{"bom-ref":"c3","type":"library","name":"internal-thing","version":"1"},
		{"bom-ref":"c4","type":"library","name":"b","version":"1.0.0","purl":"pkg:npm/b@1.0.0?arch=x64"}
	],
	"dependencies":[
		{"ref":"root","dependsOn":["c1","c2"]},
		{"ref":"c1","dependsOn":["c1.1","c2","c3","unknown","c1"]},
		{"ref":"c3","dependsOn":["c2"]},
		{"ref":"c4","dependsOn":["c1.1"]},
		{"ref":"c2"}
	]}`
	status, m = e.submitRaw(t, c, "?host=refs-host", strings.NewReader(refs))
	if status != 201 {
		t.Fatalf("submit: %d %v", status, m)
	}
	id, _ = m["id"].(string)
	got, err = e.s.DB.SubmissionEdges(ctx, e.acme.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	want = []sentinel.DependencyEdge{
		{From: "pkg:npm/a@1.0.0", To: "pkg:npm/b@1.0.0"},
		{From: "pkg:npm/a@1.0.0", To: "pkg:npm/nested@2.0.0"},
		// c4 is the same package as c2: its edges leave the purl the
		// inventory keeps for it.
		{From: "pkg:npm/b@1.0.0", To: "pkg:npm/nested@2.0.0"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dependency graph by bom-ref mismatch (-want +got):\n%s", diff)
	}
	items, _ := e.s.DB.SubmissionItems(ctx, e.acme.ID, id)
	for _, edge := range got {
		for _, p := range []string{edge.From, edge.To} {
			if !slices.ContainsFunc(items, func(it sentinel.InventoryItem) bool { return it.Purl == p }) {
				t.Errorf("edge end %s is not a purl of the submission's inventory %v", p, items)
			}
		}
	}
}
