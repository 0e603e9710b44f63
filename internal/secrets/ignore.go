package secrets

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/ignorefile"
)

// IgnoreFileName is the ignore file Scan's caller reads from the scanned
// directory when the user names none. It is a file of its own rather than a
// section of the CI gate's .sentinel-ignore.yaml because that file's
// reader refuses unknown keys, as it should; the syntax is the same.
const IgnoreFileName = ".sentinel-secrets-ignore.yaml"

// ErrInvalidIgnore is wrapped by every error for a malformed ignore file.
var ErrInvalidIgnore = errors.New("invalid secrets ignore file")

// IgnoreEntry is one accepted detection (see the package comment for the
// file format).
type IgnoreEntry struct {
	// Fingerprint matches one secret value wherever it appears. It is
	// meaningful only under the fingerprint key that produced it (the
	// report's fingerprint_key_id).
	Fingerprint string `yaml:"fingerprint" json:"fingerprint,omitempty"`
	// Rule limits the entry to one gitleaks rule id.
	Rule string `yaml:"rule" json:"rule,omitempty"`
	// Path is a slash-separated glob relative to the scanned directory:
	// * and ? within a path element, ** for any number of elements.
	Path    string `yaml:"path" json:"path,omitempty"`
	Reason  string `yaml:"reason" json:"reason"`
	Expires string `yaml:"expires" json:"expires"`

	// Source is "file:line" of the entry.
	Source string `yaml:"-" json:"source,omitempty"`
	// ExpiresAt is the first instant the entry no longer applies.
	ExpiresAt time.Time `yaml:"-" json:"-"`
}

// LoadIgnoreFile reads an ignore file; see ParseIgnore.
func LoadIgnoreFile(name string, now time.Time) ([]IgnoreEntry, []string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalidIgnore, err)
	}
	return ParseIgnore(data, name, now)
}

// ParseIgnore parses an ignore file named name. It returns the entries in
// force at now and a warning for each expired entry, which suppresses
// nothing. Any malformed entry fails the whole file with ErrInvalidIgnore:
// an accepted secret needs a reason, an expiry, and a fingerprint or a path.
func ParseIgnore(data []byte, name string, now time.Time) ([]IgnoreEntry, []string, error) {
	entries, lines, err := ignorefile.Decode[IgnoreEntry](data)
	if err != nil {
		return nil, nil, fmt.Errorf("%w %s: %v", ErrInvalidIgnore, name, err)
	}

	var active []IgnoreEntry
	var warnings, problems []string
	for i, e := range entries {
		e.Source = name
		if i < len(lines) {
			e.Source = fmt.Sprintf("%s:%d", name, lines[i])
		}
		e.Fingerprint = strings.ToLower(strings.TrimSpace(e.Fingerprint))
		e.Rule = strings.TrimSpace(e.Rule)
		e.Path = strings.TrimSpace(e.Path)
		var missing []string
		if e.Fingerprint == "" && e.Path == "" {
			// A rule alone would silence a whole class of secrets in
			// every file, which is a configuration change, not an
			// accepted detection.
			missing = append(missing, "fingerprint or path")
		}
		if strings.TrimSpace(e.Reason) == "" {
			missing = append(missing, "reason")
		}
		if strings.TrimSpace(e.Expires) == "" {
			missing = append(missing, "expires")
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("%s: missing %s", e.Source, strings.Join(missing, ", ")))
			continue
		}
		if e.Fingerprint != "" && !isHex(e.Fingerprint, 32) {
			problems = append(problems, fmt.Sprintf("%s: fingerprint %q: write the 32 hex digits the report shows", e.Source, e.Fingerprint))
			continue
		}
		if e.Path != "" {
			if err := checkGlob(e.Path); err != nil {
				problems = append(problems, fmt.Sprintf("%s: path %q: %v", e.Source, e.Path, err))
				continue
			}
		}
		at, err := ignorefile.ParseExpiry(e.Expires)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: expires %q: write a date as YYYY-MM-DD or an RFC 3339 time", e.Source, e.Expires))
			continue
		}
		e.ExpiresAt = at
		if !now.Before(at) {
			warnings = append(warnings, fmt.Sprintf("secrets ignore entry at %s expired on %s and no longer suppresses anything: rotate the secret and remove it, or renew the entry with a new reason and expiry",
				e.Source, e.Expires))
			continue
		}
		active = append(active, e)
	}
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("%w: %s (every entry needs a fingerprint or a path, a reason and an expiry date)", ErrInvalidIgnore, strings.Join(problems, "; "))
	}
	return active, warnings, nil
}

// matches reports whether e accepts d.
func (e *IgnoreEntry) matches(d *Detection) bool {
	if e.Fingerprint != "" && e.Fingerprint != d.Fingerprint {
		return false
	}
	if e.Rule != "" && e.Rule != d.RuleID {
		return false
	}
	if e.Path != "" && !matchGlob(e.Path, d.File) {
		return false
	}
	return true
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// checkGlob validates a path glob: relative, slash-separated, each element
// a valid path.Match pattern or "**".
func checkGlob(p string) error {
	if strings.HasPrefix(p, "/") {
		return errors.New("write the path relative to the scanned directory")
	}
	if strings.Contains(p, `\`) {
		return errors.New("separate path elements with /")
	}
	for _, el := range strings.Split(p, "/") {
		if el == "**" {
			continue
		}
		if _, err := path.Match(el, ""); err != nil {
			return errors.New("malformed glob")
		}
	}
	return nil
}

// matchGlob matches a slash-separated name against a glob whose elements
// are path.Match patterns, where an element "**" matches zero or more
// elements. A pattern ending in "/" matches everything below that
// directory, as "dir/**" does.
func matchGlob(pattern, name string) bool {
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	return matchElems(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchElems(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if matchElems(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
