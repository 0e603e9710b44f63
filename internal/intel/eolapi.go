package intel

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// The endoflife.date API (v1) answers GET /api/v1/products/full with every
// product and its releases in one document. Its shape differs from the
// product files (front matter) that the rest of this package reads, so
// DecodeEOLAPI turns each product into that shape: one stored form, one
// decision path.

type eolAPIDocument struct {
	Result []eolAPIProduct `json:"result"`
}

type eolAPIProduct struct {
	Name        string `json:"name"`
	Identifiers []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	} `json:"identifiers"`
	Releases []eolAPIRelease `json:"releases"`
}

type eolAPIRelease struct {
	Name        string  `json:"name"`
	ReleaseDate string  `json:"releaseDate"`
	IsLTS       bool    `json:"isLts"`
	LTSFrom     *string `json:"ltsFrom"`
	IsEOL       bool    `json:"isEol"`
	EOLFrom     *string `json:"eolFrom"`
	Latest      *struct {
		Name string `json:"name"`
	} `json:"latest"`
}

// DecodeEOLAPI decodes the endoflife.date API's products/full answer (at
// most max bytes) into products in the product-file shape, each with Raw
// set to that shape's JSON. Products without a name are skipped.
func DecodeEOLAPI(r io.Reader, max int64) ([]*EOLProduct, error) {
	var doc eolAPIDocument
	dec := json.NewDecoder(io.LimitReader(r, max))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode the endoflife.date answer: %w", err)
	}
	if doc.Result == nil {
		return nil, fmt.Errorf("decode the endoflife.date answer: no result list (is this /api/v1/products/full?)")
	}
	out := make([]*EOLProduct, 0, len(doc.Result))
	for _, ap := range doc.Result {
		name := strings.TrimSpace(ap.Name)
		if name == "" {
			continue
		}
		p := &EOLProduct{Product: name, Releases: make([]EOLRelease, 0, len(ap.Releases))}
		for _, id := range ap.Identifiers {
			switch id.Type {
			case "purl":
				p.Identifiers = append(p.Identifiers, EOLIdentifier{Purl: id.ID})
			case "cpe":
				p.Identifiers = append(p.Identifiers, EOLIdentifier{CPE: id.ID})
			case "repology":
				p.Identifiers = append(p.Identifiers, EOLIdentifier{Repology: id.ID})
			}
		}
		for _, ar := range ap.Releases {
			rel := EOLRelease{ReleaseCycle: ar.Name, ReleaseDate: ar.ReleaseDate}
			// A date says when; without one, the flag says whether.
			if ar.EOLFrom != nil && *ar.EOLFrom != "" {
				rel.EOL.Date = *ar.EOLFrom
			} else {
				rel.EOL.Bool = ar.IsEOL
			}
			if ar.LTSFrom != nil && *ar.LTSFrom != "" {
				rel.LTS.Date = *ar.LTSFrom
			} else {
				rel.LTS.Bool = ar.IsLTS
			}
			if ar.Latest != nil {
				rel.Latest = ar.Latest.Name
			}
			p.Releases = append(p.Releases, rel)
		}
		raw, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		p.Raw = raw
		out = append(out, p)
	}
	return out, nil
}
