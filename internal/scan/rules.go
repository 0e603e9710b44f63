package scan

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"

	wappalyzer "github.com/projectdiscovery/wappalyzergo"

	sentinel "github.com/sentinel-sca/sentinel"
)

// The fingerprint rules are a subset of github.com/projectdiscovery/
// wappalyzergo's (pinned at v0.3.1): the technologies of the categories
// below, the ones that are software components (CMSs, JavaScript libraries
// and frameworks, web servers, languages, web frameworks, ...), not the
// analytics, advertising or hosting services a site uses.
//
// The rules are evaluated here with the library's own pattern parser
// (wappalyzer.ParsePattern, which reads its version captures), part by
// part, so that each match is evidence with the exact header, cookie, meta
// tag or script URL it matched. The parts that need a browser (js, dom)
// are not used. HTML rules run on the first htmlRuleBytes of a page.
var ruleCategories = map[int]bool{
	1: true, 2: true, 3: true, 4: true, 6: true, 7: true, 8: true, 11: true, 12: true,
	13: true, 18: true, 21: true, 22: true, 24: true, 25: true, 27: true, 30: true,
	33: true, 44: true, 57: true, 59: true, 64: true, 66: true, 80: true, 82: true, 87: true,
}

// htmlRuleBytes bounds how much of a page the HTML rules read, and
// htmlRulePages how many pages of a site they run on: they cost tens of
// milliseconds a page, and the pages of one site share their markup.
const (
	htmlRuleBytes = 128 << 10
	htmlRulePages = 10
)

// wappalyzerKeys maps the rule set's technology names to product keys;
// other technologies are reported as "tech:<Name>" without a purl.
var wappalyzerKeys = map[string]productKey{
	"jQuery": "npm:jquery", "jQuery UI": "npm:jquery-ui", "jQuery Migrate": "npm:jquery-migrate",
	"Bootstrap": "npm:bootstrap", "AngularJS": "npm:angular", "Vue.js": "npm:vue", "React": "npm:react",
	"Lodash": "npm:lodash", "Underscore.js": "npm:underscore", "Backbone.js": "npm:backbone",
	"Moment.js": "npm:moment", "Handlebars": "npm:handlebars", "Mustache": "npm:mustache",
	"DOMPurify": "npm:dompurify", "Select2": "npm:select2", "Knockout.js": "npm:knockout", "D3": "npm:d3",
	"Chart.js": "npm:chart.js", "Axios": "npm:axios", "Swiper": "npm:swiper", "Popper": "npm:@popperjs/core",
	"DataTables": "npm:datatables.net", "Highlight.js": "npm:highlight.js", "TinyMCE": "npm:tinymce",
	"Prototype": "npm:prototype", "jQuery Mobile": "npm:jquery-mobile", "Modernizr": "npm:modernizr",
	"Marked": "npm:marked", "Next.js": "npm:next", "Nuxt.js": "npm:nuxt", "Ember.js": "npm:ember-source",
	"Gatsby": "npm:gatsby", "Astro": "npm:astro", "Docusaurus": "npm:@docusaurus/core", "VitePress": "npm:vitepress",
	"VuePress": "npm:vuepress", "Hexo": "npm:hexo", "Eleventy": "npm:@11ty/eleventy",
	"Moment Timezone": "npm:moment-timezone", "Highcharts": "npm:highcharts", "VideoJS": "npm:video.js", "Leaflet": "npm:leaflet",
	"Plotly": "npm:plotly.js", "Summernote": "npm:summernote", "Quill": "npm:quill", "Socket.io": "npm:socket.io-client",
	"CKEditor": "npm:ckeditor4", "MathJax": "npm:mathjax", "imagesLoaded": "npm:imagesloaded", "Plupload": "npm:plupload",
	// Libraries whose files the banners and the catalog know by their npm
	// name: the rule's evidence and the file's are one detection.
	"Slick": "npm:slick-carousel", "OWL Carousel": "npm:owl.carousel", "Magnific Popup": "npm:magnific-popup",
	"FancyBox": "npm:@fancyapps/fancybox", "Hammer.js": "npm:hammerjs", "SweetAlert2": "npm:sweetalert2",
	"Three.js": "npm:three", "Plyr": "npm:plyr", "Prism": "npm:prismjs", "PDF.js": "npm:pdfjs-dist",
	"Zepto": "npm:zepto", "Clipboard.js": "npm:clipboard", "core-js": "npm:core-js", "Tippy.js": "npm:tippy.js",
	"Dropzone": "npm:dropzone", "Sortable": "npm:sortablejs", "jsPDF": "npm:jspdf", "Handsontable": "npm:handsontable",
	"CodeMirror": "npm:codemirror", "Alpine.js": "npm:alpinejs", "GSAP": "npm:gsap", "Flickity": "npm:flickity",
	"Isotope": "npm:isotope-layout", "Masonry": "npm:masonry-layout", "Mithril": "npm:mithril", "Mithril.js": "npm:mithril",
	"Riot": "npm:riot", "Riot.js": "npm:riot", "ECharts": "npm:echarts", "LazySizes": "npm:lazysizes",
	"PhotoSwipe": "npm:photoswipe", "Choices": "npm:choices.js", "Cleave.js": "npm:cleave.js", "toastr": "npm:toastr",
	"Immutable.js": "npm:immutable", "Redux": "npm:redux", "MobX": "npm:mobx", "Preact": "npm:preact", "RxJS": "npm:rxjs",
	"Raphael": "npm:raphael", "Froala Editor": "npm:froala-editor",
	"Glide.js": "npm:@glidejs/glide", "Splide": "npm:@splidejs/splide", "AOS": "npm:aos", "Pikaday": "npm:pikaday",
	"C3.js": "npm:c3", "FullCalendar": "npm:fullcalendar",
	"WordPress": "wordpress", "Drupal": "drupal", "Joomla": "joomla", "MediaWiki": "mediawiki",
	"phpMyAdmin": "phpmyadmin", "Moodle": "moodle", "Ghost": "ghost", "Magento": "magento",
	"TYPO3 CMS": "typo3", "DokuWiki": "dokuwiki", "RoundCube": "roundcube", "Adminer": "adminer", "Redmine": "redmine",
	"GitLab": "gitlab", "Jenkins": "jenkins", "Grafana": "grafana", "Discourse": "discourse",
	"Nextcloud": "nextcloud", "Nginx": "nginx", "Apache HTTP Server": "apache", "Apache Tomcat": "tomcat",
	"PHP": "php", "Node.js": "node", "Express": "express", "Microsoft ASP.NET": "aspnet", "IIS": "iis",
	"OpenSSL": "openssl", "Java": "java", "Laravel": "laravel", "CodeIgniter": "codeigniter",
	"Django": "django", "LiteSpeed": "tech:LiteSpeed", "Lighttpd": "lighttpd", "Caddy": "caddy",
}

