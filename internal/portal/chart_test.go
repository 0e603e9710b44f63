package portal

import (
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
)

func TestNiceMax(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{0, 4}, {3, 4}, {5, 5}, {6, 10}, {10, 10}, {11, 20}, {42, 50}, {51, 100}, {990, 1000}, {1001, 2000}, {61234, 100000}} {
		if got := niceMax(tc.in); got != tc.want {
			t.Errorf("niceMax(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestTrendChart checks the drawing's geometry: one point per day inside
// the plot, bars only for days with arrivals or resolutions, new above the
// zero line and resolved below it, and the axis labels.
func TestTrendChart(t *testing.T) {
	pts := []sentinel.TrendPoint{{Day: "2026-11-19", Unresolved: 0}, {Day: "2026-11-20", Unresolved: 7, New: 7},
		{Day: "2026-11-21", Unresolved: 5, Resolved: 2}, {Day: "2026-11-22", Unresolved: 5}}
	c := newTrendChart(pts)
	if n := len(strings.Fields(c.Line)); n != len(pts) {
		t.Errorf("line has %d points, want %d: %q", n, len(pts), c.Line)
	}
	if len(c.Bars) != 2 || c.Bars[0].Kind != "new" || c.Bars[0].Y+c.Bars[0].H != c.Zero || c.Bars[1].Kind != "resolved" || c.Bars[1].Y != c.Zero {
		t.Errorf("bars %+v (zero line at %d)", c.Bars, c.Zero)
	}
	for _, b := range c.Bars {
		if b.X < c.Left || b.X+b.W > c.Right {
			t.Errorf("bar outside the plot: %+v", b)
		}
	}
	if c.UTicks[len(c.UTicks)-1].Label != "10" || c.XTicks[0].Label != "11-19" || c.XTicks[0].Anchor != "start" ||
		c.XTicks[len(c.XTicks)-1].Label != "11-22" || c.XTicks[len(c.XTicks)-1].Anchor != "end" {
		t.Errorf("ticks %+v %+v", c.UTicks, c.XTicks)
	}
	if empty := newTrendChart(nil); empty.Line != "" || len(empty.Bars) != 0 {
		t.Errorf("empty chart %+v", empty)
	}
}
