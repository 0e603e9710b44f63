package sbom

import (
	"bufio"
	"bytes"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
)

// A Python project's setup.py or setup.cfg, where it has no lockfile.
//
// A project older than pyproject.toml declares its dependencies to
// setuptools: in setup.cfg's [options] (install_requires, tests_require,
// setup_requires) and [options.extras_require], or as setup()'s keyword
// arguments in setup.py. scalibr v0.5.3 reads neither; Syft reads setup.py.
// Sentinel reads both as it reads pyproject.toml (pyproject.go): a pinned
// requirement is that version, a bounded one its lowest version marked as
// a bound. tests_require and setup_requires, and an extra named for
// development, are development-only.
//
// setup.py is Python, and is not run: its lists are read where they are
// written as literals, in the call or in a variable the call names
// (install_requires=REQUIRED, or REQUIRED + ["extra==1.0"]). A list built
// by code (read from a requirements file, a comprehension) is not seen;
// a requirements file beside it is read on its own.
//
// A project with a lockfile or requirements.txt beside it is read from
// those, and one whose pyproject.toml declares its dependencies from that.

var setupPy = ownExtractor{name: "python/setuptools", required: isSetupFile, read: readSetupFile}

func isSetupFile(p string) bool {
	b := path.Base(p)
	return b == "setup.py" || b == "setup.cfg"
}

// setupKeys are setuptools' requirement lists, and whether each is for
// development only.
var setupKeys = map[string]bool{"install_requires": false, "tests_require": true, "setup_requires": true}

func readSetupFile(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	dir := path.Dir(in.Path)
	if in.FS != nil && (anyFile(in.FS, dir, pythonPins...) || pyprojectDeclares(in.FS, dir)) {
		return nil, nil
	}
	var lists map[string][]string
	var extras map[string][]string
	if path.Base(in.Path) == "setup.cfg" {
		lists, extras = setupCfgRequirements(b)
	} else {
		lists, extras = setupPyRequirements(b)
	}
	d := &pyDeclared{path: in.Path, names: map[string]bool{}}
	for _, k := range slices.Sorted(maps.Keys(setupKeys)) {
		d.pep508(lists[k], setupKeys[k])
	}
	for _, extra := range slices.Sorted(maps.Keys(extras)) {
		d.pep508(extras[extra], devRequirements("requirements/"+strings.ToLower(extra)+".txt"))
	}
	return d.pkgs, nil
}

// pyprojectDeclares reports whether a pyproject.toml in dir declares
// dependencies (PEP 621's, or Poetry's besides python itself), which are
// read from it.
func pyprojectDeclares(fsys fs.FS, dir string) bool {
	b, err := fs.ReadFile(fsys, path.Join(dir, "pyproject.toml"))
	if err != nil {
		return false
	}
	var m pyprojectManifest
	if _, err := toml.Decode(string(plainText(b)), &m); err != nil {
		return false
	}
	if m.Project != nil && (len(m.Project.Dependencies) > 0 || len(m.Project.OptionalDependencies) > 0) {
		return true
	}
	if p := m.Tool.Poetry; p != nil {
		for name := range p.Dependencies {
			if !strings.EqualFold(name, "python") {
				return true
			}
		}
	}
	return false
}

// setupCfgRequirements reads setup.cfg's requirement lists: the values of
// [options] install_requires, tests_require and setup_requires, and each
// key of [options.extras_require], one requirement per line (the key's
// own line included). A requirement's environment marker stays with it
// ("pkg>=1; python_version<'3.8'"); pythonRequirement drops it.
func setupCfgRequirements(b []byte) (lists, extras map[string][]string) {
	lists, extras = map[string][]string{}, map[string][]string{}
	var section, key string
	var into map[string][]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		if trimmed[0] == '[' && strings.HasSuffix(trimmed, "]") {
			section, key, into = strings.TrimSpace(trimmed[1:len(trimmed)-1]), "", nil
			continue
		}
		if line[0] == ' ' || line[0] == '\t' { // a continuation of key's value
			if into != nil && key != "" {
				into[key] = append(into[key], cfgRequirements(trimmed)...)
			}
			continue
		}
		k, v, ok := strings.Cut(trimmed, "=")
		if !ok {
			k, v, ok = strings.Cut(trimmed, ":")
		}
		if !ok {
			key, into = "", nil
			continue
		}
		key, into = strings.TrimSpace(k), nil
		switch section {
		case "options":
			if _, known := setupKeys[key]; known {
				into = lists
			}
		case "options.extras_require":
			into = extras
		}
		if into != nil {
			into[key] = append(into[key], cfgRequirements(strings.TrimSpace(v))...)
		}
	}
	return lists, extras
}

// cfgRequirements is the requirement on one line of a setup.cfg list,
// without a trailing comment; none for a value that names a file to read
// it from ("file: requirements.txt", "attr: pkg.REQUIRES").
func cfgRequirements(s string) []string {
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if s == "" || strings.HasPrefix(s, "file:") || strings.HasPrefix(s, "attr:") {
		return nil
	}
	return []string{s}
}

