package server_test

import (
	"context"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/secrets"
	"github.com/sentinel-sca/sentinel/internal/server"
)

// secretFixture stores a secret (a private key, never verified) found on a
// host of org and returns its id.
func secretFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	sub := &secrets.Submission{Schema: secrets.SubmissionSchema, SchemaVersion: secrets.SubmissionSchemaVersion, Root: ".",
		Items: []secrets.SubmissionItem{{RuleID: "private-key", File: "deploy/id_ed25519", Line: 1, Value: "fixture-" + sentinel.NewID("")}}}
	res, err := s.Secrets.Ingest(context.Background(), org.ID, "fixture-host", "", sub, server.AdminActor)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": res.Items[0].ID}
}
