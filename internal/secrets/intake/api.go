package intake

import (
	"net/http"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := sentinel.SecretFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, Status: q.Get("status"),
		Provider: q.Get("provider"), Host: q.Get("host"), Page: page}
	if f.Status != "" && !sentinel.ValidSecretStatus(f.Status) {
		return sentinel.InvalidField("status", "status must be pending, active, inactive, unverifiable or unknown")
	}
	out, next, err := s.DB.FindSecrets(r.Context(), f)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, out, next)
	return nil
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	sec, err := s.DB.FindSecret(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sec)
	return nil
}
