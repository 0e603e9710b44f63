package evidence

import (
	"slices"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// Control is one control of a compliance catalog that supply-chain findings
// give evidence for.
type Control struct {
	ID    string
	Title string
	// Basis says which findings count as hits when a finding carries no
	// compliance references of its own.
	Basis string
	// match reports whether a finding without references hits the control.
	match func(f *sentinel.EvidenceFinding) bool
}

// Catalog is a primary compliance catalog (Organization.Catalog).
type Catalog struct {
	Name     string
	Controls []Control
}

func anyFinding(*sentinel.EvidenceFinding) bool { return true }

func endOfLife(f *sentinel.EvidenceFinding) bool { return f.CWE == "CWE-1104" }

func criticalOrHigh(f *sentinel.EvidenceFinding) bool {
	return f.Severity == sentinel.SeverityCritical || f.Severity == sentinel.SeverityHigh
}

// Catalogs are the primary catalogs an organization can choose
// (store.Catalogs), with the controls docs/design.md names.
var Catalogs = []Catalog{
	{Name: "nist-800-53", Controls: []Control{
		{ID: "RA-5", Title: "Vulnerability Monitoring and Scanning", Basis: "every vulnerable-component finding", match: anyFinding},
		{ID: "SI-2", Title: "Flaw Remediation", Basis: "every vulnerable-component finding", match: anyFinding},
		{ID: "SA-22", Title: "Unsupported System Components", Basis: "end-of-life findings (CWE-1104)", match: endOfLife},
		{ID: "CM-8", Title: "System Component Inventory", Basis: "every finding tied to an inventoried component", match: anyFinding},
	}},
	{Name: "pci-dss-4", Controls: []Control{
		{ID: "6.3.1", Title: "Security vulnerabilities are identified and managed", Basis: "every vulnerable-component finding", match: anyFinding},
		{ID: "6.3.2", Title: "Inventory of bespoke and third-party software components", Basis: "every finding tied to an inventoried component", match: anyFinding},
		{ID: "6.3.3", Title: "Components protected from known vulnerabilities by installing patches", Basis: "critical and high findings", match: criticalOrHigh},
	}},
	{Name: "iso-27001-2022", Controls: []Control{
		{ID: "A.8.8", Title: "Management of technical vulnerabilities", Basis: "every vulnerable-component finding", match: anyFinding},
	}},
}

// CatalogByName returns the named catalog, or NIST SP 800-53 (the default
// catalog of a new organization) for an unknown name.
func CatalogByName(name string) Catalog {
	for _, c := range Catalogs {
		if c.Name == name {
			return c
		}
	}
	return Catalogs[0]
}

// ControlsFor returns the catalog's controls a finding hits: the finding's
// own compliance references that belong to the catalog when it has any,
// else the catalog's default rule per control.
func (c Catalog) ControlsFor(f *sentinel.EvidenceFinding) []string {
	var out []string
	if len(f.Compliance) > 0 {
		for _, ctl := range c.Controls {
			if slices.ContainsFunc(f.Compliance, func(ref string) bool { return refersTo(ref, ctl.ID) }) {
				out = append(out, ctl.ID)
			}
		}
		return out
	}
	for _, ctl := range c.Controls {
		if ctl.match(f) {
			out = append(out, ctl.ID)
		}
	}
	return out
}

// refersTo reports whether a compliance reference names control id: "RA-5",
// or a longer form ending in it ("NIST SP 800-53 RA-5", "PCI DSS 4.0 6.3.3").
func refersTo(ref, id string) bool {
	return ref == id || strings.HasSuffix(ref, " "+id) || strings.HasSuffix(ref, ":"+id)
}
