package scan

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/scan/banner"
)

// observation is one piece of evidence for one product, before
// reconciliation.
type observation struct {
	key        productKey
	version    string // "" when the evidence names none
	kind       string // sentinel.Evidence*
	url        string
	detail     string
	confidence int
	// weak marks a version that may be another product's: a ?ver= query
	// (WordPress appends its own version to every asset), a version a
	// loose fingerprint rule read from HTML, a major release alone. Such
	// a version counts only when strong evidence names the same version.
	weak bool
	// aux marks evidence that only says the product is referenced
	// somewhere on a page (a fingerprint rule on the whole HTML): it joins
	// a versioned detection of the product, but never stands alone beside
	// one.
	aux bool
	// fromURL marks evidence that only an asset's URL gives (a library's
	// file name, a script URL rule): it is dropped when the file's own
	// strong evidence names another product and not this one
	// (jquery-migrate-1.4.1.min.js under a rule that matches "jquery"
	// anywhere in a URL).
	fromURL bool
	// ownFile marks a script named as a library's own distributable
	// (lodash.js, jquery.min.js) whose version nothing gave: another copy
	// of the library, which joins a detection with evidence from the same
	// URL but never takes another file's version.
	ownFile bool
	// siteCode marks an asset whose content was read and is too small to
	// be a library's distributable, with nothing in it naming one: the
	// site's own two-line chart.js. It has no key; reconcile drops the
	// URL-only evidence for its URL.
	siteCode bool
	// inFile marks what a fetched file's content says (its hash, a
	// banner): the file's URL is part of the evidence.
	inFile bool
	// distro names the distribution whose build a server announces
	// (sentinel.Detection.Distribution).
	distro string
	// categories and cpe from the fingerprint rules, when they matched.
	categories []string
	cpe        string
	// candidates are the versions a hash names when it names several
	// and nothing in the file tells which (a style sheet that did not
	// change between releases): the evidence joins a detection of one of
	// them, as a renamed select2.min.css joins the select2.min.js beside
	// it.
	candidates []string
}

// --- response headers and cookies ---

// headerRule reads a product and version from one response header.
type headerRule struct {
	header string
	re     *regexp.Regexp // group 1 is the version, when the header names one
	key    productKey
}

// headerRules are the headers servers and applications announce
// themselves in. A Server header can name several products
// ("Apache/2.4.57 (Debian) OpenSSL/3.0.11 PHP/8.2.7"); each rule looks for
// its own token.
var headerRules = []headerRule{
	{"Server", regexp.MustCompile(`(?i)\bnginx(?:/(\d[\w.]*))?`), "nginx"},
	{"Server", regexp.MustCompile(`(?i)\bApache(?:/(\d[\w.]*))?(?:$|[ /(])`), "apache"},
	{"Server", regexp.MustCompile(`(?i)\bApache-Coyote/`), "tomcat"},
	{"Server", regexp.MustCompile(`(?i)\bMicrosoft-IIS(?:/(\d[\w.]*))?`), "iis"},
	{"Server", regexp.MustCompile(`(?i)\bOpenSSL(?:/(\d[\w.]*))?`), "openssl"},
	{"Server", regexp.MustCompile(`(?i)\bPHP(?:/(\d[\w.]*))?`), "php"},
	{"Server", regexp.MustCompile(`(?i)\blighttpd(?:/(\d[\w.]*))?`), "lighttpd"},
	{"Server", regexp.MustCompile(`(?i)^Caddy\b`), "caddy"},
	{"X-Powered-By", regexp.MustCompile(`(?i)\bPHP(?:/(\d[\w.]*))?`), "php"},
	{"X-Powered-By", regexp.MustCompile(`(?i)\bASP\.NET\b`), "aspnet"},
	{"X-Powered-By", regexp.MustCompile(`(?i)^Express$`), "express"},
	{"X-Powered-By", regexp.MustCompile(`(?i)\bServlet(?:/(\d[\w.]*))?`), "java"},
	{"X-Powered-By", regexp.MustCompile(`(?i)\bJSP(?:/(\d[\w.]*))?`), "java"},
	{"X-Powered-By", regexp.MustCompile(`(?i)\bNext\.js(?: (\d[\w.]*))?`), "npm:next"},
	{"X-AspNet-Version", regexp.MustCompile(`^(\d[\w.]*)`), "aspnet"},
	{"X-AspNetMvc-Version", regexp.MustCompile(`^(\d[\w.]*)`), "aspnetmvc"},
	{"X-Generator", regexp.MustCompile(`(?i)^Drupal(?: (\d[\w.]*))?`), "drupal"},
	{"X-Generator", regexp.MustCompile(`(?i)^MediaWiki(?: (\d[\w.]*))?`), "mediawiki"},
	{"X-Drupal-Cache", regexp.MustCompile(`.`), "drupal"},
	{"X-Drupal-Dynamic-Cache", regexp.MustCompile(`.`), "drupal"},
	{"X-Pingback", regexp.MustCompile(`/xmlrpc\.php$`), "wordpress"},
	{"Link", regexp.MustCompile(`/wp-json/|rel="https://api\.w\.org/"`), "wordpress"},
	{"X-Content-Encoded-By", regexp.MustCompile(`(?i)Joomla! (\d[\w.]*)`), "joomla"},
	{"X-Powered-By", regexp.MustCompile(`(?i)^Ghost(?: (\d[\w.]*))?`), "ghost"},
	{"X-Redmine-Version", regexp.MustCompile(`^(\d[\w.]*)`), "redmine"},
	{"X-Jenkins", regexp.MustCompile(`^(\d[\w.]*)`), "jenkins"},
	{"X-Magento-Cache-Debug", regexp.MustCompile(`.`), "magento"},
}

