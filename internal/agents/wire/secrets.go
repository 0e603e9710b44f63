package wire

import "time"

// PathSecretsSubmit is where the agent sends the secrets it found
// (package secrets' Submission) on the agent listener.
const PathSecretsSubmit = "/sentinel/secrets/submit"

// SecretsSubmitResponse is POST /sentinel/secrets/submit's answer. It
// names each secret by id and fingerprint, never by value.
type SecretsSubmitResponse struct {
	// Host is the agent certificate's host, the secrets' host.
	Host string `json:"host"`
	// Received counts the submission's items; New and Known the distinct
	// secrets among them that the service had not seen before in the
	// organization, and had.
	Received int `json:"received"`
	New      int `json:"new"`
	Known    int `json:"known"`
	// Verifying counts the new secrets queued for a live check with their
	// provider.
	Verifying int `json:"verifying"`
	// Items are the submission's items in order.
	Items []SecretsSubmitItem `json:"items"`
	// FingerprintKeyID names the service's fingerprint key: fingerprints
	// compare only under one key.
	FingerprintKeyID string    `json:"fingerprint_key_id"`
	ReceivedAt       time.Time `json:"received_at"`
}

// SecretsSubmitItem is what became of one submitted item.
type SecretsSubmitItem struct {
	// Index is the item's position in the submission, from 0.
	Index int `json:"index"`
	// ID is the secret's id ("sec_..."); FindingID its finding's.
	ID        string `json:"id"`
	FindingID string `json:"finding_id"`
	// Fingerprint is the service's; LocalFingerprint the agent's, echoed
	// so the agent can match its report.
	Fingerprint      string `json:"fingerprint"`
	LocalFingerprint string `json:"local_fingerprint,omitempty"`
	// New is true when this item created the secret.
	New    bool   `json:"new"`
	Status string `json:"status"`
}
