package sbom_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
	packageurl "github.com/package-url/packageurl-go"
	"gopkg.in/yaml.v3"
)

// gitWant is the vcs_url value a git dependency's purl must carry:
// "git+<repository>@<commit>", without the credentials of an https address
// (a token as its user).
func gitWant(repo, commit string) string {
	repo = regexp.MustCompile(`^(git\+)?https://[^@/]+@`).ReplaceAllString(repo, "${1}https://")
	if !strings.HasPrefix(repo, "git+") {
		repo = "git+" + repo
	}
	return repo + "@" + commit
}

// Independent readings of the git dependencies each lockfile records, as
// "name@version vcs_url".
var gitReaders = map[string]func(tb testing.TB, dir string) []string{
	// Cargo.lock: source = "git+<url>?<query>#<commit>".
	"cargo-lapce": func(tb testing.TB, dir string) []string {
		var lock struct {
			Package []struct{ Name, Version, Source string }
		}
		if _, err := toml.DecodeFile(filepath.Join(dir, "Cargo.lock"), &lock); err != nil {
			tb.Fatal(err)
		}
		var out []string
		for _, p := range lock.Package {
			if rest, ok := strings.CutPrefix(p.Source, "git+"); ok {
				u, commit, _ := strings.Cut(rest, "#")
				u, _, _ = strings.Cut(u, "?")
				out = append(out, p.Name+"@"+p.Version+" "+gitWant(u, commit))
			}
		}
		return set(out)
	},
	// poetry.lock: [package.source] type = "git", url, resolved_reference.
	"poetry-git": func(tb testing.TB, dir string) []string {
		var lock struct {
			Package []struct {
				Name, Version string
				Source        struct {
					Type, URL         string
					ResolvedReference string `toml:"resolved_reference"`
				}
			}
		}
		if _, err := toml.DecodeFile(filepath.Join(dir, "poetry.lock"), &lock); err != nil {
			tb.Fatal(err)
		}
		var out []string
		for _, p := range lock.Package {
			if p.Source.Type == "git" {
				out = append(out, p.Name+"@"+p.Version+" "+gitWant(p.Source.URL, p.Source.ResolvedReference))
			}
		}
		return set(out)
	},
	// package-lock.json: "resolved": "git+ssh://...#<commit>" under the
	// node_modules/<name> key.
	"npm-git": func(tb testing.TB, dir string) []string {
		var lock struct {
			Packages map[string]struct{ Version, Resolved string }
		}
		mustJSON(tb, filepath.Join(dir, "package-lock.json"), &lock)
		var out []string
		for key, p := range lock.Packages {
			if !strings.HasPrefix(p.Resolved, "git+") {
				continue
			}
			repo, commit, _ := strings.Cut(p.Resolved, "#")
			name := key[strings.LastIndex(key, "node_modules/")+len("node_modules/"):]
			out = append(out, name+"@"+p.Version+" "+gitWant(repo, commit))
		}
		return set(out)
	},
	// yarn.lock v1: `resolved "git+...#<commit>"` or a GitHub codeload
	// tarball ".../<owner>/<repo>/tar.gz/<commit>".
	"yarn-git": func(tb testing.TB, dir string) []string {
		codeload := regexp.MustCompile(`^https://codeload\.github\.com/([^/]+/[^/]+)/tar\.gz/([0-9a-f]+)$`)
		field := regexp.MustCompile(`(?m)^  (version|resolved) "([^"]+)"$`)
		// A repository address with the commit as its fragment, and
		// GitLab's archive of a commit.
		hashed := regexp.MustCompile(`^((?:https|ssh)://[^#]+)#([0-9a-f]{40})$`)
		gitlab := regexp.MustCompile(`^https://gitlab\.com/(.+)/repository/archive\.tar\.gz\?ref=([0-9a-f]{40})$`)
		var out []string
		for _, block := range strings.Split(string(mustRead(tb, filepath.Join(dir, "yarn.lock"))), "\n\n") {
			header, _, _ := strings.Cut(strings.TrimSpace(block), "\n")
			if strings.HasPrefix(header, "#") || header == "" {
				continue
			}
			desc := strings.TrimLeft(header, `"`)
			at := strings.Index(desc[1:], "@") + 1 // a scope's "@" is not the separator
			name := desc[:at]
			f := map[string]string{}
			for _, m := range field.FindAllStringSubmatch(block, -1) {
				f[m[1]] = m[2]
			}
			res := f["resolved"]
			switch {
			case strings.HasPrefix(res, "git+") || strings.HasPrefix(res, "git://"):
				repo, commit, _ := strings.Cut(res, "#")
				out = append(out, name+"@"+f["version"]+" "+gitWant(repo, commit))
			case codeload.MatchString(res):
				c := codeload.FindStringSubmatch(res)
				out = append(out, name+"@"+f["version"]+" "+gitWant("https://github.com/"+c[1], c[2]))
			case hashed.MatchString(res):
				c := hashed.FindStringSubmatch(res)
				out = append(out, name+"@"+f["version"]+" "+gitWant(c[1], c[2]))
			case gitlab.MatchString(res):
				c := gitlab.FindStringSubmatch(res)
				out = append(out, name+"@"+f["version"]+" "+gitWant("https://gitlab.com/"+c[1], c[2]))
			}
		}
		return set(out)
	},
	// pnpm-lock.yaml: packages whose resolution is a GitHub codeload
	// tarball, with their version beside.
	"pnpm-git": func(tb testing.TB, dir string) []string {
		var lock struct {
			Packages map[string]struct {
				Version    string
				Resolution struct{ Tarball string }
			}
		}
		if err := yaml.Unmarshal(mustRead(tb, filepath.Join(dir, "pnpm-lock.yaml")), &lock); err != nil {
			tb.Fatal(err)
		}
		codeload := regexp.MustCompile(`^https://codeload\.github\.com/([^/]+/[^/]+)/tar\.gz/([0-9a-f]+)$`)
		var out []string
		for key, p := range lock.Packages {
			if c := codeload.FindStringSubmatch(p.Resolution.Tarball); c != nil {
				name := key[:strings.Index(key, "@https://")]
				out = append(out, name+"@"+p.Version+" "+gitWant("https://github.com/"+c[1], c[2]))
			}
		}
		return set(out)
	},
}

