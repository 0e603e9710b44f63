package scan

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/scan/banner"
)

// Source maps. A production bundle often ends with "//# sourceMappingURL=
// main.3f2a1c.js.map" and the map is served beside it: create-react-app
// and many other set-ups publish them by default. A map's sourcesContent
// holds each bundled file as it was written, banners and version
// constants included, under its node_modules path; a minifier that
// dropped them from the bundle left them there; and where pnpm or Yarn
// installed the packages, the paths name every bundled package's version.
// The scan fetches the map
// of a script once, on the script's host, within the response and total
// byte limits, and reads the banners of the library files in it (never the
// site's own sources). A map cut at the response limit is read as far as
// it goes.

// sourceMapURL is the address of a script's source map: the SourceMap
// header, else the sourceMappingURL comment at the end of the script. An
// inline map (a data: URL) and a map on another host are not fetched.
func sourceMapURL(r *response) string {
	ref := r.header.Get("SourceMap")
	if ref == "" {
		ref = r.header.Get("X-SourceMap")
	}
	if ref == "" {
		tail := r.body[max(0, len(r.body)-512):]
		i := bytes.LastIndex(tail, []byte("# sourceMappingURL="))
		if i < 2 || tail[i-1] != '/' || tail[i-2] != '/' {
			return ""
		}
		rest := tail[i+len("# sourceMappingURL="):]
		if j := bytes.IndexAny(rest, " \t\r\n*"); j >= 0 {
			rest = rest[:j]
		}
		ref = string(rest)
	}
	if ref == "" || len(ref) > 512 || strings.HasPrefix(strings.ToLower(ref), "data:") {
		return ""
	}
	mu, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	abs := r.url.ResolveReference(mu)
	if abs.Host != r.url.Host || abs.Scheme != r.url.Scheme {
		return ""
	}
	return abs.String()
}

// Package managers that install each package under a directory naming
// its version, as bundlers then write the paths in a map:
// pnpm, node_modules/.pnpm/vue-router@4.3.0_vue@3.4.21/node_modules/vue-router/...
// (a scope's "/" written "+", peers after "_" or in parentheses), and
// Yarn's cache, .yarn/cache/@babel-runtime-npm-7.24.0-8d2d6bc4d6-7c5f2bd4ad.zip/node_modules/@babel/runtime/...
var (
	pnpmDir  = regexp.MustCompile(`node_modules/\.pnpm/([^/]{1,214})/node_modules/((?:@[^/@]{1,100}/)?[^/@]{1,214})/`)
	yarnDir  = regexp.MustCompile(`\.yarn/(?:berry/)?cache/([^/]{1,300})\.zip/node_modules/((?:@[^/@]{1,100}/)?[^/@]{1,214})/`)
	pathVers = regexp.MustCompile(`^` + `(\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,40})?)`)
)

// pathLayouts are those two layouts: the directory's pattern, and what
// precedes and follows the version in its name.
var pathLayouts = []struct {
	marker string
	re     *regexp.Regexp
	lead   func(name string) string
	trail  *regexp.Regexp // what must end the name after the version, if anything
}{
	{"/.pnpm/", pnpmDir, func(n string) string { return strings.ReplaceAll(n, "/", "+") + "@" }, nil},
	{".yarn/", yarnDir, func(n string) string { return strings.ReplaceAll(n, "/", "-") + "-npm-" }, yarnHash},
}

// yarnHash ends a Yarn cache file name: its checksum and cache key.
var yarnHash = regexp.MustCompile(`-[0-9a-f]{10}(?:-[0-9a-f]{10})?$`)

// pathPackage reads the npm package and version a bundled file's path
// names (pnpm's and Yarn's layouts); ok is false for any other path.
func pathPackage(src string) (name, version string, ok bool) {
	for _, l := range pathLayouts {
		if !strings.Contains(src, l.marker) {
			continue
		}
		m := l.re.FindStringSubmatch(src)
		if m == nil {
			return "", "", false
		}
		name = m[2]
		dir, found := strings.CutPrefix(m[1], l.lead(name))
		if !found {
			return "", "", false
		}
		if l.trail != nil {
			t := l.trail.FindStringIndex(dir)
			if t == nil {
				return "", "", false
			}
			dir = dir[:t[0]]
		}
		v := pathVers.FindString(dir)
		if v == "" || (len(dir) > len(v) && !strings.ContainsRune("_(", rune(dir[len(v)]))) {
			return "", "", false
		}
		return name, v, true
	}
	return "", "", false
}

