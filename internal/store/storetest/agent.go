package storetest

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testAgent runs the agent aggregate's cases (PKI records, enrollment,
// agents, submissions, the inventory) on one store; each case makes its
// own organizations.
func testAgent(t *testing.T, db *store.DB) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, db *store.DB)
	}{
		{"agent_cas", testAgentCAs},
		{"enrollment_tokens", testEnrollmentTokens},
		{"enrollment_token_used_once_concurrently", testEnrollmentTokenConcurrent},
		{"agents", testAgents},
		{"submissions", testSubmissions},
		{"inventory_search", testInventorySearch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db.Clock = time.Now
			defer func() { db.Clock = time.Now }()
			tc.fn(t, db)
		})
	}
}

// uniqueSlug returns s with a random suffix: the cases of testAgent share
// one store.
func uniqueSlug(s string) string { return s + "-" + sentinel.NewID("")[:8] }

func testAgentCAs(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, uniqueSlug("a"))
	srv := &sentinel.AgentCA{Name: store.ServerCAName, Cert: []byte("cert-1"), KeySealed: []byte("key-1"), SKI: "aa", Fingerprint: "f1"}
	got, err := db.CreateAgentCA(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	// A second creation (another replica) keeps the first.
	again, err := db.CreateAgentCA(ctx, &sentinel.AgentCA{Name: store.ServerCAName, Cert: []byte("cert-2"), KeySealed: []byte("key-2"), SKI: "bb", Fingerprint: "f2"})
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Cert) != "cert-1" || !bytes.Equal(again.KeySealed, got.KeySealed) || again.OrgID != "" {
		t.Errorf("second create replaced the CA: %+v", again)
	}
	if _, err := db.CreateAgentCA(ctx, &sentinel.AgentCA{Name: a.ID, OrgID: a.ID, Cert: []byte("org"), KeySealed: []byte("k"), SKI: "cc", Fingerprint: "f3"}); err != nil {
		t.Fatal(err)
	}
	oc, err := db.FindOrgAgentCABySKI(ctx, "cc")
	if err != nil || oc.OrgID != a.ID || oc.Name != a.ID {
		t.Fatalf("FindOrgAgentCABySKI(cc) = %+v, %v", oc, err)
	}
	// The server CA never vouches for agents.
	if _, err := db.FindOrgAgentCABySKI(ctx, "aa"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("server CA found as an organization CA: %v", err)
	}
	if _, err := db.FindAgentCA(ctx, "nope"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("missing CA: %v", err)
	}
}

func testEnrollmentTokens(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, uniqueSlug("a"))
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	db.Clock = func() time.Time { return now }
	tok := &sentinel.EnrollmentToken{ID: sentinel.NewID(sentinel.PrefixEnrollment), OrgID: a.ID, Hash: store.HashKey("t1"), CreatedBy: "admin-cli"}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateEnrollmentToken(ctx, tok, 24*time.Hour) }); err != nil {
		t.Fatal(err)
	}
	if !tok.ExpiresAt.Equal(now.Add(24 * time.Hour)) {
		t.Errorf("ExpiresAt = %v", tok.ExpiresAt)
	}
	if org, err := db.PeekEnrollmentToken(ctx, store.HashKey("t1")); err != nil || org != a.ID {
		t.Fatalf("PeekEnrollmentToken = %q, %v", org, err)
	}
	use := func(hash []byte) (*sentinel.EnrollmentToken, error) {
		var got *sentinel.EnrollmentToken
		err := db.InTx(ctx, func(tx *store.Tx) (err error) { got, err = tx.UseEnrollmentToken(ctx, hash, "agt_1"); return err })
		return got, err
	}
	got, err := use(store.HashKey("t1"))
	if err != nil || got.OrgID != a.ID || got.ID != tok.ID || got.UsedAt == nil {
		t.Fatalf("first use: %+v, %v", got, err)
	}
	if _, err := use(store.HashKey("t1")); sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
		t.Errorf("second use: %v, want unauthorized", err)
	}
	if _, err := db.PeekEnrollmentToken(ctx, store.HashKey("t1")); sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
		t.Errorf("peek used token: %v", err)
	}
	if _, err := use(store.HashKey("unknown")); sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
		t.Errorf("unknown token: %v", err)
	}
	// Expiry.
	old := &sentinel.EnrollmentToken{ID: sentinel.NewID(sentinel.PrefixEnrollment), OrgID: a.ID, Hash: store.HashKey("t2"), CreatedBy: "x"}
	_ = db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateEnrollmentToken(ctx, old, 24*time.Hour) })
	now = now.Add(24*time.Hour + time.Millisecond)
	if _, err := use(store.HashKey("t2")); sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
		t.Errorf("expired token: %v", err)
	}
}

