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

// maxSetupRequirements bounds what one list expression gives ("A + A +
// A ..." repeats a variable's list): no real setup.py comes near it.
const maxSetupRequirements = 10_000

// setupPyRequirements reads setup()'s requirement lists from setup.py's
// source: `install_requires=[...]` and the other setupKeys, a list or a
// variable holding one (several joined by "+"), and extras_require as a
// dict literal, dict(...) or a variable holding a dict literal. The
// brackets are matched once, so that any file, nested or unbalanced, is
// read in time linear in its size.
func setupPyRequirements(b []byte) (lists, extras map[string][]string) {
	toks := pyTokens(b)
	// closeAt is the index of the bracket closing the one opened at i;
	// kids are the tokens directly inside it, by the opener's index.
	closeAt := map[int]int{}
	kids := map[int][]int{}
	var open []int
	for j, t := range toks {
		switch t.s {
		case "[", "(", "{":
			if len(open) > 0 {
				kids[open[len(open)-1]] = append(kids[open[len(open)-1]], j)
			}
			open = append(open, j)
			continue
		case "]", ")", "}":
			if len(open) > 0 {
				closeAt[open[len(open)-1]] = j
				open = open[:len(open)-1]
			}
			continue
		}
		if len(open) > 0 {
			kids[open[len(open)-1]] = append(kids[open[len(open)-1]], j)
		}
	}
	at := func(i int) string {
		if i < len(toks) {
			return toks[i].s
		}
		return ""
	}
	vars := map[string][]string{} // NAME = [...] anywhere in the file
	dicts := map[string]int{}     // NAME = {...}: the "{"
	// listAt reads "[ 'a', "b", ]" at toks[i]: the strings directly in it;
	// end is past its "]".
	listAt := func(i int) (items []string, end int, ok bool) {
		c, closed := closeAt[i]
		if at(i) != "[" || !closed {
			return nil, i, false
		}
		for _, k := range kids[i] {
			if toks[k].str {
				items = append(items, toks[k].s)
			}
		}
		return items, c + 1, true
	}
	// operands reads "[...] + NAME + [...]" at toks[i].
	operands := func(i int) []string {
		var out []string
		for i < len(toks) && len(out) < maxSetupRequirements {
			if items, end, ok := listAt(i); ok {
				out, i = append(out, items...), end
			} else if items, end, ok := splitAt(toks, i); ok {
				out, i = append(out, items...), end
			} else if toks[i].ident {
				out, i = append(out, vars[toks[i].s]...), i+1
			} else {
				break
			}
			if at(i) != "+" {
				break
			}
			i++
		}
		return out[:min(len(out), maxSetupRequirements)]
	}
	// dictAt reads {"name": [...], ...} or the keyword arguments of
	// dict(name=[...], ...) opened at toks[i].
	dictAt := func(i int, into map[string][]string) {
		for _, k := range kids[i] {
			switch {
			case at(i) == "{" && toks[k].str && at(k+1) == ":":
				into[toks[k].s] = operands(k + 2)
			case at(i) == "(" && toks[k].ident && at(k+1) == "=":
				into[toks[k].s] = operands(k + 2)
			}
		}
	}
	// Variables first, in order: a later assignment replaces an earlier.
	for i := 0; i+2 < len(toks); i++ {
		if !toks[i].ident || toks[i+1].s != "=" {
			continue
		}
		switch toks[i+2].s {
		case "[":
			if items, _, ok := listAt(i + 2); ok {
				vars[toks[i].s] = items
			}
		case "{":
			dicts[toks[i].s] = i + 2
		default:
			if items, _, ok := splitAt(toks, i+2); ok {
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
		switch j := i + 2; {
		case toks[j].s == "{":
			dictAt(j, extras)
		case toks[j].s == "dict" && at(j+1) == "(":
			dictAt(j+1, extras)
		case toks[j].ident:
			if d, ok := dicts[toks[j].s]; ok { // EXTRAS = {...}
				dictAt(d, extras)
			}
		}
	}
	return lists, extras
}

// splitAt reads a string split into a list at toks[i]: """\ndjango==4.2\n...""".split()
// (at whitespace, as Python splits it; mayan-edms writes its requirements
// so), .split("\n") or .splitlines() (at line ends), leaving out empty
// items and comment lines; end is past its ")".
func splitAt(toks []pyToken, i int) (items []string, end int, ok bool) {
	// pyTokens skips the "." before the method's name.
	if i+3 >= len(toks) || !toks[i].str || !toks[i+1].ident || toks[i+2].s != "(" {
		return nil, i, false
	}
	var parts []string
	switch {
	case toks[i+1].s == "split" && toks[i+3].s == ")":
		parts, end = strings.Fields(toks[i].s), i+4
	case toks[i+1].s == "splitlines" && toks[i+3].s == ")":
		parts, end = strings.Split(toks[i].s, "\n"), i+4
	case toks[i+1].s == "split" && toks[i+3].str && i+4 < len(toks) && toks[i+4].s == ")":
		sep := strings.ReplaceAll(toks[i+3].s, `\n`, "\n") // escapes are kept as written
		if sep == "" {
			return nil, i, false
		}
		parts, end = strings.Split(strings.ReplaceAll(toks[i].s, `\n`, "\n"), sep), i+5
	default:
		return nil, i, false
	}
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
			items = append(items, p)
		}
	}
	return items, end, true
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
