package edge_test

import (
	"fmt"
	"os"

	"github.com/sentinel-sca/sentinel/internal/edge"
)

// The service's side: observations in, events and risk changes out; the
// correlation state per finding is the caller's to store.
func ExampleCorrelator() {
	f, err := os.Open("testdata/modsec/audit.log")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	// The open findings of the asset the log's host belongs to.
	c := edge.NewCorrelator([]edge.FindingRef{{
		ID: "fnd_1", AssetID: "ast_1", AdvisoryID: "GHSA-jfh8-c2jp-5v3q", Aliases: []string{"CVE-2021-44228"},
		Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", RiskScore: 75,
	}})
	states := map[string]*edge.State{} // stored per finding in the service
	r := edge.NewModSecReader(f)
	for {
		o, err := r.Next()
		if err != nil {
			break // io.EOF, or a *edge.LineError to log and go on after
		}
		for _, m := range c.Match(&o) {
			d := edge.DefaultPolicy.Apply(states[m.FindingID], o.Time, o.Action, 75)
			states[m.FindingID] = &d.State
			if d.Emit {
				ev := edge.NewMatchEvent(&o, m, d, edge.DefaultPolicy)
				fmt.Println(ev.FindingID, ev.PreviousRiskScore, "->", ev.RiskScore, d.Escalated, ev.Reasons[0].Kind)
			}
		}
	}
	// Output: fnd_1 75 -> 85 false cve
}