// Distributions' marks in a server's announcement: the Server header's
// comment ("Apache/2.4.41 (Ubuntu)", which names the build of every
// product in the header) and a version's package revision
// ("PHP/7.4.3-4ubuntu2.19", "nginx/1.22.1+deb12u1", ".el9").
var (
	distroComment  = regexp.MustCompile(`\((Ubuntu|Debian|Raspbian|CentOS(?: Stream)?|Red Hat(?: Enterprise Linux)?|Fedora|Amazon(?: Linux)?|Rocky Linux|AlmaLinux|Oracle Linux|Linux/SUSE|SUSE|openSUSE)\)`)
	distroRevision = []struct {
		re   *regexp.Regexp
		name string
	}{
		{regexp.MustCompile(`(?i)^[-+~][\w.+~-]*ubuntu`), "Ubuntu"},
		{regexp.MustCompile(`(?i)^[-+~][\w.+~-]*(?:deb\d|\+deb|~deb|dfsg)`), "Debian"},
		{regexp.MustCompile(`^[-+~.][\w.+~-]*\.el\d`), "Red Hat Enterprise Linux"},
		{regexp.MustCompile(`^[-+~.][\w.+~-]*\.fc\d`), "Fedora"},
		{regexp.MustCompile(`^[-+~.][\w.+~-]*\.amzn\d`), "Amazon Linux"},
	}
)

// headerDistribution names the distribution whose build a header's
// product at value[:end] is (end is where the product's version ends),
// or "".
func headerDistribution(header, value string, end int) string {
	tail := value[end:]
	if i := strings.IndexAny(tail, " \t"); i >= 0 {
		tail = tail[:i]
	}
	for _, d := range distroRevision {
		if d.re.MatchString(tail) {
			return d.name
		}
	}
	if header == "Server" {
		if m := distroComment.FindStringSubmatch(value); m != nil {
			switch m[1] {
			case "Linux/SUSE", "SUSE":
				return "SUSE"
			case "Red Hat", "Red Hat Enterprise Linux":
				return "Red Hat Enterprise Linux"
			case "Amazon", "Amazon Linux":
				return "Amazon Linux"
			}
			return m[1]
		}
	}
	return ""
}

// cookieRule names the product a session cookie belongs to.
type cookieRule struct {
	re  *regexp.Regexp
	key productKey
}

var cookieRules = []cookieRule{
	{regexp.MustCompile(`^PHPSESSID$`), "php"},
	{regexp.MustCompile(`^JSESSIONID$`), "java"},
	{regexp.MustCompile(`^ASP\.NET_SessionId$|^\.ASPXAUTH$|^\.AspNetCore\.`), "aspnet"},
	{regexp.MustCompile(`^wordpress_|^wp-settings-|^wordpress_test_cookie$|^wp_lang$`), "wordpress"},
	{regexp.MustCompile(`^S?SESS[0-9a-f]{32}$`), "drupal"},
	{regexp.MustCompile(`^laravel_session$`), "laravel"},
	{regexp.MustCompile(`^ci_session$`), "codeigniter"},
	{regexp.MustCompile(`^phpMyAdmin(_https)?$|^pma_lang(_https)?$|^pmaUser-1`), "phpmyadmin"},
	{regexp.MustCompile(`^MoodleSession`), "moodle"},
	{regexp.MustCompile(`^roundcube_sessid$|^roundcube_sessauth$`), "roundcube"},
	{regexp.MustCompile(`^DokuWiki$|^DW[0-9a-f]{32}$`), "dokuwiki"},
	{regexp.MustCompile(`^[a-z0-9_]*_session$`), ""}, // generic; names nothing
	{regexp.MustCompile(`^connect\.sid$`), "express"},
	{regexp.MustCompile(`^csrftoken$|^django_language$`), "django"},
	{regexp.MustCompile(`^_redmine_session$`), "redmine"},
	{regexp.MustCompile(`^_gitlab_session$`), "gitlab"},
	{regexp.MustCompile(`^grafana_session$`), "grafana"},
	{regexp.MustCompile(`^mediawiki.*_session$|^[a-z0-9_]*wiki[a-z0-9_]*_session$`), "mediawiki"},
}

// analyzeHTTP reads headers and cookie names of a response of the site.
func (c *crawl) analyzeHTTP(r *response) {
	var out []observation
	u := r.url.String()
	for _, h := range headerRules {
		for _, v := range r.header.Values(h.header) {
			if len(v) > 1024 {
				v = v[:1024]
			}
			m := h.re.FindStringSubmatchIndex(v)
			if m == nil {
				continue
			}
			o := observation{key: h.key, kind: sentinel.EvidenceHeader, url: u, detail: h.header + ": " + v, confidence: sentinel.ConfidenceProduct}
			if len(m) > 3 && m[2] >= 0 {
				if ver := normVersion(v[m[2]:m[3]]); ver != "" {
					o.version, o.confidence = ver, sentinel.ConfidenceGenerator
					o.weak = !precise(ver)
					o.distro = headerDistribution(h.header, v, m[1])
				}
			}
			out = append(out, o)
		}
	}
	for _, sc := range r.header.Values("Set-Cookie") {
		name, _, _ := strings.Cut(sc, "=")
		name = strings.TrimSpace(name)
		if name == "" || len(name) > 128 {
			continue
		}
		for _, cr := range cookieRules {
			if cr.re.MatchString(name) {
				if cr.key != "" {
					out = append(out, observation{key: cr.key, kind: sentinel.EvidenceCookie, url: u, detail: "Set-Cookie: " + name, confidence: sentinel.ConfidenceProduct})
				}
				break
			}
		}
	}
	c.observe(out...)
}

// --- generator ---

// generatorRule reads a product and version from a generator string.
type generatorRule struct {
	re  *regexp.Regexp
	key productKey
}

