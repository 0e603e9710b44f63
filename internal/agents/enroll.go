package agents

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"net/http"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// CreateEnrollmentToken makes a one-time enrollment token for the
// organization (and the organization's agent CA, if it has none yet). The
// token's text is returned once; only the hash of its secret is stored.
func (s *Service) CreateEnrollmentToken(ctx context.Context, org *sentinel.Organization, actor sentinel.Actor) (*TokenResponse, error) {
	s.init()
	srv, err := s.serverCA(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := s.orgCA(ctx, org); err != nil {
		return nil, err
	}
	tok := EnrollmentToken{Secret: make([]byte, 32), CAFingerprint: Fingerprint(srv.cert.Raw)}
	_, _ = rand.Read(tok.Secret)
	rec := &sentinel.EnrollmentToken{ID: sentinel.NewID(sentinel.PrefixEnrollment), OrgID: org.ID, Hash: tok.Hash(), CreatedBy: actor.KeyID}
	err = s.DB.Update(ctx, func(tx Tx) error {
		if err := tx.CreateEnrollmentToken(ctx, rec, TokenTTL); err != nil {
			return err
		}
		return tx.Audit(ctx, org.ID, actor, "agent.enrollment_token.create", rec.ID, map[string]any{"expires_at": rec.ExpiresAt})
	})
	if err != nil {
		return nil, err
	}
	resp := &TokenResponse{ID: rec.ID, Token: tok.String(), Organization: org.Slug, ExpiresAt: rec.ExpiresAt,
		ServerCAFingerprint: "sha256:" + hex.EncodeToString(tok.CAFingerprint[:])}
	if s.PublicURL != nil {
		resp.AgentServer = s.PublicURL()
		resp.EnrollCommand = "sentinel enroll --agent-server " + resp.AgentServer + " --token " + resp.Token
	}
	return resp, nil
}

// TokenRequest is POST /v1/agent/enrollment-tokens's body: empty, or an
// empty JSON object (room for options later).
type TokenRequest struct{}

func (s *Service) createToken(w http.ResponseWriter, r *http.Request) error {
	var req TokenRequest
	if err := httpapi.DecodeOptionalJSON(r.Body, 4<<10, &req); err != nil {
		return err
	}
	p := httpapi.PrincipalFromContext(r.Context())
	org, err := s.DB.FindOrgByID(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	resp, err := s.CreateEnrollmentToken(r.Context(), org, httpapi.Actor(r))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, resp)
	return nil
}

func (s *Service) getCA(w http.ResponseWriter, r *http.Request) error {
	c, err := s.serverCA(r.Context())
	if err != nil {
		return err
	}
	fp := Fingerprint(c.cert.Raw)
	httpapi.WriteJSON(w, http.StatusOK, CAResponse{Certificate: certPEM(c.cert.Raw), Fingerprint: hex.EncodeToString(fp[:])})
	return nil
}

func (s *Service) enroll(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var req EnrollRequest
	if err := httpapi.DecodeJSON(r.Body, 64<<10, &req); err != nil {
		return err
	}
	tok, err := ParseEnrollmentToken(req.Token)
	if err != nil {
		return sentinel.InvalidField("token", "%s", ErrMalformedToken.Error())
	}
	srv, err := s.serverCA(ctx)
	if err != nil {
		return err
	}
	if tok.CAFingerprint != Fingerprint(srv.cert.Raw) {
		return sentinel.ErrTokenInvalid
	}
	csr, err := parseCSR(req.CSR)
	if err != nil {
		return err
	}
	host := csr.Subject.CommonName
	if !sentinel.ValidHost(host) {
		return sentinel.InvalidField("csr", "the CSR's common name must be the agent's host name (1-253 printable characters without spaces)")
	}
	orgID, err := s.DB.PeekEnrollmentToken(ctx, tok.Hash())
	if err != nil {
		return err
	}
	org, err := s.DB.FindOrgByID(ctx, orgID)
	if err != nil {
		return err
	}
	now := s.now()
	der, err := s.IssueAgentCertificate(ctx, org, csr.PublicKey, host, now.Add(-clockSkew), now.Add(AgentValidity))
	if err != nil {
		return err
	}
	cert, _ := x509.ParseCertificate(der)
	fp := Fingerprint(der)
	agent := &sentinel.Agent{ID: sentinel.NewID("agt_"), OrgID: org.ID, Host: host, Serial: cert.SerialNumber.Text(16),
		Fingerprint: hex.EncodeToString(fp[:]), Addr: httpapi.Actor(r).Addr, NotAfter: cert.NotAfter}
	// The token is consumed in the transaction that records the agent: of
	// two concurrent enrollments with one token, one commits and the other
	// gets 401; its certificate was issued but is never returned.
	err = s.DB.Update(ctx, func(tx Tx) error {
		t, err := tx.UseEnrollmentToken(ctx, tok.Hash(), agent.ID)
		if err != nil {
			return err
		}
		if t.OrgID != org.ID {
			return sentinel.ErrTokenInvalid
		}
		agent.TokenID = t.ID
		if err := tx.CreateAgent(ctx, agent); err != nil {
			return err
		}
		return tx.Audit(ctx, org.ID, sentinel.Actor{KeyID: agent.ID, Addr: agent.Addr}, "agent.enroll", agent.ID,
			map[string]any{"host": host, "token_id": t.ID, "serial": agent.Serial, "not_after": agent.NotAfter})
	})
	if err != nil {
		return err
	}
	oca, err := s.orgCA(ctx, org)
	if err != nil {
		return err
	}
	s.Logger.Info("agent enrolled", "org", org.Slug, "agent", agent.ID, "host", host)
	httpapi.WriteJSON(w, http.StatusCreated, EnrollResponse{AgentID: agent.ID, Organization: org.Slug, Host: host,
		Certificate: certPEM(der), CA: certPEM(oca.cert.Raw), ServerCA: certPEM(srv.cert.Raw), NotAfter: cert.NotAfter})
	return nil
}

// parseCSR decodes and checks a PEM CSR: its signature must verify and its
// key must be ECDSA on P-256 or P-384.
func parseCSR(s string) (*x509.CertificateRequest, error) {
	block, _ := pem.Decode([]byte(s))
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, sentinel.InvalidField("csr", "csr must be a PEM CERTIFICATE REQUEST")
	}
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return nil, sentinel.InvalidField("csr", "the CSR could not be parsed")
	}
	if err := csr.CheckSignature(); err != nil {
		return nil, sentinel.InvalidField("csr", "the CSR's signature does not verify")
	}
	k, ok := csr.PublicKey.(*ecdsa.PublicKey)
	if !ok || (k.Curve != elliptic.P256() && k.Curve != elliptic.P384()) {
		return nil, sentinel.InvalidField("csr", "the CSR's key must be ECDSA P-256 or P-384")
	}
	return csr, nil
}

func (s *Service) listAgents(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	as, next, err := s.DB.ListAgents(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, page)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, as, next)
	return nil
}

func (s *Service) revokeAgent(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.PrincipalFromContext(r.Context())
	var a *sentinel.Agent
	err := s.DB.Update(r.Context(), func(tx Tx) (err error) {
		if a, err = tx.RevokeAgent(r.Context(), p.OrgID, r.PathValue("id")); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "agent.revoke", a.ID, map[string]any{"host": a.Host, "serial": a.Serial})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, a)
	return nil
}
