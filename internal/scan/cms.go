package scan

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode"

	sentinel "github.com/sentinel-sca/sentinel"
)

// probe is one well-known path of a CMS: the product it belongs to, a
// marker its answer must contain (so a site's generic page is never taken
// for it), and where the answer names a version, how to read it.
type probe struct {
	path    string
	key     productKey
	marker  *regexp.Regexp
	version *regexp.Regexp // group 1; nil when the file names no version
	// weak marks a version read from an asset query in the answer (the
	// login page's ?ver=), which counts only when other evidence agrees.
	weak bool
	// html: the answer is an HTML page; generator tags in it are read too.
	html bool
	// generator: the version comes from a generator string (a feed's), so
	// it has a generator's confidence, not a file's.
	generator bool
	// norm checks the version read; normVersion when nil. DokuWiki names
	// its releases by date, which normVersion refuses.
	norm func(string) string
}

// probes is the fixed list; a scan sends each at most once, plus one
// request for a random path to learn what the site answers for a page that
// does not exist (its soft 404).
var probes = []probe{
	{path: "/wp-login.php", key: "wordpress", marker: regexp.MustCompile(`(?i)<form[^>]+id="loginform"|wp-submit|/wp-admin/`), version: regexp.MustCompile(`(?i)/wp-(?:admin|includes)/[\w/.-]+\.css\?ver=(\d+\.\d+(?:\.\d+)?)`), weak: true, html: true},
	{path: "/readme.html", key: "wordpress", marker: regexp.MustCompile(`(?i)<title>WordPress[^<]*ReadMe</title>|wordpress\.org`), version: regexp.MustCompile(`(?i)<br />\s*Version (\d+\.\d+(?:\.\d+)?)`)},
	{path: "/wp-json/", key: "wordpress", marker: regexp.MustCompile(`"namespaces"\s*:\s*\[[^\]]*"wp/v2"`)},
	{path: "/feed/", key: "wordpress", marker: regexp.MustCompile(`<generator>https?://wordpress\.org/\?v=`), version: regexp.MustCompile(`<generator>https?://wordpress\.org/\?v=(\d+\.\d+(?:\.\d+)?)</generator>`), generator: true},
	{path: "/CHANGELOG.txt", key: "drupal", marker: regexp.MustCompile(`(?m)^Drupal \d+\.\d+`), version: regexp.MustCompile(`(?m)\A\s*Drupal (\d+\.\d+(?:\.\d+)?)`)},
	{path: "/core/CHANGELOG.txt", key: "drupal", marker: regexp.MustCompile(`(?m)^Drupal \d+\.\d+`), version: regexp.MustCompile(`(?m)\A\s*Drupal (\d+\.\d+(?:\.\d+)?)`)},
	{path: "/core/install.php", key: "drupal", marker: regexp.MustCompile(`(?i)drupal`), version: regexp.MustCompile(`[?&]v=(\d+\.\d+\.\d+)`), weak: true, html: true},
	{path: "/misc/drupal.js", key: "drupal", marker: regexp.MustCompile(`(?i)var Drupal\s*=|Drupal\.behaviors`)},
	{path: "/administrator/manifests/files/joomla.xml", key: "joomla", marker: regexp.MustCompile(`(?i)<extension[^>]+type="file"|<name>files_joomla</name>`), version: regexp.MustCompile(`<version>(\d+\.\d+(?:\.\d+)?)</version>`)},
	{path: "/language/en-GB/en-GB.xml", key: "joomla", marker: regexp.MustCompile(`(?i)<metafile|<install[^>]+type="language"`), version: regexp.MustCompile(`<version>(\d+\.\d+(?:\.\d+)?)</version>`)},
	{path: "/language/en-GB/langmetadata.xml", key: "joomla", marker: regexp.MustCompile(`(?i)<metafile`), version: regexp.MustCompile(`<version>(\d+\.\d+(?:\.\d+)?)</version>`)},
	{path: "/administrator/", key: "joomla", marker: regexp.MustCompile(`(?i)joomla`), html: true},
	{path: "/api.php?action=query&meta=siteinfo&format=json", key: "mediawiki", marker: regexp.MustCompile(`"generator"\s*:\s*"MediaWiki`), version: regexp.MustCompile(`"generator"\s*:\s*"MediaWiki (\d+\.\d+(?:\.\d+)?)`)},
	// phpMyAdmin writes its own version as ?v= on every file its login
	// page loads, its vendored jQuery's included.
	{path: "/phpmyadmin/", key: "phpmyadmin", marker: regexp.MustCompile(`<title>phpMyAdmin</title>|name="pma_username"|phpmyadmin\.css\.php`), version: regexp.MustCompile(`[?&]v=(\d+\.\d+\.\d+)`), generator: true, html: true},
	{path: "/phpmyadmin/ChangeLog", key: "phpmyadmin", marker: regexp.MustCompile(`(?i)phpMyAdmin - ChangeLog`), version: regexp.MustCompile(`(?m)^(\d+\.\d+\.\d+) \(\d{4}-\d\d-\d\d\)`)},
	{path: "/phpmyadmin/README", key: "phpmyadmin", marker: regexp.MustCompile(`(?i)phpMyAdmin - Readme`), version: regexp.MustCompile(`(?m)^Version (\d+\.\d+\.\d+)`)},
	// phpMyAdmin installed at the site's root.
	{path: "/ChangeLog", key: "phpmyadmin", marker: regexp.MustCompile(`(?i)phpMyAdmin - ChangeLog`), version: regexp.MustCompile(`(?m)^(\d+\.\d+\.\d+) \(\d{4}-\d\d-\d\d\)`)},
	{path: "/README", key: "phpmyadmin", marker: regexp.MustCompile(`(?i)phpMyAdmin - Readme`), version: regexp.MustCompile(`(?m)^Version (\d+\.\d+\.\d+)`)},
	// DokuWiki's release file: `2022-07-31b "Igor"`, its release date,
	// the hotfix letter and the release's name.
	{path: "/VERSION", key: "dokuwiki", marker: dokuwikiRelease, version: dokuwikiRelease, norm: dokuwikiVersion},
	{path: "/phpmyadmin/doc/html/", key: "phpmyadmin", marker: regexp.MustCompile(`(?i)phpMyAdmin [\d.]+ documentation`), version: regexp.MustCompile(`phpMyAdmin (\d+\.\d+\.\d+) documentation`)},
}