var generatorRules = []generatorRule{
	{regexp.MustCompile(`(?i)^WordPress(?: (\d[\w.-]*))?`), "wordpress"},
	{regexp.MustCompile(`(?i)^https?://wordpress\.org/\?v=(\d[\w.-]*)`), "wordpress"},
	{regexp.MustCompile(`(?i)^Drupal(?: (\d[\w.]*))?`), "drupal"},
	{regexp.MustCompile(`(?i)^Joomla!?(?: (?:- Open Source Content Management(?: - Version )?)?(\d[\w.]*))?`), "joomla"},
	{regexp.MustCompile(`(?i)^MediaWiki(?: (\d[\w.-]*))?`), "mediawiki"},
	{regexp.MustCompile(`(?i)^Ghost(?: (\d[\w.]*))?`), "ghost"},
	{regexp.MustCompile(`(?i)^TYPO3(?: CMS)?(?: (\d[\w.]*))?`), "typo3"},
	{regexp.MustCompile(`(?i)^DokuWiki(?: Release)?(?: (\d[\w.-]*))?`), "dokuwiki"},
	{regexp.MustCompile(`(?i)^Moodle(?: (\d[\w.]*))?`), "moodle"},
	{regexp.MustCompile(`(?i)^Hugo (\d[\w.]*)`), "tech:Hugo"},
	{regexp.MustCompile(`(?i)^Jekyll v(\d[\w.]*)`), "tech:Jekyll"},
	// JavaScript site generators: npm packages, with advisories.
	{regexp.MustCompile(`^Gatsby (\d[\w.-]*)`), "npm:gatsby"},
	{regexp.MustCompile(`^Astro v(\d[\w.-]*)`), "npm:astro"},
	{regexp.MustCompile(`^Docusaurus v(\d[\w.-]*)`), "npm:@docusaurus/core"},
	{regexp.MustCompile(`^VitePress v?(\d[\w.-]*)`), "npm:vitepress"},
	{regexp.MustCompile(`^VuePress (\d[\w.-]*)`), "npm:vuepress"},
	{regexp.MustCompile(`^Hexo (\d[\w.-]*)`), "npm:hexo"},
	{regexp.MustCompile(`^Eleventy v(\d[\w.-]*)`), "npm:@11ty/eleventy"},
}

// generatorObservations reads a <meta name="generator"> or feed generator.
func generatorObservations(u, g, what string) []observation {
	if len(g) > 256 {
		g = g[:256]
	}
	for _, r := range generatorRules {
		m := r.re.FindStringSubmatch(g)
		if m == nil {
			continue
		}
		o := observation{key: r.key, kind: sentinel.EvidenceGenerator, url: u, detail: what + ": " + g, confidence: sentinel.ConfidenceProduct}
		if len(m) > 1 {
			if v := normVersion(m[1]); v != "" {
				o.version, o.confidence, o.weak = v, sentinel.ConfidenceGenerator, !precise(v)
			}
		}
		return []observation{o}
	}
	return nil
}

// serverPages are the versions web servers write into the pages they make
// themselves: an error page (Tomcat's "Apache Tomcat/9.0.30", nginx's
// "<center>nginx/1.18.0</center>", Apache's "<address>Apache/2.4.49
// (Unix) Server at ..."), or Tomcat's own start page, whose title is
// "Apache Tomcat/9.0.30". Tomcat since 8.5 sends no Server header, so this
// is often the only place it names itself.
var serverPages = []struct {
	re  *regexp.Regexp
	key productKey
}{
	{regexp.MustCompile(`<(?:h3|title)>Apache Tomcat/(\d+\.\d+\.\d+)`), "tomcat"},
	{regexp.MustCompile(`<center>nginx/(\d+\.\d+\.\d+)</center>`), "nginx"},
	{regexp.MustCompile(`<address>Apache/(\d+\.\d+\.\d+) \([^)<]{1,40}\) Server at `), "apache"},
}

// serverPageObservations reads the server versions of serverPages from the
// head of a page, whatever its status (an error page is the usual place).
func serverPageObservations(r *response) []observation {
	head := r.body[:min(len(r.body), 16<<10)]
	var out []observation
	for _, sp := range serverPages {
		if m := sp.re.FindSubmatch(head); m != nil {
			if v := normVersion(string(m[1])); v != "" {
				out = append(out, observation{key: sp.key, version: v, kind: sentinel.EvidenceFingerprint, url: r.url.String(),
					detail: fmt.Sprintf("page (HTTP %d): %s", r.status, m[0]), confidence: sentinel.ConfidenceGenerator,
					distro: headerDistribution("Server", string(m[0]), len(m[0]))}) // Apache's address line is its Server header
			}
		}
	}
	return out
}

// analyzePage reads an HTML page: generator meta tags and the fingerprint
// rules.
func (c *crawl) analyzePage(r *response, p *page) {
	u := r.url.String()
	out := serverPageObservations(r)
	for _, g := range p.generators {
		out = append(out, generatorObservations(u, g, `<meta name="generator">`)...)
	}
	head := r.body[:min(len(r.body), htmlRuleBytes)]
	// Angular stamps its version on the root element of a page it
	// rendered on the server or prerendered.
	if m := ngVersion.FindSubmatch(head); m != nil {
		if v := normVersion(string(m[1])); v != "" {
			out = append(out, observation{key: "npm:@angular/core", version: v, kind: sentinel.EvidenceFingerprint, url: u,
				detail: `ng-version="` + string(m[1]) + `"`, confidence: sentinel.ConfidenceGenerator})
		}
	}
	out = append(out, stampObservations(u, head)...)
	for _, mk := range pageMarkers {
		if bytes.Contains(head, []byte(mk.code)) {
			out = append(out, observation{key: mk.key, kind: sentinel.EvidenceFingerprint, url: u, detail: "page: " + mk.code, confidence: sentinel.ConfidenceProduct, aux: true})
			break // the markers name one product
		}
	}
	// Next.js pages carry their data and load their code from /_next/.
	if data := bytes.Contains(head, []byte(`id="__NEXT_DATA__"`)); data || bytes.Contains(head, []byte(`src="/_next/static/`)) {
		detail := `<script src="/_next/static/...">`
		if data {
			detail = `<script id="__NEXT_DATA__">`
		}
		out = append(out, observation{key: "npm:next", kind: sentinel.EvidenceFingerprint, url: u, detail: detail, confidence: sentinel.ConfidenceProduct, aux: true})
	}
	c.mu.Lock()
	c.htmlRuled++
	withHTML := c.htmlRuled <= htmlRulePages
	c.mu.Unlock()
	out = append(out, c.s.rules.match(r, p, withHTML)...)
	// A library pasted into the page keeps its banner.
	for _, js := range p.inline {
		for _, m := range banner.Find("", []byte(js)) {
			if v := normVersion(m.Version); v != "" {
				out = append(out, observation{key: productKey("npm:" + m.Library), version: v, kind: sentinel.EvidenceFingerprint, url: u,
					detail: "inline script banner: " + m.Text, confidence: sentinel.ConfidenceBanner})
			}
		}
	}
	c.observe(out...)
}