// TestGitSources: a dependency built from a git repository is a component
// whose purl says so (vcs_url), not the registry's package of that name;
// the expected set is read from each lockfile. testdata/sources/README.md
// names the files' origins.
func TestGitSources(t *testing.T) {
	for dir, read := range gitReaders {
		t.Run(dir, func(t *testing.T) {
			root := filepath.Join("testdata", "sources", dir)
			want := read(t, root)
			if len(want) == 0 {
				t.Fatal("the lockfile records no git dependency")
			}
			res := mustExtract(t, root)
			var got []string
			for _, c := range res.Components {
				u, err := packageurl.FromString(c.Purl)
				if err != nil {
					t.Fatalf("%s: %v", c.Purl, err)
				}
				if v := u.Qualifiers.Map()["vcs_url"]; v != "" {
					got = append(got, c.Name+"@"+c.Version+" "+v)
					if u.Type == "git" {
						t.Errorf("%s: the purl type is the ecosystem's, not git", c.Purl)
					}
				}
			}
			if diff := cmp.Diff(want, set(got)); diff != "" {
				t.Errorf("git dependencies of %s mismatch (-want +got):\n%s", dir, diff)
			}
		})
	}
}

// TestGitSourcePurl pins the form of one purl: the vcs_url qualifier is
// percent-encoded by packageurl-go, and reads back to the repository and
// commit.
func TestGitSourcePurl(t *testing.T) {
	res := mustExtract(t, filepath.Join("testdata", "sources", "cargo-lapce"))
	const want = "pkg:cargo/floem@0.2.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Flapce%2Ffloem%40e0dd862564e3afbad5cba8ebe60df166a7a41e56"
	for _, c := range res.Components {
		if c.Name == "floem" {
			if c.Purl != want {
				t.Errorf("floem purl = %s, want %s", c.Purl, want)
			}
			u, _ := packageurl.FromString(c.Purl)
			if v := u.Qualifiers.Map()["vcs_url"]; v != "git+https://github.com/lapce/floem@e0dd862564e3afbad5cba8ebe60df166a7a41e56" {
				t.Errorf("vcs_url = %q", v)
			}
			b, _ := json.Marshal(c)
			t.Logf("%s", b)
			return
		}
	}
	t.Error("no floem component")
}
