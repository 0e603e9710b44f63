package agent

// sentinel ci --sca [DIR]: the CI/CD gate (specification N3). One pass
// over the tree: extract the components (sbom.Extract), match them against
// advisories and the CISA KEV catalog, either on the service (POST
// /v1/sca/gate, which counts as a scan: concurrency cap and scans meter) or
// offline against an intel snapshot (--offline-db, no network at all), apply
// the ignore file and OpenVEX documents, write the report, and exit with the
// specification's code.
//
// The gate fails closed: every failure exits with a code that is never 72,
// and says what to do. Exit codes (also in "sentinel ci -h"):
//
//	70  a known-exploited (CISA KEV) component was found
//	71  a vulnerable component was found, none known-exploited
//	72  OK: no known vulnerable component (suppressed findings do not count)
//	77  scan_capacity: the organization's concurrent scans stayed busy (429); not retried
//	78  metered: the organization's monthly scans meter is exhausted (403)
//	 1  error that needs a person: the key was refused (401) or lacks sca:read (403),
//	    the directory cannot be read or holds no manifest or lockfile, the offline
//	    database cannot be read or holds no advisories, the service answered
//	    something unexpected, the output cannot be written
//	 2  usage: bad flags, --sca missing, no server or key, an invalid ignore file or
//	    OpenVEX document
//	 3  the service is unreachable or unavailable: network error, timeout, 5xx, or
//	    still rate limited after the retries; transient, retry or use --offline-db
//
// Only 429 rate_limited (and a 429 without a known error code, as an edge
// network sends) is retried, with the specification's policy (Limits, rule
// 5): wait Retry-After (default 30 s) plus up to 50% jitter, doubling, at
// most 5 attempts. scan_capacity is not retried: the service has already
// waited 60 s for a slot, and the build decides (exit 77).
//
// A broken lockfile is not a failed scan (sbom.Extract): it is skipped with
// a warning and listed in the JSON output. Components without a pinned
// version cannot be matched; they are counted and warned about.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent/client"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/report"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// Exit codes of sentinel ci beyond 0, 1 and 2 (see the comment above).
const (
	ExitCIKEV         = sentinel.GateExitKEV        // 70
	ExitCIVulnerable  = sentinel.GateExitVulnerable // 71
	ExitCIOK          = sentinel.GateExitOK         // 72
	ExitCICapacity    = sentinel.GateExitCapacity   // 77: 429 scan_capacity
	ExitCIMetered     = sentinel.GateExitMetered    // 78: 403 metered
	ExitCIUnavailable = 3                           // service unreachable or unavailable
)

// DefaultIgnoreFile is read from the scanned directory when --ignore is not
// given and the file exists.
const DefaultIgnoreFile = ".sentinel-ignore.yaml"

// ciBatch is the most purls sent in one gate request; a larger tree is
// sent in several requests, each counted as a scan.
const ciBatch = sentinel.MaxMatchPurls

// ciStaleAfter is the age after which an offline snapshot is warned about:
// the KEV catalog changes most weekdays.
const ciStaleAfter = 7 * 24 * time.Hour