// codeMarkers are code only one library's build has, where the build
// names no version: the library is there, at a version nothing says.
var codeMarkers = []struct {
	code string
	key  productKey
}{
	{`(window.__svelte={v:new Set})`, "npm:svelte"}, // Svelte 4 and 5 register their major version
	{`.__H={__:[],__h:[]})`, "npm:preact"},          // Preact's hooks state, its mangled names
}

// pageMarkers are the same in a page: SvelteKit's attributes and globals.
var pageMarkers = []struct {
	code string
	key  productKey
}{
	{`data-sveltekit-preload-data`, "npm:@sveltejs/kit"},
	{`__sveltekit_`, "npm:@sveltejs/kit"},
}

// appStamps are the versions applications write into their own pages
// where no generator tag names them: in the settings a page hands its
// scripts, or in the application's own markup. Each is that application's
// alone, so it is strong evidence at a generator's confidence.
var appStamps = []struct {
	key productKey
	re  *regexp.Regexp
	// read returns the version a match names ("" for none) and whether it
	// is weak (see observation.weak).
	read func(head []byte, m [][]byte) (version string, weak bool)
}{
	// Roundcube hands its version to its scripts as one number,
	// rcmail.set_env({..."rcversion":10605,...}), major*10000+minor*100+patch.
	{"roundcube", regexp.MustCompile(`"rcversion":(\d{5,6})[,}]`), roundcubeVersion},
	// Adminer writes its version in its heading (<span class="version">4.8.1</span>,
	// a loose fingerprint rule's capture) and on the URLs of the files it
	// serves itself (?file=functions.js&version=4.8.1, which the rule
	// mistakes for another application's query); where the two agree, the
	// version is Adminer's.
	{"adminer", regexp.MustCompile(`[?&]file=functions\.js&(?:amp;)?version=(\d{1,2}\.\d{1,2}\.\d{1,3})\b`), adminerVersion},
}

// roundcubeVersion decodes Roundcube's rcversion. Roundcube drops a
// pre-release tag before it computes the number ("1.6-rc" is 10600), so a
// patch of 0 may be a release candidate and is weak.
func roundcubeVersion(_ []byte, m [][]byte) (string, bool) {
	n, err := strconv.Atoi(string(m[1]))
	if err != nil || n < 10000 {
		return "", false
	}
	return fmt.Sprintf("%d.%d.%d", n/10000, n/100%100, n%100), n%100 == 0
}

var adminerHeading = regexp.MustCompile(`<span class=["']version["']>(\d{1,2}\.\d{1,2}\.\d{1,3})</span>`)

func adminerVersion(head []byte, m [][]byte) (string, bool) {
	h := adminerHeading.FindSubmatch(head)
	if h == nil || !bytes.Equal(h[1], m[1]) {
		return "", false
	}
	return string(m[1]), false
}

// stampObservations reads appStamps from the head of a page.
func stampObservations(u string, head []byte) []observation {
	var out []observation
	for _, st := range appStamps {
		m := st.re.FindSubmatch(head)
		if m == nil {
			continue
		}
		raw, weak := st.read(head, m)
		if v := normVersion(raw); v != "" {
			out = append(out, observation{key: st.key, version: v, weak: weak, kind: sentinel.EvidenceFingerprint, url: u,
				detail: "page: " + string(m[0]), confidence: sentinel.ConfidenceGenerator})
		}
	}
	return out
}

// ngVersion is Angular's stamp on an element it rendered.
var ngVersion = regexp.MustCompile(`<[a-zA-Z][\w-]{0,64}\s[^<>]{0,512}?\bng-version="(\d{1,3}\.\d{1,3}\.\d{1,4}(?:-[\w.]{1,24})?)"`)

// --- paths ---

// versioned file names: "jquery-3.6.1.min.js", "knockout-3.5.1.debug.js",
// "bootstrap.bundle-5.3.0.js" is not a convention anyone uses, so the
// version must follow the name.
var fileVersion = regexp.MustCompile(`(?i)^(jquery-ui|jquery-migrate|jquery|bootstrap|angular|vue|react-dom|react|lodash|underscore|backbone|moment|handlebars|mustache|knockout|d3|select2|purify|dompurify|chart|axios|swiper|popper|datatables|marked|highlight|three|leaflet|highcharts|sweetalert2|tinymce|plyr|hammer|markdown-it|prism)[.-]v?(\d{1,3}\.\d{1,3}(?:\.\d{1,4})?)(?:[.-](?:min|slim|bundle|full|esm|umd|prod|production|development|debug|runtime|global|all))*\.(?:js|css)$`)