// setupPyRequirements reads setup()'s requirement lists from setup.py's
// source: `install_requires=[...]` and the other setupKeys, a list or a
// variable holding one (several joined by "+"), and extras_require as a
// dict literal or dict(...) of lists.
func setupPyRequirements(b []byte) (lists, extras map[string][]string) {
	toks := pyTokens(b)
	vars := map[string][]string{} // NAME = [...] anywhere in the file
	// listAt reads "[ 'a', "b", ]" at toks[i]; end is past its "]".
	listAt := func(i int) (items []string, end int, ok bool) {
		if i >= len(toks) || toks[i].s != "[" {
			return nil, i, false
		}
		depth := 0
		for j := i; j < len(toks); j++ {
			switch t := toks[j]; {
			case t.s == "[" || t.s == "(" || t.s == "{":
				depth++
			case t.s == "]" || t.s == ")" || t.s == "}":
				depth--
				if depth == 0 {
					return items, j + 1, true
				}
			case t.str && depth == 1:
				items = append(items, t.s)
			}
		}
		return nil, len(toks), false
	}
	// operands reads "[...] + NAME + [...]" at toks[i].
	operands := func(i int) []string {
		var out []string
		for i < len(toks) {
			if items, end, ok := listAt(i); ok {
				out, i = append(out, items...), end
			} else if toks[i].ident {
				out, i = append(out, vars[toks[i].s]...), i+1
			} else {
				break
			}
			if i < len(toks) && toks[i].s == "+" {
				i++
				continue
			}
			break
		}
		return out
	}
	// Variables first, in order: a later assignment replaces an earlier.
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].ident && toks[i+1].s == "=" && toks[i+2].s == "[" {
			if items, _, ok := listAt(i + 2); ok {
				vars[toks[i].s] = items
			}
		}
	}
	lists, extras = map[string][]string{}, map[string][]string{}
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].ident || toks[i+1].s != "=" {
			continue
		}
		if _, known := setupKeys[toks[i].s]; known {
			lists[toks[i].s] = operands(i + 2)
			continue
		}
		if toks[i].s != "extras_require" {
			continue
		}
		// {"name": [...], ...} or dict(name=[...], ...)
		j := i + 2
		switch {
		case toks[j].s == "{":
			for j++; j+2 < len(toks) && toks[j].s != "}"; j++ {
				if toks[j].str && toks[j+1].s == ":" {
					extras[toks[j].s] = operands(j + 2)
				}
			}
		case toks[j].s == "dict" && j+1 < len(toks) && toks[j+1].s == "(":
			for j += 2; j+2 < len(toks) && toks[j].s != ")"; j++ {
				if toks[j].ident && toks[j+1].s == "=" {
					extras[toks[j].s] = operands(j + 2)
				}
			}
		case toks[j].ident:
			// EXTRAS = {...}: read where it is assigned.
			for k := 0; k+3 < len(toks); k++ {
				if toks[k].s == toks[j].s && toks[k+1].s == "=" && toks[k+2].s == "{" {
					for m := k + 3; m+2 < len(toks) && toks[m].s != "}"; m++ {
						if toks[m].str && toks[m+1].s == ":" {
							extras[toks[m].s] = operands(m + 2)
						}
					}
				}
			}
		}
	}
	return lists, extras
}

// pyToken is one token of Python source as setupPyRequirements needs it:
// a string literal's value (str), a name (ident) or one punctuation
// character.
type pyToken struct {
	s          string
	str, ident bool
}

// pyTokens splits Python source into string literals, names and
// punctuation, without comments. String prefixes (r, b, u, f) are dropped
// with their name; escapes are kept as written, which requirements do not
// use.
func pyTokens(b []byte) []pyToken {
	var out []pyToken
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			q := string(c)
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				q = strings.Repeat(q, 3)
			}
			start := i + len(q)
			end := start
			for end < len(b) && !bytes.HasPrefix(b[end:], []byte(q)) {
				if b[end] == '\\' {
					end++
				} else if len(q) == 1 && b[end] == '\n' {
					break // unterminated
				}
				end++
			}
			if end > len(b) {
				end = len(b)
			}
			out = append(out, pyToken{s: string(b[start:end]), str: true})
			i = end + len(q)
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(b) && (b[j] == '_' || 'a' <= b[j] && b[j] <= 'z' || 'A' <= b[j] && b[j] <= 'Z' || '0' <= b[j] && b[j] <= '9' || b[j] == '.') {
				j++
			}
			if j < len(b) && (b[j] == '\'' || b[j] == '"') && j-i <= 2 && strings.ContainsAny(string(b[i:j]), "rRbBuUfF") {
				i = j // a string prefix
				continue
			}
			out = append(out, pyToken{s: string(b[i:j]), ident: true})
			i = j
		case strings.IndexByte("[](){}=+:,", c) >= 0:
			out = append(out, pyToken{s: string(c)})
			i++
		default:
			i++
		}
	}
	return out
}
