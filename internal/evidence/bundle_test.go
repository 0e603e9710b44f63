package evidence_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
	"github.com/sentinel-sca/sentinel/internal/signing"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// artifactNames are the signed files of testSource's bundle.
var artifactNames = []string{
	"sbom/submissions/sub_aaaaaaaaaaaaaaaa.cdx.json", "sbom/submissions/sub_bbbbbbbbbbbbbbbb.cdx.json",
	"sbom/consolidated.cdx.json", "drift.csv", "findings.csv", "audit.csv", "compliance.csv", "cover.pdf", "verification.txt",
}

func TestBuildLayout(t *testing.T) {
	ca := MustCA(t, created.Add(-24*time.Hour))
	data, res := MustBuild(t, ca, testSource(), time.Now())
	files := zipFiles(t, data)

	var want []string
	for _, a := range artifactNames {
		want = append(want, a, a+".sig", a+".pem", a+".ts.json")
	}
	want = append(want, "chain.pem", "tsa-chain.pem")
	slices.Sort(want)
	if diff := cmp.Diff(want, sortedKeys(files)); diff != "" {
		t.Errorf("zip layout mismatch (-want +got):\n%s", diff)
	}
	var names []string
	for _, a := range res.Artifacts {
		names = append(names, a.Name)
		sum := sha256.Sum256(files[a.Name])
		if a.SHA256 != hex.EncodeToString(sum[:]) || a.Size != int64(len(files[a.Name])) {
			t.Errorf("%s: result digest %s/%d, file %x/%d", a.Name, a.SHA256, a.Size, sum, len(files[a.Name]))
		}
	}
	if diff := cmp.Diff(artifactNames, names); diff != "" {
		t.Errorf("Result.Artifacts mismatch (-want +got):\n%s", diff)
	}
	// Submissions are the agent's bytes, untouched.
	for _, s := range testSource().subs {
		if got := files[evidence.SubmissionFile(s.ID)]; !bytes.Equal(got, s.Original) {
			t.Errorf("%s = %q, want the original %q", s.ID, got, s.Original)
		}
	}
	if res.Components != 4 || res.Submissions != 2 || res.KEV != 1 || res.Severity.Critical != 1 || res.Severity.Medium != 1 {
		t.Errorf("Result counts = %+v", res)
	}

	vt := string(files["verification.txt"])
	for _, s := range []string{
		"Bundle: bundle_testtesttesttest",
		"Organization: Acme Widgets Société (acme)",
		"Description: Q4 due diligence Signing identity: https://evil.example", // a newline cannot forge a line
		"Created: 2026-11-21T22:19:05Z",
		"Window covered: 2026-08-23T22:19:05Z to 2026-11-21T22:19:05Z (90 days)",
		"Signature algorithm: ECDSA P-256 with SHA-256",
		"Key fingerprint (SHA-256 of SubjectPublicKeyInfo): " + res.Fingerprint,
		"Signing identity: " + testIdentity,
		"OIDC issuer: " + testIssuer,
		"Root certificate SHA-256 fingerprint: " + verify.CertFingerprint(ca.Root()),
		"production: identity " + testIdentity + ", issuer " + testIssuer,
		"staging: identity https://staging.sentinel.example/orgs/acme/evidence, issuer https://staging.sentinel.example",
		"sbom/consolidated.cdx.json is deterministic",
		"cosign verify-blob --certificate verification.txt.pem --signature verification.txt.sig",
	} {
		if !strings.Contains(vt, s) {
			t.Errorf("verification.txt lacks %q", s)
		}
	}
	for _, a := range res.Artifacts {
		if a.Name == "verification.txt" {
			continue
		}
		cmd := signing.CosignCommand(signing.DefaultFiles(a.Name), signing.IdentityRegexp(testIdentity), testIssuer)
		if !strings.Contains(vt, "Artifact: "+a.Name+"\n  SHA-256: "+a.SHA256) || !strings.Contains(vt, cmd) {
			t.Errorf("verification.txt lacks %s's digest or command %s", a.Name, cmd)
		}
	}

	// The CSVs.
	for name, want := range map[string][]string{
		"drift.csv": {"at,change,purl,name,from_version,to_version,asset,submission_id",
			"2026-11-21T21:19:05Z,changed,pkg:npm/lodash@4.17.21,lodash,4.17.15,4.17.21,web-1,sub_bbbbbbbbbbbbbbbb"},
		"findings.csv": {
			"finding_id,status,category,severity,risk_score,known_exploited,advisory_id,aliases,cwe,component,version,purl,asset,fixed_version,compliance,created_at,sla_due_at,accepted_reason,accepted_until",
			"fnd_1,open,vulnerable_component,critical,95,true,GHSA-1,CVE-2024-1 CVE-2024-2,CWE-1395,Django,4.2.0,pkg:pypi/django@4.2.0,web-1,4.2.8,RA-5 SI-2 CM-8,2026-11-20T22:19:05Z,2026-11-24T22:19:05Z,,",
			`fnd_2,accepted,vulnerable_component,medium,50,false,EOL-node,,CWE-1104,express,4.18.2,pkg:npm/express@4.18.2,web-1,,RA-5 SI-2 SA-22 CM-8,2026-11-20T22:19:05Z,,"'=HYPERLINK(""x"") compensating control",2027-02-21T22:19:05Z`},
		"compliance.csv": {"catalog,control,title,findings,open,accepted,critical,high,medium,low,known_exploited,basis",
			"nist-800-53,RA-5,Vulnerability Monitoring and Scanning,2,1,1,1,0,1,0,1,every vulnerable-component finding",
			"nist-800-53,SI-2,Flaw Remediation,2,1,1,1,0,1,0,1,every vulnerable-component finding",
			"nist-800-53,SA-22,Unsupported System Components,1,0,1,0,0,1,0,0,end-of-life findings (CWE-1104)",
			"nist-800-53,CM-8,System Component Inventory,2,1,1,1,0,1,0,1,every finding tied to an inventoried component"},
		"audit.csv": {"id,created_at,actor,action,target,address,details",
			`1,2026-11-21T22:18:05Z,key_1,bundle.create,bundle_x,192.0.2.1,"{""a"":""x"",""b"":1}"`},
	} {
		got := strings.Split(strings.TrimSuffix(string(files[name]), "\n"), "\n")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
		}
	}
}