// fileNames maps the names in file names and CDN paths to npm packages.
var fileNames = map[string]string{
	"jquery": "jquery", "jquery-ui": "jquery-ui", "jqueryui": "jquery-ui", "jquery-migrate": "jquery-migrate",
	"bootstrap": "bootstrap", "twitter-bootstrap": "bootstrap", "angular": "angular", "angular.js": "angular",
	"angularjs": "angular", "vue": "vue", "react": "react", "react-dom": "react-dom", "lodash": "lodash",
	"lodash.js": "lodash", "underscore": "underscore", "underscore.js": "underscore", "backbone": "backbone",
	"backbone.js": "backbone", "moment": "moment", "moment.js": "moment", "handlebars": "handlebars",
	"handlebars.js": "handlebars", "mustache": "mustache", "mustache.js": "mustache", "knockout": "knockout",
	"d3": "d3", "select2": "select2", "purify": "dompurify", "dompurify": "dompurify", "chart": "chart.js",
	"chart.js": "chart.js", "axios": "axios", "swiper": "swiper", "popper": "@popperjs/core",
	"popper.js": "popper.js", "datatables": "datatables.net", "marked": "marked", "highlight": "highlight.js",
	"highlight.js": "highlight.js", "jquery-validate": "jquery-validation", "jquery-validation": "jquery-validation",
	"font-awesome": "font-awesome", "tinymce": "tinymce", "dojo": "dojo", "ember.js": "ember-source",
	"modernizr": "modernizr", "prototype": "prototype", "jquery-mobile": "jquery-mobile",
	"jquery.mobile": "jquery-mobile", "three.js": "three", "socket.io": "socket.io-client",
	"ckeditor4": "ckeditor4", "ckeditor5": "ckeditor5", "mootools": "mootools", "mootools-core": "mootools",
	"three": "three", "leaflet": "leaflet", "highcharts": "highcharts", "sweetalert2": "sweetalert2",
	"plyr": "plyr", "hammer": "hammerjs", "hammer.js": "hammerjs", "hammerjs": "hammerjs", "slick": "slick-carousel",
	"slick-carousel": "slick-carousel", "owl.carousel": "owl.carousel", "owlcarousel": "owl.carousel",
	"markdown-it": "markdown-it", "prism": "prismjs", "prismjs": "prismjs", "video.js": "video.js",
	"js-cookie": "js-cookie", "js.cookie": "js-cookie", "magnific-popup": "magnific-popup",
	"jquery.magnific-popup": "magnific-popup", "fancybox": "@fancyapps/fancybox", "jquery.fancybox": "@fancyapps/fancybox",
	"moment-timezone": "moment-timezone",
}

// CDN layouts that name a library and version in the path.
var (
	// cdnjs.cloudflare.com and ajax.googleapis.com: /ajax/libs/<name>/<version>/...
	cdnLibs = regexp.MustCompile(`^/ajax/libs/([A-Za-z0-9._-]{1,64})/v?(\d[\w.-]{0,30})/`)
	// cdn.jsdelivr.net/npm/<name>@<version>/ and unpkg.com/<name>@<version>/, scoped too.
	cdnNPM = regexp.MustCompile(`^/(?:npm/)?((?:@[a-z0-9][\w.-]{0,63}/)?[a-z0-9][\w.-]{0,213})@v?(\d[\w.-]{0,30})(?:/|$)`)
	// cdn.jsdelivr.net/gh/<owner>/<repo>@<version>/
	cdnGH = regexp.MustCompile(`^/gh/([\w.-]{1,64})/([\w.-]{1,100})@v?(\d[\w.-]{0,30})/`)
	// code.jquery.com: /jquery-3.6.1.min.js, /ui/1.13.2/jquery-ui.min.js,
	// /mobile/1.4.5/..., /jquery-migrate-3.4.0.min.js
	codeJQuery = regexp.MustCompile(`^/(ui|mobile)/(\d[\d.]{0,20})/`)
	// maxcdn/stackpath/netdna bootstrapcdn: /bootstrap/<v>/..., /twitter-bootstrap/<v>/...,
	// /font-awesome/<v>/...; cdn.jsdelivr for bootstrap 5 uses /npm/.
	bootstrapCDN = regexp.MustCompile(`^/(bootstrap|twitter-bootstrap|font-awesome|bootswatch)/(\d[\d.]{0,20})/`)
	// ajax.aspnetcdn.com: /ajax/jQuery/jquery-3.4.1.min.js, /ajax/bootstrap/4.5.2/...
	aspnetCDN = regexp.MustCompile(`^/ajax/([A-Za-z.-]{1,40})/(\d[\d.]{0,20})/`)
	// cdn.ckeditor.com: CKEditor 4 at /4.16.0/standard/ckeditor.js, 5 at
	// /ckeditor5/41.0.0/classic/ckeditor.js.
	ckeditorCDN = regexp.MustCompile(`^/(?:(ckeditor5)/)?(\d{1,3}\.\d{1,3}\.\d{1,3})/`)
	// use.fontawesome.com and Font Awesome's kits: /releases/v5.15.4/css/all.css
	fontAwesomeCDN = regexp.MustCompile(`^/releases/v(\d{1,2}\.\d{1,3}\.\d{1,3})/`)

	wpPlugin       = regexp.MustCompile(`/wp-content/plugins/([a-z0-9][a-z0-9_.-]{0,100})/`)
	wpTheme        = regexp.MustCompile(`/wp-content/themes/([a-z0-9][a-z0-9_.-]{0,100})/`)
	wpCore         = regexp.MustCompile(`/wp-(?:includes|admin)/`)
	drupalModule   = regexp.MustCompile(`/(?:sites/[\w.-]+/)?modules/(?:contrib/|custom/)?([a-z][a-z0-9_]{1,64})/`)
	drupalTheme    = regexp.MustCompile(`/(?:sites/[\w.-]+/)?themes/(?:contrib/|custom/)?([a-z][a-z0-9_]{1,64})/`)
	coreAsset      = regexp.MustCompile(`^/core/(?:misc|modules/[a-z_]+/js|themes/[a-z_]+/js)/[^/]+\.js$`)
	drupalCore     = regexp.MustCompile(`^/core/(?:misc|modules|themes|assets)/|^/misc/drupal\.js$`)
	joomlaComp     = regexp.MustCompile(`/(?:administrator/)?components/(com_[a-z0-9_]{1,64})/`)
	joomlaCore     = regexp.MustCompile(`^/media/(?:jui|system)/(?:js|css)/`)
	queryVersion   = regexp.MustCompile(`^\d{1,4}(?:\.\d{1,6}){1,3}$`)
	drupalCoreMods = map[string]bool{"system": true, "node": true, "user": true, "block": true, "field": true, "filter": true, "contextual": true, "toolbar": true, "views": false}
)

