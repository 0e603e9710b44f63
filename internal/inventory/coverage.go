package inventory

import (
	"context"
	"net/http"
	"slices"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Coverage is GET /v1/inventory/ecosystems's answer: what of the inventory
// the matching can see. A host of an RPM distribution whose advisories the
// service does not sync has all its packages in the inventory and no
// finding; this says so instead of looking clean.
type Coverage struct {
	// Ecosystems are the inventory's ecosystems, sorted by name; "" is the
	// components without a purl that names one.
	Ecosystems []EcosystemCoverage `json:"ecosystems"`
	// Components counts the inventory's distinct components; Unchecked
	// those in an ecosystem without advisories or without an ecosystem,
	// which no advisory can match.
	Components int `json:"components"`
	Unchecked  int `json:"unchecked"`
}

// EcosystemCoverage is one ecosystem of Coverage.
type EcosystemCoverage struct {
	sentinel.EcosystemCount
	// Advisories is true when the service has advisories for the
	// ecosystem: its components are matched against them.
	Advisories bool `json:"advisories"`
}

// Coverage counts an organization's inventory per ecosystem against the
// ecosystems the advisories name.
func (s *Service) Coverage(ctx context.Context, orgID string) (*Coverage, error) {
	s.init()
	counts, err := s.DB.InventoryEcosystems(ctx, orgID)
	if err != nil {
		return nil, err
	}
	var have []string
	if s.Advisories != nil {
		have = s.Advisories.Ecosystems()
	}
	out := &Coverage{Ecosystems: make([]EcosystemCoverage, 0, len(counts))}
	for _, c := range counts {
		ok := c.Ecosystem != "" && slices.Contains(have, c.Ecosystem)
		out.Ecosystems = append(out.Ecosystems, EcosystemCoverage{EcosystemCount: c, Advisories: ok})
		out.Components += c.Components
		if !ok {
			out.Unchecked += c.Components
		}
	}
	return out, nil
}

func (s *Service) coverage(w http.ResponseWriter, r *http.Request) error {
	c, err := s.Coverage(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, c)
	return nil
}
