package sbom_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestPackageManagers: the lockfiles npm, pnpm, Yarn and bun write today
// for one workspace. Each gives the packages it records (read off the file
// here, in each format's own terms), the workspace member as a project and
// not a dependency, and the same direct dependencies for the root and the
// member whichever tool wrote them: an alias is the package it installs,
// and the member's own minimist is its version, not the root's.
func TestPackageManagers(t *testing.T) {
	const dir = "testdata/package-managers"
	read := func(t *testing.T, p string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	recorded := map[string]func(t *testing.T) []string{
		"npm": func(t *testing.T) []string {
			var lock struct {
				Packages map[string]struct {
					Name, Version string
					Link          bool
				}
			}
			if err := json.Unmarshal(read(t, "npm/package-lock.json"), &lock); err != nil {
				t.Fatal(err)
			}
			var out []string
			for k, p := range lock.Packages {
				if i := strings.LastIndex(k, "node_modules/"); i >= 0 && !p.Link {
					name := k[i+len("node_modules/"):]
					if p.Name != "" { // an alias records the package it installs
						name = p.Name
					}
					out = append(out, name+"@"+p.Version)
				}
			}
			return out
		},
		"pnpm": func(t *testing.T) []string {
			var lock struct{ Packages map[string]any }
			if err := yaml.Unmarshal(read(t, "pnpm/pnpm-lock.yaml"), &lock); err != nil {
				t.Fatal(err)
			}
			var out []string
			for k := range lock.Packages {
				out = append(out, k)
			}
			return out
		},
		"yarn": func(t *testing.T) []string {
			var lock map[string]struct{ Version, Resolution string }
			if err := yaml.Unmarshal(read(t, "yarn/yarn.lock"), &lock); err != nil {
				t.Fatal(err)
			}
			var out []string
			for k, e := range lock {
				if k == "__metadata" || strings.Contains(e.Resolution, "@workspace:") {
					continue
				}
				out = append(out, e.Resolution[:strings.Index(e.Resolution[1:], "@")+1]+"@"+e.Version)
			}
			return out
		},
		"bun": func(t *testing.T) []string {
			// JSON with trailing commas.
			b := regexp.MustCompile(`,(\s*[}\]])`).ReplaceAll(read(t, "bun/bun.lock"), []byte("$1"))
			var lock struct{ Packages map[string][]any }
			if err := json.Unmarshal(b, &lock); err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, p := range lock.Packages {
				id := p[0].(string)
				if !strings.Contains(id, "@workspace:") {
					out = append(out, id)
				}
			}
			return out
		},
	}
	// The root holds its workspace member, @sample/a, besides its own.
	rootDeps := []string{"pkg:npm/%40babel/core@7.20.2", "pkg:npm/%40sample/a@0.1.0", "pkg:npm/express@4.17.1", "pkg:npm/fsevents@2.3.3", "pkg:npm/lodash@4.17.20",
		"pkg:npm/lodash@4.17.21", "pkg:npm/minimist@1.2.8", "pkg:npm/react-dom@18.2.0", "pkg:npm/react@18.2.0", "pkg:npm/typescript@5.4.5"}
	memberDeps := []string{"pkg:npm/debug@4.3.1", "pkg:npm/minimist@1.2.6"}
	for _, tool := range []string{"npm", "pnpm", "yarn", "bun"} {
		t.Run(tool, func(t *testing.T) {
			want := set(recorded[tool](t))
			if len(want) < 90 {
				t.Fatalf("the lockfile records %d packages", len(want))
			}
			res, err := sbom.Extract(context.Background(), filepath.Join(dir, tool), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors)+len(res.Warnings) > 0 {
				t.Errorf("errors %v, warnings %v", res.Errors, res.Warnings)
			}
			var got []string
			for _, c := range res.Components {
				got = append(got, c.Name+"@"+c.Version)
			}
			if diff := cmp.Diff(want, set(got)); diff != "" {
				t.Errorf("components (-lockfile +read):\n%s", diff)
			}
			deps := map[string][]string{}
			for _, p := range res.Projects {
				deps[p.Purl] = p.DependsOn
			}
			if diff := cmp.Diff(rootDeps, deps["pkg:npm/pm-sample@1.2.3"]); diff != "" {
				t.Errorf("the root's direct dependencies (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(memberDeps, deps["pkg:npm/%40sample/a@0.1.0"]); diff != "" {
				t.Errorf("the member's direct dependencies (-want +got):\n%s", diff)
			}
			if len(res.Projects) != 2 || slices.ContainsFunc(res.Components, func(c sentinel.Component) bool { return c.Name == "@sample/a" }) {
				t.Errorf("projects %+v; the member must be one, and no component", res.Projects)
			}
		})
	}
}

// TestPackageManagersTarball: a dependency on a registry tarball's address
// is the package the address serves (ms 2.1.3), not a package named after
// the dependency ("ms-tarball"), and a direct dependency of the root, as
// is a scoped alias's package, in the lockfiles of npm, pnpm, Yarn 4,
// Yarn 1 and bun; the workspace member has its own direct dependencies.
func TestPackageManagersTarball(t *testing.T) {
	for _, tool := range []string{"npm", "pnpm", "yarn", "yarn-v1", "bun"} {
		t.Run(tool, func(t *testing.T) {
			res, err := sbom.Extract(context.Background(), filepath.Join("testdata/package-managers/tarball", tool), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var purls []string
			for _, c := range res.Components {
				purls = append(purls, c.Purl)
				if c.Name == "ms-tarball" || c.Name == "types-alias" || c.Name == "pm-round2-dep" {
					t.Errorf("a component named after its dependency: %s", c.Purl)
				}
			}
			for _, p := range []string{"pkg:npm/ms@2.1.3", "pkg:npm/ms@2.0.0", "pkg:npm/%40types/node@20.11.30", "pkg:npm/follow-redirects@1.15.4"} {
				if !slices.Contains(purls, p) {
					t.Errorf("no %s among %v", p, purls)
				}
			}
			deps := map[string][]string{}
			for _, p := range res.Projects {
				deps[p.Name] = p.DependsOn
			}
			// The root's own, and its workspace member.
			want := []string{"pkg:npm/%40types/node@20.11.30", "pkg:npm/axios@1.6.0", "pkg:npm/b-pkg@0.0.1", "pkg:npm/ms@2.1.3", "pkg:npm/semver@7.5.0"}
			if diff := cmp.Diff(want, deps["pm-round2"]); diff != "" {
				t.Errorf("the root's direct dependencies (-want +got):\n%s", diff)
			}
			// The member's, with its own semver and its alias's ms (Yarn 1
			// records no roots: each member's package.json says them).
			if diff := cmp.Diff([]string{"pkg:npm/ms@2.0.0", "pkg:npm/semver@6.3.0"}, deps["b-pkg"]); diff != "" {
				t.Errorf("the member's direct dependencies (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWorkspaceMembers: the project's own packages are linked as the
// lockfiles of npm, pnpm, Yarn 4, Yarn 1 and bun record them: the root
// depends on each workspace member, and a member on another it names in
// its package.json; members are projects, never components.
func TestWorkspaceMembers(t *testing.T) {
	for _, tool := range []string{"npm", "pnpm", "yarn", "yarn-v1", "bun"} {
		t.Run(tool, func(t *testing.T) {
			dir := filepath.Join("testdata/package-managers/members", tool)
			// What the manifests say: the members and whom each names.
			type manifest struct {
				Name, Version string
				Dependencies  map[string]string
			}
			var root manifest
			mustJSON(t, filepath.Join(dir, "package.json"), &root)
			members := map[string]manifest{}
			ms, _ := filepath.Glob(filepath.Join(dir, "packages/*/package.json"))
			for _, m := range ms {
				var x manifest
				mustJSON(t, m, &x)
				members[x.Name] = x
			}
			purlOf := func(m manifest) string {
				return "pkg:npm/" + strings.Replace(m.Name, "@", "%40", 1) + "@" + m.Version
			}
			want := map[string][]string{} // project purl -> member purls it depends on
			for _, m := range members {
				want[purlOf(root)] = append(want[purlOf(root)], purlOf(m))
				for d := range m.Dependencies {
					if o, ok := members[d]; ok {
						want[purlOf(m)] = append(want[purlOf(m)], purlOf(o))
					}
				}
			}
			if len(members) != 2 || len(want) != 2 {
				t.Fatalf("members %v, member edges %v", members, want)
			}

			res := mustExtract(t, dir)
			got := map[string][]string{}
			for _, p := range res.Projects {
				for _, d := range p.DependsOn {
					for _, m := range members {
						if d == purlOf(m) {
							got[p.Purl] = append(got[p.Purl], d)
						}
					}
				}
			}
			for k := range want {
				slices.Sort(want[k])
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("edges to members (-manifests +read):\n%s", diff)
			}
			for _, c := range res.Components {
				if _, ok := members[c.Name]; ok {
					t.Errorf("member %s is a component", c.Purl)
				}
			}
		})
	}
}
