package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestGitHubActions: the actions workflows use are components of the GitHub
// Actions ecosystem: dependabot-core's real workflows (every action pinned
// to a commit with its release in a comment: the release is the version,
// read off the files here), and a workflow written for the ways one names
// an action (tags, a branch, a sub-action, a reusable workflow, a
// composite action's steps; local actions and images are not packages).
func TestGitHubActions(t *testing.T) {
	dir := "testdata/lock-variants/actions-dependabot"
	pinned := regexp.MustCompile(`uses:\s*([\w.-]+/[\w.-]+)(?:/[^@\s]*)?@([0-9a-f]{40})\s*#\s*(v[\d.]+)`)
	var want []string
	files, err := filepath.Glob(filepath.Join(dir, ".github/workflows/*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range pinned.FindAllStringSubmatch(string(b), -1) {
			want = append(want, strings.ToLower(m[1])+"@"+m[3]+" "+m[2])
		}
	}
	want = set(want)
	if len(want) < 5 {
		t.Fatalf("%d pinned actions in the workflows", len(want))
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		if c.Ecosystem != "GitHub Actions" || !strings.HasPrefix(c.Purl, "pkg:githubactions/"+c.Name+"@"+c.Version+"?vcs_url=") {
			t.Errorf("component %+v", c)
		}
		commit := c.Purl[strings.LastIndex(c.Purl, "%40")+3:]
		got = append(got, c.Name+"@"+c.Version+" "+commit)
	}
	if diff := cmp.Diff(want, set(got)); diff != "" {
		t.Errorf("pinned actions (-files +read):\n%s", diff)
	}

	res, err = sbom.Extract(context.Background(), "testdata/lock-variants/actions-tags", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, c := range res.Components {
		got = append(got, c.Name+"@"+c.Version)
		if c.Name == "alpine" && (c.Purl != "pkg:docker/library/alpine@3.20" || c.Type != "container") {
			t.Errorf("a docker:// step: %+v, want the image pkg:docker/library/alpine@3.20", c)
		}
	}
	wantTags := []string{"actions/cache@v3.3.1", "actions/checkout@v4", "actions/setup-node@v4.2.0", "alpine@3.20", "azure/container-scan@v0", "node@14-bullseye", "postgres@11", "azure/login@v2.1.1",
		"github/codeql-action@v3.28.0", "octo-org/shared@v1.2.3", "reviewdog/action-setup@main", "tj-actions/changed-files@v45"}
	if diff := cmp.Diff(set(wantTags), set(got)); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
}

// TestNestedWorkflows: GitHub runs a repository's own workflows only. One
// in a directory below the scan's root that is no repository (a fixture, a
// vendored copy) gives nothing; one of a repository checked out below it
// (a submodule, one of several clones) gives its actions.
func TestNestedWorkflows(t *testing.T) {
	root := t.TempDir()
	workflow := func(uses string) string {
		return "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " + uses + "\n"
	}
	writeFiles(t, root, map[string]string{
		".github/workflows/ci.yml":                       workflow("actions/checkout@v4"),
		"spec/fixtures/project/.github/workflows/ci.yml": workflow("actions/setup-node@v3"),
		"modules/lib/.git":                               "gitdir: ../../.git/modules/lib\n",
		"modules/lib/.github/workflows/ci.yml":           workflow("actions/cache@v4"),
	})
	res, err := sbom.Extract(context.Background(), root, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Name+"@"+c.Version)
	}
	slices.Sort(got)
	if want := []string{"actions/cache@v4", "actions/checkout@v4"}; !slices.Equal(got, want) {
		t.Errorf("actions %v, want %v", got, want)
	}
}
