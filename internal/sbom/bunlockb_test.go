package sbom_test

import (
	"context"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// yarnV1Truth reads the yarn v1 lockfile bun prints for a bun.lockb
// (bun ./bun.lockb): each entry's name@version, and its dependencies'
// name@version, found through the entries' "name@range" headers. The
// project's own entries (workspace: versions) are left out.
func yarnV1Truth(t *testing.T, file string) (pkgs []string, edges map[string][]string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		id   string
		deps [][2]string // name, range
	}
	byDesc := map[string]*entry{}
	var all []*entry
	var cur *entry
	var descs []string
	inDeps := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case !strings.HasPrefix(line, " "):
			cur = &entry{}
			all = append(all, cur)
			descs = nil
			for _, d := range strings.Split(strings.TrimSuffix(line, ":"), ", ") {
				d = strings.Trim(d, `"`)
				descs = append(descs, d)
				byDesc[d] = cur
			}
			inDeps = false
		case strings.HasPrefix(line, "  version "):
			v := strings.Trim(strings.TrimPrefix(line, "  version "), `"`)
			d := descs[0]
			name := d[:strings.Index(d[1:], "@")+1]
			cur.id = name + "@" + v
			if strings.HasPrefix(v, "workspace:") {
				cur.id = ""
			}
		case line == "  dependencies:" || line == "  optionalDependencies:" || line == "  peerDependencies:":
			inDeps = true
		case strings.HasPrefix(line, "    ") && inDeps:
			f := strings.TrimSpace(line)
			i := strings.Index(f, " ")
			cur.deps = append(cur.deps, [2]string{strings.Trim(f[:i], `"`), strings.Trim(f[i+1:], `"`)})
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "    "):
			inDeps = false
		}
	}
	edges = map[string][]string{}
	for _, e := range all {
		if e.id == "" {
			continue
		}
		pkgs = append(pkgs, e.id)
		for _, d := range e.deps {
			to, ok := byDesc[d[0]+"@"+d[1]]
			if !ok { // bun prints one header for ranges that resolve alike
				for _, o := range all {
					if strings.HasPrefix(o.id, d[0]+"@") {
						if ok {
							t.Fatalf("%s: %s %s is ambiguous", file, d[0], d[1])
						}
						to, ok = o, true
					}
				}
			}
			if ok && to.id != "" && to.id != e.id {
				edges[e.id] = append(edges[e.id], to.id)
			}
		}
	}
	return pkgs, edges
}

// bunPeerEdges are the resolved peer dependencies of the test projects,
// which bun's yarn.lock leaves out and the graph keeps (as bun.lock's).
var bunPeerEdges = []string{
	"@eslint-community/eslint-utils@4.10.1 eslint@8.57.0",
	"acorn-jsx@5.3.2 acorn@8.19.0",
	"react-dom@18.2.0 react@18.3.1",
}

// TestBunLockb: bun.lockb files bun 1.0.36 and 1.1.38 wrote give the
// packages, and the dependencies between them, of the yarn.lock bun
// itself converts them to (and the peer dependencies it leaves out).
func TestBunLockb(t *testing.T) {
	for _, dir := range []string{"workspace-1.0.36", "workspace-1.1.38", "mix-1.1.38", "workspace-1.2.23", "mix-1.2.23", "mix-1.3.14"} {
		t.Run(dir, func(t *testing.T) {
			root := "testdata/bun-lockb/" + dir
			res, err := sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Languages})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) != 0 || len(res.Warnings) != 0 {
				t.Errorf("errors %v, warnings %v", res.Errors, res.Warnings)
			}
			wantPkgs, wantEdges := yarnV1Truth(t, root+"/yarn.lock.truth")
			byPurl := map[string]string{}
			var got []string
			for _, c := range res.Components {
				if !slices.Contains(c.Locations, "bun.lockb") {
					continue
				}
				got = append(got, c.Name+"@"+c.Version)
				byPurl[c.Purl] = c.Name + "@" + c.Version
			}
			slices.Sort(got)
			slices.Sort(wantPkgs)
			wantPkgs = slices.Compact(wantPkgs)
			if !slices.Equal(got, wantPkgs) {
				t.Errorf("packages:\n got %d %v\nwant %d %v", len(got), got, len(wantPkgs), wantPkgs)
			}
			gotEdges := map[string][]string{}
			for _, c := range res.Components {
				for _, d := range c.DependsOn {
					gotEdges[c.Name+"@"+c.Version] = append(gotEdges[c.Name+"@"+c.Version], byPurl[d])
				}
			}
			for _, pe := range bunPeerEdges {
				from, to, _ := strings.Cut(pe, " ")
				if slices.Contains(wantPkgs, from) {
					wantEdges[from] = append(wantEdges[from], to)
				}
			}
			for from, tos := range wantEdges {
				slices.Sort(tos)
				g := gotEdges[from]
				slices.Sort(g)
				if !slices.Equal(slices.Compact(tos), slices.Compact(g)) {
					t.Errorf("%s depends on %v, want %v", from, g, tos)
				}
			}
			for from := range gotEdges {
				if _, ok := wantEdges[from]; !ok {
					t.Errorf("%s depends on %v, want nothing", from, gotEdges[from])
				}
			}
		})
	}
}

