package scan

import (
	"cmp"
	"slices"
	"testing"
)

func TestCompareVersions(t *testing.T) {
	ordered := []string{"", "1.2-rc.0", "1.2", "1.2.1", "1.10.0", "4.1.0-beta.1", "4.1.0-rc.0", "4.1.0", "9.18.5", "10.7.3", "11.9.0"}
	for i := range ordered {
		for j := range ordered {
			if got, want := compareVersions(ordered[i], ordered[j]), cmp.Compare(i, j); got != want {
				t.Errorf("compareVersions(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	shuffled := []string{"10.7.3", "4.1.0", "9.18.5", "1.2-rc.0", "4.1.0-rc.0"}
	slices.SortFunc(shuffled, compareVersions)
	if want := []string{"1.2-rc.0", "4.1.0-rc.0", "4.1.0", "9.18.5", "10.7.3"}; !slices.Equal(shuffled, want) {
		t.Errorf("sorted = %v, want %v", shuffled, want)
	}
}