const ciUsage = `usage: sentinel ci --sca [flags] [DIR]

Extract the components under DIR (default .), match them against advisories and
the CISA known-exploited (KEV) catalog, and exit with the gate's verdict. Online,
the purls go to the service (POST /v1/sca/gate, needs an API key with sca:read; it
counts as a scan). With --offline-db FILE (from "sentineld intel export -o FILE")
nothing leaves the runner.

The table goes to stderr; --format X writes X to stdout, or to -o FILE.

Exit codes (the gate fails closed: an error is never 72):
  70  a known-exploited (CISA KEV) component was found
  71  a vulnerable component was found, none known-exploited
  72  OK: no known vulnerable component (suppressed findings do not count)
  77  scan_capacity: the organization's concurrent scans stayed busy; retry later
  78  metered: the organization's monthly scans meter is exhausted
   1  error (key refused or lacking sca:read, unreadable DIR or offline database,
      no manifest or lockfile found, unexpected answer, output not written)
   2  usage (bad flags, --sca missing, no server or key, invalid ignore or VEX file)
   3  service unreachable or unavailable (network, timeout, 5xx, still rate limited
      after 5 attempts): transient; retry, or use --offline-db

Inputs and policy:
  --sbom FILE       gate a CycloneDX (JSON 1.2-1.7, XML) or SPDX (2.2/2.3 JSON, YAML, tag-value; 3 JSON-LD) SBOM instead of DIR
  --exclude GLOB    skip paths (repeatable); also "exclude:" in .sentinel.yaml in DIR
  --kinds K         all, or a comma-separated list of languages, os (dpkg, apk,
                    RPM databases under DIR) and binaries (Go and Rust programs, Java archives)
  --fail-on SEV     only matches of SEV or worse exit 71 (critical, high, medium, low);
                    known-exploited always exits 70, an unknown severity counts
  --omit-dev        leave out components only development needs (marked "(dev)"
                    otherwise), but a known-malicious one; also "omit_dev: true"
                    in .sentinel.yaml in DIR
End-of-life components are listed under the table; they do not change the exit code.

Ignore file (` + DefaultIgnoreFile + ` in DIR, or --ignore FILE), every field but
purl and package required; expired entries no longer apply and are warned about:
  ignore:
    - id: CVE-2020-1938          # advisory id or alias
      purl: pkg:maven/org.apache.tomcat.embed/tomcat-embed-core   # optional
      reason: AJP connector disabled everywhere (SEC-123)
      expires: 2027-01-31        # YYYY-MM-DD or RFC 3339
OpenVEX (--vex FILE, repeatable): statements with status not_affected or fixed
suppress the advisory for the product purls. Suppressed findings are listed in
the outputs and not counted.

Flags:
`

// ciFlags are sentinel ci's options.
type ciFlags struct {
	sca       bool
	server    string
	apiKey    string
	offlineDB string
	format    string
	output    string
	ignore    string
	vex       []string
	project   string
	failOn    string
	scan      *scanFlags
	set       map[string]bool
}

