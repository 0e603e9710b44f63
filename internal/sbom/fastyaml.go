package sbom

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// A fast reader for the YAML that lockfile writers emit.
//
// pnpm-lock.yaml and yarn berry's yarn.lock are YAML, and yaml.v3 reads
// them at about 10 MB/s: on a tree with many JavaScript projects it was a
// fifth of the agent's time, and a large monorepo's lockfile takes a
// tenth of a second. Their writers use a small part of YAML: block
// mappings indented with spaces, block sequences (of scalars, or of
// mappings as "- key: value"), single-line plain and quoted scalars, and
// single-line flow collections ({integrity: sha512-...}, [darwin]).
// fastYAML reads exactly that part, line by line, into yaml.v3 nodes
// (four times as fast), so that decoding into Go values stays yaml.v3's
// (node.Decode), with its rules for tags, inline structs and
// unmarshalers. Whatever else it meets (anchors, tags, merge keys, block
// scalars, multi-line scalars, escapes, tabs, control characters, a flow
// collection over several lines or nested deeper than 32) makes it
// decline, and the caller parses the file with yaml.v3: it never guesses.
// FuzzFastYAML holds every document it accepts to yaml.v3's own nodes
// (kind, style, tag, value, line and column), TestFastYAMLRealLockfiles
// every YAML file in testdata, and TestYAMLLockfilesExtract the
// components of large real pnpm and berry lockfiles.
//
// One difference is deliberate: yaml.v3 refuses a key longer than 1,024
// characters (YAML's limit on implicit keys), which berry writes for a
// package many ranges resolve to in a large monorepo ("a@npm:^1.0.0,
// a@npm:^1.1.0, ..."), and yarn itself reads. fastYAML reads it.

// fastYAMLOn is false only in tests that read lockfiles both ways.
var fastYAMLOn = true

// yamlDocs returns the documents of a YAML stream as yaml.v3 nodes
// (DocumentNode each): read by fastYAML when the stream stays within the
// lockfile subset, else by yaml.v3, whose error is returned.
func yamlDocs(data []byte) ([]*yaml.Node, error) {
	if fastYAMLOn {
		if docs, ok := fastYAML(data); ok {
			return docs, nil
		}
	}
	return yamlV3Docs(data)
}

// yamlV3Docs reads every document of a YAML stream with yaml.v3 alone.
func yamlV3Docs(data []byte) ([]*yaml.Node, error) {
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		n := new(yaml.Node)
		if err := dec.Decode(n); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, n)
	}
}

// yamlFirstDoc is the stream's first document, as yaml.Unmarshal reads
// it (a zero node for an empty stream), through fastYAML where it can.
func yamlFirstDoc(data []byte) (*yaml.Node, error) {
	if fastYAMLOn {
		if docs, ok := fastYAML(data); ok {
			return docs[0], nil
		}
	}
	n := new(yaml.Node)
	return n, yaml.Unmarshal(data, n)
}

// fyLine is one line of content: not blank, not only a comment.
type fyLine struct {
	text   []byte // without the line break (and a '\r' before it)
	indent int    // leading spaces
	no     int    // line number, from 1
	doc    bool   // a "---" document start
	ascii  bool   // no byte of text is past 0x7f
}

// fyDecline stops fastYAML: the input is outside its subset.
type fyDecline struct{}

// fyMaxFlowDepth bounds the nesting of flow collections fastYAML reads.
const fyMaxFlowDepth = 32

type fyParser struct {
	lines []fyLine
	i     int         // the next line to read
	slab  []yaml.Node // nodes are allocated from here, a chunk at a time
}

// node returns a new node holding n.
func (p *fyParser) node(n yaml.Node) *yaml.Node {
	if len(p.slab) == 0 {
		p.slab = make([]yaml.Node, 256)
	}
	at := &p.slab[0]
	*at = n
	p.slab = p.slab[1:]
	return at
}

// fastYAML reads data into its documents, or reports ok false when data
// uses anything outside the block subset described above (or holds no
// document).
func fastYAML(data []byte) (docs []*yaml.Node, ok bool) {
	lines, ok := fyLines(data)
	if !ok || len(lines) == 0 {
		return nil, false
	}
	p := &fyParser{lines: lines}
	defer func() {
		if r := recover(); r != nil {
			if _, decline := r.(fyDecline); !decline {
				panic(r)
			}
			docs, ok = nil, false
		}
	}()
	for p.i < len(p.lines) {
		docs = append(docs, p.document())
	}
	return docs, true
}

