package sbom_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestDenoLock: deno.lock as Deno 2.9 (lockfile version 5) and Deno 1.46
// (version 3) wrote it for the same imports gives every npm package it
// records (read off the file here), as npm components.
func TestDenoLock(t *testing.T) {
	key := regexp.MustCompile(`^(@?[^@]+)@(\d[^_]*)`)
	for _, dir := range []string{"deno-v5", "deno-v3"} {
		t.Run(dir, func(t *testing.T) {
			var lock struct {
				NPM      map[string]json.RawMessage `json:"npm"`
				Packages struct {
					NPM map[string]json.RawMessage `json:"npm"`
				} `json:"packages"`
			}
			mustJSON(t, filepath.Join("testdata/lock-variants", dir, "deno.lock"), &lock)
			var want []string
			for k := range lock.NPM {
				m := key.FindStringSubmatch(k)
				want = append(want, m[1]+"@"+m[2])
			}
			for k := range lock.Packages.NPM {
				m := key.FindStringSubmatch(k)
				want = append(want, m[1]+"@"+m[2])
			}
			want = set(want)
			if len(want) < 40 {
				t.Fatalf("the file records %d npm packages", len(want))
			}
			res, err := sbom.Extract(context.Background(), filepath.Join("testdata/lock-variants", dir), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range res.Components {
				if c.Ecosystem != "npm" {
					t.Errorf("%s is %s", c.Purl, c.Ecosystem)
				}
				got = append(got, c.Name+"@"+c.Version)
			}
			if diff := cmp.Diff(want, set(got)); diff != "" {
				t.Errorf("components (-file +read):\n%s", diff)
			}
		})
	}
}