// vuePackage reports whether name is one of the packages Vue is released
// as, reported as "vue"; not @vue/reactivity and @vue/shared, which
// Alpine.js bundles without Vue.
func vuePackage(name string) bool {
	switch name {
	case "@vue/runtime-core", "@vue/runtime-dom", "@vue/compiler-core",
		"@vue/compiler-dom", "@vue/compiler-sfc", "@vue/compiler-ssr", "@vue/server-renderer":
		return true
	}
	return false
}

// maxMapSources bounds the sources of one map that are read.
const maxMapSources = 5000

// pathObservationsOf reads the packages and versions the map's source
// paths name (pathPackage), one observation per package version.
func pathObservationsOf(mapURL, bundle string, sources []string) []observation {
	var out []observation
	seen := map[string]bool{}
	// With Vue's runtime in the bundle, its reactivity and shared packages
	// are Vue's too.
	withVue := slices.ContainsFunc(sources, func(src string) bool {
		name, _, ok := pathPackage(src)
		return ok && vuePackage(name)
	})
	for _, src := range sources {
		name, v, ok := pathPackage(src)
		if !ok {
			continue
		}
		if vuePackage(name) || withVue && (name == "@vue/reactivity" || name == "@vue/shared") {
			name = "vue"
		}
		if v = normVersion(v); v == "" || seen[name+"@"+v] {
			continue
		}
		seen[name+"@"+v] = true
		file := src[strings.Index(src, "node_modules/"):]
		if i := strings.Index(src, ".yarn/"); i >= 0 {
			file = src[i:]
		}
		out = append(out, observation{key: productKey("npm:" + name), version: v, kind: sentinel.EvidenceFingerprint, url: mapURL,
			detail: "source map of " + bundle + ": path " + file, confidence: sentinel.ConfidenceBanner, inFile: true})
	}
	return out
}

// sourceMapObservations reads the banners of the library files (those
// under node_modules/) of a source map, as far as the map can be decoded.
func sourceMapObservations(mapURL, bundle string, body []byte) []observation {
	var sources []string
	var pending []*string // contents met before the sources list
	var out []observation
	read := func(i int, content string) {
		if i >= len(sources) || content == "" {
			return
		}
		src := sources[i]
		k := strings.LastIndex(src, "node_modules/")
		if k < 0 {
			return // the site's own code
		}
		file := src[k:]
		for _, m := range banner.Find(path.Base(file), []byte(content)) {
			if v := normVersion(m.Version); v != "" {
				out = append(out, observation{key: productKey("npm:" + m.Library), version: v, kind: sentinel.EvidenceFingerprint, url: mapURL,
					detail: "source map of " + bundle + ": " + file + ": " + m.Text, confidence: sentinel.ConfidenceBanner, inFile: true})
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		switch key, _ := t.(string); key {
		case "sources":
			if err := dec.Decode(&sources); err != nil {
				return out
			}
			if len(sources) > maxMapSources {
				sources = sources[:maxMapSources]
			}
			out = append(out, pathObservationsOf(mapURL, bundle, sources)...)
			for i, p := range pending {
				if p != nil {
					read(i, *p)
				}
			}
			pending = nil
		case "sourcesContent":
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return out
			}
			for i := 0; dec.More() && i < maxMapSources; i++ {
				var s *string
				if err := dec.Decode(&s); err != nil {
					return out // cut at the response limit: what was read counts
				}
				if sources == nil {
					pending = append(pending, s)
					continue
				}
				if s != nil {
					read(i, *s)
				}
			}
			if sources != nil {
				return out // nothing after the contents is needed
			}
			if _, err := dec.Token(); err != nil { // the closing ]
				return out
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return out
			}
		}
	}
	return out
}
