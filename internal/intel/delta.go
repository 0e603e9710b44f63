package intel

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Snapshot is one complete set of intel: what an import produced at one
// time, what WriteSnapshot writes and ReadSnapshot reads, and what Diff
// compares.
type Snapshot struct {
	// Created is when the snapshot was taken (informational).
	Created    time.Time
	Advisories []*Advisory
	KEV        *KEVCatalog
	EOL        []*EOLProduct
}

// Index builds the match index of the snapshot.
func (s *Snapshot) Index(opts Options) *Index {
	return NewIndex(s.Advisories, s.KEV, s.EOL, opts)
}

// Delta is what changed between two snapshots: what the daily watch
// re-alerts on.
type Delta struct {
	// New are advisories present only in the newer snapshot (withdrawn
	// ones excluded), by id.
	New []string `json:"new"`
	// Changed are advisories in both whose record changed.
	Changed []AdvisoryChange `json:"changed"`
	// NewKEV are catalog listings present only in the newer catalog.
	NewKEV []KEVListing `json:"new_kev"`
	// Packages are the packages any of the above affects (in either
	// snapshot's record), as the inventory keys them: the watch
	// re-matches components of these packages only.
	Packages []PackageRef `json:"packages"`
}

// PackageRef names a package as the inventory keys it.
type PackageRef = sentinel.PackageRef

// AdvisoryChange describes how one advisory changed.
type AdvisoryChange struct {
	ID          string    `json:"id"`
	Modified    time.Time `json:"modified"`
	OldSeverity string    `json:"old_severity"`
	NewSeverity string    `json:"new_severity"`
	// SeverityRaised is true when the new label ranks above the old one
	// (unknown < none < low < medium < high < critical).
	SeverityRaised bool `json:"severity_raised"`
	// FixesAdded are fixed versions (per ecosystem and package) that the old
	// record did not name, as "ecosystem/name@version".
	FixesAdded []string `json:"fixes_added,omitempty"`
	// Withdrawn is true when the advisory became withdrawn.
	Withdrawn bool `json:"withdrawn"`
}

// Meaningful reports whether the change is one the watch re-alerts on:
// severity raised, a fix became available, or the advisory was withdrawn.
func (c AdvisoryChange) Meaningful() bool {
	return c.SeverityRaised || len(c.FixesAdded) > 0 || c.Withdrawn
}

// KEVListing is a CVE newly added to the catalog and the advisories of the
// newer snapshot that carry it as id or alias.
type KEVListing struct {
	CVE        string   `json:"cve"`
	DateAdded  string   `json:"date_added"`
	Ransomware bool     `json:"ransomware"`
	Advisories []string `json:"advisories"`
}