func testEnrollmentTokenConcurrent(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, uniqueSlug("a"))
	tok := &sentinel.EnrollmentToken{ID: sentinel.NewID(sentinel.PrefixEnrollment), OrgID: a.ID, Hash: store.HashKey("race"), CreatedBy: "x"}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateEnrollmentToken(ctx, tok, time.Hour) }); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.InTx(ctx, func(tx *store.Tx) error {
				_, err := tx.UseEnrollmentToken(ctx, store.HashKey("race"), "agt")
				return err
			})
			if err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			} else if sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Errorf("token used %d times, want 1", wins)
	}
}

func testAgents(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, uniqueSlug("a")), MustOrg(t, db, uniqueSlug("b"))
	ag := &sentinel.Agent{ID: "agt_1", OrgID: a.ID, Host: "build-1", Serial: "abc123", Fingerprint: "ff", TokenID: "enr_1",
		NotAfter: time.Date(2027, 11, 21, 0, 0, 0, 0, time.UTC)}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateAgent(ctx, ag) }); err != nil {
		t.Fatal(err)
	}
	got, err := db.FindAgentBySerial(ctx, a.ID, "abc123")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ag, got); diff != "" {
		t.Errorf("FindAgentBySerial mismatch (-want +got):\n%s", diff)
	}
	if _, err := db.FindAgentBySerial(ctx, b.ID, "abc123"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("other org's agent: %v", err)
	}
	// Revocation, by the owning organization only.
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.RevokeAgent(ctx, b.ID, "agt_1"); return err })
	if sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("revoke from another org: %v, want not_found", err)
	}
	if r, _ := db.AgentRevoked(ctx, a.ID, "abc123"); r {
		t.Error("revoked before revocation")
	}
	if err := db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.RevokeAgent(ctx, a.ID, "agt_1"); return err }); err != nil {
		t.Fatal(err)
	}
	if r, err := db.AgentRevoked(ctx, a.ID, "abc123"); !r || err != nil {
		t.Errorf("AgentRevoked = %v, %v; want true", r, err)
	}
	if r, _ := db.AgentRevoked(ctx, b.ID, "abc123"); r {
		t.Error("revocation visible under another organization")
	}
	if l, _, _ := db.ListAgents(ctx, a.ID, sentinel.Page{Limit: 10}); len(l) != 1 || l[0].RevokedAt == nil {
		t.Errorf("ListAgents = %+v", l)
	}
	if l, _, _ := db.ListAgents(ctx, b.ID, sentinel.Page{Limit: 10}); len(l) != 0 {
		t.Errorf("other org lists %d agents", len(l))
	}
	dup := *ag
	dup.ID = "agt_2"
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateAgent(ctx, &dup) }); sentinel.ErrorCode(err) != sentinel.ECONFLICT {
		t.Errorf("duplicate serial: %v, want conflict", err)
	}
}

// MustSubmission stores a submission of items from host or fails the test.
func MustSubmission(tb testing.TB, db *store.DB, org *sentinel.Organization, host string, body []byte, items ...sentinel.InventoryItem) *sentinel.Submission {
	tb.Helper()
	s := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID, Host: host, SpecVersion: "1.5",
		ComponentCount: len(items), Size: int64(len(body)), SHA256: "00"}
	err := db.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateSubmission(context.Background(), s, body, items) })
	if err != nil {
		tb.Fatalf("CreateSubmission: %v", err)
	}
	return s
}

