package evidence_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
)

// FuzzVerifyBundle feeds verify.Bundle mutated bundles: whatever the bytes,
// it must return an error or a report, never panic, and never pass a
// bundle without verifying verification.txt.
func FuzzVerifyBundle(f *testing.F) {
	data, _ := MustBuild(f, MustCA(f, created.Add(-24*time.Hour)), testSource(), time.Now())
	f.Add(data)
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := verify.Bundle(context.Background(), bytes.NewReader(b), int64(len(b)), verify.Options{})
		if err != nil {
			return
		}
		if rep.OK && (len(rep.Artifacts) == 0 || rep.Artifacts[0].Name != verify.FileVerification || !rep.Artifacts[0].OK) {
			t.Fatalf("OK without a verified verification.txt: %+v", rep)
		}
	})
}
