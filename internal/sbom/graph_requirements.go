package sbom

import (
	"strings"
)

// requirementsGraph reads the dependency graph that pip-compile (pip-tools)
// and uv pip compile write into a requirements file they compile: each
// pinned package is followed by the packages that need it, as comments,
//
//	idna==3.7
//	    # via
//	    #   anyio
//	    #   requests
//	requests==2.32.3
//	    # via -r requirements.in
//
// or on its own line with --annotation-style=line ("idna==3.7  # via
// anyio, requests"). A package that the input file requests (-r
// requirements.in, or "myproject (pyproject.toml)") is a root; a package
// only a constraint names (-c) is not, and one without a "# via" in a file
// that has them is a root too. A file without such comments, written
// by hand or by pip freeze, records no graph, and nothing is read.
func requirementsGraph(data []byte, lk *lockIndex) error {
	type pinned struct {
		i       int // the component
		parents []string
	}
	var (
		pins      []*pinned
		cur       *pinned
		inVia     bool // in a multi-line "# via" list
		annotated bool // some "# via" comment was seen
	)
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		trimmed := strings.TrimSpace(line)
		indented := trimmed != "" && trimmed != line && (line[0] == ' ' || line[0] == '\t')
		switch {
		case trimmed == "":
			inVia = false
		case indented && strings.HasPrefix(trimmed, "#"):
			c := strings.TrimSpace(strings.TrimPrefix(trimmed, "#"))
			if rest, ok := strings.CutPrefix(c, "via"); ok && (rest == "" || rest[0] == ' ') {
				annotated = true
				rest = strings.TrimSpace(rest)
				inVia = rest == ""
				if cur != nil && rest != "" {
					cur.parents = append(cur.parents, rest)
				}
				continue
			}
			if inVia && cur != nil && c != "" {
				cur.parents = append(cur.parents, c)
			}
		case indented:
			// --hash continuation lines of the pin above.
		case strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "-"):
			cur, inVia = nil, false
		default:
			inVia = false
			req, comment, _ := strings.Cut(trimmed, "#")
			name, version, bound := pythonRequirement(strings.TrimSuffix(strings.TrimSpace(req), "\\"))
			if version == "" || bound != "" {
				cur = nil // not a pin: nothing pip-compile writes
				continue
			}
			cur = &pinned{}
			if i, ok := lk.find(name, version); ok {
				cur.i = i
				pins = append(pins, cur)
			}
			if rest, ok := strings.CutPrefix(strings.TrimSpace(comment), "via "); ok {
				annotated = true
				for _, p := range strings.Split(rest, ",") {
					cur.parents = append(cur.parents, strings.TrimSpace(p))
				}
			}
		}
	}
	if !annotated {
		return nil
	}
	lk.hasGraph = true
	for _, p := range pins {
		if len(p.parents) == 0 {
			lk.root("", p.i) // no package needs it: requested ("# direct", edited in)
		}
		for _, parent := range p.parents {
			switch {
			case strings.HasPrefix(parent, "-r ") || strings.HasPrefix(parent, "--requirement") ||
				strings.HasSuffix(parent, ")") && strings.Contains(parent, " ("):
				lk.root("", p.i) // requested by the input: -r requirements.in, "app (pyproject.toml)"
			case strings.HasPrefix(parent, "-"):
				// -c constraints.txt, --override: not a request
			default:
				name, _, _ := strings.Cut(parent, "[")
				if j, ok := lk.find(strings.TrimSpace(name), ""); ok {
					lk.edge(j, p.i)
				}
			}
		}
	}
	return nil
}