// fyLines splits data into its content lines. It declines what the
// subset leaves out: tabs, control characters (a '\r' other than before
// a line break), characters YAML does not allow, directives and document
// ends.
func fyLines(data []byte) ([]fyLine, bool) {
	lines := make([]fyLine, 0, bytes.Count(data, []byte{'\n'})+1)
	for no := 1; len(data) > 0; no++ {
		var text []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			text, data = data, nil
		}
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		indent := 0
		for indent < len(text) && text[indent] == ' ' {
			indent++
		}
		ascii := true
		for i := indent; i < len(text); i++ {
			if c := text[i]; c < 0x20 || c == 0x7f {
				return nil, false
			} else if c >= 0x80 {
				ascii = false
				break
			}
		}
		if !ascii && !printableUTF8(text) {
			return nil, false
		}
		if indent == len(text) || text[indent] == '#' {
			continue // blank, or a comment line
		}
		if indent == 0 && (text[0] == '%' || bytes.HasPrefix(text, []byte("..."))) {
			return nil, false
		}
		doc := false
		if indent == 0 && bytes.HasPrefix(text, []byte("---")) {
			if len(text) > 3 && text[3] != ' ' || len(bytes.TrimSpace(text[3:])) > 0 {
				return nil, false // content on the "---" line, or a plain "----..."
			}
			doc = true
		}
		lines = append(lines, fyLine{text: text, indent: indent, no: no, doc: doc, ascii: ascii})
	}
	return lines, true
}

// printableUTF8 reports whether t is UTF-8 of characters YAML allows
// (no control characters, no byte order mark, no U+2028 or U+2029, which
// yaml.v3 takes for line breaks).
func printableUTF8(t []byte) bool {
	for len(t) > 0 {
		r, size := utf8.DecodeRune(t)
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r < 0x80 && (r < 0x20 || r == 0x7f):
			return false
		case r >= 0x80 && r < 0xa0, r >= 0xd800 && r < 0xe000, r == 0xfeff, r == 0xfffe, r == 0xffff, r == 0x2028, r == 0x2029:
			return false
		}
		t = t[size:]
	}
	return true
}

// col is the column, from 1, of the byte at offset off: yaml.v3 counts
// characters, not bytes.
func (l fyLine) col(off int) int {
	if l.ascii {
		return off + 1
	}
	return utf8.RuneCount(l.text[:off]) + 1
}

func decline() { panic(fyDecline{}) }

// document reads one document: an optional "---" line, then a block
// mapping at the first column.
func (p *fyParser) document() *yaml.Node {
	d := p.node(yaml.Node{Kind: yaml.DocumentNode})
	if l := p.lines[p.i]; l.doc {
		d.Line, d.Column = l.no, 1
		p.i++
	}
	if p.i == len(p.lines) || p.lines[p.i].doc || p.lines[p.i].indent != 0 {
		decline() // an empty document, or one that is not a mapping at column 1
	}
	root := p.block(0)
	if d.Line == 0 {
		d.Line, d.Column = root.Line, root.Column
	}
	if p.i < len(p.lines) && !p.lines[p.i].doc {
		decline() // content left at a column no enclosing node has
	}
	d.Content = []*yaml.Node{root}
	return d
}

// block reads the block node starting at the current line, whose indent
// is ind: a sequence when the line is "- ...", else a mapping.
func (p *fyParser) block(ind int) *yaml.Node {
	if isSeqItem(p.lines[p.i]) {
		return p.sequence(ind)
	}
	return p.mapping(ind)
}

func isSeqItem(l fyLine) bool {
	t := l.text[l.indent:]
	return t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

// more reports whether the next line belongs to a block at indent ind.
func (p *fyParser) more(ind int) bool {
	return p.i < len(p.lines) && !p.lines[p.i].doc && p.lines[p.i].indent == ind
}

// deeper reports whether the next line is indented more than ind.
func (p *fyParser) deeper(ind int) bool {
	return p.i < len(p.lines) && !p.lines[p.i].doc && p.lines[p.i].indent > ind
}

func (p *fyParser) mapping(ind int) *yaml.Node {
	l := p.lines[p.i]
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: l.no, Column: l.col(ind)})
	for p.more(ind) && !isSeqItem(p.lines[p.i]) {
		l := p.lines[p.i]
		p.i++
		key, rest, colon := p.blockKey(l, ind)
		var val *yaml.Node
		switch {
		case rest < len(l.text):
			val = p.inlineValue(l, rest)
			if p.deeper(ind) {
				decline() // a scalar continued on the next line, or an error
			}
		case p.deeper(ind):
			val = p.block(p.lines[p.i].indent)
			if p.deeper(ind) {
				decline()
			}
		case p.more(ind) && isSeqItem(p.lines[p.i]):
			val = p.sequence(ind) // "key:\n- a": a sequence at the key's own column
		default: // "key:" alone: null, placed right after the ':'
			val = p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: l.no, Column: l.col(colon + 1)})
		}
		m.Content = append(m.Content, key, val)
	}
	return m
}