func (c *Command) ciCmd(ctx context.Context, args []string) error {
	fs := c.flagSet("ci")
	o := &ciFlags{}
	fs.BoolVar(&o.sca, "sca", false, "run the software composition analysis pass (required)")
	fs.StringVar(&o.server, "server", "", "API URL (env SENTINEL_SERVER)")
	fs.StringVar(&o.apiKey, "api-key", "", "API key with the sca:read scope (env SENTINEL_API_KEY)")
	fs.StringVar(&o.offlineDB, "offline-db", "", "match offline against this intel snapshot (sentineld intel export -o FILE); no network")
	fs.StringVar(&o.format, "format", "table", "output format: table, json, sarif or cyclonedx")
	fs.StringVar(&o.output, "o", "", "write the --format output to this file, - for standard output (default: standard output)")
	fs.StringVar(&o.output, "output", "", "same as -o")
	fs.StringVar(&o.ignore, "ignore", "", "ignore file (default: "+DefaultIgnoreFile+" in DIR, if present)")
	fs.Func("vex", "OpenVEX JSON document whose not_affected and fixed statements suppress findings (repeatable)", func(s string) error {
		o.vex = append(o.vex, s)
		return nil
	})
	fs.StringVar(&o.project, "project", "", "project name sent to the service and written in the SBOM (default: the manifest's project name, else DIR's base name)")
	fs.StringVar(&o.failOn, "fail-on", "", "the lowest severity that fails the gate (exit 71): critical, high, medium or low (default: any match); a known-exploited match exits 70 whatever this says")
	o.scan = c.addScanFlags(fs, "sbom", "gate the components of this CycloneDX (JSON 1.2 to 1.7, or XML) or SPDX (2.2/2.3 JSON, YAML or tag-value, 3 JSON-LD) SBOM (Syft, cdxgen, npm sbom, the Maven plugin...) instead of walking DIR")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), ciUsage)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if !o.sca {
		return usageErr("sentinel ci needs --sca, the pass to run: sentinel ci --sca [DIR] (see sentinel ci -h)")
	}
	if len(pos) > 1 {
		return usageErr("usage: sentinel ci --sca [flags] [DIR]: one directory at most, got %d", len(pos))
	}
	root := "."
	if len(pos) == 1 {
		root = pos[0]
	}
	if o.failOn != "" && !slices.Contains(report.FailOnLevels, strings.ToLower(o.failOn)) {
		return usageErr("--fail-on %q: want critical, high, medium or low", o.failOn)
	}
	o.failOn = strings.ToLower(o.failOn)
	if o.scan.from != "" && len(pos) == 1 {
		return usageErr("--sbom gates an SBOM instead of a directory: give one or the other")
	}
	format, err := report.ParseFormat(o.format)
	if err != nil {
		return usageErr("--format: %v", err)
	}
	var base *url.URL
	if o.offlineDB == "" {
		if o.server == "" {
			o.server = c.getenv("SENTINEL_SERVER")
		}
		if o.apiKey == "" {
			o.apiKey = c.getenv("SENTINEL_API_KEY")
		}
		if o.server == "" {
			return usageErr("no service to ask: set --server or SENTINEL_SERVER, or pass --offline-db FILE on an air-gapped runner")
		}
		if o.apiKey == "" {
			return usageErr("an API key with the sca:read scope is required: --api-key or SENTINEL_API_KEY")
		}
		if base, err = url.Parse(o.server); err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
			return usageErr("--server %q is not an http(s) URL", o.server)
		}
	}
	now := time.Now()
	sup, warnings, err := c.ciSuppressions(o, root, now)
	if err != nil {
		return err
	}

	// The offline database is opened while the tree is walked (both take a
	// core); a bad one stops the walk, and its error is the one reported.
	// Its advisory records are read after the walk, only those that name
	// a package found.
	var offline *ciIntel
	var offlineErr error
	loaded := make(chan struct{})
	scanCtx, stopScan := context.WithCancel(ctx)
	defer stopScan()
	if o.offlineDB != "" {
		go func() {
			defer close(loaded)
			if offline, offlineErr = ciOpenOffline(ctx, o.offlineDB, now); offlineErr != nil {
				stopScan()
			}
		}()
	} else {
		close(loaded)
	}
	o.scan.sbomNotes = true // the report's warnings (below)
	o.scan.gateDev = true   // --omit-dev is applied to the matches (ciOmitDevelopment)
	res, err := c.scan(scanCtx, root, o.scan)
	<-loaded
	if offlineErr != nil {
		return offlineErr
	}
	if offline != nil {
		defer offline.snap.Close()
		warnings = append(warnings, offline.warnings...)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var ee *exitError
		if errors.As(err, &ee) {
			return err
		}
		if o.scan.from != "" {
			return err // read sbom "FILE": ...
		}
		return fmt.Errorf("cannot scan %s: %w", root, err)
	}
	if o.scan.from != "" {
		// A component the SBOM does not locate was found in the SBOM:
		// the table's MANIFEST column and the report say so.
		for i := range res.Components {
			if len(res.Components[i].Locations) == 0 {
				res.Components[i].Locations = []string{filepath.Base(o.scan.from)}
			}
		}
	}
	if o.scan.from != "" && len(res.Components) == 0 {
		// Components it lists that cannot be checked (no purl) say why.
		why := ""
		for _, w := range res.Warnings {
			why += "; " + w.Reason
		}
		if main := res.MainProject(); main != nil {
			return fmt.Errorf("%s lists no components that can be checked besides its subject, %s %s: there is nothing to check, so the gate cannot pass%s", o.scan.from, main.Name, main.Version, why)
		}
		return fmt.Errorf("%s lists no components that can be checked: there is nothing to check, so the gate cannot pass%s", o.scan.from, why)
	}
	if o.scan.from == "" && len(res.Files) == 0 {
		if len(res.Projects) > 0 {
			// A manifest without its lockfile: ranges, not versions.
			p := res.Projects[0]
			for _, e := range res.Errors {
				if filepath.Base(e.Path) == "bun.lockb" {
					return fmt.Errorf("%s names the dependencies of %s as ranges, and its lockfile %s, bun's binary format, could not be read: there is nothing pinned to check, so the gate cannot pass; write bun.lock beside it (bun install --save-text-lockfile --frozen-lockfile --lockfile-only, bun 1.1.39 or later) and run the gate again",
						p.Locations[0], p.Name, e.Path)
				}
			}
			return fmt.Errorf("%s names the dependencies of %s as ranges, and no lockfile was found under %s: there is nothing pinned to check, so the gate cannot pass; write the lockfile first (%s) and run the gate again",
				p.Locations[0], p.Name, root, lockfileHint(p.Ecosystem))
		}
		return fmt.Errorf("no manifest or lockfile found under %s (%d files walked): there is nothing to check, so the gate cannot pass; run it at the project root, after the lockfiles are written", root, res.Walked)
	}
	if o.scan.from != "" {
		for _, w := range res.Warnings { // the SBOM's components that cannot be checked
			warnings = append(warnings, filepath.Base(o.scan.from)+": "+w.Reason)
		}
	}
	// The ecosystems the offline intel holds: a component of another is
	// not checked, and not counted as checked.
	var have map[string]bool
	if offline != nil {
		if h, ok := offline.snap.Ecosystems(); ok {
			have = h
			warnings = append(warnings, missingEcosystems(have, res.Components,
				"the offline intel database "+o.offlineDB, "export one that syncs %s (sentineld --intel-ecosystems)")...)
		}
	}
	var purls, unversioned, commits, bounds, untyped []string
	uncovered := 0
	for _, comp := range res.Components {
		if comp.Version == "" && strings.Contains(comp.Purl, "vcs_url=") {
			commits = append(commits, comp.Name) // a git dependency whose lockfile records no version
			continue
		}
		if comp.Version == "" {
			unversioned = append(unversioned, comp.Name)
			continue
		}
		if comp.Ecosystem == "" { // pkg:docker, pkg:github, pkg:conda: no OSV ecosystem
			// End-of-life data (a pkg:docker/library/python image) and
			// the service's indicators may name any purl: asked, and
			// counted as checked only if one answers.
			untyped = append(untyped, comp.Purl)
			purls = append(purls, comp.Purl)
			continue
		}
		if have != nil && !have[purl.BaseEcosystem(comp.Ecosystem)] {
			uncovered++ // warned of by missingEcosystems
			continue
		}
		if b := comp.Properties[sbom.PropVersionConstraint]; b != "" {
			bounds = append(bounds, comp.Name+b)
		}
		purls = append(purls, comp.Purl)
	}
	if len(untyped) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d components are of package types that no advisory database covers (%s), so they were checked against end-of-life data and indicators only",
			len(untyped), strings.Join(untyped[:min(len(untyped), 5)], ", ")+ciMore(len(untyped)-5)))
	}
	if len(unversioned) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d components have no pinned version and were not checked (%s): pin them in a lockfile",
			len(unversioned), strings.Join(unversioned[:min(len(unversioned), 5)], ", ")+ciMore(len(unversioned)-5)))
	}
	if len(commits) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d git dependencies are pinned to a commit without a version and were not checked (%s): advisories name versions",
			len(commits), strings.Join(commits[:min(len(commits), 5)], ", ")+ciMore(len(commits)-5)))
	}
	if len(bounds) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d components are version ranges, checked at the lowest version they allow (%s): pin them (pip freeze, a lockfile) to check what is installed",
			len(bounds), strings.Join(bounds[:min(len(bounds), 5)], ", ")+ciMore(len(bounds)-5)))
	}
	project := o.project
	if p := res.MainProject(); project == "" && p != nil && p.Name != "" {
		project = p.Name
	}
	if project == "" && o.scan.from != "" {
		project = strings.TrimSuffix(filepath.Base(o.scan.from), filepath.Ext(o.scan.from))
	}
	if project == "" {
		if abs, err := filepath.Abs(root); err == nil {
			project = filepath.Base(abs)
		}
	}
	in := report.Input{Root: root, Project: project, ToolVersion: Version, Components: res.Components, Skipped: res.Errors, Created: now.UTC(),
		Projects: res.Projects, GraphFiles: res.GraphFiles(), FailOn: o.failOn, Uncovered: uncovered}
	if in.Host, err = c.hostname(); err != nil {
		in.Host = ""
	}
	var ecosystems []string
	if offline != nil {
		in.Intel = offline.info
		in.Results, err = offline.match(ctx, purls)
	} else {
		in.Intel = report.Intel{Mode: "service", Source: o.server}
		in.Results, ecosystems, err = c.ciGate(ctx, base, o.apiKey, project, purls)
		if len(ecosystems) > 0 {
			have := map[string]bool{}
			for _, e := range ecosystems {
				have[e] = true
			}
			warnings = append(warnings, missingEcosystems(have, res.Components, "the service", "ask its operator to sync %s (--intel-ecosystems)")...)
		}
	}
	if err != nil {
		return err
	}
	// Components no advisories cover were not checked, unless an
	// indicator matched them or end-of-life data knows their release:
	// not counted as checked.
	eco := make(map[string]string, len(res.Components))
	for _, c := range res.Components {
		eco[c.Purl] = purl.BaseEcosystem(c.Ecosystem)
	}
	in.Results = slices.DeleteFunc(in.Results, func(r sentinel.MatchResult) bool {
		e, ok := eco[r.Purl]
		if ok && len(r.Matches) == 0 && r.Error == "" && (e == "" && r.EOL == nil || e != "" && len(ecosystems) > 0 && !slices.Contains(ecosystems, e)) {
			in.Uncovered++
			return true
		}
		return false
	})
	if o.scan.omitDev {
		var n, kept int
		in.Results, n, kept = ciOmitDevelopment(res, in.Results)
		in.Components, in.Projects = res.Components, res.Projects
		note := fmt.Sprintf("sbom: left out %d development-only components (--omit-dev)", n)
		if kept > 0 {
			note += fmt.Sprintf("; %d known-malicious among them still count: a package runs when it is installed, for development or not", kept)
		}
		fmt.Fprintln(c.stderr(), note)
	}
	in.Warnings = warnings
	r := report.New(in, sup)
	for _, w := range r.Warnings {
		fmt.Fprintf(c.stderr(), "sentinel: warning: %s\n", w)
	}
	if err := c.ciWrite(o, format, r, root); err != nil {
		return err
	}
	return &exitError{r.ExitCode, errors.New(r.VerdictLine())}
}

