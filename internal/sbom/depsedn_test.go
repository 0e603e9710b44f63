package sbom_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestDepsEDN: a real Clojure project's deps.edn, against a golden list
// checked by reading the file: its :deps as Maven components, local
// folders left out, git libraries with their commit, aliases' libraries
// development-only.
func TestDepsEDN(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "clojure"), 20)
}

// TestDepsEDNForms: the other ways tools.deps names a library: a git
// library whose repository its io.github name says, at a release tag; a
// classifier; an alias's :replace-deps.
func TestDepsEDNForms(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "deps.edn"), []byte(`{:deps {io.github.clojure/tools.build {:git/tag "v0.9.6" :git/sha "8e78bcc"}
        org.lwjgl/lwjgl$natives-linux {:mvn/version "3.3.1"}
        ring {:mvn/version "1.9.0"}}
 :aliases {:build {:replace-deps {slipset/deps-deploy {:mvn/version "0.2.1"}}}}}
`))
	want := []string{
		"pkg:maven/io.github.clojure/tools.build@0.9.6?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fclojure%2Ftools.build%408e78bcc",
		"pkg:maven/org.lwjgl/lwjgl@3.3.1",
		"pkg:maven/ring/ring@1.9.0",
		"pkg:maven/slipset/deps-deploy@0.2.1 (dev)",
	}
	if got := marked(mustExtract(t, dir)); !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
