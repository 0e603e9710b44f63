package secrets

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes r as indented JSON (schema "sentinel-secrets-report",
// version 1). The document holds no raw value: Detection keeps it in an
// unexported field, and Credential marshals as "[REDACTED]" anyway.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteTable writes r for a person: one row per detection (provider, rule,
// location, redacted value, the fingerprint's first 12 digits, and whether
// the service can verify it), then the suppressed ones with their reasons,
// skipped files, warnings and a one-line summary.
func WriteTable(w io.Writer, r *Report) error {
	ew := &errWriter{w: w}
	if len(r.Detections) == 0 {
		fmt.Fprintf(ew, "No secrets found.\n")
	} else {
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PROVIDER\tRULE\tLOCATION\tVALUE\tFINGERPRINT\tVERIFIABLE")
		for _, d := range r.Detections {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", orDash(d.Provider), d.RuleID, location(d), d.Redacted, d.Fingerprint[:12], verifiable(d))
		}
		tw.Flush()
	}
	if len(r.Suppressed) > 0 {
		fmt.Fprintf(ew, "\nSuppressed by the ignore file:\n")
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		for _, d := range r.Suppressed {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s (%s, until %s)\n", d.RuleID, location(d), d.Fingerprint[:12], oneLine(d.Suppression.Reason), d.Suppression.Source, d.Suppression.Expires)
		}
		tw.Flush()
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(ew, "\nNot scanned:\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(ew, "  %s: %s\n", s.Path, s.Reason)
		}
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(ew, "\nwarning: %s\n", wn)
	}
	s := r.Summary
	what := fmt.Sprintf("%d files (%s)", s.Files, byteSize(s.Bytes))
	if r.History {
		what += fmt.Sprintf(" and %d commits", s.Commits)
	}
	fmt.Fprintf(ew, "\n%d detections of %d distinct secrets (%d verifiable by the service), %d suppressed; scanned %s with %s %s.\n",
		s.Detections, s.Secrets, s.Verifiable, s.Suppressed, what, r.Engine.Name, r.Engine.Version)
	return ew.err
}

func location(d Detection) string {
	loc := fmt.Sprintf("%s:%d", d.File, d.Line)
	if d.Column > 0 {
		loc += fmt.Sprintf(":%d", d.Column)
	}
	if d.Commit != "" {
		c := d.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		loc += " @" + c
	}
	return loc
}

func verifiable(d Detection) string {
	switch {
	case d.Verifiable:
		return "yes"
	case d.RuleID == "aws-access-token":
		return "no (secret key not found)"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// errWriter keeps the first write error so the writers can print freely.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