// ciOmitDevelopment is --omit-dev for the gate: the development-only
// components leave the run (res, with the edges to them), their matches
// with them, except a known-malicious package (an OSV MAL- record, a
// malicious indicator) and its malicious matches: it does its harm when
// it is installed, as a development tool is in CI. It returns the results
// left, how many components were left out and how many development-only
// ones were kept for being malicious.
func ciOmitDevelopment(res *sbom.Result, results []sentinel.MatchResult) ([]sentinel.MatchResult, int, int) {
	dev := map[string]bool{}
	for _, c := range res.Components {
		if c.Development {
			dev[c.Purl] = true
		}
	}
	malicious := map[string]bool{}
	kept := results[:0:0]
	for _, r := range results {
		if !dev[r.Purl] {
			kept = append(kept, r)
			continue
		}
		var bad []sentinel.AdvisoryMatch
		for _, m := range r.Matches {
			if m.Malicious {
				bad = append(bad, m)
			}
		}
		if len(bad) > 0 {
			malicious[r.Purl] = true
			kept = append(kept, sentinel.MatchResult{Purl: r.Purl, Matches: bad})
		}
	}
	n := res.OmitDevelopment(func(c *sentinel.Component) bool { return malicious[c.Purl] })
	return kept, n, len(malicious)
}

