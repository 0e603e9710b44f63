package scan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds of the HTML reader: a page is read token by token and at most this
// many tokens, links and assets are taken from it.
const (
	maxTokens      = 200_000
	maxLinksOnPage = 2000
	maxAssetsOnPag = 400
	maxMetaOnPage  = 200
)

// page is what the scan takes from one HTML document.
type page struct {
	links      []string          // absolute URLs of a, area, iframe, frame
	scripts    []string          // absolute URLs of script src (and modulepreload)
	styles     []string          // absolute URLs of stylesheets (and preloads as style)
	feeds      []string          // absolute URLs of RSS and Atom feeds
	generators []string          // <meta name="generator"> contents
	meta       map[string]string // every <meta name=... content=...>, name lowercased
	title      string
	inline     []string // the text of inline scripts, within maxInlineBytes
}

// maxInlineBytes bounds the inline script text a page keeps for the
// banner reader.
const maxInlineBytes = 1 << 20

// parseHTML reads an HTML document. base is the document's URL; a <base
// href> inside it changes the base for the links after it. It never fails:
// malformed HTML gives what could be read.
func parseHTML(base *url.URL, body []byte) *page {
	p := &page{meta: map[string]string{}}
	// No buffer limit: the body is in memory already, within the fetch's
	// limit, and a token larger than a limit (an inline script holding a
	// page's state, often over 1 MiB) would end the page there.
	z := html.NewTokenizer(bytes.NewReader(body))
	seen := map[string]bool{}
	add := func(list *[]string, max int, ref string) {
		u := resolve(base, ref)
		if u == "" || seen[u] || len(*list) >= max {
			return
		}
		seen[u] = true
		*list = append(*list, u)
	}
	inTitle, inScript := false, false
	inlineBytes := 0
	for n := 0; n < maxTokens; n++ {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return p
		case html.TextToken:
			if inScript {
				if t := z.Text(); len(bytes.TrimSpace(t)) > 0 && inlineBytes+len(t) <= maxInlineBytes {
					p.inline = append(p.inline, string(t))
					inlineBytes += len(t)
				}
				continue
			}
			if inTitle && p.title == "" {
				p.title = strings.TrimSpace(string(z.Text()))
				if len(p.title) > 200 {
					p.title = p.title[:200]
				}
			}
			continue
		case html.EndTagToken:
			inTitle, inScript = false, false
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		inTitle = a == atom.Title && tt == html.StartTagToken
		inScript = a == atom.Script && tt == html.StartTagToken
		if !hasAttr {
			continue
		}
		attrs := readAttrs(z)
		if attrs["src"] != "" {
			inScript = false
		}
		switch a {
		case atom.Base:
			if h := attrs["href"]; h != "" {
				if u, err := base.Parse(strings.TrimSpace(h)); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
					base = u
				}
			}
		case atom.A, atom.Area:
			add(&p.links, maxLinksOnPage, attrs["href"])
		case atom.Iframe, atom.Frame:
			add(&p.links, maxLinksOnPage, attrs["src"])
		case atom.Script:
			add(&p.scripts, maxAssetsOnPag, attrs["src"])
		case atom.Link:
			rel := " " + strings.ToLower(attrs["rel"]) + " "
			as := strings.ToLower(attrs["as"])
			typ := strings.ToLower(attrs["type"])
			switch {
			case strings.Contains(rel, " stylesheet "):
				add(&p.styles, maxAssetsOnPag, attrs["href"])
			case strings.Contains(rel, " modulepreload "):
				add(&p.scripts, maxAssetsOnPag, attrs["href"])
			case strings.Contains(rel, " preload ") && as == "script":
				add(&p.scripts, maxAssetsOnPag, attrs["href"])
			case strings.Contains(rel, " preload ") && as == "style":
				add(&p.styles, maxAssetsOnPag, attrs["href"])
			case strings.Contains(rel, " alternate ") && (typ == "application/rss+xml" || typ == "application/atom+xml"):
				add(&p.feeds, 8, attrs["href"])
			}
		case atom.Meta:
			name := strings.ToLower(strings.TrimSpace(attrs["name"]))
			if name == "" {
				continue
			}
			content := attrs["content"]
			if len(content) > 512 {
				content = content[:512]
			}
			if name == "generator" && len(p.generators) < 8 {
				p.generators = append(p.generators, strings.TrimSpace(content))
			}
			if len(p.meta) < maxMetaOnPage {
				p.meta[name] = content
			}
		}
	}
	return p
}

// readAttrs collects a tag's attributes, keys lowercased, the first of
// duplicates kept, values capped at 4 KiB.
func readAttrs(z *html.Tokenizer) map[string]string {
	m := map[string]string{}
	for i := 0; i < 64; i++ {
		k, v, more := z.TagAttr()
		key := strings.ToLower(string(k))
		if _, dup := m[key]; !dup {
			if len(v) > 4096 {
				v = v[:4096]
			}
			m[key] = string(v)
		}
		if !more {
			break
		}
	}
	return m
}

// resolve turns a reference into an absolute http(s) URL without its
// fragment, or "" for anything else (javascript:, mailto:, data:, broken).
func resolve(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || len(ref) > 2048 || strings.HasPrefix(ref, "#") {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ""
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "http" && u.Port() == "80") || (u.Scheme == "https" && u.Port() == "443") {
		u.Host = u.Hostname()
		if strings.Contains(u.Host, ":") {
			u.Host = "[" + u.Host + "]"
		}
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// feedGenerator returns the <generator> of an RSS or Atom feed: its text,
// and for Atom its version attribute appended ("WordPress 6.1.9" from
// <generator uri="https://wordpress.org/" version="6.1.9">WordPress</generator>).
// It reads at most maxTokens tokens.
func feedGenerator(body []byte) string {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	for n := 0; n < maxTokens; n++ {
		tok, err := d.RawToken()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return ""
			}
			return ""
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "generator" {
			continue
		}
		var version string
		for _, a := range se.Attr {
			if a.Name.Local == "version" {
				version = a.Value
			}
		}
		var text strings.Builder
		for m := 0; m < 16; m++ {
			t, err := d.RawToken()
			if err != nil {
				break
			}
			if cd, ok := t.(xml.CharData); ok {
				text.Write(cd)
				continue
			}
			break
		}
		out := strings.TrimSpace(text.String())
		if len(out) > 256 {
			out = out[:256]
		}
		if version != "" && len(version) < 40 {
			out += " " + version
		}
		return out
	}
	return ""
}