// pathObservations reads what an asset's URL claims: a versioned file
// name, a CDN's library path, a CMS plugin, theme or module directory. A
// ?ver= or ?v= query is recorded as a weak version (see observation.weak).
func pathObservations(u *url.URL) []observation {
	var out []observation
	p := u.EscapedPath()
	if len(p) > 2048 {
		return nil
	}
	if dp, err := url.PathUnescape(p); err == nil {
		p = dp
	}
	us := u.String()
	base := path.Base(p)
	lib := func(name, version, what string) {
		npm := fileNames[strings.ToLower(name)]
		if npm == "" {
			return
		}
		v := normVersion(version)
		if npm == "font-awesome" && v != "" && v[0] >= '5' && v[0] <= '9' && (len(v) == 1 || v[1] == '.') {
			npm = "@fortawesome/fontawesome-free" // npm's font-awesome ends at 4.7.0
		}
		o := observation{key: productKey("npm:" + npm), kind: sentinel.EvidencePath, url: us, detail: what, confidence: sentinel.ConfidenceProduct}
		if v != "" {
			o.version, o.confidence = v, sentinel.ConfidenceBanner
		}
		out = append(out, o)
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case cdnLibs.MatchString(p):
		m := cdnLibs.FindStringSubmatch(p)
		lib(m[1], m[2], "CDN path "+p)
	case cdnGH.MatchString(p):
		m := cdnGH.FindStringSubmatch(p)
		lib(m[2], m[3], "CDN path "+p)
	case (host == "unpkg.com" || strings.HasSuffix(host, "jsdelivr.net") || host == "esm.sh" || host == "cdn.skypack.dev") && cdnNPM.MatchString(p):
		m := cdnNPM.FindStringSubmatch(p)
		// Any npm package: the path names the package and version exactly.
		if v := normVersion(m[2]); v != "" {
			out = append(out, observation{key: productKey("npm:" + strings.ToLower(m[1])), version: v, kind: sentinel.EvidencePath, url: us, detail: "CDN path " + p, confidence: sentinel.ConfidenceBanner})
		}
	case host == "code.jquery.com" && codeJQuery.MatchString(p):
		m := codeJQuery.FindStringSubmatch(p)
		name := map[string]string{"ui": "jquery-ui", "mobile": "jquery-mobile"}[m[1]]
		lib(name, m[2], "CDN path "+p)
	case strings.Contains(host, "bootstrapcdn.com") && bootstrapCDN.MatchString(p):
		m := bootstrapCDN.FindStringSubmatch(p)
		lib(m[1], m[2], "CDN path "+p)
	case strings.Contains(host, "aspnetcdn.com") && aspnetCDN.MatchString(p):
		m := aspnetCDN.FindStringSubmatch(p)
		lib(m[1], m[2], "CDN path "+p)
	case host == "cdn.ckeditor.com" && ckeditorCDN.MatchString(p):
		m := ckeditorCDN.FindStringSubmatch(p)
		name := "ckeditor4"
		if m[1] != "" {
			name = "ckeditor5"
		}
		lib(name, m[2], "CDN path "+p)
	case host == "use.fontawesome.com" && fontAwesomeCDN.MatchString(p):
		lib("font-awesome", fontAwesomeCDN.FindStringSubmatch(p)[1], "CDN path "+p)
	}
	if len(out) == 0 {
		if m := fileVersion.FindStringSubmatch(base); m != nil {
			lib(m[1], m[2], "versioned file name "+base)
		} else if name, v, dir := versionedDir(p, base); v != "" {
			lib(name, v, "versioned directory "+dir)
		}
	}
	// CMS layout. These name the product (and for plugins the slug); a
	// version can only come from a ?ver= query, which is weak.
	qv := ""
	q := u.Query()
	for _, k := range []string{"ver", "v", "version"} {
		if v := q.Get(k); queryVersion.MatchString(v) {
			qv = v
			break
		}
	}
	cms := func(key productKey, what string, versionFromQuery bool) {
		o := observation{key: key, kind: sentinel.EvidencePath, url: us, detail: what, confidence: sentinel.ConfidenceProduct}
		if versionFromQuery && qv != "" {
			o.version, o.weak = qv, true
			o.detail += " (query " + u.RawQuery + ")"
		}
		out = append(out, o)
	}
	switch {
	case wpPlugin.MatchString(p):
		cms("wordpress", "WordPress content path", false)
		cms(productKey("wp-plugin:"+wpPlugin.FindStringSubmatch(p)[1]), "WordPress plugin path "+p, true)
	case wpTheme.MatchString(p):
		cms("wordpress", "WordPress content path", false)
		cms(productKey("wp-theme:"+wpTheme.FindStringSubmatch(p)[1]), "WordPress theme path "+p, true)
	case wpCore.MatchString(p):
		cms("wordpress", "WordPress core path "+p, true)
	case drupalCore.MatchString(p):
		cms("drupal", "Drupal core path "+p, false)
		// Drupal 8+ versions its own libraries with the core version
		// (core.libraries.yml: "version: VERSION") and writes it as ?v=
		// on their files; vendor libraries under /core/assets/ carry
		// their own.
		if v := normVersion(q.Get("v")); v != "" && precise(v) && coreAsset.MatchString(p) {
			out = append(out, observation{key: "drupal", version: v, kind: sentinel.EvidencePath, url: us,
				detail: "Drupal core library " + p + "?v=" + q.Get("v"), confidence: sentinel.ConfidenceGenerator})
		}
	case joomlaComp.MatchString(p):
		cms("joomla", "Joomla component path", false)
		cms(productKey("joomla-component:"+joomlaComp.FindStringSubmatch(p)[1]), "Joomla component path "+p, true)
	case joomlaCore.MatchString(p):
		cms("joomla", "Joomla media path "+p, false)
	case strings.Contains(p, "/sites/") && drupalModule.MatchString(p):
		m := drupalModule.FindStringSubmatch(p)
		cms("drupal", "Drupal sites path", false)
		if !drupalCoreMods[m[1]] {
			cms(productKey("drupal-module:"+m[1]), "Drupal module path "+p, true)
		}
	case strings.Contains(p, "/sites/") && drupalTheme.MatchString(p):
		cms("drupal", "Drupal sites path", false)
		cms(productKey("drupal-theme:"+drupalTheme.FindStringSubmatch(p)[1]), "Drupal theme path "+p, true)
	case strings.Contains(p, "/themes/contrib/") && drupalTheme.MatchString(p):
		cms(productKey("drupal-theme:"+drupalTheme.FindStringSubmatch(p)[1]), "Drupal theme path "+p, true)
	case strings.Contains(p, "/modules/contrib/") && drupalModule.MatchString(p):
		cms(productKey("drupal-module:"+drupalModule.FindStringSubmatch(p)[1]), "Drupal module path "+p, true)
	}
	// A versioned library file under a CMS directory: the ?ver= the CMS
	// appended is weak evidence for the library too.
	if len(out) > 0 && qv != "" {
		for _, o := range out {
			if strings.HasPrefix(string(o.key), "npm:") && o.version == "" {
				out = append(out, observation{key: o.key, version: qv, weak: true, kind: sentinel.EvidencePath, url: us, detail: "query " + u.RawQuery, confidence: sentinel.ConfidenceProduct})
				break
			}
		}
	}
	// A library's usual file name without a version still names it.
	if !hasNPM(out) {
		if name := libraryFromFileName(base); name != "" {
			o := observation{key: productKey("npm:" + name), kind: sentinel.EvidencePath, url: us, detail: "file name " + base, confidence: sentinel.ConfidenceProduct, fromURL: true, ownFile: true}
			out = append(out, o)
			if qv != "" {
				out = append(out, observation{key: o.key, version: qv, weak: true, kind: sentinel.EvidencePath, url: us, detail: "query " + u.RawQuery, confidence: sentinel.ConfidenceProduct})
			}
		}
	}
	return out
}

