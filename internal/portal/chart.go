package portal

import (
	"fmt"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// The overview's charts are SVG drawn here, on the server: no script, no
// library, and the numbers stay readable in a table beside them.

// Chart geometry, in SVG user units (the SVG scales to its box).
const (
	chartW      = 600
	chartH      = 180
	chartLeft   = 44 // room for the y axis labels
	chartRight  = 8
	chartTop    = 10
	chartBottom = 24 // room for the x axis labels
)

type trendChart struct {
	W, H   int
	Points []sentinel.TrendPoint
	// Area and Line draw the unresolved findings; YTicks and XTicks label
	// both charts' axes.
	Area, Line string
	UTicks     []tick
	// Bars are the daily new (up) and resolved (down) counts.
	Bars   []bar
	DTicks []tick
	XTicks []tick
	// Zero is the y of the daily chart's zero line.
	Zero                int
	Left, Right, Bottom int
}

type tick struct {
	X, Y  int
	Label string
	// Anchor is the SVG text-anchor: the first and last dates stay inside
	// the chart.
	Anchor string
}

type bar struct {
	X, Y, W, H int
	Kind       string // new or resolved
	Title      string
}

// niceMax rounds n up to a round number for an axis.
func niceMax(n int) int {
	if n <= 4 {
		return 4
	}
	step := 1
	for step*10 < n {
		step *= 10
	}
	for _, m := range []int{1, 2, 5, 10} {
		if step*m >= n {
			return step * m
		}
	}
	return step * 10
}

func newTrendChart(pts []sentinel.TrendPoint) trendChart {
	c := trendChart{W: chartW, H: chartH, Points: pts, Left: chartLeft, Right: chartW - chartRight, Bottom: chartH - chartBottom}

	if len(pts) == 0 {
		return c
	}
	plotW := float64(chartW - chartLeft - chartRight)
	plotH := float64(chartH - chartTop - chartBottom)
	step := plotW / float64(len(pts))
	xOf := func(i int) float64 { return chartLeft + step*(float64(i)+0.5) }

	maxU, maxD := 0, 0
	for _, p := range pts {
		maxU = max(maxU, p.Unresolved)
		maxD = max(maxD, p.New, p.Resolved)
	}
	maxU, maxD = niceMax(maxU), niceMax(maxD)

	// Unresolved: a line over a filled area.
	var line, area strings.Builder
	base := float64(chartTop) + plotH
	fmt.Fprintf(&area, "%.1f,%.1f ", xOf(0), base)
	for i, p := range pts {
		y := float64(chartTop) + plotH*(1-float64(p.Unresolved)/float64(maxU))
		fmt.Fprintf(&line, "%.1f,%.1f ", xOf(i), y)
		fmt.Fprintf(&area, "%.1f,%.1f ", xOf(i), y)
	}
	fmt.Fprintf(&area, "%.1f,%.1f", xOf(len(pts)-1), base)
	c.Line, c.Area = strings.TrimSpace(line.String()), area.String()
	for _, v := range []int{0, maxU / 2, maxU} {
		c.UTicks = append(c.UTicks, tick{X: chartLeft - 6, Y: int(float64(chartTop) + plotH*(1-float64(v)/float64(maxU))), Label: fmt.Sprint(v)})
	}

	// New above the zero line, resolved below it, one pair per day.
	half := plotH / 2
	zero := float64(chartTop) + half
	c.Zero = int(zero)
	bw := max(int(step*0.7), 1)
	for i, p := range pts {
		x := int(xOf(i)) - bw/2
		if p.New > 0 {
			h := max(int(half*float64(p.New)/float64(maxD)), 1)
			c.Bars = append(c.Bars, bar{X: x, Y: int(zero) - h, W: bw, H: h, Kind: "new", Title: fmt.Sprintf("%s: %d new", p.Day, p.New)})
		}
		if p.Resolved > 0 {
			h := max(int(half*float64(p.Resolved)/float64(maxD)), 1)
			c.Bars = append(c.Bars, bar{X: x, Y: int(zero), W: bw, H: h, Kind: "resolved", Title: fmt.Sprintf("%s: %d resolved", p.Day, p.Resolved)})
		}
	}
	c.DTicks = []tick{{X: chartLeft - 6, Y: chartTop + 4, Label: fmt.Sprintf("+%d", maxD)}, {X: chartLeft - 6, Y: int(zero) + 4, Label: "0"},
		{X: chartLeft - 6, Y: int(base), Label: fmt.Sprintf("-%d", maxD)}}

	// Dates: the first, the last and a few between.
	n := len(pts)
	for _, i := range []int{0, n / 4, n / 2, 3 * n / 4, n - 1} {
		if len(c.XTicks) > 0 && c.XTicks[len(c.XTicks)-1].Label == pts[i].Day[5:] {
			continue
		}
		anchor := "middle"
		switch i {
		case 0:
			anchor = "start"
		case n - 1:
			anchor = "end"
		}
		c.XTicks = append(c.XTicks, tick{X: int(xOf(i)), Y: chartH - 6, Label: pts[i].Day[5:], Anchor: anchor})
	}
	return c
}
