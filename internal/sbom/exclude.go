package sbom

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Excludes.
//
// Options.Exclude holds glob patterns matched against paths relative to the
// scanned root, with forward slashes: path.Match syntax for each segment
// ("*", "?", "[...]"), plus "**" for any number of segments, zero included.
// A pattern that matches a directory excludes everything below it, and so
// does a pattern ending in "/**" whose prefix matches it: "**/testdata/**"
// and "**/testdata" both skip every testdata directory; "docs/*.json" skips
// JSON files directly in docs.

// ErrBadPattern is wrapped by the error of an invalid exclude pattern.
var ErrBadPattern = errors.New("invalid exclude pattern")

// excluder matches paths against compiled patterns.
type excluder struct {
	pats [][]string // segments
}

func newExcluder(patterns []string) (*excluder, error) {
	ex := &excluder{}
	for _, p := range patterns {
		p = strings.TrimSpace(filepath.ToSlash(p))
		p = strings.TrimPrefix(p, "./")
		p = strings.TrimSuffix(p, "/")
		if p == "" {
			continue
		}
		segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
		for _, s := range segs {
			if s == "**" {
				continue
			}
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("%w %q: %v", ErrBadPattern, p, err)
			}
		}
		ex.pats = append(ex.pats, segs)
	}
	return ex, nil
}

// file reports whether the file at p is excluded.
func (ex *excluder) file(p string) bool {
	if ex == nil || len(ex.pats) == 0 {
		return false
	}
	segs := strings.Split(p, "/")
	for _, pat := range ex.pats {
		if matchSegs(pat, segs) {
			return true
		}
	}
	return false
}

// dir reports whether the directory at p, and so everything below it, is
// excluded: a pattern matches p itself, or p followed by anything.
func (ex *excluder) dir(p string) bool {
	if ex == nil || len(ex.pats) == 0 || p == "." {
		return false
	}
	segs := strings.Split(p, "/")
	for _, pat := range ex.pats {
		if matchSegs(pat, segs) {
			return true
		}
		if n := len(pat); n > 1 && pat[n-1] == "**" && matchSegs(pat[:n-1], segs) {
			return true
		}
	}
	return false
}

// matchSegs matches path segments against pattern segments, "**" matching
// any number of segments.
func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for i := 0; i <= len(segs); i++ {
				if matchSegs(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// ConfigFileName is the name of the per-project configuration file that the
// agent reads at the root of a scan (ReadConfig).
const ConfigFileName = ".sentinel.yaml"

// Config is the scan configuration a project keeps in ConfigFileName:
//
//	# .sentinel.yaml
//	exclude:
//	  - "**/testdata/**"
//	  - "docs/examples/**"
//	omit_dev: true   # leave out development-only components
//
// The agent merges it with its flags: --exclude patterns add to the file's,
// and --omit-dev or omit_dev omits.
type Config struct {
	// Exclude are glob patterns (see Options.Exclude).
	Exclude []string `yaml:"exclude"`
	// OmitDev leaves out the components only development needs
	// (Result.OmitDevelopment), as the agent's --omit-dev does.
	OmitDev bool `yaml:"omit_dev"`
}

// ParseConfig reads a configuration document. Unknown keys are an error, so
// that a misspelt key is not silently ignored; so is an invalid pattern.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) { // io.EOF: an empty file
		return Config{}, fmt.Errorf("parse %s: %w", ConfigFileName, err)
	}
	if _, err := newExcluder(c.Exclude); err != nil {
		return Config{}, fmt.Errorf("parse %s: %w", ConfigFileName, err)
	}
	return c, nil
}

// ReadConfig reads ConfigFileName in dir. found is false, with a zero
// Config and no error, when there is no such file.
func ReadConfig(dir string) (c Config, found bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, ConfigFileName))
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, false, nil
	}
	if err != nil {
		return Config{}, false, fmt.Errorf("read %s: %w", ConfigFileName, err)
	}
	c, err = ParseConfig(b)
	return c, true, err
}
