// Package sbom turns a source tree into a component inventory and a
// CycloneDX 1.5 SBOM, and reads SBOMs submitted to the service.
//
// Extraction drives an explicit, short list of osv-scalibr filesystem
// extractors (registry.go) over a tree that Extract walks itself, instead of
// calling scalibr's filesystem.Run: Run walks and parses on one goroutine,
// while the agent may use every core. The walk only lists candidate files;
// a pool of workers then reads each file once, largest first, and runs the
// extractors that claimed it. A broken lockfile is never a failed scan: its
// error is kept in Result.Errors with its path and the run goes on, and a
// panic inside an extractor is caught and reported the same way.
//
// Every component has a purl built by scalibr's purl conversion (npm's
// scalibr-only "source" qualifier dropped, so the same package has the same
// purl from every lockfile format); a component whose file gives no version,
// such as an unpinned requirement, has an empty Version and a purl without
// one. Components are merged by purl across files, keeping every location.
//
// The dependency graph (Component.DependsOn) is read only for lockfiles that
// write their edges explicitly in JSON or TOML: package-lock.json and
// npm-shrinkwrap.json (v1-v3), Cargo.lock, composer.lock, poetry.lock,
// uv.lock and NuGet packages.lock.json; see graph.go for why not the others.
//
// Known gaps, from scalibr v0.5.3 itself: pom.xml is read offline, so a
// version that is a property defined only in a parent POM is not resolved and
// that dependency is missing (extract_test.go lists the cases); parents and
// BOM imports from repositories are never fetched.
//
// Writing (NewBOM, Encode) produces a deterministic CycloneDX 1.5 JSON
// document; Validate checks any document against the official 1.5 JSON schema
// embedded from schema/. Decode reads a submitted CycloneDX 1.2-1.6 JSON
// document into the few fields the service keeps. Enrich adds advisory
// matches as CycloneDX vulnerabilities.
//
// Properties written by this package (all under the "sentinel:" namespace):
//
//	sentinel:location        on a component: a manifest or lockfile path, relative to the
//	                         scanned root, that lists it (one property per file)
//	sentinel:ecosystem       on a component: its OSV ecosystem name
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
