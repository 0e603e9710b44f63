package edge_test

import (
	"encoding/json"
	"errors"
	"net/netip"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/edge"
)

// The seed corpora are in testdata/fuzz/<FuzzName>: every entry of the
// real audit log in testdata/modsec, and batches in the documented format.

// checkObservation holds for any observation a parser returns.
func checkObservation(t *testing.T, o edge.Observation) {
	t.Helper()
	switch o.Action {
	case edge.ActionBlocked, edge.ActionDetected, edge.ActionAllowed:
	default:
		t.Fatalf("action %q", o.Action)
	}
	if _, err := netip.ParseAddr(o.Source); err != nil {
		t.Fatalf("source %q: %v", o.Source, err)
	}
	if o.Time.IsZero() || o.Time.Location().String() != "UTC" {
		t.Fatalf("time %v", o.Time)
	}
	if _, err := json.Marshal(o); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	// Correlating it must not panic either.
	edge.Correlate(&o, []edge.FindingRef{
		{ID: "a", AdvisoryID: "CVE-2021-44228", Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"},
		{ID: "b", Purl: "pkg:composer/wpackagist-plugin/x@1", Locations: []string{"https://h/wp-content/plugins/x/readme.txt", "::%zz"}},
	})
}

func FuzzParseModSecEntry(f *testing.F) {
	f.Add([]byte(`{"transaction":{"time":"23/Nov/2026:17:47:31.345987 +0000","remote_address":"127.0.0.1"},"request":{"request_line":"GET / HTTP/1.1","headers":{"Host":"a"}},"audit_data":{"messages":["Warning. [id \"1\"] [msg \"m\"] [tag \"attack-xss\"]"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := edge.ParseModSecEntry(data)
		if err != nil {
			return // ErrNotAnAttack or malformed: either way nothing to check
		}
		checkObservation(t, o)
	})
}

func FuzzDecodeBatch(f *testing.F) {
	f.Add([]byte(`{"observations":[{"time":"2026-11-21T22:19:05Z","host":"h","source":"1.2.3.4","action":"blocked"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		obs, err := edge.DecodeBatch(data)
		var be *edge.BatchError
		if err != nil && !errors.As(err, &be) && len(obs) > 0 {
			t.Fatalf("batch-level error %v with %d observations", err, len(obs))
		}
		for _, o := range obs {
			checkObservation(t, o)
			if o.Path == "" || o.Path[0] != '/' {
				t.Fatalf("path %q", o.Path)
			}
		}
	})
}
