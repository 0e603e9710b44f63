// Package sbomtest makes synthetic CycloneDX documents for benchmarks of
// submission, search and bundles.
package sbomtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Generate returns a CycloneDX 1.5 document with n npm, PyPI and Maven
// components; pad bytes of description per component make it as large as
// real SBOMs with hashes, licenses and descriptions are. Its dependency
// graph has about two edges per component: component i depends on
// components i+1 and i+7.
func Generate(n, pad int, seed uint64) []byte {
	var b bytes.Buffer
	b.WriteString(`{"$schema":"http://cyclonedx.org/schema/bom-1.5.schema.json","bomFormat":"CycloneDX","specVersion":"1.5","version":1,`)
	b.WriteString(`"metadata":{"timestamp":"2026-11-21T22:19:05Z","component":{"type":"application","name":"bench"},"properties":[{"name":"sentinel:host","value":"bench-host"}]},"components":[`)
	desc := bytes.Repeat([]byte("x"), pad)
	r := rand.New(rand.NewPCG(seed, 1))
	purls := make([]string, n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		v := fmt.Sprintf("%d.%d.%d", r.IntN(5), r.IntN(20), r.IntN(30))
		var p string
		switch i % 3 {
		case 0:
			p = fmt.Sprintf("pkg:npm/pkg-%d@%s", i, v)
		case 1:
			p = fmt.Sprintf("pkg:pypi/py-pkg-%d@%s", i, v)
		default:
			p = fmt.Sprintf("pkg:maven/org.example.g%d/artifact-%d@%s", i%50, i, v)
		}
		fmt.Fprintf(&b, `{"type":"library","bom-ref":%q,"name":"pkg-%d","version":%q,"purl":%q,"description":"%s","hashes":[{"alg":"SHA-256","content":"%064x"}],"licenses":[{"license":{"id":"MIT"}}]}`,
			p, i, v, p, desc, r.Uint64())
		purls[i] = p
	}
	b.WriteString(`],"dependencies":[`)
	for i, p := range purls {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ref":%q,"dependsOn":[`, p)
		for k, j := range []int{i + 1, i + 7} {
			if j < n {
				if k > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%q", purls[j])
			}
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}
