package ignorefile_test

import (
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/ignorefile"
)

type entry struct {
	ID      string `yaml:"id"`
	Expires string `yaml:"expires"`
}

func TestDecode(t *testing.T) {
	data := []byte("# accepted\nignore:\n  - id: A\n    expires: 2026-12-01\n\n  - id: B\n    expires: 2026-12-01T10:00:00Z\n")
	es, lines, err := ignorefile.Decode[entry](data)
	if err != nil || len(es) != 2 || es[1].ID != "B" {
		t.Fatalf("Decode = %+v, %v", es, err)
	}
	if len(lines) != 2 || lines[0] != 3 || lines[1] != 6 {
		t.Errorf("lines = %v, want [3 6]", lines)
	}
	if es, _, err := ignorefile.Decode[entry](nil); err != nil || len(es) != 0 {
		t.Errorf("empty file: %v, %v", es, err)
	}
	if _, _, err := ignorefile.Decode[entry]([]byte("ignore:\n  - id: A\n    reasn: typo\n")); err == nil {
		t.Error("an unknown key was accepted")
	}
}

func TestParseExpiry(t *testing.T) {
	if got, err := ignorefile.ParseExpiry(" 2026-12-01 "); err != nil || !got.Equal(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a date holds through its day: %v, %v", got, err)
	}
	if got, err := ignorefile.ParseExpiry("2026-12-01T10:00:00Z"); err != nil || !got.Equal(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("RFC 3339: %v, %v", got, err)
	}
	if _, err := ignorefile.ParseExpiry("next week"); err == nil {
		t.Error("a non-date was accepted")
	}
}