// wpExtension finds a WordPress plugin or theme directory in a rule's
// pattern ("/wp-content/plugins/contact-form-7/", with or without escaped
// slashes).
var wpExtension = regexp.MustCompile(`wp-content\\?/(plugins|themes)\\?/([a-z0-9_.-]+?)\\?/`)

// wordpressKey gives a WordPress extension's rule the key the path signal
// uses ("wp-plugin:<slug>", "wp-theme:<slug>"), so that the rule's evidence
// and the plugin directory's are one detection, not "Contact Form 7" beside
// "WordPress plugin contact-form-7". A rule that names no directory, or
// several (a free and a pro edition), keeps its own name.
func wordpressKey(f *wappalyzer.Fingerprint) productKey {
	var pats []string
	pats = append(pats, f.ScriptSrc...)
	pats = append(pats, f.HTML...)
	pats = append(pats, f.CSS...)
	for sel := range f.Dom {
		pats = append(pats, sel)
	}
	var key productKey
	for _, p := range pats {
		for _, m := range wpExtension.FindAllStringSubmatch(p, -1) {
			k := productKey("wp-plugin:" + m[2])
			if m[1] == "themes" {
				k = productKey("wp-theme:" + m[2])
			}
			if key != "" && key != k {
				return ""
			}
			key = k
		}
	}
	return key
}

type appRule struct {
	name       string
	key        productKey
	categories []string
	cpe        string
	headers    map[string]pattern                   // lowercase header name
	cookies    map[string]*wappalyzer.ParsedPattern // lowercase cookie name
	meta       map[string][]*wappalyzer.ParsedPattern
	scriptSrc  []pattern
	html       []pattern
}

// pattern is a compiled rule with the literals any match must contain,
// lowercased: checking them with strings.Contains first skips most
// regular expression runs (a page is matched against thousands of rules).
type pattern struct {
	*wappalyzer.ParsedPattern
	lits []string
}

