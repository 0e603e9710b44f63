// Package ignorefile reads the shape the CI gate's ignore file and the
// secrets scan's allow file share: a YAML document whose top-level "ignore"
// list holds entries that each carry a reason and an expiry. Each caller
// defines its entry type and checks its own fields.
package ignorefile

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Decode decodes the "ignore" list of data into entries of type T,
// refusing unknown keys, and returns the line of each entry in the file
// (for messages that point at it). An empty document is an empty list.
func Decode[T any](data []byte) (entries []T, lines []int, err error) {
	var f struct {
		Ignore []T `yaml:"ignore"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	// A second pass over the node tree gives each entry its line.
	var doc yaml.Node
	_ = yaml.Unmarshal(data, &doc)
	return f.Ignore, entryLines(&doc), nil
}

// entryLines returns the line of each item of the top-level "ignore" list.
func entryLines(doc *yaml.Node) []int {
	if doc == nil || len(doc.Content) == 0 {
		return nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "ignore" && m.Content[i+1].Kind == yaml.SequenceNode {
			var out []int
			for _, n := range m.Content[i+1].Content {
				out = append(out, n.Line)
			}
			return out
		}
	}
	return nil
}

// ParseExpiry reads an entry's expiry: YYYY-MM-DD (the entry holds through
// that day, UTC, so the first instant it no longer applies is returned) or
// an RFC 3339 time.
func ParseExpiry(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.AddDate(0, 0, 1), nil
	}
	return time.Parse(time.RFC3339, s)
}
