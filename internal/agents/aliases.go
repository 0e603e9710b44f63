package agents

import "github.com/sentinel-sca/sentinel/internal/agents/wire"

// The agent listener's wire types and token format live in package wire,
// which the agent imports without linking the service.
type (
	// EnrollmentToken is a parsed enrollment token.
	EnrollmentToken = wire.EnrollmentToken
	// TokenResponse shows a new enrollment token, once.
	TokenResponse = wire.TokenResponse
	// CAResponse is GET /v1/agent/ca's body.
	CAResponse = wire.CAResponse
	// EnrollRequest is POST /v1/agent/enroll's body.
	EnrollRequest = wire.EnrollRequest
	// EnrollResponse is the enrolled agent's identity.
	EnrollResponse = wire.EnrollResponse
	// SubmitResponse is POST /sentinel/sbom/submit's answer.
	SubmitResponse = wire.SubmitResponse
	// SubmittedData is the data of the sbom.submitted event.
	SubmittedData = wire.SubmittedData
)

// TokenPrefix starts every enrollment token; see wire.TokenPrefix.
const TokenPrefix = wire.TokenPrefix

// EnrollProto is the ALPN marker of an enrolling agent; see wire.EnrollProto.
const EnrollProto = wire.EnrollProto

// Token format: see wire.TokenPrefix.
var (
	// ParseEnrollmentToken parses an enrollment token.
	ParseEnrollmentToken = wire.ParseEnrollmentToken
	// ErrMalformedToken is returned by ParseEnrollmentToken.
	ErrMalformedToken = wire.ErrMalformedToken
)