func TestConsolidatedDeterministic(t *testing.T) {
	ca := MustCA(t, created.Add(-24*time.Hour))
	a, _ := MustBuild(t, ca, testSource(), time.Now())
	// Another CA, another key, another time: the same data still gives
	// the same consolidated SBOM.
	b, _ := MustBuild(t, MustCA(t, created.Add(-time.Hour)), testSource(), time.Now().Add(time.Minute))
	ca1, cb := zipFiles(t, a)["sbom/consolidated.cdx.json"], zipFiles(t, b)["sbom/consolidated.cdx.json"]
	if !bytes.Equal(ca1, cb) {
		t.Fatalf("consolidated differs between builds:\n%s\n%s", ca1, cb)
	}
	// x/net is there for development only; lodash is for development on
	// web-1 but deployed on db-1, so it is not.
	want := `{"bomFormat":"CycloneDX","components":[` +
		`{"bom-ref":"pkg:golang/golang.org/x/net@v0.1.0","name":"golang.org/x/net","properties":[{"name":"sentinel:asset","value":"db-1"},{"name":"sentinel:ecosystem","value":"Go"}],"purl":"pkg:golang/golang.org/x/net@v0.1.0","scope":"excluded","type":"library","version":"v0.1.0"},` +
		`{"bom-ref":"pkg:npm/express@4.18.2","name":"express","properties":[{"name":"sentinel:asset","value":"web-1"},{"name":"sentinel:ecosystem","value":"npm"}],"purl":"pkg:npm/express@4.18.2","type":"library","version":"4.18.2"},` +
		`{"bom-ref":"pkg:npm/lodash@4.17.21","name":"lodash","properties":[{"name":"sentinel:asset","value":"db-1"},{"name":"sentinel:asset","value":"web-1"},{"name":"sentinel:ecosystem","value":"npm"}],"purl":"pkg:npm/lodash@4.17.21","type":"library","version":"4.17.21"},` +
		`{"bom-ref":"pkg:pypi/django@4.2.0","name":"Django","properties":[{"name":"sentinel:asset","value":"web-1"},{"name":"sentinel:ecosystem","value":"PyPI"}],"purl":"pkg:pypi/django@4.2.0","type":"library","version":"4.2.0"}],` +
		`"dependencies":[{"dependsOn":["pkg:npm/lodash@4.17.21"],"ref":"pkg:npm/express@4.18.2"}],` +
		`"metadata":{"component":{"bom-ref":"org:acme","name":"Acme Widgets Société","type":"application"},"properties":[{"name":"sentinel:components","value":"4"},{"name":"sentinel:organization","value":"acme"}],"tools":{"components":[{"name":"sentinel","type":"application"}]}},"specVersion":"1.5","version":1}` + "\n"
	if diff := cmp.Diff(want, string(ca1)); diff != "" {
		t.Errorf("consolidated mismatch (-want +got):\n%s", diff)
	}
	if err := validation.Validate(ca1); err != nil {
		t.Errorf("consolidated is not valid CycloneDX 1.5: %v", err)
	}
	var v any
	if err := json.Unmarshal(ca1, &v); err != nil {
		t.Fatal(err)
	}
	// Canonical: re-encoding with sorted keys and no HTML escaping gives
	// the same bytes.
	var re bytes.Buffer
	enc := json.NewEncoder(&re)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	if !bytes.Equal(re.Bytes(), ca1) {
		t.Errorf("not canonical JSON:\n%s\n%s", re.Bytes(), ca1)
	}
}