func ciMore(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// ciSuppressions reads the ignore file (the flag's, else the default one if
// present) and the OpenVEX documents. Any invalid file is a usage error:
// a gate must not run with suppressions it cannot read.
func (c *Command) ciSuppressions(o *ciFlags, root string, now time.Time) (*report.Suppressions, []string, error) {
	sup := &report.Suppressions{}
	var warnings []string
	name := o.ignore
	if name == "" {
		def := filepath.Join(root, DefaultIgnoreFile)
		if _, err := os.Stat(def); err == nil {
			name = def
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, nil, &exitError{ExitUsage, fmt.Errorf("ignore file %s: %w", def, err)}
		}
	}
	if name != "" {
		entries, w, err := report.LoadIgnoreFile(name, now)
		if err != nil {
			return nil, nil, &exitError{ExitUsage, fmt.Errorf("%w: fix the file, or pass another with --ignore", err)}
		}
		sup.Ignore = entries
		warnings = append(warnings, w...)
	}
	for _, v := range o.vex {
		stmts, err := report.LoadOpenVEX(v, len(sup.VEX))
		if err != nil {
			return nil, nil, &exitError{ExitUsage, err}
		}
		sup.VEX = append(sup.VEX, stmts...)
	}
	return sup, warnings, nil
}

// ciIntel is an opened offline snapshot: everything but its advisory
// records, which match reads for the purls it is given.
type ciIntel struct {
	info     report.Intel
	snap     *intel.SnapshotReader
	warnings []string
}

// ciOpenOffline opens an intel snapshot file. A snapshot that cannot be
// read, or holds no advisories, is an error: every component would pass.
func ciOpenOffline(ctx context.Context, file string, now time.Time) (*ciIntel, error) {
	snap, err := intel.OpenSnapshotFile(ctx, file)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("cannot use the offline intel database: %w; export a current one with: sentineld intel export -o FILE", err)
	}
	if snap.Records() == 0 {
		snap.Close()
		return nil, fmt.Errorf("the offline intel database %s holds no advisories, so every component would pass; export a current one with: sentineld intel export -o FILE", file)
	}
	ci := &ciIntel{info: report.Intel{Mode: "offline", Source: file, Created: snap.Created.UTC()}, snap: snap}
	if snap.KEV == nil || len(snap.KEV.Vulnerabilities) == 0 {
		ci.warnings = append(ci.warnings, fmt.Sprintf("the offline intel database %s has no KEV catalog: known-exploited components are reported as vulnerable (71), not 70", file))
	}
	if !snap.Created.IsZero() && now.Sub(snap.Created) > ciStaleAfter {
		ci.warnings = append(ci.warnings, fmt.Sprintf("the offline intel database %s is %d days old: newer advisories and KEV entries are missing; export a current one", file, int(now.Sub(snap.Created).Hours()/24)))
	}
	return ci, nil
}

