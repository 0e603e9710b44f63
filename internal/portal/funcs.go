package portal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// funcs are the templates' helpers. None returns template.HTML or any
// other trusted type: everything a template prints is escaped by
// html/template for where it lands (text, attribute, URL).
var funcs = template.FuncMap{
	"ts":       ts,
	"tsp":      tsp,
	"day":      func(t time.Time) string { return dayOf(t) },
	"ago":      ago,
	"overdue":  overdue,
	"join":     strings.Join,
	"has":      slices.Contains[[]string],
	"details":  details,
	"size":     humanSize,
	"intp":     func(p *int) string { return intp(p) },
	"short":    short,
	"upper":    strings.ToUpper,
	"compURL":  componentURL,
	"purlURL":  func(p string) string { it := componentOf(p); return componentURL(it.Name, it.Version) },
	"findings": findingsURL,
	"pathEsc":  url.PathEscape,
	"add":      func(a, b int) int { return a + b },
	"sub":      func(a, b int) int { return a - b },
	"firstN": func(n int, xs []string) []string {
		if len(xs) > n {
			return xs[:n]
		}
		return xs
	},
	"mul":       func(a, b int) int { return a * b },
	"list":      func(s ...string) []string { return s },
	"hasPrefix": strings.HasPrefix,
	"rows":      func(items []sentinel.Finding, now time.Time) findingRows { return findingRows{items, now} },
}

func ts(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func tsp(t *time.Time) string {
	if t == nil {
		return "—"
	}
	return ts(*t)
}

func dayOf(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format(time.DateOnly)
}

// ago says how long before now t was (or, negative, how long after).
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	suffix := "ago"
	if d < 0 {
		d, suffix = -d, "from now"
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min %s", int(d.Minutes()), suffix)
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h %s", int(d.Hours()), suffix)
	}
	return fmt.Sprintf("%d days %s", int(d.Hours()/24), suffix)
}

// overdue reports whether an open finding is past its SLA at now.
func overdue(f sentinel.Finding, now time.Time) bool {
	return f.Status == sentinel.StatusOpen && !f.SLADueAt.IsZero() && f.SLADueAt.Before(now)
}

// details prints an event's data or an audit entry's details as indented
// JSON, for the history's disclosure.
func details(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" || string(raw) == "{}" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

func intp(p *int) string {
	if p == nil {
		return "unlimited"
	}
	return fmt.Sprint(*p)
}

// short cuts s to n characters, with an ellipsis.
func short(n int, s string) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// componentURL is the component page of a name and version.
func componentURL(name, version string) string {
	q := url.Values{"name": {name}}
	if version != "" {
		q.Set("version", version)
	}
	return "/inventory/component?" + q.Encode()
}

// findingsURL is the Findings page with filters given as key, value
// pairs.
func findingsURL(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return "/findings?" + q.Encode()
}

// findingRows is the shared findings table's data.
type findingRows struct {
	Items []sentinel.Finding
	Now   time.Time
}
