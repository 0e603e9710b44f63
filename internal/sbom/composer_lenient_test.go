package sbom_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestComposerLenient: a composer.lock whose package version is a number
// (wpackagist's WordPress plugins), or which has entries of another shape,
// is read for every package whose name and version are there, as the file
// itself lists them, not skipped whole.
func TestComposerLenient(t *testing.T) {
	for _, dir := range []string{"integer-version", "doctored"} {
		t.Run(dir, func(t *testing.T) {
			root := filepath.Join("testdata", "composer-lenient", dir)
			b, err := os.ReadFile(filepath.Join(root, "composer.lock"))
			if err != nil {
				t.Fatal(err)
			}
			var lock struct {
				Packages    []map[string]any `json:"packages"`
				PackagesDev []map[string]any `json:"packages-dev"`
			}
			if err := json.Unmarshal(b, &lock); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range append(lock.Packages, lock.PackagesDev...) {
				name, ok := p["name"].(string)
				var version string
				switch v := p["version"].(type) {
				case string:
					version = v
				case float64:
					version = fmt.Sprint(int64(v))
				}
				if ok && version != "" {
					want = append(want, "pkg:composer/"+name+"@"+version)
				}
			}
			slices.Sort(want)
			if len(want) < 2 {
				t.Fatalf("the file lists %d well-formed packages: the test shows nothing", len(want))
			}
			res := mustExtract(t, root)
			if len(res.Errors) != 0 {
				t.Errorf("not read: %+v", res.Errors)
			}
			if diff := cmp.Diff(want, marked(res)); diff != "" {
				t.Errorf("(-the file +read):\n%s", diff)
			}
		})
	}
}