func testSubmissions(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, uniqueSlug("a")), MustOrg(t, db, uniqueSlug("b"))
	body := []byte("{\"bomFormat\": \"CycloneDX\",\n \"specVersion\": \"1.5\"}\n\x00\xff")
	dev := func(it sentinel.InventoryItem) sentinel.InventoryItem { it.Development = true; return it }
	items := []sentinel.InventoryItem{
		dev(purl.ItemFromPurl("pkg:npm/lodash@4.17.15", "", "")),
		purl.ItemFromPurl("pkg:npm/lodash@4.17.15", "", ""), // duplicate: one row, not development-only
		dev(purl.ItemFromPurl("pkg:pypi/Django_Rest@3.0", "", "")),
		purl.ItemFromPurl("", "Internal Tool", "1.0"),
	}
	s := MustSubmission(t, db, a, "web-1", body, items...)
	if s.IndexedCount != 3 {
		t.Errorf("IndexedCount = %d, want 3", s.IndexedCount)
	}
	got, err := db.FindSubmission(ctx, a.ID, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("FindSubmission mismatch (-want +got):\n%s", diff)
	}
	raw, err := db.SubmissionBody(ctx, a.ID, s.ID)
	if err != nil || !bytes.Equal(raw, body) {
		t.Errorf("SubmissionBody = %q, %v; want the original bytes", raw, err)
	}
	if _, err := db.FindSubmission(ctx, b.ID, s.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("other org FindSubmission: %v", err)
	}
	if _, err := db.SubmissionBody(ctx, b.ID, s.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("other org SubmissionBody: %v", err)
	}
	its, err := db.SubmissionItems(ctx, a.ID, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []sentinel.InventoryItem{
		{Purl: "", Ecosystem: "", Name: "internal tool", Version: "1.0"},
		{Purl: "pkg:npm/lodash@4.17.15", Ecosystem: "npm", Name: "lodash", Version: "4.17.15"},
		{Purl: "pkg:pypi/Django_Rest@3.0", Ecosystem: "PyPI", Name: "django-rest", Version: "3.0", Development: true},
	}
	if diff := cmp.Diff(want, its); diff != "" {
		t.Errorf("SubmissionItems mismatch (-want +got):\n%s", diff)
	}
	// The live components the watch re-matches keep the marks.
	live, err := db.LiveComponents(ctx, a.ID, []sentinel.PackageRef{{Ecosystem: "npm", Name: "lodash"}, {Ecosystem: "PyPI", Name: "django-rest"}})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(live, func(x, y sentinel.LiveComponent) int { return strings.Compare(x.Purl, y.Purl) })
	if len(live) != 2 || live[0].Development || !live[1].Development {
		t.Errorf("LiveComponents = %+v, want lodash for production, django-rest for development", live)
	}
	if its, _ := db.SubmissionItems(ctx, b.ID, s.ID); len(its) != 0 {
		t.Errorf("other org sees %d items", len(its))
	}
	later := time.Now().Add(time.Minute)
	db.Clock = func() time.Time { return later }
	for i := 0; i < 3; i++ {
		MustSubmission(t, db, a, "web-2", nil)
	}
	p1, next, err := db.ListSubmissions(ctx, a.ID, time.Time{}, time.Time{}, sentinel.Page{Limit: 3})
	if err != nil || len(p1) != 3 || next == "" || p1[0].ID != s.ID {
		t.Fatalf("page 1: %d, %q, %v", len(p1), next, err)
	}
	p2, next2, _ := db.ListSubmissions(ctx, a.ID, time.Time{}, time.Time{}, sentinel.Page{Limit: 3, Cursor: next})
	if len(p2) != 1 || next2 != "" {
		t.Errorf("page 2: %d, %q", len(p2), next2)
	}
	if l, _, _ := db.ListSubmissions(ctx, b.ID, time.Time{}, time.Time{}, sentinel.Page{Limit: 10}); len(l) != 0 {
		t.Errorf("other org lists %d submissions", len(l))
	}
}

