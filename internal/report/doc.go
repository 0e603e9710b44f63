// Package report turns one CI gate run (sentinel ci --sca) into a result
// model and writes it in several formats: one result stream, many outputs,
// as govulncheck does with its handler.
//
// New builds a Report from the extracted components and the match results
// (from the service's POST /v1/sca/gate or from an offline intel snapshot:
// both give sentinel.MatchResult), applies suppressions (an ignore file
// and OpenVEX documents) and decides the verdict. The writers read only the
// Report:
//
//	table      a readable table: known-exploited first, then by severity,
//	           with the fixed version to upgrade to, the advisory id and its
//	           aliases, and the manifest; suppressed findings listed apart;
//	           a one-line summary and the verdict
//	json       the Report itself (schema "sentinel-ci-report", version 1)
//	sarif      SARIF 2.1.0 for GitHub code scanning: one rule per advisory,
//	           one result per (component, advisory) located at the manifest,
//	           suppressed findings carry a SARIF suppression
//	cyclonedx  the CycloneDX 1.5 SBOM of the scanned tree enriched with the
//	           vulnerabilities (sbom.Enrich); suppressed ones carry an analysis
//
// # Verdict and exit codes
//
// The verdict follows the specification (Errors, exit codes of the CI gate)
// and is the service's own rule, sentinel.DecideGate, applied to the match
// results with the suppressed matches removed: any unsuppressed
// known-exploited match is "kev" (70), else any unsuppressed match
// "vulnerable" (71), else "ok" (72). Suppressed matches are listed but never
// counted. End-of-life status and undecided advisories are reported but do
// not change the verdict, as on the service. The rule and the result type
// live in the domain package so that the agent shares them with the service
// without linking the service's store and HTTP packages.
//
// # Ignore file
//
// One format, YAML, read from --ignore FILE or, when that flag is not given,
// from .sentinel-ignore.yaml in the scanned directory if present:
//
//	ignore:
//	  - id: CVE-2020-1938            # advisory id or any alias (required)
//	    purl: pkg:maven/org.apache.tomcat.embed/tomcat-embed-core  # optional
//	    package: tomcat-embed-core   # optional: the package name as the ecosystem writes it
//	    reason: AJP connector disabled in every deployment (SEC-123)  # required
//	    expires: 2027-01-31          # required: YYYY-MM-DD (through that day, UTC) or RFC 3339
//
// An entry matches a finding when id equals the advisory id or one of its
// aliases (case-insensitive) and, when given, purl names the same package
// (a purl without a version matches every version; qualifiers are ignored)
// and package equals the component's name (case-insensitive). An entry
// without id, reason or expires, with a bad date, or with an unknown field
// makes the whole file invalid (ErrInvalidIgnore; the agent exits 2): an
// accepted risk must say why and until when. An expired entry suppresses
// nothing and is reported as a warning, so that the gate turns red again.
//
// # OpenVEX
//
// ParseOpenVEX reads OpenVEX JSON documents (https://github.com/openvex/spec,
// v0.2.0, and the earlier form where vulnerability and products are plain
// strings). A statement whose status is not_affected or fixed suppresses a
// finding when its vulnerability name (or one of its aliases) equals the
// advisory id or an alias and one of its products or subcomponents names the
// component by purl (the product's @id or identifiers.purl; versionless
// matches every version). When several statements speak about the same
// finding, the latest (statement timestamp, else the document's) wins, so a
// later "affected" revokes an earlier "not_affected". A not_affected
// statement without justification or impact_statement is invalid, as the
// OpenVEX specification requires one.
package report
