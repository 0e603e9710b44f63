package sbom_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestDepsEDN: a real Clojure project's deps.edn and project.clj, against
// golden lists checked by reading the files: the libraries as Maven
// components, local folders left out, git libraries with their commit,
// aliases', profiles' and plugins' libraries development-only.
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

// TestProjectCljSyntax: Clojure's syntax that no EDN decoder reads, in a
// project.clj: metadata, unquoted and computed versions, regular
// expressions, discarded forms, reader conditionals, characters.
func TestProjectCljSyntax(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "project.clj"), []byte(`;; a comment (with a bracket
(defproject org.example/app ~(str "1.0." (System/getenv "BUILD"))
  :description "app \"quoted\" ]"
  :dependencies [^:replace [org.clojure/clojure "1.9.0"]
                 #_[log4j/log4j "1.2.17"]
                 [ring/ring-core ~ring-version]
                 [compojure "1.6.1" :exclusions [ring/ring-core]]]
  :jvm-opts #?(:clj ["-Xmx1g"] :cljs [])
  :clean-targets ^{:protect false} [#"target" \( \)]
  :profiles {:dev {:dependencies [[ring/ring-mock "0.4.0"]]}}
  :plugins [[lein-ring "0.12.5"]])
`))
	want := []string{
		"pkg:maven/compojure/compojure@1.6.1",
		"pkg:maven/lein-ring/lein-ring@0.12.5 (dev)",
		"pkg:maven/org.clojure/clojure@1.9.0",
		"pkg:maven/ring/ring-core",
		"pkg:maven/ring/ring-mock@0.4.0 (dev)",
	}
	if got := marked(mustExtract(t, dir)); !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