func testInventorySearch(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, uniqueSlug("a")), MustOrg(t, db, uniqueSlug("b"))
	t0 := time.Date(2026, 11, 1, 10, 30, 15, 0, time.UTC)
	now := t0
	db.Clock = func() time.Time { return now }
	MustSubmission(t, db, a, "web-1", nil,
		purl.ItemFromPurl("pkg:npm/lodash@4.17.15", "", ""),
		purl.ItemFromPurl("pkg:pypi/Flask_Login@0.6.2", "", ""),
		purl.ItemFromPurl("pkg:cargo/serde_json@1.0.0", "", ""),
		purl.ItemFromPurl("pkg:golang/github.com/Foo/Bar@v1.2.3", "", ""),
		purl.ItemFromPurl("pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", "", ""))
	now = t0.Add(time.Hour)
	MustSubmission(t, db, a, "web-1", nil, purl.ItemFromPurl("pkg:npm/lodash@4.17.15", "", ""))
	now = t0.Add(2 * time.Hour)
	devItem := func(it sentinel.InventoryItem) sentinel.InventoryItem { it.Development = true; return it }
	MustSubmission(t, db, a, "db-1", nil, devItem(purl.ItemFromPurl("pkg:npm/lodash@4.17.21", "", "")),
		purl.ItemFromPurl("pkg:pypi/flask-login@0.6.3", "", ""),
		purl.ItemFromPurl("pkg:maven/org.example.fork/log4j-core@1.0", "", ""))
	MustSubmission(t, db, b, "other", nil, purl.ItemFromPurl("pkg:npm/lodash@4.17.15", "", ""),
		purl.ItemFromPurl("pkg:maven/org.apache.logging.log4j/log4j-core@2.17.0", "", ""))

	type row struct {
		Host, Version string
		Occ           int
		First, Last   time.Time
	}
	find := func(name, version string) []row {
		t.Helper()
		ss, err := db.FindSightings(ctx, a.ID, name, version)
		if err != nil {
			t.Fatal(err)
		}
		var out []row
		for _, s := range ss {
			out = append(out, row{s.Host, s.Version, s.Occurrences, s.FirstSeen, s.LastSeen})
		}
		return out
	}
	tests := []struct {
		name, query, version string
		want                 []row
	}{
		{"any_version", "lodash", "", []row{{"db-1", "4.17.21", 1, t0.Add(2 * time.Hour), t0.Add(2 * time.Hour)}, {"web-1", "4.17.15", 2, t0, t0.Add(time.Hour)}}},
		{"version", "LoDash", "4.17.15", []row{{"web-1", "4.17.15", 2, t0, t0.Add(time.Hour)}}},
		{"pep503", "flask.LOGIN", "", []row{{"db-1", "0.6.3", 1, t0.Add(2 * time.Hour), t0.Add(2 * time.Hour)}, {"web-1", "0.6.2", 1, t0, t0}}},
		{"crates_dash_underscore", "serde-json", "", []row{{"web-1", "1.0.0", 1, t0, t0}}},
		{"go_case_and_v_prefix", "github.com/foo/bar", "1.2.3", []row{{"web-1", "v1.2.3", 1, t0, t0}}},
		{"maven_case_insensitive", "ORG.apache.logging.log4j:log4j-core", "2.14.1", []row{{"web-1", "2.14.1", 1, t0, t0}}},
		// A Maven artifact is found by its artifactId alone, in any group
		// (and only this organization's).
		{"maven_artifact_only", "Log4J-Core", "", []row{{"db-1", "1.0", 1, t0.Add(2 * time.Hour), t0.Add(2 * time.Hour)}, {"web-1", "2.14.1", 1, t0, t0}}},
		{"maven_artifact_version", "log4j-core", "2.14.1", []row{{"web-1", "2.14.1", 1, t0, t0}}},
		{"maven_group_is_not_a_name", "org.apache.logging.log4j", "", nil},
		// PEP 503 folds '_' only in PyPI: an npm name is not matched by it.
		{"no_cross_ecosystem_folding", "lo_dash", "", nil},
		{"missing", "left-pad", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, find(tc.query, tc.version)); diff != "" {
				t.Errorf("FindSightings(%q, %q) mismatch (-want +got):\n%s", tc.query, tc.version, diff)
			}
		})
	}
	// The aggregated search agrees with the sightings.
	type agg struct {
		Hosts      []sentinel.HostSummary
		HostCount  int
		Components []sentinel.ComponentSummary
	}
	summary := func(org *sentinel.Organization, name, version string, max int) agg {
		t.Helper()
		s, err := db.SearchInventory(ctx, org.ID, name, version, max)
		if err != nil {
			t.Fatal(err)
		}
		return agg{s.Hosts, s.HostCount, s.Components}
	}
	h2 := t0.Add(2 * time.Hour)
	want := agg{
		Hosts: []sentinel.HostSummary{{Host: "db-1", FirstSeen: h2, LastSeen: h2, Occurrences: 1, Development: true},
			{Host: "web-1", FirstSeen: t0, LastSeen: t0.Add(time.Hour), Occurrences: 2}},
		HostCount: 2,
		Components: []sentinel.ComponentSummary{
			{Ecosystem: "npm", Version: "4.17.15", Purl: "pkg:npm/lodash@4.17.15", FirstSeen: t0, LastSeen: t0.Add(time.Hour), Occurrences: 2, Hosts: 1},
			{Ecosystem: "npm", Version: "4.17.21", Purl: "pkg:npm/lodash@4.17.21", FirstSeen: h2, LastSeen: h2, Occurrences: 1, Hosts: 1},
		},
	}
	if diff := cmp.Diff(want, summary(a, "LODASH", "", 10)); diff != "" {
		t.Errorf("SearchInventory(lodash) mismatch (-want +got):\n%s", diff)
	}
	if got := summary(a, "lodash", "", 1); got.HostCount != 2 || len(got.Hosts) != 1 || got.Hosts[0].Host != "db-1" {
		t.Errorf("SearchInventory(lodash, max 1) = %+v", got)
	}
	if got := summary(a, "Flask_Login", "0.6.2", 10); len(got.Components) != 1 || got.Components[0].Purl != "pkg:pypi/Flask_Login@0.6.2" {
		t.Errorf("SearchInventory(Flask_Login 0.6.2) = %+v", got)
	}
	if got := summary(a, "github.com/foo/bar", "1.2.3", 10); got.HostCount != 1 {
		t.Errorf("SearchInventory(go, v-less version) = %+v", got)
	}
	if got := summary(a, "log4j-core", "", 10); got.HostCount != 2 || len(got.Components) != 2 ||
		got.Components[0].Purl != "pkg:maven/org.example.fork/log4j-core@1.0" || got.Components[1].Purl != "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1" {
		t.Errorf("SearchInventory(log4j-core) = %+v, want both groups' log4j-core on web-1 and db-1", got)
	}
	if got := summary(a, "log4j-core", "1.0", 10); got.HostCount != 1 || len(got.Components) != 1 || got.Hosts[0].Host != "db-1" {
		t.Errorf("SearchInventory(log4j-core 1.0) = %+v, want the fork on db-1", got)
	}
	if got := summary(b, "log4j-core", "", 10); got.HostCount != 1 || len(got.Components) != 1 || got.Components[0].Version != "2.17.0" {
		t.Errorf("SearchInventory(log4j-core) in org b = %+v, want its own 2.17.0 only", got)
	}
	if got := summary(a, "lo_dash", "", 10); got.HostCount != 0 || len(got.Components) != 0 {
		t.Errorf("SearchInventory(lo_dash) = %+v, want nothing", got)
	}
	if got := summary(b, "flask-login", "", 10); got.HostCount != 0 {
		t.Errorf("org b sees a's components: %+v", got)
	}
	// A host is development-only for a name when every matching component
	// is: one version for development and another deployed is not.
	c := MustOrg(t, db, uniqueSlug("c"))
	MustSubmission(t, db, c, "ci-1", nil, devItem(purl.ItemFromPurl("pkg:npm/jest@29.0.0", "", "")),
		purl.ItemFromPurl("pkg:npm/jest@28.0.0", "", ""))
	MustSubmission(t, db, c, "ci-2", nil, devItem(purl.ItemFromPurl("pkg:npm/jest@29.0.0", "", "")))
	if got := summary(c, "jest", "", 10); len(got.Hosts) != 2 || got.Hosts[0].Development || !got.Hosts[1].Development {
		t.Errorf("SearchInventory(jest) hosts = %+v, want ci-1 deployed, ci-2 for development", got.Hosts)
	}
	// The inventory per ecosystem: distinct components and hosts.
	ecos, err := db.InventoryEcosystems(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	var lodash *sentinel.EcosystemCount
	for i := range ecos {
		if i > 0 && ecos[i-1].Ecosystem >= ecos[i].Ecosystem {
			t.Errorf("InventoryEcosystems not sorted: %+v", ecos)
		}
		if ecos[i].Ecosystem == "npm" {
			lodash = &ecos[i]
		}
	}
	if lodash == nil || lodash.Components < 2 || lodash.Hosts != 2 {
		t.Errorf("InventoryEcosystems npm = %+v, want lodash's two versions on two hosts", lodash)
	}
	if other, err := db.InventoryEcosystems(ctx, b.ID); err != nil || !slices.Equal(other, []sentinel.EcosystemCount{{Ecosystem: "Maven", Components: 1, Hosts: 1}, {Ecosystem: "npm", Components: 1, Hosts: 1}}) {
		t.Errorf("InventoryEcosystems of org b = %+v, %v; want its own log4j-core and lodash only", other, err)
	}

	// Another organization's inventory is invisible.
	if ss, _ := db.FindSightings(ctx, b.ID, "flask-login", ""); len(ss) != 0 {
		t.Errorf("org b sees a's components: %+v", ss)
	}
	if ss, _ := db.FindSightings(ctx, b.ID, "lodash", ""); len(ss) != 1 || ss[0].Host != "other" {
		t.Errorf("org b lodash: %+v", ss)
	}
	if !slices.Equal(purl.SearchKeys("Flask_Login"), []string{"flask_login", "flask-login"}) {
		t.Errorf("SearchKeys = %v", purl.SearchKeys("Flask_Login"))
	}
}