func hasNPM(os []observation) bool {
	for _, o := range os {
		if strings.HasPrefix(string(o.key), "npm:") {
			return true
		}
	}
	return false
}

// plainFile matches the distributable names of the libraries without a
// version: jquery.min.js, jquery-ui.css, bootstrap.bundle.min.js.
var plainFile = regexp.MustCompile(`(?i)^(jquery-ui|jquery-migrate|jquery|bootstrap|angular|vue|react-dom|react|lodash|underscore|backbone|moment|handlebars|mustache|knockout|d3|select2|purify|chart|axios|swiper|popper|marked|highlight|three|leaflet|highcharts|sweetalert2|tinymce|plyr|hammer|slick|owl\.carousel|markdown-it|prism|js\.cookie|jquery\.magnific-popup|jquery\.fancybox)(?:\.(?:min|slim|bundle|full|esm|umd|prod|production|development|debug|runtime|global|core|all|pack))*\.(?:js|css)$`)

// versionedDir finds the version of a library's own file (plainFile) in
// the directories above it, where a site keeps its copy as a CDN or the
// library's release lays it out: /vendor/lodash/4.17.15/lodash.min.js,
// /lib/angular.js/1.7.9/angular.min.js, /moment/2.29.1/min/moment.min.js,
// /static/bootstrap-3.3.7-dist/js/bootstrap.min.js,
// /js/jquery-ui-1.12.1.custom/jquery-ui.min.css. The directory must name
// the file's own library: jquery.js inside jquery-ui-1.12.1/external/ is
// not jQuery UI's version. It looks at most four directories up.
func versionedDir(p, base string) (name, version, dir string) {
	m := plainFile.FindStringSubmatch(base)
	if m == nil {
		return "", "", ""
	}
	npm := fileNames[strings.ToLower(m[1])]
	segs := strings.Split(strings.Trim(path.Dir(p), "/"), "/")
	for i := len(segs) - 1; i >= max(0, len(segs)-4); i-- {
		s := segs[i]
		if dv := dirVersion.FindStringSubmatch(s); dv != nil && i > 0 && fileNames[strings.ToLower(segs[i-1])] == npm {
			return m[1], dv[1], segs[i-1] + "/" + s
		}
		if nv := nameVersionDir.FindStringSubmatch(s); nv != nil && fileNames[strings.ToLower(nv[1])] == npm {
			return m[1], nv[2], s
		}
	}
	return "", "", ""
}

var (
	dirVersion     = regexp.MustCompile(`^v?(\d{1,3}\.\d{1,3}(?:\.\d{1,4})?)$`)
	nameVersionDir = regexp.MustCompile(`(?i)^([a-z][a-z0-9.]{0,40}(?:-[a-z][a-z0-9.]{0,40}){0,3})-v?(\d{1,3}\.\d{1,3}(?:\.\d{1,4})?)(?:[.-](?:dist|custom))?$`)
)