// Bounds of a rule's run on a long input: a rule with literals runs on
// the text around the first occurrences of its longest literal (fingerprint
// rules match within a tag or two); one without runs on the input's head.
const (
	ruleWindow      = 1024
	ruleOccurrences = 8
	ruleHead        = 4 << 10
)

// evaluate runs the rule on s; lower is s with ASCII letters lowercased
// (the same length, so offsets agree).
func (p pattern) evaluate(lower, s string) (bool, string) {
	longest := ""
	for _, l := range p.lits {
		if !strings.Contains(lower, l) {
			return false, ""
		}
		if len(l) > len(longest) {
			longest = l
		}
	}
	if len(s) <= 2*ruleWindow {
		return p.Evaluate(s)
	}
	if longest == "" {
		return p.Evaluate(s[:min(len(s), ruleHead)])
	}
	for n, off := 0, 0; n < ruleOccurrences; n++ {
		i := strings.Index(lower[off:], longest)
		if i < 0 {
			break
		}
		at := off + i
		if ok, v := p.Evaluate(s[max(0, at-ruleWindow):min(len(s), at+len(longest)+ruleWindow)]); ok {
			return ok, v
		}
		off = at + len(longest)
	}
	return false, ""
}

// wordStarts reports whether each literal occurs in lower somewhere not
// right after a letter. Header rules are unanchored: "bun" would match
// "PHP/7.4.3-1ubuntu1", "ats" (Apache Traffic Server) any "stats".
func wordStarts(lower string, lits []string) bool {
	for _, l := range lits {
		found := false
		for off := 0; !found; {
			i := strings.Index(lower[off:], l)
			if i < 0 {
				return false
			}
			at := off + i
			found = at == 0 || lower[at-1] < 'a' || lower[at-1] > 'z'
			off = at + 1
		}
	}
	return true
}

// asciiLower lowercases ASCII letters only, keeping byte offsets.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// requiredLiterals returns the literal strings (of 3 bytes or more) that
// every match of a rule's regular expression contains, lowercased. It
// parses the expression part of the rule (before "\;") with regexp/syntax
// and keeps the literals of the mandatory parts of its top concatenation.
func requiredLiterals(rule string, minLen int) []string {
	expr, _, _ := strings.Cut(rule, `\;`)
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			if l := strings.ToLower(string(re.Rune)); len(l) >= minLen {
				out = append(out, l)
			}
		case syntax.OpCapture, syntax.OpPlus:
			walk(re.Sub[0])
		case syntax.OpRepeat:
			if re.Min >= 1 {
				walk(re.Sub[0])
			}
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				walk(sub)
			}
		}
	}
	walk(re)
	return out
}

type ruleSet struct {
	apps []*appRule
}

// loadRules compiles the subset once per process: it is read-only after,
// like a compiled regular expression.
var loadRules = sync.OnceValues(compileRules)

func compileRules() (*ruleSet, error) {
	var fp wappalyzer.Fingerprints
	if err := json.Unmarshal([]byte(wappalyzer.GetRawFingerprints()), &fp); err != nil {
		return nil, fmt.Errorf("decode fingerprint rules: %w", err)
	}
	catNames := map[int]string{}
	for id, c := range wappalyzer.GetCategoriesMapping() {
		catNames[id] = c.Name
	}
	rs := &ruleSet{}
	for name, f := range fp.Apps {
		keep := false
		for _, c := range f.Cats {
			keep = keep || ruleCategories[c]
		}
		if !keep {
			continue
		}
		a := &appRule{
			name:    name,
			key:     wappalyzerKeys[name],
			cpe:     f.CPE,
			headers: map[string]pattern{},
			cookies: map[string]*wappalyzer.ParsedPattern{},
			meta:    map[string][]*wappalyzer.ParsedPattern{},
		}
		if a.key == "" {
			a.key = wordpressKey(f)
		}
		if a.key == "" {
			a.key = productKey("tech:" + name)
		}
		for _, c := range f.Cats {
			if n, ok := catNames[c]; ok {
				a.categories = append(a.categories, n)
			}
		}
		compile := func(s string) *wappalyzer.ParsedPattern {
			p, err := wappalyzer.ParsePattern(s)
			if err != nil {
				return nil // patterns Go's regexp cannot express (lookahead) are left out
			}
			return p
		}
		for h, s := range f.Headers {
			if p := compile(s); p != nil {
				a.headers[strings.ToLower(h)] = pattern{p, requiredLiterals(s, 2)}
			}
		}
		for ck, s := range f.Cookies {
			if p := compile(s); p != nil {
				a.cookies[strings.ToLower(ck)] = p
			}
		}
		for m, ss := range f.Meta {
			for _, s := range ss {
				if p := compile(s); p != nil {
					a.meta[strings.ToLower(m)] = append(a.meta[strings.ToLower(m)], p)
				}
			}
			if len(ss) == 0 {
				if p := compile(""); p != nil {
					a.meta[strings.ToLower(m)] = append(a.meta[strings.ToLower(m)], p)
				}
			}
		}
		for _, s := range f.ScriptSrc {
			if p := compile(s); p != nil {
				a.scriptSrc = append(a.scriptSrc, pattern{p, requiredLiterals(s, 2)})
			}
		}
		for _, s := range f.HTML {
			if p := compile(s); p != nil {
				a.html = append(a.html, pattern{p, requiredLiterals(s, 3)})
			}
		}
		if len(a.headers)+len(a.cookies)+len(a.meta)+len(a.scriptSrc)+len(a.html) == 0 {
			continue
		}
		rs.apps = append(rs.apps, a)
	}
	sort.Slice(rs.apps, func(i, j int) bool { return rs.apps[i].name < rs.apps[j].name })
	return rs, nil
}