// Diff compares an older and a newer snapshot. It is a pure function of
// its inputs; either may be nil (an empty snapshot).
func Diff(old, cur *Snapshot) Delta {
	if old == nil {
		old = &Snapshot{}
	}
	if cur == nil {
		cur = &Snapshot{}
	}
	d := Delta{New: []string{}, Changed: []AdvisoryChange{}, NewKEV: []KEVListing{}, Packages: []PackageRef{}}
	touched := map[PackageRef]bool{}
	touch := func(a *Advisory) {
		if a == nil {
			return
		}
		for _, aff := range a.Affected {
			if aff.Package.Name == "" || aff.Package.Ecosystem == "" {
				continue
			}
			eco := purl.BaseEcosystem(aff.Package.Ecosystem)
			touched[PackageRef{Ecosystem: eco, Name: purl.InventoryKey(eco, aff.Package.Name)}] = true
		}
	}

	before := byID(old.Advisories)
	after := byID(cur.Advisories)
	ids := make([]string, 0, len(after))
	for id := range after {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		a := after[id]
		o, ok := before[id]
		if !ok {
			if !a.IsWithdrawn() {
				d.New = append(d.New, id)
				touch(a)
			}
			continue
		}
		if a.Modified.Equal(o.Modified) && bytes.Equal(a.Raw, o.Raw) {
			continue
		}
		oldSev, newSev := recordSeverity(o), recordSeverity(a)
		c := AdvisoryChange{
			ID:             id,
			Modified:       a.Modified,
			OldSeverity:    oldSev,
			NewSeverity:    newSev,
			SeverityRaised: severityRank(newSev) > severityRank(oldSev),
			FixesAdded:     addedFixes(o, a),
			Withdrawn:      a.IsWithdrawn() && !o.IsWithdrawn(),
		}
		d.Changed = append(d.Changed, c)
		touch(o)
		touch(a)
	}

	oldKEV := old.KEV.Lookup()
	newKEV := cur.KEV.Lookup()
	cves := make([]string, 0)
	for cve := range newKEV {
		if _, ok := oldKEV[cve]; !ok {
			cves = append(cves, cve)
		}
	}
	sort.Strings(cves)
	if len(cves) > 0 {
		carriers := make(map[string][]string)
		for _, id := range ids {
			a := after[id]
			if a.IsWithdrawn() {
				continue
			}
			for _, x := range append([]string{a.ID}, a.Aliases...) {
				if _, ok := newKEV[x]; ok {
					carriers[x] = append(carriers[x], a.ID)
				}
			}
		}
		for _, cve := range cves {
			k := newKEV[cve]
			d.NewKEV = append(d.NewKEV, KEVListing{
				CVE:        cve,
				DateAdded:  k.DateAdded,
				Ransomware: k.Ransomware(),
				Advisories: nonNil(slices.Compact(carriers[cve])),
			})
			for _, id := range carriers[cve] {
				touch(after[id])
			}
		}
	}
	for r := range touched {
		d.Packages = append(d.Packages, r)
	}
	slices.SortFunc(d.Packages, func(a, b PackageRef) int {
		if c := strings.Compare(a.Ecosystem, b.Ecosystem); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return d
}

// byID keeps the most recently modified record per id.
func byID(advs []*Advisory) map[string]*Advisory {
	m := make(map[string]*Advisory, len(advs))
	for _, a := range advs {
		if a == nil {
			continue
		}
		if old, ok := m[a.ID]; ok && !a.Modified.After(old.Modified) {
			continue
		}
		m[a.ID] = a
	}
	return m
}

// recordSeverity is the highest severity of the record over its own
// severity and every affected entry's.
func recordSeverity(a *Advisory) string {
	top := decodeSpecific(a.DatabaseSpecific)
	best := resolveSeverity(a, nil, top).label
	for i := range a.Affected {
		if s := resolveSeverity(a, &a.Affected[i], top).label; severityRank(s) > severityRank(best) {
			best = s
		}
	}
	return best
}

// addedFixes lists fixed versions in b that a lacks, keyed per package.
func addedFixes(a, b *Advisory) []string {
	had := fixesOf(a)
	var out []string
	for _, f := range sortedKeys(fixesOf(b)) {
		if !had[f] {
			out = append(out, f)
		}
	}
	return out
}

func fixesOf(a *Advisory) map[string]bool {
	m := make(map[string]bool)
	for _, aff := range a.Affected {
		key := aff.Package.Ecosystem + "/" + purl.NormalizeName(aff.Package.Ecosystem, aff.Package.Name) + "@"
		for _, r := range aff.Ranges {
			if r.Type == RangeGit {
				continue
			}
			for _, e := range r.Events {
				if e.Fixed != "" {
					m[key+e.Fixed] = true
				}
			}
		}
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// AddKEVCarriers completes the new known-exploited listings with carriers
// among advs (the stored advisories), for a sync that brought a new KEV
// catalog without the records that carry its CVEs: each listing names the
// non-withdrawn advisories with the CVE as id or alias, and their packages
// join Packages, so the watch re-matches them.
func (d *Delta) AddKEVCarriers(advs []*Advisory) {
	if len(d.NewKEV) == 0 {
		return
	}
	want := map[string]int{}
	for i, l := range d.NewKEV {
		want[l.CVE] = i
	}
	have := map[PackageRef]bool{}
	for _, p := range d.Packages {
		have[p] = true
	}
	for _, a := range advs {
		if a == nil || a.IsWithdrawn() {
			continue
		}
		for _, x := range append([]string{a.ID}, a.Aliases...) {
			i, ok := want[x]
			if !ok {
				continue
			}
			if !slices.Contains(d.NewKEV[i].Advisories, a.ID) {
				d.NewKEV[i].Advisories = append(d.NewKEV[i].Advisories, a.ID)
			}
			for _, aff := range a.Affected {
				if aff.Package.Name == "" || aff.Package.Ecosystem == "" {
					continue
				}
				eco := purl.BaseEcosystem(aff.Package.Ecosystem)
				r := PackageRef{Ecosystem: eco, Name: purl.InventoryKey(eco, aff.Package.Name)}
				if !have[r] {
					have[r] = true
					d.Packages = append(d.Packages, r)
				}
			}
		}
	}
	for i := range d.NewKEV {
		slices.Sort(d.NewKEV[i].Advisories)
	}
	slices.SortFunc(d.Packages, func(a, b PackageRef) int {
		if c := strings.Compare(a.Ecosystem, b.Ecosystem); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}
