package sbom

import "bufio"

// indentWriter indents the compact JSON encoding/json writes as
// encoding/json's own two-space indent does (json.Indent with prefix ""
// and indent "  "), as the bytes stream through: cyclonedx-go's pretty
// output went through a second, indented copy of the whole document,
// whose pass was most of the time spent writing a large SBOM and the
// largest buffer held doing it. It holds no copy; FuzzIndentWriter holds
// it to json.Indent.
type indentWriter struct {
	w     *bufio.Writer
	depth int
	// inString and escaped track a string's bytes, written unchanged.
	inString, escaped bool
	// opened: the last byte was '{' or '[', whose line break waits for
	// the next byte (an empty object or array stays "{}" or "[]").
	opened bool
}

func (iw *indentWriter) newline() {
	iw.w.WriteByte('\n')
	for range iw.depth {
		iw.w.WriteString("  ")
	}
}

// Write implements io.Writer; an error of the underlying writer is
// reported by its Flush.
func (iw *indentWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		if iw.inString {
			iw.w.WriteByte(c)
			switch {
			case iw.escaped:
				iw.escaped = false
			case c == '\\':
				iw.escaped = true
			case c == '"':
				iw.inString = false
			}
			continue
		}
		if iw.opened {
			iw.opened = false
			if c == '}' || c == ']' {
				iw.depth--
				iw.w.WriteByte(c)
				continue
			}
			iw.newline()
		}
		switch c {
		case '"':
			iw.inString = true
			iw.w.WriteByte(c)
		case '{', '[':
			iw.w.WriteByte(c)
			iw.depth++
			iw.opened = true
		case '}', ']':
			iw.depth--
			iw.newline()
			iw.w.WriteByte(c)
		case ',':
			iw.w.WriteByte(c)
			iw.newline()
		case ':':
			iw.w.WriteString(": ")
		default:
			iw.w.WriteByte(c)
		}
	}
	return len(p), nil
}