// probe sends the well-known CMS requests. Each answer counts only when it
// is a 200, carries its probe's marker, and does not look like the site's
// answer for a random path (a soft 404 can echo the path, so the marker
// alone could be fooled by a page that prints the URL it was asked for).
func (c *crawl) probe(ctx context.Context) {
	soft := c.softNotFound(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { c.probeExposed(ctx, soft) })
	for _, pr := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ref, _ := url.Parse(pr.path)
			u := c.home.ResolveReference(ref).String()
			r, err := c.fetchFollow(ctx, u, func(_, to *url.URL) bool { return c.sameOrigin(to) }, c.analyzeHTTP)
			if err != nil || r.status != http.StatusOK || !c.sameOrigin(r.url) {
				return
			}
			if soft != nil && soft.like(r.body, pr.path) {
				return
			}
			c.observe(probeObservations(pr, r)...)
		}()
	}
	wg.Wait()
}

func probeObservations(pr probe, r *response) []observation {
	if !pr.marker.Match(r.body) {
		return nil
	}
	u := r.url.String()
	o := observation{key: pr.key, kind: sentinel.EvidenceCMSPath, url: u, detail: pr.path + " answered", confidence: sentinel.ConfidenceProduct}
	if pr.version != nil {
		norm := normVersion
		if pr.norm != nil {
			norm = pr.norm
		}
		if m := pr.version.FindSubmatch(r.body); m != nil {
			if v := norm(string(m[1])); v != "" {
				o.version = v
				o.detail = pr.path + ": " + oneLine(m[0])
				switch {
				case pr.weak:
					o.weak = true
				case pr.generator:
					o.confidence = sentinel.ConfidenceGenerator
				default:
					// A file that states the version (a changelog, a
					// manifest) is as good as a banner.
					o.confidence = sentinel.ConfidenceBanner
				}
			}
		}
	}
	out := []observation{o}
	if pr.html && isHTML(r) {
		p := parseHTML(r.url, r.body)
		for _, g := range p.generators {
			out = append(out, generatorObservations(u, g, `<meta name="generator">`)...)
		}
	}
	return out
}

var (
	dokuwikiRelease = regexp.MustCompile(`\A\s*(\d{4}-\d\d-\d\d[a-z]?) "[\w .'-]{1,40}"\s*\z`)
	dokuwikiDate    = regexp.MustCompile(`^\d{4}-\d\d-\d\d[a-z]?$`)
)

// dokuwikiVersion accepts a DokuWiki release ("2022-07-31b"), as DokuWiki
// writes it and as the advisories that name one do.
func dokuwikiVersion(v string) string {
	if dokuwikiDate.MatchString(v) {
		return v
	}
	return ""
}

func oneLine(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// notFound is what the site answers for a path that does not exist.
type notFound struct {
	status int
	body   []byte
	token  string
}

// softNotFound asks for a random path. It returns nil when the site
// answers it with an error status, as it should; otherwise the answer, to
// compare probe answers with.
func (c *crawl) softNotFound(ctx context.Context) *notFound {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	ref, _ := url.Parse("/" + token + "/index.php")
	r, err := c.fetchFollow(ctx, c.home.ResolveReference(ref).String(), func(_, to *url.URL) bool { return c.sameOrigin(to) }, nil)
	if err == nil && r.status >= 400 {
		// A server's own 404 page may name it and its version.
		c.observe(serverPageObservations(r)...)
	}
	if err != nil || r.status != http.StatusOK {
		return nil
	}
	return &notFound{status: r.status, body: r.body, token: token}
}

// like reports whether body looks like the soft-404 page. A soft 404
// often echoes the path it was asked for, so the words of each path are
// taken out of both bodies first; then the bodies must be equal, or nearly
// the same length (within 5%) with the same title letters.
func (n *notFound) like(body []byte, probePath string) bool {
	if bytes.Equal(n.body, body) {
		return true
	}
	a := stripWords(n.body, []string{n.token, "index.php", "index"})
	b := stripWords(body, pathWords(probePath))
	if bytes.Equal(a, b) {
		return true
	}
	la, lb := len(a), len(b)
	if la == 0 || lb == 0 {
		return false
	}
	diff := la - lb
	if diff < 0 {
		diff = -diff
	}
	return diff*20 < la && letters(title(a)) == letters(title(b))
}

// pathWords splits a probe path into its words of three letters or more.
func pathWords(p string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune("/.?&=-_", r) }) {
		if len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

// stripWords removes every case-insensitive occurrence of the words.
func stripWords(b []byte, words []string) []byte {
	for _, w := range words {
		if w == "" {
			continue
		}
		re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(w))
		b = re.ReplaceAll(b, nil)
	}
	return b
}

// letters keeps only the letters of s.
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return r
		}
		return -1
	}, s)
}

var titleRe = regexp.MustCompile(`(?is)<title[^>]*>(.{0,200}?)</title>`)

func title(b []byte) string {
	m := titleRe.FindSubmatch(b[:min(len(b), 64<<10)])
	if m == nil {
		return ""
	}
	return strings.TrimSpace(string(m[1]))
}
