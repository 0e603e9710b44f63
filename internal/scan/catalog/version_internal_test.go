package catalog

import "testing"

func TestUpstreamVersion(t *testing.T) {
	for in, want := range map[string]string{
		"3.6.1+dfsg+~3.5.14-1":       "3.6.1",
		"3:4.7.7+~4.1.0-1":           "4.7.7",
		"1.13.4~dfsg+~1.11.4-3":      "1.13.4",
		"18.1.0~18.2.0+dfsg+~cs87-4": "",
		"1:1.39.17-1+deb12u2":        "1.39.17",
		"2.6.14+dfsg-5":              "2.6.14",
		"12-4":                       "",
		"1.4.1-2":                    "1.4.1",
	} {
		if got := upstreamVersion(in); got != want {
			t.Errorf("upstreamVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
