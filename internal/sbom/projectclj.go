package sbom

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	"github.com/google/osv-scalibr/purl"
)

// A Leiningen project's project.clj.
//
// project.clj is Clojure code, not EDN: its defproject form may compute
// its version (#=(slurp ...)), unquote (~(str ...)), carry metadata
// (^:replace) and regular expressions (#"..."), so an EDN decoder refuses
// most real files. Sentinel reads it with a small reader of Clojure's
// syntax (clj below) that keeps the forms it can read as data and marks
// those it cannot (evaluations, unquotes) as unknown, never running them.
// Read from (defproject name version ...):
//
//   - :dependencies, [group/artifact "version" & options], as deps.edn's
//     Maven components ("cheshire" is cheshire:cheshire);
//   - the :dependencies of :profiles (a map of options, or a vector that
//     composes profiles), development-only: a profile is applied when
//     asked for (lein with-profile), :dev and :test in development;
//   - :plugins, Leiningen's own tools, development-only.
//
// A version that is computed rather than written names no release and the
// dependency has none. The project itself is not a component.

var projectClj = ownExtractor{name: "clojure/projectclj", required: isProjectClj, read: readProjectClj}

func isProjectClj(p string) bool { return path.Base(p) == "project.clj" }

func readProjectClj(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	forms, err := readClj(string(b))
	if err != nil {
		return nil, fmt.Errorf("not a project.clj: %w", err)
	}
	var def []cljForm
	for _, f := range forms {
		if f.kind == cljList && len(f.items) >= 3 && f.items[0].sym() == "defproject" {
			def = f.items[3:]
			break
		}
	}
	if def == nil {
		return nil, errors.New("not a project.clj: no (defproject name version ...) form")
	}
	var pkgs []*extractor.Package
	seen := map[string]bool{}
	deps := func(v cljForm, dev bool) {
		if v.kind != cljVector {
			return
		}
		for _, d := range v.items {
			if d.kind != cljVector || len(d.items) < 1 || d.items[0].sym() == "" {
				continue
			}
			lib := d.items[0].sym()
			version := ""
			if len(d.items) > 1 && d.items[1].kind == cljString {
				version = d.items[1].text
			}
			group, artifact, ok := strings.Cut(lib, "/")
			if !ok {
				group, artifact = lib, lib
			}
			if group == "" || artifact == "" || seen[group+":"+artifact] {
				continue
			}
			seen[group+":"+artifact] = true
			var groups []string
			if dev {
				groups = []string{"dev"}
			}
			pkgs = append(pkgs, &extractor.Package{Name: group + ":" + artifact, Version: version, PURLType: purl.TypeMaven,
				Metadata: &javalockfile.Metadata{GroupID: group, ArtifactID: artifact, DepGroupVals: groups},
				Location: extractor.LocationFromPath(in.Path)})
		}
	}
	opts := cljPairs(def)
	deps(opts[":dependencies"], false)
	if p := opts[":profiles"]; p.kind == cljMap {
		for _, prof := range cljPairs(p.items) {
			// A composite profile ([:base {:dependencies ...}]) lists
			// profiles by name and maps of its own.
			maps := []cljForm{prof}
			if prof.kind == cljVector {
				maps = prof.items
			}
			for _, m := range maps {
				if m.kind == cljMap {
					deps(cljPairs(m.items)[":dependencies"], true)
				}
			}
		}
	}
	deps(opts[":plugins"], true)
	return pkgs, nil
}

// cljPairs reads alternate keys and values (a map's items, defproject's
// options) into a map by the keys' text.
func cljPairs(items []cljForm) map[string]cljForm {
	m := map[string]cljForm{}
	for i := 0; i+1 < len(items); i += 2 {
		m[items[i].text] = items[i+1]
	}
	return m
}

// cljKind is the kind of a form clj reads.
type cljKind uint8

const (
	cljAtom    cljKind = iota // a symbol, keyword, number or character
	cljString                 // a string's contents, escapes resolved
	cljList                   // ( ... )
	cljVector                 // [ ... ]
	cljMap                    // { ... }
	cljSet                    // #{ ... }
	cljUnknown                // a form evaluated or unquoted (#=, ~, ~@, #()), or a regular expression
)

// cljForm is one form: its text (an atom's, a string's contents), or its
// items.
type cljForm struct {
	kind  cljKind
	text  string
	items []cljForm
}