// Len returns the number of technologies in the rule set.
func (rs *ruleSet) Len() int { return len(rs.apps) }

// match evaluates the rules on one page response.
func (rs *ruleSet) match(r *response, p *page, withHTML bool) []observation {
	u := r.url.String()
	var out []observation
	emit := func(a *appRule, where, input, version string, conf int, weak bool) {
		o := observation{key: a.key, kind: sentinel.EvidenceFingerprint, url: where, detail: "rule " + a.name + ": " + input,
			confidence: sentinel.ConfidenceProduct, categories: a.categories, cpe: a.cpe, aux: input == "html"}
		if v := normVersion(version); v != "" {
			o.version, o.confidence, o.weak = v, conf, weak || !precise(v)
		}
		out = append(out, o)
	}
	headers := map[string]string{}
	for k, vs := range r.header {
		v := strings.Join(vs, ", ")
		if len(v) > 2048 {
			v = v[:2048]
		}
		headers[strings.ToLower(k)] = v
	}
	cookies := map[string]string{}
	for _, sc := range r.header.Values("Set-Cookie") {
		name, rest, _ := strings.Cut(sc, "=")
		value, _, _ := strings.Cut(rest, ";")
		if name = strings.ToLower(strings.TrimSpace(name)); name != "" && len(name) <= 128 {
			cookies[name] = value
		}
	}
	body := string(r.body[:min(len(r.body), htmlRuleBytes)])
	lowerBody := asciiLower(body)
	for _, a := range rs.apps {
		for h, pat := range a.headers {
			if v, ok := headers[h]; ok {
				if okm, ver := pat.Evaluate(v); okm && wordStarts(asciiLower(v), pat.lits) {
					emit(a, u, h+": "+v, ver, sentinel.ConfidenceGenerator, false)
				}
			}
		}
		for ck, pat := range a.cookies {
			if v, ok := cookies[ck]; ok {
				if okm, ver := pat.Evaluate(v); okm {
					emit(a, u, "cookie "+ck, ver, sentinel.ConfidenceGenerator, false)
				}
			}
		}
		for m, pats := range a.meta {
			v, ok := p.meta[m]
			if !ok {
				continue
			}
			for _, pat := range pats {
				if okm, ver := pat.Evaluate(v); okm {
					emit(a, u, `<meta name="`+m+`" content="`+v+`">`, ver, sentinel.ConfidenceGenerator, false)
					break
				}
			}
		}
		for _, pat := range a.html {
			if !withHTML {
				break
			}
			if okm, ver := pat.evaluate(lowerBody, body); okm {
				// HTML rules are loose: a version they capture from a
				// query string (?ver=6.1.9, the host application's) counts
				// only when other evidence agrees.
				emit(a, u, "html", ver, sentinel.ConfidenceGenerator, ver != "" && queryLike(lowerBody, ver))
				break
			}
		}
	}
	return out
}