// missingEcosystems warns about components of an ecosystem the intel has
// no advisory for at all (a RHEL host's packages when Red Hat is not
// synced): they pass because nothing was checked. where names the intel;
// todo says what to do, with %s for the ecosystem.
func missingEcosystems(have map[string]bool, comps []sentinel.Component, where, todo string) []string {
	missing := map[string]int{}
	for _, c := range comps {
		if eco := purl.BaseEcosystem(c.Ecosystem); eco != "" && c.Version != "" && !have[eco] {
			missing[eco]++
		}
	}
	var out []string
	for _, eco := range slices.Sorted(maps.Keys(missing)) {
		out = append(out, fmt.Sprintf("%d components are %s packages and %s has no %s advisories, so they were not checked: %s",
			missing[eco], eco, where, eco, fmt.Sprintf(todo, eco)))
	}
	return out
}

// match matches purls in order, as the service's gate does. Only the
// records naming one of the purls' packages are decoded and indexed: the
// answers are those of the whole snapshot, at a fraction of the cost.
func (ci *ciIntel) match(ctx context.Context, purls []string) ([]sentinel.MatchResult, error) {
	snap, _, err := ci.snap.ReadFor(ctx, purls)
	if err != nil {
		return nil, fmt.Errorf("cannot use the offline intel database: %w", err)
	}
	return snap.Index(intel.Options{}).MatchBatch(purls), nil
}

// ciWrite writes the chosen format to -o FILE or stdout, and the table to
// stderr unless the table itself goes to stdout. The verdict line on stderr
// is Main's (the returned error).
func (c *Command) ciWrite(o *ciFlags, format report.Format, r *report.Report, root string) error {
	opts := report.Options{URIPrefix: sarifPrefix(root)}
	tableToStderr := true
	switch {
	case o.output != "" && o.output != "-":
		var buf bytes.Buffer
		if err := report.Write(&buf, format, r, opts); err != nil {
			return err
		}
		if err := os.WriteFile(o.output, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write the %s report: %w", format, err)
		}
	case o.set["format"] || o.output == "-":
		if err := report.Write(c.stdout(), format, r, opts); err != nil {
			return fmt.Errorf("write the %s report: %w", format, err)
		}
		tableToStderr = format != report.FormatTable
	}
	if tableToStderr {
		opts.NoVerdict = true
		return report.WriteTable(c.stderr(), r, opts)
	}
	return nil
}

