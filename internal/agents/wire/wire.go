// Package wire holds what the agent and the service both speak: the
// enrollment token format and the JSON bodies of the agent listener. It
// imports only the standard library, so the agent binary does not link
// the service.
package wire

import (
	"fmt"
	"time"
)

// EnrollProto is the ALPN protocol name an agent without a certificate
// offers (beside http/1.1) to be let in without one. Such a connection is
// authenticated one way only (the agent checks the server against the pin
// in its token) and serves only the CA certificate and enrollment; every
// other connection must present an agent certificate in the handshake.
//
// Why ALPN: the listener is one address, and whether a client certificate is
// required must be decided in the handshake, before any path is known. The
// ClientHello is all the server sees then, and ALPN is the standard field in
// it for "what I am here for". The negotiated protocol stays http/1.1.
const EnrollProto = "sentinel-enroll"

// Paths on the agent listener.
const (
	PathCA     = "/v1/agent/ca"
	PathEnroll = "/v1/agent/enroll"
	PathSubmit = "/sentinel/sbom/submit"
)

// TokenResponse shows a new enrollment token, once.
type TokenResponse struct {
	ID           string    `json:"id"`
	Token        string    `json:"token"`
	Organization string    `json:"organization"`
	ExpiresAt    time.Time `json:"expires_at"`
	// ServerCAFingerprint is the token's pin in hex ("sha256:..."), for
	// people comparing it by eye.
	ServerCAFingerprint string `json:"server_ca_fingerprint"`
	// AgentServer is the agent listener's URL, and EnrollCommand the
	// command that enrolls a host with this token.
	AgentServer   string `json:"agent_server,omitempty"`
	EnrollCommand string `json:"enroll_command,omitempty"`
}

// CAResponse is GET /v1/agent/ca's body.
type CAResponse struct {
	// Certificate is the agent server CA certificate, PEM.
	Certificate string `json:"certificate"`
	// Fingerprint is its SHA-256, hex.
	Fingerprint string `json:"fingerprint"`
}

// EnrollRequest is POST /v1/agent/enroll's body.
type EnrollRequest struct {
	Token string `json:"token"`
	// CSR is a PEM certificate request signed with the agent's new ECDSA
	// key; its subject common name is the agent's host name.
	CSR string `json:"csr"`
}

// EnrollResponse is the enrolled agent's identity.
type EnrollResponse struct {
	AgentID      string `json:"agent_id"`
	Organization string `json:"organization"`
	Host         string `json:"host"`
	// Certificate is the agent's client certificate, PEM.
	Certificate string `json:"certificate"`
	// CA is the organization's agent CA certificate, PEM.
	CA string `json:"ca"`
	// ServerCA is the agent server CA certificate, PEM: the agent trusts
	// the listener through it from now on.
	ServerCA string    `json:"server_ca"`
	NotAfter time.Time `json:"not_after"`
}

// SubmitResponse is POST /sentinel/sbom/submit's answer.
type SubmitResponse struct {
	ID string `json:"id"`
	// Host is the agent certificate's host; ClaimedHost another name the
	// request or the SBOM gave, recorded but not used.
	Host        string `json:"host"`
	ClaimedHost string `json:"claimed_host,omitempty"`
	Asset       string `json:"asset,omitempty"`
	SpecVersion string `json:"spec_version"`
	// Components is the number of components in the document (nested
	// ones included); Indexed the number of distinct inventory entries.
	Components int       `json:"components"`
	Indexed    int       `json:"indexed"`
	SHA256     string    `json:"sha256"`
	Size       int64     `json:"size"`
	CreatedAt  time.Time `json:"created_at"`
	// Unchecked counts, per ecosystem, the submission's distinct
	// components that no advisory of the service can match: the service
	// has none for their ecosystem ("" for components without a purl that
	// names one). Absent when every component is checked.
	Unchecked []UncheckedEcosystem `json:"unchecked,omitempty"`
}

// UncheckedEcosystem is one ecosystem of SubmitResponse.Unchecked.
type UncheckedEcosystem struct {
	Ecosystem  string `json:"ecosystem"`
	Components int    `json:"components"`
}

// SubmittedData is the data of the sbom.submitted event.
type SubmittedData struct {
	SubmissionID string `json:"submission_id"`
	Host         string `json:"host"`
	Asset        string `json:"asset,omitempty"`
	SpecVersion  string `json:"spec_version"`
	Components   int    `json:"components"`
	SHA256       string `json:"sha256"`
}

// ErrorBody is the service's error JSON, on the API and on the agent
// listener.
type ErrorBody struct {
	// Error is the error code (see the Code constants for those a client
	// acts on).
	Error     string `json:"error"`
	Message   string `json:"message"`
	RequestID string `json:"request_id"`
	// Field names the offending request field of an invalid_request.
	Field string `json:"field,omitempty"`
	// RequiredScope names the scope an insufficient_scope answer lacked.
	RequiredScope string `json:"required_scope,omitempty"`
	// Errors are the individual problems of an invalid_request (an SBOM
	// that fails its schema): where and why.
	Errors []struct {
		Path   string `json:"path"`
		Reason string `json:"reason"`
	} `json:"errors,omitempty"`
}

// Error codes of ErrorBody that a client acts on.
const (
	// CodeRateLimited (429): the API key's rate limit; retry after
	// Retry-After.
	CodeRateLimited = "rate_limited"
	// CodeScanCapacity (429): the organization's concurrent scans stayed
	// busy; the service already waited for a slot.
	CodeScanCapacity = "scan_capacity"
	// CodeMetered (403): the organization's monthly meter is exhausted.
	CodeMetered = "metered"
)

// String returns the token response as the admin command prints it.
func (t *TokenResponse) String() string {
	return fmt.Sprintf("enrollment token %s for %s, valid until %s, pins the agent server CA %s",
		t.ID, t.Organization, t.ExpiresAt.UTC().Format(time.RFC3339), t.ServerCAFingerprint)
}
