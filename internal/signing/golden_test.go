package signing_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/signing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

const goldenDir = "testdata/golden"

// goldenFiles names the fixture's files.
var goldenFiles = signing.DefaultFiles("artifact.txt")

// loadGolden reads the signed fixture in testdata/golden: an artifact
// signed once, by a leaf that expired minutes later. It keeps verifying
// thanks to its timestamp, and gives the fuzz target stable seeds (every
// fuzz worker process reads the same bytes).
func loadGolden(tb testing.TB) signed {
	tb.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(goldenDir, name))
		if err != nil {
			tb.Fatalf("read fixture (regenerate with go test -run TestGolden -update): %v", err)
		}
		return b
	}
	return signed{
		artifact: read(goldenFiles.Artifact),
		material: signing.Material{
			Certificate: read(goldenFiles.Certificate),
			Chain:       read(goldenFiles.Chain),
			Signature:   read(goldenFiles.Signature),
			Timestamp:   read(goldenFiles.Timestamp),
			TSAChain:    read(goldenFiles.TSAChain),
		},
	}
}

func TestGolden(t *testing.T) {
	if *update {
		now := time.Now()
		ca := MustCA(t, now.Add(-time.Hour))
		s := MustSigner(t, ca, now)
		artifact := []byte("Sentinel evidence fixture\n")
		in := newSigned(ca, s, artifact, MustSign(t, s, artifact))
		s.Close()
		for name, b := range map[string][]byte{
			goldenFiles.Artifact:    in.artifact,
			goldenFiles.Certificate: in.material.Certificate,
			goldenFiles.Chain:       in.material.Chain,
			goldenFiles.Signature:   in.material.Signature,
			goldenFiles.Timestamp:   in.material.Timestamp,
			goldenFiles.TSAChain:    in.material.TSAChain,
		} {
			if err := os.MkdirAll(goldenDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(goldenDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	in := loadGolden(t)
	res, err := signing.Verify(context.Background(), bytes.NewReader(in.artifact), in.material,
		signing.Policy{IdentityRegexp: signing.IdentityRegexp(testIdentity), Issuer: testIssuer})
	if err != nil {
		t.Fatalf("Verify(golden): %v", err)
	}
	if !res.Timestamped {
		t.Errorf("Verify(golden): not timestamped")
	}
}