func (p *fyParser) sequence(ind int) *yaml.Node {
	l := p.lines[p.i]
	s := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: l.no, Column: l.col(ind)})
	for p.more(ind) && isSeqItem(p.lines[p.i]) {
		l := p.lines[p.i]
		p.i++
		at := skipSpaces(l.text, ind+1)
		if at == len(l.text) {
			decline() // "-" with its item on the lines below
		}
		var item *yaml.Node
		if startsEntry(l.text, at) {
			// "- key: value" and the lines below at the key's column: a
			// mapping in the sequence. The line is read again as if it
			// were indented to the key.
			p.i--
			p.lines[p.i].indent = at
			item = p.mapping(at)
		} else {
			item = p.inlineValue(l, at)
		}
		s.Content = append(s.Content, item)
		if p.deeper(ind) {
			decline()
		}
	}
	return s
}

// startsEntry reports whether a mapping entry ("key: ...", "key:")
// starts at offset at of t.
func startsEntry(t []byte, at int) bool {
	switch t[at] {
	case '"':
		c := bytes.IndexByte(t[at+1:], '"')
		return c >= 0 && at+2+c < len(t) && t[at+2+c] == ':'
	case '\'':
		for i := at + 1; i < len(t); i++ {
			if t[i] == '\'' {
				if i+1 < len(t) && t[i+1] == '\'' {
					i++
					continue
				}
				return i+1 < len(t) && t[i+1] == ':'
			}
		}
		return false
	case '{', '[':
		return false
	}
	v := t[at:]
	return bytes.Contains(v, []byte(": ")) || v[len(v)-1] == ':'
}

func skipSpaces(t []byte, at int) int {
	for at < len(t) && t[at] == ' ' {
		at++
	}
	return at
}

// blockKey reads the key of a block mapping entry at column ind of l, and
// returns the offsets of its value (len(l.text) when the line ends after
// the ':' or in a comment) and of the ':'.
func (p *fyParser) blockKey(l fyLine, ind int) (key *yaml.Node, value, colon int) {
	t := l.text
	var end int // just after the key
	switch t[ind] {
	case '\'', '"':
		key, end = p.quoted(l, ind)
	default:
		if isIndicator(t[ind]) {
			decline()
		}
		end = ind
		for {
			c := bytes.IndexByte(t[end:], ':')
			if c < 0 {
				decline() // not a mapping entry
			}
			end += c
			if end+1 == len(t) || t[end+1] == ' ' {
				break
			}
			end++
		}
		v := bytes.TrimRight(t[ind:end], " ")
		if bytes.Contains(v, []byte(" #")) {
			decline()
		}
		key = p.plainScalar(v, l, ind)
	}
	if end >= len(t) || t[end] != ':' || end+1 < len(t) && t[end+1] != ' ' {
		decline() // a quoted key not followed by ": "
	}
	value = skipSpaces(t, end+1)
	if value < len(t) && t[value] == '#' {
		value = len(t)
	}
	return key, value, end
}

// inlineValue reads the value that starts at offset at of l and runs to
// the end of the line (or a comment).
func (p *fyParser) inlineValue(l fyLine, at int) *yaml.Node {
	t := l.text
	var n *yaml.Node
	end := 0
	switch t[at] {
	case '\'', '"':
		n, end = p.quoted(l, at)
	case '{', '[':
		n, end = p.flow(l, at, 0)
	default:
		if isIndicator(t[at]) {
			decline()
		}
		v := t[at:]
		if c := bytes.Index(v, []byte(" #")); c >= 0 {
			v = v[:c]
		}
		v = bytes.TrimRight(v, " ")
		if bytes.Contains(v, []byte(": ")) || v[len(v)-1] == ':' {
			decline()
		}
		return p.plainScalar(v, l, at)
	}
	end = skipSpaces(t, end)
	if end < len(t) && (t[end] != '#' || t[end-1] != ' ') {
		decline() // something after a quoted scalar or flow collection
	}
	return n
}

// isIndicator reports whether c cannot start a plain scalar (or starts
// something fastYAML does not read).
func isIndicator(c byte) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return true
	}
	return false
}

