package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testEdges checks the dependency graph kept with each submission
// (migration 0007): CreateSubmissionEdges cleans and writes it in the
// submission's transaction, SubmissionEdges reads it back within the
// organization, and EvidenceComponents fills DependsOn from the edges of
// each host's latest submission.
func testEdges(t *testing.T, db *store.DB) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	db.Clock = func() time.Time { return now }
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	submit := func(org *sentinel.Organization, host string, purls []string, edges ...sentinel.DependencyEdge) string {
		t.Helper()
		s := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID, Host: host, SpecVersion: "1.5",
			ComponentCount: len(purls), SHA256: "x"}
		var items []sentinel.InventoryItem
		for _, p := range purls {
			items = append(items, purl.ItemFromPurl(p, p, "")) // a purl that does not parse is its own name
		}
		err := db.InTx(ctx, func(tx *store.Tx) error {
			if err := tx.CreateSubmission(ctx, s, []byte("{}"), items); err != nil {
				return err
			}
			return tx.CreateSubmissionEdges(ctx, s, edges)
		})
		if err != nil {
			t.Fatalf("CreateSubmission/CreateSubmissionEdges: %v", err)
		}
		return s.ID
	}
	const (
		express = "pkg:npm/express@4.21.0"
		body    = "pkg:npm/body-parser@1.20.3"
		debug   = "pkg:npm/debug@2.6.9"
		ms      = "pkg:npm/ms@2.0.0"
		zod     = "pkg:npm/Zod@3.0.0" // upper case: sorts before lower case in byte order
		django  = "pkg:pypi/django@4.2.0"
		sqlp    = "pkg:pypi/sqlparse@0.5.0"
	)
	e := func(from, to string) sentinel.DependencyEdge { return sentinel.DependencyEdge{From: from, To: to} }

	// web-1's first submission is superseded by its second one.
	old := submit(a, "web-1", []string{express, debug}, e(express, debug))
	now = now.Add(time.Hour)
	web := submit(a, "web-1", []string{express, body, debug, ms, zod},
		e(express, debug), e(express, body), e(express, zod), e(body, debug), e(debug, ms),
		e(express, debug),     // duplicate: written once
		e(ms, ms),             // self-reference: dropped
		e(zod, ""), e("", ms)) // an empty end: dropped
	now = now.Add(time.Hour)
	submit(a, "db-1", []string{django, sqlp, debug, ms}, e(django, sqlp), e(debug, ms), e(ms, debug))
	other := submit(b, "other", []string{express, ms}, e(express, ms))

	got, err := db.SubmissionEdges(ctx, a.ID, web)
	if err != nil {
		t.Fatal(err)
	}
	want := []sentinel.DependencyEdge{e(body, debug), e(debug, ms), e(express, zod), e(express, body), e(express, debug)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SubmissionEdges (deduplicated, sorted by from then to) mismatch (-want +got):\n%s", diff)
	}
	if got, err := db.SubmissionEdges(ctx, a.ID, old); err != nil || len(got) != 1 {
		t.Errorf("SubmissionEdges(old) = %v, %v; want the one edge", got, err)
	}
	if got, err := db.SubmissionEdges(ctx, a.ID, other); err != nil || len(got) != 0 {
		t.Errorf("SubmissionEdges of another organization's submission = %v, %v; want none", got, err)
	}
	if got, err := db.SubmissionEdges(ctx, b.ID, other); err != nil || len(got) != 1 {
		t.Errorf("SubmissionEdges(b) = %v, %v; want the one edge", got, err)
	}

	// Writing an edge again is a conflict.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		return tx.CreateSubmissionEdges(ctx, &sentinel.Submission{ID: web, OrgID: a.ID}, []sentinel.DependencyEdge{e(debug, ms)})
	})
	if code := sentinel.ErrorCode(err); code != sentinel.ECONFLICT {
		t.Errorf("an edge written again: %v, want conflict", err)
	}

	// The edges are written with the submission or not at all.
	rolled := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: a.ID, Host: "web-1", SpecVersion: "1.5", SHA256: "x"}
	boom := errors.New("boom")
	err = db.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.CreateSubmission(ctx, rolled, []byte("{}"), []sentinel.InventoryItem{purl.ItemFromPurl(ms, "", "")}); err != nil {
			return err
		}
		if err := tx.CreateSubmissionEdges(ctx, rolled, []sentinel.DependencyEdge{e(ms, debug)}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx: %v, want boom", err)
	}
	if got, _ := db.SubmissionEdges(ctx, a.ID, rolled.ID); len(got) != 0 {
		t.Errorf("edges of a rolled back submission: %v", got)
	}

	// Many edges: several statements of the batched insert.
	var purls []string
	var many []sentinel.DependencyEdge
	for i := range 1201 {
		purls = append(purls, fmt.Sprintf("pkg:npm/big-%04d@1.0.0", i))
	}
	for i := range 1200 {
		many = append(many, e(purls[i], purls[i+1]))
	}
	big := submit(b, "big", purls, many...)
	if got, err := db.SubmissionEdges(ctx, b.ID, big); err != nil || !cmp.Equal(many, got) {
		t.Errorf("SubmissionEdges(big): %d edges, %v; want %d in order", len(got), err, len(many))
	}

	// EvidenceComponents: each row carries the edges of its host's latest
	// submission (db-1's and web-1's second), sorted in byte order.
	var comps []string
	err = db.EvidenceComponents(ctx, a.ID, func(c *sentinel.EvidenceComponent) error {
		comps = append(comps, fmt.Sprintf("%s %s %q", c.Purl, c.Asset, c.DependsOn))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantComps := []string{
		zod + ` web-1 []`,
		body + ` web-1 ["` + debug + `"]`,
		debug + ` db-1 ["` + ms + `"]`,
		debug + ` web-1 ["` + ms + `"]`,
		express + ` web-1 ["` + zod + `" "` + body + `" "` + debug + `"]`,
		ms + ` db-1 ["` + debug + `"]`,
		ms + ` web-1 []`,
		django + ` db-1 ["` + sqlp + `"]`,
		sqlp + ` db-1 []`,
	}
	if diff := cmp.Diff(wantComps, comps); diff != "" {
		t.Errorf("EvidenceComponents DependsOn mismatch (-want +got):\n%s", diff)
	}

	// Purls that JSON must escape survive the way back.
	c := MustOrg(t, db, "c")
	quote, backslash, tab := `pkg:generic/a"b@1`, `pkg:generic/c\d@1`, "pkg:generic/e\tf@1"
	submit(c, "odd", []string{quote, backslash, tab, ms}, e(backslash, quote), e(backslash, ms), e(backslash, tab), e(ms, quote))
	comps = nil
	err = db.EvidenceComponents(ctx, c.ID, func(c *sentinel.EvidenceComponent) error {
		comps = append(comps, fmt.Sprintf("%s %q", c.Purl, c.DependsOn))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantComps = []string{
		fmt.Sprintf("%s %q", quote, []string(nil)),
		fmt.Sprintf("%s %q", backslash, []string{quote, tab, ms}),
		fmt.Sprintf("%s %q", tab, []string(nil)),
		fmt.Sprintf("%s %q", ms, []string{quote}),
	}
	if diff := cmp.Diff(wantComps, comps); diff != "" {
		t.Errorf("EvidenceComponents with escaped purls mismatch (-want +got):\n%s", diff)
	}
}