func TestConsolidatedRejectsUnsortedSource(t *testing.T) {
	src := testSource()
	src.components[0], src.components[2] = src.components[2], src.components[0]
	ca := MustCA(t, created.Add(-24*time.Hour))
	var buf bytes.Buffer
	_, err := evidence.Build(t.Context(), &buf, src, evidence.Options{Org: testOrg(), BundleID: "bundle_x", CreatedAt: created,
		WindowStart: created.AddDate(0, 0, -1), WindowEnd: created, CA: ca, Identity: testIdentity, Issuer: testIssuer, TempDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Errorf("Build with an unsorted source: %v, want out of order", err)
	}
}

func TestNormalizeScope(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []string
		want []string
		err  bool
	}{
		{name: "omitted_is_all", in: nil, want: evidence.Scopes},
		{name: "canonical_order_deduplicated", in: []string{"audit", "sbom", "audit"}, want: []string{"sbom", "audit"}},
		{name: "empty", in: []string{}, err: true},
		{name: "unknown", in: []string{"sbom", "secrets"}, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evidence.NormalizeScope(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("NormalizeScope(%q) error %v", tc.in, err)
			}
			if err != nil {
				if e := err.(interface{ Error() string }); !strings.Contains(e.Error(), "invalid") {
					t.Errorf("error %v is not invalid", err)
				}
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("NormalizeScope(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// tamperCases are changes a recipient must detect, with the artifact and
// check VerifyBundle must name.
type tamperCase struct {
	name     string
	edit     func(map[string][]byte)
	opts     verify.Options
	artifact string
	check    string
}

func tamperCases(t *testing.T) []tamperCase {
	var cs []tamperCase
	for _, a := range artifactNames {
		cs = append(cs, tamperCase{name: "changed_byte_" + a, edit: func(f map[string][]byte) { f[a][len(f[a])/2] ^= 0x01 },
			artifact: a, check: "signature"})
	}
	other := MustCA(t, created.Add(-time.Hour))
	return append(cs,
		tamperCase{name: "wrong_identity", opts: verify.Options{IdentityRegexp: signing.IdentityRegexp("https://sentinel.example/orgs/other/evidence")},
			artifact: "verification.txt", check: "identity"},
		tamperCase{name: "wrong_issuer", opts: verify.Options{Issuer: "https://accounts.example"}, artifact: "verification.txt", check: "issuer"},
		tamperCase{name: "pinned_other_root", opts: verify.Options{Roots: []*x509Certificate{other.Root()}}, artifact: "verification.txt", check: "chain"},
		tamperCase{name: "artifact_removed", edit: func(f map[string][]byte) {
			for _, s := range []string{"", ".sig", ".pem", ".ts.json"} {
				delete(f, "drift.csv"+s)
			}
		}, artifact: "drift.csv", check: "listing"},
		tamperCase{name: "file_added", edit: func(f map[string][]byte) { f["extra.csv"] = []byte("a,b\n") }, artifact: "extra.csv", check: "listing"},
		tamperCase{name: "signature_swapped", edit: func(f map[string][]byte) { f["audit.csv.sig"] = f["drift.csv.sig"] }, artifact: "audit.csv", check: "signature"},
	)
}

func TestVerifyBundle(t *testing.T) {
	ca := MustCA(t, created.Add(-24*time.Hour))
	// Signed two hours ago: the 15-minute leaf has expired; the
	// timestamps keep the signatures valid.
	data, _ := MustBuild(t, ca, testSource(), time.Now().Add(-2*time.Hour))
	rep := verifyBytes(t, data, verify.Options{})
	if !rep.OK || len(rep.Artifacts) != len(artifactNames) || rep.RootPinned {
		t.Fatalf("VerifyBundle of a good bundle:\n%s", reportText(rep))
	}
	if rep.Identity != signing.IdentityRegexp(testIdentity) || rep.Issuer != testIssuer || rep.BundleID != "bundle_testtesttesttest" {
		t.Errorf("defaults from verification.txt: %q %q %q", rep.Identity, rep.Issuer, rep.BundleID)
	}
	if rep := verifyBytes(t, data, verify.Options{Roots: []*x509Certificate{ca.Root()}}); !rep.OK || !rep.RootPinned {
		t.Errorf("pinned to the right root:\n%s", reportText(rep))
	}
	files := zipFiles(t, data)
	for _, tc := range tamperCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			bad := data
			if tc.edit != nil {
				bad = rezip(t, files, tc.edit)
			}
			rep := verifyBytes(t, bad, tc.opts)
			if rep.OK {
				t.Fatalf("verified:\n%s", reportText(rep))
			}
			var got []string
			for _, a := range rep.Failed() {
				got = append(got, a.Name+":"+a.Check)
			}
			if !slices.Contains(got, tc.artifact+":"+tc.check) {
				t.Errorf("failures %q, want %s failing the %s check\n%s", got, tc.artifact, tc.check, reportText(rep))
			}
			if !strings.Contains(reportText(rep), "FAIL  "+tc.artifact) {
				t.Errorf("report does not name %s:\n%s", tc.artifact, reportText(rep))
			}
		})
	}
}

// offlineEnv gives cosign an empty home and proxies that point nowhere:
// any network access fails the run.
func offlineEnv(t *testing.T, cosign string) []string {
	home := t.TempDir()
	bin := t.TempDir()
	// verification.txt says "cosign ...": put this cosign first on PATH.
	if err := os.Symlink(cosign, filepath.Join(bin, "cosign")); err != nil {
		t.Fatal(err)
	}
	return []string{"HOME=" + home, "TUF_ROOT=" + filepath.Join(home, "tuf"), "PATH=" + bin + ":" + os.Getenv("PATH"),
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9", "NO_PROXY=", "no_proxy="}
}

var commandLine = regexp.MustCompile(`(?m)^    (cosign verify-blob .*)$`)

// TestCosignVerifyBundle runs the exact commands verification.txt prints,
// with the real cosign, on a bundle signed two hours ago (its leaf
// certificate long expired: the clock is past the certificate's expiry),
// then on tampered copies.
func TestCosignVerifyBundle(t *testing.T) {
	cosign := testenv.Cosign(t)
	if testing.Short() {
		t.Skip("runs cosign about 30 times")
	}
	ca := MustCA(t, created.Add(-24*time.Hour))
	data, res := MustBuild(t, ca, testSource(), time.Now().Add(-2*time.Hour))
	files := zipFiles(t, data)
	leaf, _ := verify.ParseRoots(files["cover.pdf.pem"])
	if !leaf[0].NotAfter.Before(time.Now()) {
		t.Fatalf("leaf valid until %v: not expired", leaf[0].NotAfter)
	}
	commands := commandLine.FindAllStringSubmatch(string(files["verification.txt"]), -1)
	if len(commands) != len(res.Artifacts) {
		t.Fatalf("verification.txt has %d commands for %d artifacts", len(commands), len(res.Artifacts))
	}
	env := offlineEnv(t, cosign)
	run := func(dir, command string) (bool, string) {
		cmd := exec.Command("sh", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return err == nil && strings.Contains(string(out), "Verified OK"), string(out)
	}
	good := t.TempDir()
	extract(t, good, files)
	for i, c := range commands {
		ok, out := run(good, c[1])
		if !ok {
			t.Errorf("%s\nfailed on the good bundle:\n%s", c[1], out)
		}
		if i == 0 {
			t.Logf("%s\n%s", c[1], out)
		}
	}
	commandFor := func(name string) string {
		for _, c := range commands {
			if strings.HasSuffix(c[1], " "+name) {
				return c[1]
			}
		}
		t.Fatalf("no command for %s", name)
		return ""
	}
	// A changed byte in any artifact fails its command.
	for _, a := range artifactNames {
		dir := t.TempDir()
		extract(t, dir, rezipFiles(files, func(f map[string][]byte) { f[a][len(f[a])/2] ^= 0x01 }))
		if ok, out := run(dir, commandFor(a)); ok || !strings.Contains(out, "invalid signature") {
			t.Errorf("changed byte in %s: verified=%v\n%s", a, ok, out)
		}
	}
	// A wrong identity or issuer fails.
	base := commandFor("findings.csv")
	re := signing.IdentityRegexp(testIdentity)
	for name, cmd := range map[string]string{
		"wrong_identity": strings.Replace(base, "'"+re+"'", "'^https://sentinel\\.example/orgs/other/evidence$'", 1),
		"wrong_issuer":   strings.Replace(base, "--certificate-oidc-issuer "+testIssuer, "--certificate-oidc-issuer https://accounts.example", 1),
	} {
		if cmd == base {
			t.Fatalf("%s: could not edit the command %s", name, base)
		}
		if ok, out := run(good, cmd); ok || !strings.Contains(out, "none of the expected identities matched") {
			t.Errorf("%s: verified=%v\n%s\n%s", name, ok, cmd, out)
		}
	}
}

func rezipFiles(files map[string][]byte, edit func(map[string][]byte)) map[string][]byte {
	cp := map[string][]byte{}
	for k, v := range files {
		cp[k] = bytes.Clone(v)
	}
	edit(cp)
	return cp
}

func TestBundleCoverPdftotext(t *testing.T) {
	pdftotext := testenv.Tool(t, "pdftotext", "apt-get install poppler-utils")
	data, _ := MustBuild(t, MustCA(t, created.Add(-24*time.Hour)), testSource(), time.Now())
	dir := t.TempDir()
	path := filepath.Join(dir, "cover.pdf")
	os.WriteFile(path, zipFiles(t, data)["cover.pdf"], 0o644)
	out, err := exec.Command(pdftotext, "-layout", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	flat := regexp.MustCompile(`\s+`).ReplaceAllString(string(out), " ")
	for _, want := range []string{"Acme Widgets Société", "bundle_testtesttesttest", "Critical 1", "Medium 1",
		"Total findings 2", "Known exploited 1", "Components 4", "SBOM submissions 2", "2026-08-23 to 2026-11-21 (90 days)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("pdftotext output lacks %q:\n%s", want, out)
		}
	}
}

func TestPassword(t *testing.T) {
	token, hash := evidence.NewShareToken()
	raw, err := base64URL(token)
	if err != nil || len(raw)*8 < 256 {
		t.Errorf("token %q: %d bits, %v", token, len(raw)*8, err)
	}
	if sum := sha256.Sum256([]byte(token)); !bytes.Equal(hash, sum[:]) {
		t.Error("token hash is not SHA-256 of the token")
	}
	pw := evidence.NewPassword()
	if !regexp.MustCompile(`^[a-z2-9]{4}(-[a-z2-9]{4}){5}$`).MatchString(pw) {
		t.Errorf("password %q", pw)
	}
	h := evidence.HashPassword(pw)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, pw) {
		t.Errorf("hash %q", h)
	}
	for _, tc := range []struct {
		try  string
		want bool
	}{{pw, true}, {" " + pw + "\n", true}, {pw[:len(pw)-1], false}, {"", false}} {
		if ok, err := evidence.CheckPassword(h, tc.try); ok != tc.want || err != nil {
			t.Errorf("CheckPassword(%q) = %v, %v", tc.try, ok, err)
		}
	}
	if _, err := evidence.CheckPassword("$2a$10$bcrypt", pw); err == nil {
		t.Error("a non-argon2id hash was accepted")
	}
}