// TestBunLockbDevelopment: what only the devDependencies need is marked.
func TestBunLockbDevelopment(t *testing.T) {
	for _, dir := range []string{"mix-1.1.38", "mix-1.2.23", "mix-1.3.14"} {
		res, err := sbom.Extract(context.Background(), "testdata/bun-lockb/"+dir, sbom.Options{Kinds: sbom.Languages})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Components) == 0 {
			t.Fatalf("%s: no components", dir)
		}
		for _, c := range res.Components {
			want := c.Name == "@types/node" || c.Name == "undici-types"
			if c.Development != want {
				t.Errorf("%s: %s@%s development %v, want %v", dir, c.Name, c.Version, c.Development, want)
			}
		}
	}
}

// TestBunLockbBroken: a truncated or corrupt bun.lockb is an error on that
// file, saying how to write bun.lock, and the scan goes on.
func TestBunLockbBroken(t *testing.T) {
	b, err := os.ReadFile("testdata/bun-lockb/workspace-1.1.38/bun.lockb")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 10, 42, 46, 80, 100, 200, len(b) / 2, len(b) - 200} {
		mem := fstest.MapFS{
			"app/bun.lockb":       {Data: b[:n]},
			"other/package.json":  {Data: []byte(`{"name": "other", "dependencies": {"ms": "2.1.3"}}`)},
			"other/yarn.lock":     {Data: []byte("ms@2.1.3:\n  version \"2.1.3\"\n")},
			"app/package.json":    {Data: []byte(`{"name": "app"}`)},
			"app/more/readme.txt": {Data: []byte("x")},
		}
		res, err := sbom.Extract(context.Background(), ".", sbom.Options{FS: mem, Kinds: sbom.Languages})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Errors) != 1 || path.Base(res.Errors[0].Path) != "bun.lockb" || !strings.Contains(res.Errors[0].Reason, "--save-text-lockfile") {
			t.Errorf("%d bytes: errors %v, want one on bun.lockb saying how to write bun.lock", n, res.Errors)
		}
		if len(res.Components) != 1 {
			t.Errorf("%d bytes: %d components, want other's one", n, len(res.Components))
		}
	}
	// An unknown format version is named.
	bad := slices.Clone(b)
	bad[42] = 9
	res, err := sbom.Extract(context.Background(), ".", sbom.Options{FS: fstest.MapFS{"bun.lockb": {Data: bad}}, Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Reason, "format version 9") {
		t.Errorf("format 9: errors %v", res.Errors)
	}
}

// TestBunLockbBesideBunLock: bun reads bun.lock when both are there, and
// so does Sentinel: the bun.lockb is not read.
func TestBunLockbBesideBunLock(t *testing.T) {
	b, err := os.ReadFile("testdata/bun-lockb/mix-1.1.38/bun.lockb")
	if err != nil {
		t.Fatal(err)
	}
	mem := fstest.MapFS{
		"bun.lockb": {Data: b},
		"bun.lock":  {Data: []byte(`{"lockfileVersion": 1, "workspaces": {"": {"name": "app", "dependencies": {"ms": "2.1.3"}}}, "packages": {"ms": ["ms@2.1.3", "", {}, "sha512-x"]}}`)},
	}
	res, err := sbom.Extract(context.Background(), ".", sbom.Options{FS: mem, Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Name+"@"+c.Version+" "+strings.Join(c.Locations, ","))
	}
	if !slices.Equal(got, []string{"ms@2.1.3 bun.lock"}) || len(res.Errors)+len(res.Warnings) != 0 {
		t.Errorf("components %v, errors %v, warnings %v; want bun.lock's ms only", got, res.Errors, res.Warnings)
	}
}
