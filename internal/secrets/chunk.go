package secrets

import (
	"iter"
	"strings"
)

// Files are scanned in chunks of about chunkSize bytes. The engine runs its
// rules over a chunk, then, if anything in the chunk looks encoded (base64,
// hex, percent), decodes it and runs every rule over the whole chunk again,
// up to five times. Source trees are full of things that look encoded
// (test vectors, hashes, data URLs), so in 100 kB chunks, gitleaks' own
// size, most of the text is scanned twice or more for the sake of a few
// short segments. In 4 kB chunks the re-scans stay near the segments: on
// Go's crypto tree this costs about 30% less CPU than the gitleaks command,
// with identical detections (see TestCompareWithGitleaks). Smaller chunks
// gain little more, and each chunk has a fixed cost.
//
// A chunk ends at the first blank line within chunkPeek bytes after
// chunkSize, else at the first line end, and never inside a PEM block,
// so that a multi-line secret is not cut; a line longer than that
// (minified code) is cut, and the next chunk repeats the last chunkOverlap
// bytes so that a token at the cut is still seen whole.
const (
	chunkSize    = 4_000
	chunkPeek    = 25_000
	chunkOverlap = 512
)

type chunk struct {
	text string
	// line is the 1-based line number of the chunk's first line.
	line int
}

// chunks yields text in chunks with their first line numbers.
func chunks(text string) iter.Seq[chunk] {
	return func(yield func(chunk) bool) {
		line := 1
		for len(text) > 0 {
			if len(text) <= chunkSize+chunkPeek {
				yield(chunk{text: text, line: line})
				return
			}
			end, next := cut(text)
			if !yield(chunk{text: text[:end], line: line}) {
				return
			}
			line += strings.Count(text[:next], "\n")
			text = text[next:]
		}
	}
}

// cut returns where the first chunk of text ends and where the next one
// starts (before end when the chunks overlap).
func cut(text string) (end, next int) {
	limit := chunkSize + chunkPeek
	window := text[chunkSize:limit]
	switch i, j := strings.Index(window, "\n\n"), strings.IndexByte(window, '\n'); {
	case i >= 0:
		end = chunkSize + i + 2
	case j >= 0:
		end = chunkSize + j + 1
	default:
		return limit, limit - chunkOverlap
	}
	// Never cut inside a PEM block: an encrypted legacy private key has a
	// blank line after its headers, and a file without blank lines has
	// none to cut at.
	if b := strings.LastIndex(text[:end], "-----BEGIN"); b >= 0 && !strings.Contains(text[b:end], "-----END") {
		if e := strings.Index(text[end:limit], "-----END"); e >= 0 {
			if nl := strings.IndexByte(text[end+e:limit], '\n'); nl >= 0 {
				end += e + nl + 1
			}
		}
	}
	return end, end
}