// matchScript evaluates the script URL rules on one script's URL. Pages of
// one site share their scripts, so the crawl calls it once per URL.
func (rs *ruleSet) matchScript(src string) []observation {
	lower := asciiLower(src)
	var out []observation
	for _, a := range rs.apps {
		for _, pat := range a.scriptSrc {
			okm, ver := pat.evaluate(lower, src)
			if !okm {
				continue
			}
			// A version that is only in the query string is the host
			// application's as often as the script's (?ver=6.1.9).
			if npm, ok := strings.CutPrefix(string(a.key), "npm:"); ok && urlNamesOther(src, ver, npm) {
				// A plugin's file (jquery-migrate/1.4.1/, bootstrap-select/1.13.14/,
				// jquery.mask.min.js): the rule matched the library's
				// name inside the plugin's, and the version is the plugin's.
				break
			}
			o := observation{key: a.key, kind: sentinel.EvidenceFingerprint, url: src, detail: "rule " + a.name + ": script " + src,
				confidence: sentinel.ConfidenceProduct, categories: a.categories, cpe: a.cpe, fromURL: true}
			if v := normVersion(ver); v != "" {
				o.version, o.confidence, o.weak = v, sentinel.ConfidenceBanner, !inPath(src, ver) || !precise(v)
			}
			out = append(out, o)
			break
		}
	}
	return out
}

// urlNamesOther reports whether script URL s is another library's than
// npm package npm, by the name its path gives the file: the path segment
// that holds version v ("jquery-migrate-1.4.1.min.js", "bootstrap-table@1.22.1"),
// or without a name there the one before it ("/jquery-migrate/1.4.1/"),
// and the file's own name. A name is another library's when it maps to
// another package (fileNames) or extends npm's as plugins name themselves
// ("jquery.mask", "bootstrap-select"); a name that says nothing ("js",
// "vendor") is no library's.
func urlNamesOther(s, v, npm string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	segs := strings.Split(u.Path, "/")
	var names []string
	if i := slices.IndexFunc(segs, func(seg string) bool { return v != "" && strings.Contains(seg, v) }); i >= 0 {
		if n := segmentName(segs[i], v); n != "" {
			names = append(names, n)
		} else if i > 0 {
			names = append(names, segmentName(segs[i-1], ""))
		}
	}
	names = append(names, segmentName(segs[len(segs)-1], ""))
	for _, n := range names {
		if otherLibrary(n, npm) {
			return true
		}
	}
	return false
}

// segmentName is the library a path segment names: what comes before
// version v in it (when v is not ""), without a file's extensions, build
// suffixes and version ("jquery-3.6.0.slim.min.js" -> "jquery").
func segmentName(seg, v string) string {
	seg = strings.ToLower(seg)
	if v != "" {
		before, _, _ := strings.Cut(seg, strings.ToLower(v))
		return strings.TrimRight(before, "-._@v")
	}
	for {
		trimmed := seg
		for _, suffix := range []string{".js", ".mjs", ".css", ".min", "-min", ".slim", ".bundle", ".umd", ".esm", ".prod", ".production"} {
			trimmed = strings.TrimSuffix(trimmed, suffix)
		}
		if m := trailingVersion.FindStringIndex(trimmed); m != nil {
			trimmed = trimmed[:m[0]]
		}
		if trimmed == seg {
			return seg
		}
		seg = trimmed
	}
}

// trailingVersion is a version at the end of a file's name: "-3.6.0".
var trailingVersion = regexp.MustCompile(`[-.@_]v?\d+(?:\.\d+)+$`)

// ownVariants are file names of a library's own builds that extend its
// name as a plugin's would.
var ownVariants = map[string]bool{
	"jquery-latest": true, "bootstrap-theme": true, "bootstrap-grid": true, "bootstrap-reboot": true, "bootstrap-utilities": true,
}

// otherLibrary reports whether file name n names a library other than npm
// package npm (see urlNamesOther).
func otherLibrary(n, npm string) bool {
	if n == "" || n == npm || ownVariants[n] {
		return false
	}
	if mapped := fileNames[n]; mapped != "" {
		return mapped != npm
	}
	rest, ok := strings.CutPrefix(n, npm)
	return ok && rest != "" && strings.ContainsRune("-._", rune(rest[0]))
}

// queryLike reports whether version v follows an "=" somewhere in the
// page, as in a query string or an attribute value.
func queryLike(lowerBody, v string) bool {
	return strings.Contains(lowerBody, "="+v) || strings.Contains(lowerBody, "=v"+v)
}

// inPath reports whether version v appears in the path of URL s.
func inPath(s, v string) bool {
	if v == "" {
		return true
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return strings.Contains(u.Path, v)
}