func (p *fyParser) plainScalar(v []byte, l fyLine, at int) *yaml.Node {
	if string(v) == "<<" {
		decline() // a merge key
	}
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: string(v), Line: l.no, Column: l.col(at)})
	if strings.IndexByte("+-0123456789.yYnNtTfFoO~", v[0]) < 0 {
		n.Tag = "!!str" // yaml.v3 resolves no other tag for such a first character
	} else {
		n.Tag = n.ShortTag() // resolved as yaml.v3's parser resolves it
	}
	return n
}

// quoted reads the single-line quoted scalar starting at offset at, and
// returns the offset after its closing quote. Double-quoted scalars with
// escapes are declined.
func (p *fyParser) quoted(l fyLine, at int) (*yaml.Node, int) {
	t := l.text
	q := t[at]
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Line: l.no, Column: l.col(at)})
	if q == '"' {
		c := bytes.IndexByte(t[at+1:], '"')
		if c < 0 || bytes.IndexByte(t[at+1:at+1+c], '\\') >= 0 {
			decline()
		}
		n.Style, n.Value = yaml.DoubleQuotedStyle, string(t[at+1:at+1+c])
		return n, at + 2 + c
	}
	n.Style = yaml.SingleQuotedStyle
	var b []byte
	seg := at + 1 // the start of the text after the last '' escape
	for i := at + 1; i < len(t); i++ {
		if t[i] != '\'' {
			continue
		}
		if i+1 < len(t) && t[i+1] == '\'' { // '' is one quote
			b = append(b, t[seg:i+1]...)
			seg = i + 2
			i++
			continue
		}
		if b == nil {
			n.Value = string(t[seg:i])
		} else {
			n.Value = string(append(b, t[seg:i]...))
		}
		return n, i + 1
	}
	decline() // not closed on this line
	return nil, 0
}

// flow reads the flow collection ({...} or [...]) starting at offset at,
// closed on the same line, and returns the offset after it.
func (p *fyParser) flow(l fyLine, at, depth int) (*yaml.Node, int) {
	if depth == fyMaxFlowDepth {
		decline()
	}
	t := l.text
	n := p.node(yaml.Node{Style: yaml.FlowStyle, Line: l.no, Column: l.col(at)})
	closing := byte('}')
	if t[at] == '{' {
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
	} else {
		n.Kind, n.Tag, closing = yaml.SequenceNode, "!!seq", ']'
	}
	i := skipSpaces(t, at+1)
	if i < len(t) && t[i] == closing {
		return n, i + 1
	}
	for {
		var item *yaml.Node
		item, i = p.flowItem(l, i, depth)
		if n.Kind == yaml.MappingNode {
			if i+1 >= len(t) || t[i] != ':' || t[i+1] != ' ' {
				decline()
			}
			var val *yaml.Node
			val, i = p.flowItem(l, skipSpaces(t, i+1), depth)
			n.Content = append(n.Content, item, val)
		} else {
			n.Content = append(n.Content, item)
		}
		i = skipSpaces(t, i)
		switch {
		case i < len(t) && t[i] == closing:
			return n, i + 1
		case i < len(t) && t[i] == ',':
			i = skipSpaces(t, i+1)
			if i < len(t) && (t[i] == '}' || t[i] == ']') {
				decline() // a trailing comma
			}
		default:
			decline()
		}
	}
}

// flowItem reads a scalar or collection inside a flow collection at
// offset at, and returns the offset after it (before any spaces).
func (p *fyParser) flowItem(l fyLine, at, depth int) (*yaml.Node, int) {
	t := l.text
	if at >= len(t) {
		decline()
	}
	switch t[at] {
	case '\'', '"':
		return p.quoted(l, at)
	case '{', '[':
		return p.flow(l, at, depth+1)
	}
	if isIndicator(t[at]) {
		decline()
	}
	// As in yaml.v3, a flow scalar ends at a flow indicator, '?', or a
	// ':' followed by a space or the line's end; a ':' followed by
	// anything else is part of it ("https://...").
	end := at
	for ; end < len(t); end++ {
		c := t[end]
		if c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '?' || c == '#' ||
			c == ':' && (end+1 == len(t) || t[end+1] == ' ') {
			break
		}
	}
	if end < len(t) && t[end] != ',' && t[end] != ':' && t[end] != '}' && t[end] != ']' {
		decline() // '?', a comment, or a collection inside a scalar
	}
	v := bytes.TrimRight(t[at:end], " ")
	if len(v) == 0 {
		decline()
	}
	return p.plainScalar(v, l, at), at + len(v)
}
