package inventory

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// MinuteFormat is the component search's first_seen format: minute
// precision, UTC (specification, Component search result).
const MinuteFormat = "2006-01-02T15:04Z"

// maxListed bounds the hosts and per-host details of one result;
// HostCount and Truncated tell when there were more.
const maxListed = 1000

// SearchResult is the component search's answer: the specification's four
// fields first (matches, hosts, kev, first_seen), then extras.
type SearchResult struct {
	// Matches is the number of matching component occurrences: each
	// submission that listed a matching component counts once per
	// matching component.
	Matches int `json:"matches"`
	// Hosts are the hosts where a matching component was found, sorted;
	// at most 1000 (HostCount counts them all).
	Hosts []string `json:"hosts"`
	// KEV is true when any matching component is known-exploited.
	KEV bool `json:"kev"`
	// FirstSeen is the first sighting, minute precision UTC; null when
	// nothing matched.
	FirstSeen *string `json:"first_seen"`

	LastSeen  *string `json:"last_seen"`
	Name      string  `json:"name"`
	Version   string  `json:"version,omitempty"`
	HostCount int     `json:"host_count"`
	// Truncated is true when hosts and details were cut at 1000.
	Truncated bool `json:"truncated"`
	// Versions are the matching versions, sorted.
	Versions []string `json:"versions"`
	// Components has one entry per matching purl.
	Components []ComponentMatch `json:"components"`
	// Details has one entry per host, in the order of Hosts.
	Details []HostSighting `json:"details"`
}

// ComponentMatch is one matching component (purl) over every host.
type ComponentMatch struct {
	Purl      string `json:"purl,omitempty"`
	Ecosystem string `json:"ecosystem,omitempty"`
	Version   string `json:"version"`
	Matches   int    `json:"matches"`
	Hosts     int    `json:"hosts"`
	KEV       bool   `json:"kev"`
	FirstSeen string `json:"first_seen"`
	LastSeen  string `json:"last_seen"`
}

// HostSighting is a component search's result on one host.
type HostSighting struct {
	Host      string `json:"host"`
	Matches   int    `json:"matches"`
	FirstSeen string `json:"first_seen"`
	LastSeen  string `json:"last_seen"`
	// Development is true when the host has the component only for
	// development (every matching component, as its last SBOM said).
	Development bool `json:"development"`
}

func minute(t time.Time) string { return t.UTC().Truncate(time.Minute).Format(MinuteFormat) }

// Search answers a component search for an organization.
//
// name is a package name as its ecosystem writes it (lodash,
// org.apache.logging.log4j:log4j-core, github.com/gin-gonic/gin), a Maven
// artifactId alone (log4j-core, in any group), or a purl, whose version
// is the search's version when version is empty.
func (s *Service) Search(ctx context.Context, orgID, name, version string) (*SearchResult, error) {
	s.init()
	qname, qversion := name, version
	if strings.HasPrefix(name, "pkg:") {
		if _, n, v, err := purl.ToEcosystem(name); err == nil {
			qname = n
			if qversion == "" {
				qversion = v
			}
		} else if u, err := purl.Parse(name); err == nil {
			qname = u.Name
			if qversion == "" {
				qversion = u.Version
			}
		}
	}
	sum, err := s.DB.SearchInventory(ctx, orgID, qname, qversion, maxListed)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Name: name, Version: qversion, Hosts: make([]string, 0, len(sum.Hosts)), Versions: []string{},
		Components: make([]ComponentMatch, 0, len(sum.Components)), Details: make([]HostSighting, 0, len(sum.Hosts)),
		HostCount: sum.HostCount, Truncated: sum.HostCount > len(sum.Hosts)}
	for _, h := range sum.Hosts {
		res.Hosts = append(res.Hosts, h.Host)
		res.Details = append(res.Details, HostSighting{Host: h.Host, Matches: h.Occurrences, FirstSeen: minute(h.FirstSeen), LastSeen: minute(h.LastSeen),
			Development: h.Development})
	}
	var first, last time.Time
	for _, c := range sum.Components {
		kev := c.Purl != "" && s.KEV.IsKEV(c.Purl)
		res.KEV = res.KEV || kev
		res.Matches += c.Occurrences
		if first.IsZero() || c.FirstSeen.Before(first) {
			first = c.FirstSeen
		}
		if c.LastSeen.After(last) {
			last = c.LastSeen
		}
		if !slices.Contains(res.Versions, c.Version) {
			res.Versions = append(res.Versions, c.Version)
		}
		res.Components = append(res.Components, ComponentMatch{Purl: c.Purl, Ecosystem: c.Ecosystem, Version: c.Version,
			Matches: c.Occurrences, Hosts: c.Hosts, KEV: kev, FirstSeen: minute(c.FirstSeen), LastSeen: minute(c.LastSeen)})
	}
	slices.Sort(res.Versions)
	if !first.IsZero() {
		f, l := minute(first), minute(last)
		res.FirstSeen, res.LastSeen = &f, &l
	}
	return res, nil
}

func (s *Service) search(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	name, version := q.Get("name"), q.Get("version")
	switch {
	case name == "":
		return sentinel.InvalidField("name", "name is required: the component's package name, e.g. name=lodash")
	case len(name) > 512 || !utf8.ValidString(name):
		return sentinel.InvalidField("name", "name must be valid UTF-8 of at most 512 bytes")
	case len(version) > 256 || !utf8.ValidString(version):
		return sentinel.InvalidField("version", "version must be valid UTF-8 of at most 256 bytes")
	}
	res, err := s.Search(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, name, version)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
	return nil
}
