// Package sbom turns a source tree (or a host's root file system) into a
// component inventory and a CycloneDX 1.5 SBOM, reads SBOMs that other
// tools made, and checks SBOMs submitted to the service.
//
// Extraction drives an explicit, short list of osv-scalibr filesystem
// extractors (registry.go) over a tree that Extract walks itself, instead of
// calling scalibr's filesystem.Run: Run walks and parses on one goroutine,
// while the agent may use every core. package-lock.json and yarn.lock are
// read by Sentinel's own readers under the plugins' names, and Cargo.lock
// is decoded once for packages and graph (onepass.go): scalibr's line
// lookups and commit regular expressions were most of the time on large
// JavaScript projects. pnpm-lock.yaml and berry's yarn.lock go through
// fastYAML (fastyaml.go), a reader of the YAML subset their writers emit
// that falls back to yaml.v3 for anything else. MSBuild project files (a
// .NET project without packages.lock.json), .NET restore and build
// outputs (obj/project.assets.json, <App>.deps.json), Gradle version
// catalogs (a project without Gradle lockfiles), deno.lock and rebar.lock
// are read by Sentinel's readers (msbuild.go, dotnetbuild.go,
// gradlecatalog.go, denolock.go, rebarlock.go), and so are bun's
// binary bun.lockb where no bun.lock is beside it (bunlockb.go), the
// GitHub Actions of workflow files (actions.go), a Pipfile without its lock
// (pipfile.go), conda's environment.yml (condaenv.go), Gopkg.lock
// (gopkglock.go), Clojure's deps.edn and project.clj (depsedn.go,
// projectclj.go) and Azure Linux's distroless RPM manifest
// (rpmmanifest.go). What a project runs on is read too: the container
// images of its Dockerfiles, Compose files, Kubernetes manifests and
// workflows (images.go) and the runtimes its version files pin
// (runtimes.go), components that end-of-life data covers and no advisory
// database does. The walk only lists candidate
// files; a pool of workers then reads each file once, largest first, and
// runs the extractors that claimed it. A broken lockfile is never a failed scan: its
// error is kept in Result.Errors with its path and the run goes on, and a
// panic inside an extractor is caught and reported the same way. The walk
// skips DefaultSkipDirs, the Go module cache, Options.Exclude globs
// (exclude.go, and the project's .sentinel.yaml through ReadConfig) and
// other file systems than the root's (so that scanning "/" stays out of
// /proc, /sys and /dev). scalibr's own log lines go to Options.Logger or
// nowhere (log.go).
//
// Every component has a purl built by scalibr's purl conversion (npm's
// scalibr-only "source" qualifier dropped, so the same package has the same
// purl from every lockfile format); a component whose file gives no version,
// such as an unpinned requirement, has an empty Version and a purl without
// one. Components are merged by purl across files, keeping every location.
// Beyond what scalibr gives, each lockfile is read a second time (graph.go)
// for the dependency graph, the direct dependencies, git sources (a vcs_url
// qualifier on the purl) and licenses. OS package databases (dpkg, apk, RPM)
// give purls with the distribution and the source package (ospkg.go).
//
// A component only development needs is marked (Component.Development; scope
// "excluded" in CycloneDX, where the specification puts components used for
// tests and other non-runtime purposes), and only where its file says so:
// the lockfile's own marks (npm's "dev", pnpm 5-8's "dev", composer's
// packages-dev and Composer 2's dev-package-names, poetry's category or
// groups, Pipfile.lock's develop, Maven's test scope, pubspec.lock's
// "direct dev", Gradle's test and build-tool configurations), or, where
// the lockfile has a graph but no marks, the packages reachable only from
// the dependencies its manifest declares for development (package.json's
// devDependencies for yarn, pnpm 9 and bun; uv's and pyproject's
// dependency groups; Poetry's dev groups; the Gemfile's development and
// test groups; Cargo's dev-dependencies). A package
// listed by several files is development-only when every one says so.
// Read SBOMs keep the mark from scope "excluded" or cyclonedx-npm's
// cdx:npm:package:development.
//
// The scanned project itself is not a component: its manifest (package.json,
// Cargo.toml, pyproject.toml, composer.json, pubspec.yaml, mix.exs, go.mod)
// names it, and NewBOM writes it as metadata.component with its direct
// dependencies (project.go). The Go standard library is versioned by the
// toolchain directive only (gostd.go).
//
// Known gaps, from scalibr v0.5.3 itself: pom.xml is read offline, so a
// version that is a property defined only in a parent POM is not resolved and
// that dependency is missing (extract_test.go lists the cases); parents and
// BOM imports from repositories are never fetched.
//
// Writing (NewBOM, Encode) produces a deterministic CycloneDX 1.5 JSON
// document. Reading: ReadSBOM turns a CycloneDX (1.2-1.7 JSON, or XML) or
// SPDX (2.2/2.3 JSON or tag-value, 3 JSON-LD: spdx3.go) SBOM into the same Result as extraction (read.go); Decode reads a
// submitted CycloneDX document into the few fields the service keeps, and
// Validate checks it against the official JSON schema of its declared
// specVersion (validate.go). Enrich adds advisory matches as CycloneDX
// vulnerabilities.
//
// Properties written by this package (all under the "sentinel:" namespace):
//
//	sentinel:location        on a component: a manifest or lockfile path, relative to the
//	                         scanned root, that lists it (one property per file)
//	sentinel:ecosystem       on a component: its OSV ecosystem name
//	sentinel:go_toolchain    on the Go standard library: the toolchain directive it is versioned by
//	sentinel:go_minimum      on the Go standard library without a version: the go directive,
//	                         a minimum Go version (gostd.go)
//	sentinel:host            on metadata: the host name the agent ran on
//	sentinel:root            on metadata: the scanned root directory, as given to the agent
//	sentinel:kev             on a vulnerability: "true" when listed in the CISA KEV catalog
//	sentinel:kev_date_added  on a vulnerability: the KEV dateAdded (YYYY-MM-DD)
//	sentinel:kev_ransomware  on a vulnerability: "true" when KEV knows ransomware use
//	sentinel:nearest_fix     on a vulnerability: "<bom-ref>=<version>", the lowest fixed
//	                         version above the installed one, per affected component
//	sentinel:eol             on a vulnerability: "true" when the component's release cycle
//	                         is past end of life
package sbom
