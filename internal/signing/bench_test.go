package signing_test

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"
)

// patternReader yields n bytes of a repeating pattern without allocating.
type patternReader struct{ n int64 }

var pattern = bytes.Repeat([]byte("0123456789abcdef"), 4096)

func (r *patternReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	n := copy(p, pattern)
	r.n -= int64(n)
	return n, nil
}

// BenchmarkSign100MB signs one 100 MB stream; MB/s is reported.
func BenchmarkSign100MB(b *testing.B) {
	now := time.Now()
	ca := MustCA(b, now.Add(-time.Hour))
	s := MustSigner(b, ca, now)
	defer s.Close()
	const size = 100 << 20
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Sign(context.Background(), &patternReader{n: size}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSign1000Small signs 1,000 artifacts of 2 KiB each per iteration
// (each: hash, ECDSA P-256 signature, RFC 3161 timestamp with a P-384 TSA
// key, and a check of the timestamp).
func BenchmarkSign1000Small(b *testing.B) {
	now := time.Now()
	ca := MustCA(b, now.Add(-time.Hour))
	s := MustSigner(b, ca, now)
	defer s.Close()
	data := bytes.Repeat([]byte("component,version,purl\n"), 90)
	b.ResetTimer()
	for b.Loop() {
		for range 1000 {
			if _, err := s.Sign(context.Background(), bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "artifacts/s")
}