func libraryFromFileName(base string) string {
	m := plainFile.FindStringSubmatch(base)
	if m == nil {
		return ""
	}
	return fileNames[strings.ToLower(m[1])]
}

// --- content: catalog hash and banners ---

// contentObservations hashes a fetched script or style sheet against the
// catalog and reads its banners.
func (c *crawl) contentObservations(r *response, kind string) []observation {
	u := r.url.String()
	var out []observation
	banners := banner.Find(r.url.Path, r.body)
	for _, m := range banners {
		detail := "banner: " + m.Text
		if m.Code {
			detail = "version constant: " + m.Text
		}
		if v := normVersion(m.Version); v != "" {
			out = append(out, observation{key: productKey("npm:" + m.Library), version: v, kind: sentinel.EvidenceFingerprint, url: u, detail: detail, confidence: sentinel.ConfidenceBanner, inFile: true})
		}
	}
	if kind == "style" {
		out = append(out, themeHeaderObservations(r)...)
	}
	if kind == "script" {
		for _, mk := range codeMarkers {
			if bytes.Contains(r.body, []byte(mk.code)) {
				out = append(out, observation{key: mk.key, kind: sentinel.EvidenceFingerprint, url: u, detail: "code: " + mk.code, confidence: sentinel.ConfidenceProduct, aux: true, inFile: true})
			}
		}
	}
	if r.cut {
		return out // a partial file's hash names nothing
	}
	sum := sha1.Sum(r.body)
	entries := c.s.cat.Lookup(sum)
	if len(entries) == 0 {
		return out
	}
	hexSum := "sha1:" + hex.EncodeToString(sum[:])
	// One hash can name several versions of one library (a file that did
	// not change between releases): the version is the banner's when it is
	// one of them, and none otherwise.
	byLib := map[string][]string{}
	files := map[string]string{}
	upstream := map[string]bool{} // a library some entry has from npm
	for _, e := range entries {
		byLib[e.Library] = append(byLib[e.Library], e.Version)
		if files[e.Library] == "" {
			files[e.Library] = e.Source + " " + e.File
		}
		if !strings.HasPrefix(e.Source, "deb:") {
			upstream[e.Library] = true
		}
	}
	exact := map[productKey]string{} // the library's version when the hash names one
	libs := make([]string, 0, len(byLib))
	for l := range byLib {
		libs = append(libs, l)
	}
	sort.Strings(libs)
	for _, l := range libs {
		vs := dedupe(byLib[l])
		o := observation{key: productKey("npm:" + l), kind: sentinel.EvidenceHash, url: u, confidence: sentinel.ConfidenceHash, inFile: true}
		if !upstream[l] {
			// The file is Debian's build and no one else's (a libjs-*
			// package, a CMS Debian packages): Debian may have patched it
			// (libjs-bootstrap 3.4.1+dfsg-3+deb12u2 carries fixes 3.4.1
			// has not), as a server's distribution build may have.
			o.distro = "Debian"
		}
		switch {
		case len(vs) == 1:
			o.version = vs[0]
			o.detail = hexSum + " = " + files[l]
		default:
			o.detail = hexSum + " = " + l + " " + strings.Join(vs, " or ")
			for _, m := range banners {
				if m.Library == l && contains(vs, m.Version) {
					o.version = m.Version
				}
			}
			if o.version == "" {
				o.confidence = sentinel.ConfidenceProduct
				o.candidates = vs
			}
		}
		out = append(out, o)
		if o.version != "" && len(vs) == 1 {
			exact[o.key] = o.version
		}
	}
	// An exact hash outranks what the file's text claims: npm's
	// datatables.net 1.13.8 ships files still stamped 1.13.7. One file is
	// one copy, so one version, and the banner stays as evidence.
	for i := range out {
		o := &out[i]
		if hv := exact[o.key]; hv != "" && o.kind == sentinel.EvidenceFingerprint && o.version != "" && o.version != hv {
			o.detail += " (the file is " + hv + "'s, by its hash)"
			o.version = hv
		}
	}
	_ = kind
	return out
}

// WordPress reads a theme's name and version from the comment at the top
// of its style.css ("Theme Name: Twenty Twenty-One ... Version: 1.7"), so
// every theme has one, and the file a page links is the theme's own.
var (
	themeStyle   = regexp.MustCompile(`/wp-content/themes/([a-z0-9][a-z0-9_.-]{0,100})/style\.css$`)
	themeName    = regexp.MustCompile(`(?m)^[ \t*]*Theme Name:[ \t]*\S`)
	themeVersion = regexp.MustCompile(`(?m)^[ \t*]*Version:[ \t]*(\d{1,4}(?:\.\d{1,6}){0,3})[ \t]*\r?$`)
)

// themeHeaderObservations reads a WordPress theme's version from its
// style.css header: the first comment, within the file's first 8 KiB.
func themeHeaderObservations(r *response) []observation {
	m := themeStyle.FindStringSubmatch(r.url.Path)
	if m == nil {
		return nil
	}
	head := r.body[:min(len(r.body), 8<<10)]
	open := bytes.Index(head, []byte("/*"))
	if open < 0 {
		return nil
	}
	end := bytes.Index(head[open:], []byte("*/"))
	if end < 0 {
		return nil
	}
	comment := head[open : open+end]
	if !themeName.Match(comment) {
		return nil
	}
	vm := themeVersion.FindSubmatch(comment)
	if vm == nil {
		return nil
	}
	v := normVersion(string(vm[1]))
	if v == "" {
		return nil
	}
	return []observation{{key: productKey("wp-theme:" + m[1]), version: v, kind: sentinel.EvidenceFingerprint, url: r.url.String(),
		detail: "theme header: Version: " + string(vm[1]), confidence: sentinel.ConfidenceBanner, inFile: true}}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