// sarifPrefix makes SARIF locations relative to the working directory (the
// repository checkout in CI) when DIR is inside it.
func sarifPrefix(root string) string {
	if !filepath.IsAbs(root) {
		root = filepath.Clean(root)
		if root == ".." || strings.HasPrefix(root, ".."+string(filepath.Separator)) {
			return ""
		}
		return filepath.ToSlash(root)
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// ciGate sends the purls to the service's gate, in batches, and returns the
// results in order. Errors carry the gate's exit codes.
func (c *Command) ciGate(ctx context.Context, base *url.URL, apiKey, project string, purls []string) (results []sentinel.MatchResult, ecosystems []string, err error) {
	// The service may wait 60 s for a scan slot before it answers.
	cl := c.apiClient(base, apiKey, client.Options{Timeout: 5 * time.Minute})
	defer cl.Close()
	var out []sentinel.MatchResult
	for start := 0; start == 0 || start < len(purls); start += ciBatch {
		batch := append([]string{}, purls[start:min(start+ciBatch, len(purls))]...) // never null in JSON
		var resp sentinel.GateResponse
		err := cl.Do(ctx, client.Request{Method: "POST", Path: "/v1/sca/gate", JSON: sentinel.GateRequest{Purls: batch, Project: project},
			Want: http.StatusOK, MaxAnswer: 1 << 30}, &resp)
		if err != nil {
			return nil, nil, ciExplain(ctx, err, base.String())
		}
		if len(resp.Results) != len(batch) {
			return nil, nil, fmt.Errorf("the service answered %d results for %d components: cannot decide; report this to the operator", len(resp.Results), len(batch))
		}
		out = append(out, resp.Results...)
		if start == 0 && resp.Intel != nil {
			ecosystems = resp.Intel.Ecosystems
		}
		if start == 0 && resp.Intel != nil && resp.Intel.Stale {
			// Still a verdict, but one on old data: say so where the
			// build log shows it.
			fmt.Fprintf(c.Stderr, "sentinel: warning: the service's advisory data was last synced %s ago; recent advisories may be missing (ask the operator to check GET /v1/sca/intel/status)\n",
				(time.Duration(resp.Intel.AgeSeconds) * time.Second).Round(time.Hour))
		}
	}
	return out, ecosystems, nil
}

// ciExplain turns a failed gate call into an error with the gate's exit
// code and what to do about it.
func ciExplain(ctx context.Context, err error, server string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("the gate was interrupted: %w", ctx.Err())
	}
	var ae *client.Error
	if !errors.As(err, &ae) {
		if errors.Is(err, client.ErrBadAnswer) {
			return fmt.Errorf("%w: cannot decide; retry, or report this to the operator", err)
		}
		return &exitError{ExitCIUnavailable, fmt.Errorf("cannot reach the service at %s: %w; check --server / SENTINEL_SERVER and the network, retry, or gate offline with --offline-db FILE", server, err)}
	}
	switch {
	case ae.Status == http.StatusTooManyRequests && ae.Code == wire.CodeScanCapacity:
		after := ""
		if ae.RetryAfter > 0 {
			after = fmt.Sprintf(" (the service suggests %s)", ae.RetryAfter)
		}
		return &exitError{ExitCICapacity, fmt.Errorf("scan_capacity (exit %d): the organization's concurrent scans stayed busy and no slot opened in time; retry the job later%s", ExitCICapacity, after)}
	case ae.Status == http.StatusForbidden && ae.Code == wire.CodeMetered:
		return &exitError{ExitCIMetered, fmt.Errorf("metered (exit %d): the organization's monthly scans meter is exhausted; ask an administrator to raise the limit, or wait for next month", ExitCIMetered)}
	case ae.RateLimited():
		return &exitError{ExitCIUnavailable, fmt.Errorf("the service is still rate limiting this API key after %d attempts (%s); retry the job later", client.Attempts, ae.StatusLine())}
	case ae.Status == http.StatusUnauthorized:
		return fmt.Errorf("the service refused the API key (%s): check --api-key / SENTINEL_API_KEY; the key may be revoked, mistyped or from another deployment", ae.StatusLine())
	case ae.Status == http.StatusForbidden:
		scope := ae.Scope
		if scope == "" {
			scope = "sca:read"
		}
		return fmt.Errorf("the API key may not use the gate (%s): create a key with the %s scope", ae.StatusLine(), scope)
	case ae.Status >= 500:
		return &exitError{ExitCIUnavailable, fmt.Errorf("the service at %s is unavailable (%s); retry, or gate offline with --offline-db FILE", server, ae.StatusLine())}
	}
	return fmt.Errorf("the service refused the gate request (%s)", ae.StatusLine())
}

// lockfileHint is how a project of the ecosystem writes its lockfile.
func lockfileHint(eco string) string {
	switch eco {
	case "npm":
		return "npm install --package-lock-only, yarn install or pnpm install"
	case "crates.io":
		return "cargo generate-lockfile"
	case "PyPI":
		return "uv lock, poetry lock, or pip freeze > requirements.txt in the project's environment"
	case "Packagist":
		return "composer update --no-install"
	case "Pub":
		return "dart pub get"
	case "Hex":
		return "mix deps.get"
	}
	return "the package manager's lock or install command"
}