// sym is the form's symbol, or "" when it is not one.
func (f cljForm) sym() string {
	if f.kind != cljAtom || f.text == "" || strings.HasPrefix(f.text, ":") || strings.HasPrefix(f.text, `\`) || f.text[0] >= '0' && f.text[0] <= '9' {
		return ""
	}
	return f.text
}

// maxCljDepth bounds the nesting the reader follows.
const maxCljDepth = 200

// readClj reads the forms of Clojure source s.
func readClj(s string) ([]cljForm, error) {
	r := &cljReader{s: s}
	var out []cljForm
	for {
		f, ok, err := r.form(0)
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, f)
	}
}

type cljReader struct {
	s string
	i int
}

var errCljClose = errors.New("unexpected closing bracket")

// skip passes whitespace, commas and comments.
func (r *cljReader) skip() {
	for r.i < len(r.s) {
		switch c := r.s[r.i]; {
		case c == ';':
			for r.i < len(r.s) && r.s[r.i] != '\n' {
				r.i++
			}
		case c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			r.i++
		default:
			return
		}
	}
}

// form reads one form; ok is false at the end of the input. A closing
// bracket where a form is wanted is errCljClose, which seq handles.
func (r *cljReader) form(depth int) (cljForm, bool, error) {
	if depth > maxCljDepth {
		return cljForm{}, false, errors.New("forms nested too deep")
	}
	r.skip()
	if r.i >= len(r.s) {
		return cljForm{}, false, nil
	}
	c := r.s[r.i]
	switch c {
	case ')', ']', '}':
		return cljForm{}, false, errCljClose
	case '(':
		r.i++
		items, err := r.seq(')', depth)
		return cljForm{kind: cljList, items: items}, true, err
	case '[':
		r.i++
		items, err := r.seq(']', depth)
		return cljForm{kind: cljVector, items: items}, true, err
	case '{':
		r.i++
		items, err := r.seq('}', depth)
		return cljForm{kind: cljMap, items: items}, true, err
	case '"':
		s, err := r.str()
		return cljForm{kind: cljString, text: s}, true, err
	case '\'', '`', '@':
		r.i++ // quote, syntax quote, deref: the form itself
		return r.form(depth + 1)
	case '~':
		r.i++
		if r.i < len(r.s) && r.s[r.i] == '@' {
			r.i++
		}
		_, _, err := r.wanted(depth)
		return cljForm{kind: cljUnknown}, true, err
	case '^':
		r.i++ // metadata: read and dropped, then the form it is on
		if _, _, err := r.wanted(depth); err != nil {
			return cljForm{}, false, err
		}
		return r.form(depth + 1)
	case '#':
		r.i++
		if r.i >= len(r.s) {
			return cljForm{}, false, errors.New("input ends after #")
		}
		switch r.s[r.i] {
		case '{':
			r.i++
			items, err := r.seq('}', depth)
			return cljForm{kind: cljSet, items: items}, true, err
		case '"':
			_, err := r.str()
			return cljForm{kind: cljUnknown}, true, err
		case '_':
			r.i++ // discard the next form
			if _, _, err := r.wanted(depth); err != nil {
				return cljForm{}, false, err
			}
			return r.form(depth + 1)
		case '=', '(', '\'':
			if r.s[r.i] != '(' {
				r.i++
			}
			_, _, err := r.wanted(depth)
			return cljForm{kind: cljUnknown}, true, err
		}
		// A tagged literal (#inst "...", #uuid "...") or reader
		// conditional (#?(...)): the tag, then its form.
		r.atom()
		_, _, err := r.wanted(depth)
		return cljForm{kind: cljUnknown}, true, err
	}
	return cljForm{kind: cljAtom, text: r.atom()}, true, nil
}

// wanted reads a form that must be there.
func (r *cljReader) wanted(depth int) (cljForm, bool, error) {
	f, ok, err := r.form(depth + 1)
	if err == nil && !ok {
		err = errors.New("input ends where a form is wanted")
	}
	return f, ok, err
}

// seq reads forms up to the closing bracket end.
func (r *cljReader) seq(end byte, depth int) ([]cljForm, error) {
	var items []cljForm
	for {
		f, ok, err := r.form(depth + 1)
		if errors.Is(err, errCljClose) {
			if r.s[r.i] != end {
				return nil, fmt.Errorf("%q closes %q at offset %d", r.s[r.i], end, r.i)
			}
			r.i++
			return items, nil
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("input ends before %q", end)
		}
		items = append(items, f)
	}
}

// str reads a string literal from its opening quote.
func (r *cljReader) str() (string, error) {
	r.i++
	var b strings.Builder
	for r.i < len(r.s) {
		c := r.s[r.i]
		r.i++
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if r.i < len(r.s) {
				b.WriteByte(r.s[r.i])
				r.i++
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", errors.New("a string does not end")
}

// atom reads a symbol, keyword, number or character up to a delimiter.
func (r *cljReader) atom() string {
	start := r.i
	if r.i < len(r.s) && r.s[r.i] == '\\' {
		r.i += 2 // a character: \a, \( and \" are atoms too
	}
	for r.i < len(r.s) && !strings.ContainsRune(" \t\r\n\f,;()[]{}\"", rune(r.s[r.i])) {
		r.i++
	}
	if r.i > len(r.s) {
		r.i = len(r.s)
	}
	if r.i == start {
		r.i++ // a character no form starts with: passed, so the reader moves on
	}
	return r.s[start:r.i]
}
