package scan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/scan/banner"
	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
)

// Scanner runs scans with one configuration. Its rule set and catalog are
// built once by New; it is safe for concurrent use, and each Scan is
// independent.
type Scanner struct {
	cfg    Config
	client *http.Client
	rules  *ruleSet
	cat    *catalog.Catalog
	// cpu holds a slot per response being analysed (Config.Analysis).
	cpu chan struct{}
	// tap, for tests, sees every page and asset the scan analyses.
	tap func(kind, url string, header http.Header, body []byte)
}

// New returns a Scanner for cfg (zero fields take DefaultConfig's values).
// It compiles the fingerprint rules and loads the default catalog when
// cfg.Catalog is nil; it makes no request.
func New(cfg Config) (*Scanner, error) {
	cfg = cfg.withDefaults()
	cat := cfg.Catalog
	if cat == nil {
		var err error
		if cat, err = catalog.Default(); err != nil {
			return nil, fmt.Errorf("new scanner: %w", err)
		}
	}
	rules, err := loadRules()
	if err != nil {
		return nil, fmt.Errorf("new scanner: %w", err)
	}
	return &Scanner{
		cfg:    cfg,
		client: netguard.NewClient(cfg.Policy, cfg.RequestTimeout),
		rules:  rules,
		cat:    cat,
		cpu:    make(chan struct{}, cfg.Analysis),
	}, nil
}

// Run scans one target with cfg: New, then Scan. A service that scans
// often keeps one Scanner instead, which compiles its rules once.
func Run(ctx context.Context, target string, cfg Config) (*Result, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return s.Scan(ctx, target)
}

// ErrTarget is wrapped by the error Scan returns for a target that is not
// an absolute http or https URL.
var ErrTarget = errors.New("invalid scan target")

// Scan crawls target and returns what it detected. An unreachable site is
// not an error: the Result says Reachable=false and why. The error is
// non-nil for a malformed target (wrapping ErrTarget) and when ctx is
// canceled (wrapping ctx.Err(); the partial Result is returned with it).
// The scan's own time limit (Config.Timeout) is not an error: the Result
// holds what was found, with "time" in Stats.Truncated.
func (s *Scanner) Scan(ctx context.Context, target string) (*Result, error) {
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("scan %q: %w: want an absolute http or https URL", target, ErrTarget)
	}
	start := time.Now()
	runCtx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	c := &crawl{
		s:          s,
		cfg:        s.cfg,
		start:      start,
		sem:        make(chan struct{}, s.cfg.Concurrency),
		work:       make(chan struct{}, 2*s.cfg.Concurrency),
		truncated:  map[string]bool{},
		seenPages:  map[string]bool{},
		seenAssets: map[string]bool{},
		seenExtras: map[string]bool{},
	}
	res := &Result{Target: target}
	c.run(runCtx, resolve(u, u.String()), res)

	if ctx.Err() != nil {
		res.Detections = c.detections()
		res.Stats = c.snapshot()
		return res, fmt.Errorf("scan %q: %w", target, ctx.Err())
	}
	if runCtx.Err() != nil {
		c.truncate("time")
	}
	res.Detections = c.detections()
	res.Stats = c.snapshot()
	return res, nil
}

// crawl is the state of one scan.
type crawl struct {
	s     *Scanner
	cfg   Config
	start time.Time
	sem   chan struct{}
	// work bounds the pages and assets being fetched or waiting for
	// analysis: when analysis is the bottleneck, fetching waits for it
	// instead of piling bodies up in memory.
	work chan struct{}
	// origin is scheme://host[:port] of the homepage after redirects.
	origin string
	home   *url.URL

	mu         sync.Mutex
	stats      sentinel.ScanStats
	truncated  map[string]bool
	seenPages  map[string]bool
	seenAssets map[string]bool
	// seenExtras are the files fetched beside a bundle (its licence file,
	// its source map): counted apart from the assets, so that they never
	// take the place of a page's scripts, and bounded by MaxAssets too.
	seenExtras map[string]bool
	obs        []observation
	assetWG    sync.WaitGroup
	// reserved is the budget held by requests in flight.
	reserved int64
	// htmlRuled counts the pages the HTML fingerprint rules ran on.
	htmlRuled int
}

// analysing takes one of the Scanner's analysis slots, waiting for it; the
// caller calls the function returned when its CPU work is done. It never
// gives up: what was fetched is analysed, even after the time limit.
func (c *crawl) analysing() (done func()) {
	c.s.cpu <- struct{}{}
	return func() { <-c.s.cpu }
}

// working takes one of the scan's work slots (false when ctx ends first);
// the caller releases it with done once its response is analysed.
func (c *crawl) working(ctx context.Context) bool {
	select {
	case c.work <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (c *crawl) done() { <-c.work }

func (c *crawl) truncate(limit string) {
	c.mu.Lock()
	c.truncated[limit] = true
	c.mu.Unlock()
}

func (c *crawl) snapshot() sentinel.ScanStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.stats
	st.Truncated = []string{} // never null in JSON: no limit reached
	for k := range c.truncated {
		st.Truncated = append(st.Truncated, k)
	}
	sort.Strings(st.Truncated)
	st.Duration = time.Since(c.start).Seconds()
	return st
}

func (c *crawl) progress() {
	if c.cfg.Progress != nil {
		c.cfg.Progress(c.snapshot())
	}
}

func (c *crawl) observe(o ...observation) {
	c.mu.Lock()
	c.obs = append(c.obs, o...)
	c.mu.Unlock()
}

// response is one fetched URL.
type response struct {
	url    *url.URL // the URL that answered (after redirects followed)
	status int
	header http.Header
	body   []byte
	// cut is true when the body was longer than what was read.
	cut bool
}

var errBudget = errors.New("total byte budget spent")

// fetch makes one GET request through the guarded client and reads at
// most MaxResponseBytes of the body, and never more than the total budget
// left. It does not follow redirects.
func (c *crawl) fetch(ctx context.Context, u string) (*response, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()

	// Reserve this response's share of the total budget up front, so
	// that concurrent requests together never read past MaxTotalBytes;
	// what is not read is given back.
	c.mu.Lock()
	left := c.cfg.MaxTotalBytes - c.stats.Bytes - c.reserved
	if left <= 0 {
		c.truncated["bytes"] = true
		c.mu.Unlock()
		return nil, errBudget
	}
	limit := min(c.cfg.MaxResponseBytes, left)
	c.reserved += limit
	c.stats.Requests++
	c.mu.Unlock()
	released := false
	release := func(read int64) {
		if !released {
			released = true
			c.mu.Lock()
			c.reserved -= limit
			c.stats.Bytes += read
			c.mu.Unlock()
		}
	}
	defer release(0)

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	resp, err := c.s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := readBody(io.LimitReader(resp.Body, limit+1), resp.ContentLength, limit)
	cut := int64(len(body)) > limit
	if cut {
		body = body[:limit]
	}
	release(int64(len(body)))
	c.mu.Lock()
	if cut {
		if limit < c.cfg.MaxResponseBytes {
			c.truncated["bytes"] = true
		} else {
			c.truncated["response_bytes"] = true
		}
	}
	c.mu.Unlock()
	c.progress()
	if err != nil && len(body) == 0 {
		return nil, err
	}
	// A body cut short by a broken connection is still analysed.
	return &response{url: resp.Request.URL, status: resp.StatusCode, header: resp.Header, body: body, cut: cut || err != nil}, nil
}

// readBody is io.ReadAll into a buffer sized from the response's
// Content-Length when it announces one within limit: 12 scans read
// hundreds of megabytes, and growing each buffer from 512 bytes doubles
// the garbage and the copying.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	if size <= 0 || size > limit {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+1) // one more byte, to see EOF without growing
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // longer than announced: grow
		}
	}
}

// maxRedirects bounds the redirects followed for one URL.
const maxRedirects = 5

// fetchFollow fetches u and follows redirects that allow accepts; the
// first redirect it refuses is returned as the response. Every response on
// the way is passed to onResponse (for headers and cookies).
func (c *crawl) fetchFollow(ctx context.Context, u string, allow func(from, to *url.URL) bool, onResponse func(*response)) (*response, error) {
	for hop := 0; ; hop++ {
		r, err := c.fetch(ctx, u)
		if err != nil {
			return nil, err
		}
		if onResponse != nil {
			onResponse(r)
		}
		if r.status < 300 || r.status > 399 || hop == maxRedirects {
			return r, nil
		}
		loc := r.header.Get("Location")
		next := resolve(r.url, loc)
		if next == "" {
			return r, nil
		}
		nu, _ := url.Parse(next)
		if !allow(r.url, nu) {
			return r, nil
		}
		u = next
	}
}

// withinSite reports whether a redirect from the target stays on the
// site: the same host (the scheme may change from http to https, the port
// with it), or the host with or without a leading "www.".
func withinSite(from, to *url.URL) bool {
	if to.Scheme != "https" && !(to.Scheme == "http" && from.Scheme == "http") {
		return false
	}
	fh, th := from.Hostname(), to.Hostname()
	if fh == th {
		return from.Port() == to.Port() || from.Scheme != to.Scheme
	}
	return strings.TrimPrefix(fh, "www.") == strings.TrimPrefix(th, "www.")
}

func originOf(u *url.URL) string { return u.Scheme + "://" + u.Host }

// sameOrigin is the redirect and link rule once the crawl has its origin.
func (c *crawl) sameOrigin(u *url.URL) bool { return originOf(u) == c.origin }

func (c *crawl) run(ctx context.Context, target string, res *Result) {
	// The homepage, with redirects within the site.
	var homeResponses []*response
	r, err := c.fetchFollow(ctx, target, func(from, to *url.URL) bool { return withinSite(from, to) },
		func(r *response) { homeResponses = append(homeResponses, r) })
	if err != nil {
		res.Reachable = false
		res.Unreachable = unreachable(err)
		return
	}
	res.Reachable = true
	c.home = r.url
	c.origin = originOf(r.url)
	res.FinalURL = r.url.String()
	for _, hr := range homeResponses {
		if originOf(hr.url) == c.origin || withinSite(hr.url, r.url) {
			c.analyzeHTTP(hr)
		}
	}

	var side sync.WaitGroup
	if !c.cfg.NoProbes {
		side.Add(1)
		go func() {
			defer side.Done()
			c.probe(ctx)
		}()
	}

	// Breadth first, one level at a time.
	c.mu.Lock()
	c.seenPages[r.url.String()] = true
	c.mu.Unlock()
	level := c.page(ctx, r, 0)
	for depth := 1; len(level) > 0 && ctx.Err() == nil; depth++ {
		if depth > c.cfg.MaxDepth {
			c.truncate("depth")
			break
		}
		var next []string
		var nmu sync.Mutex
		var wg sync.WaitGroup
		for _, link := range level {
			c.mu.Lock()
			if c.seenPages[link] {
				c.mu.Unlock()
				continue
			}
			if c.stats.Pages >= c.cfg.MaxPages || len(c.seenPages) >= c.cfg.MaxPages {
				c.truncated["pages"] = true
				c.mu.Unlock()
				break
			}
			c.seenPages[link] = true
			c.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				if !c.working(ctx) {
					return
				}
				defer c.done()
				r, err := c.fetchFollow(ctx, link, func(_, to *url.URL) bool { return c.sameOrigin(to) }, c.analyzeHTTP)
				if err != nil || !c.sameOrigin(r.url) {
					return
				}
				links := c.page(ctx, r, depth)
				nmu.Lock()
				next = append(next, links...)
				nmu.Unlock()
			}()
		}
		wg.Wait()
		level = dedupe(next)
	}
	c.assetWG.Wait()
	side.Wait()
}

// page analyses one response of the site; when it is an HTML page it
// counts it, starts fetching its assets and returns its crawlable links.
func (c *crawl) page(ctx context.Context, r *response, depth int) []string {
	if r.status >= 400 && len(r.body) > 0 {
		// The server's own error page may name it and its version.
		c.observe(serverPageObservations(r)...)
	}
	if r.status != http.StatusOK || !isHTML(r) {
		return nil
	}
	c.mu.Lock()
	c.stats.Pages++
	c.mu.Unlock()
	defer c.analysing()()
	if c.s.tap != nil {
		c.s.tap("page", r.url.String(), r.header, r.body)
	}
	p := parseHTML(r.url, r.body)
	c.analyzePage(r, p)
	for _, a := range p.scripts {
		c.asset(ctx, a, "script")
	}
	for _, a := range p.styles {
		c.asset(ctx, a, "style")
	}
	if depth == 0 {
		for i, f := range p.feeds {
			if i == 2 {
				break
			}
			if fu, err := url.Parse(f); err == nil && c.sameOrigin(fu) {
				c.assetWG.Add(1)
				go func() {
					defer c.assetWG.Done()
					c.feed(ctx, f)
				}()
			}
		}
	}
	var links []string
	for _, l := range p.links {
		lu, err := url.Parse(l)
		if err != nil || !c.sameOrigin(lu) || !crawlable(lu) {
			continue
		}
		links = append(links, l)
	}
	return links
}

// minLibraryBytes is less than any distributable of the libraries the URL
// rules name (the smallest, minified, are several kilobytes): a file
// named chart.js that is shorter, with no banner or known hash, is the
// site's own code.
const minLibraryBytes = 2048

// asset fetches a script or style sheet once per scan, from any host: a
// CDN's copy is hashed and its path matched, but no other host's pages are
// crawled.
func (c *crawl) asset(ctx context.Context, u, kind string) {
	c.mu.Lock()
	if c.seenAssets[u] {
		c.mu.Unlock()
		return
	}
	if len(c.seenAssets) >= c.cfg.MaxAssets {
		c.truncated["assets"] = true
		c.mu.Unlock()
		return
	}
	c.seenAssets[u] = true
	c.mu.Unlock()
	au, err := url.Parse(u)
	if err != nil {
		return
	}
	po := pathObservations(au)
	if kind == "style" {
		// A library's style sheet goes with its script, whose version it
		// shares (jquery-ui.css beside jquery-ui.js): it may join it.
		for i := range po {
			po[i].ownFile = false
		}
	}
	c.observe(po...)
	if kind == "script" {
		c.observe(c.s.rules.matchScript(u)...)
	}
	c.assetWG.Add(1)
	go func() {
		defer c.assetWG.Done()
		if !c.working(ctx) {
			return
		}
		defer c.done()
		r := c.fetchFile(ctx, u, nil)
		if r == nil {
			return
		}
		done := c.analysing()
		if c.s.tap != nil {
			c.s.tap(kind, r.url.String(), r.header, r.body)
		}
		if r.url.String() != u {
			// A CDN's redirect to a versioned path (unpkg) is evidence too.
			c.observe(pathObservations(r.url)...)
		}
		obs := c.contentObservations(r, kind)
		done()
		if kind == "script" {
			bundle := r.url.String()
			if lic := licenseFile(r); lic != "" {
				c.beside(ctx, lic, "license", func(r *response) []observation { return licenseObservations(r, bundle) })
			}
			if sm := sourceMapURL(r); sm != "" {
				c.beside(ctx, sm, "sourcemap", func(r *response) []observation { return sourceMapObservations(r.url.String(), bundle, r.body) })
			}
		}
		if len(obs) == 0 && !r.cut && len(r.body) < minLibraryBytes {
			obs = append(obs, observation{url: u, siteCode: true}, observation{url: r.url.String(), siteCode: true})
		}
		c.observe(obs...)
	}()
}

// fetchFile fetches a file, following redirects on its host only, and
// counts it as fetched when it answers 200 with a body that ok (when not
// nil) accepts; nil otherwise.
func (c *crawl) fetchFile(ctx context.Context, u string, ok func(*response) bool) *response {
	sameHost := func(from, to *url.URL) bool { return from.Host == to.Host && to.Scheme == from.Scheme }
	r, err := c.fetchFollow(ctx, u, sameHost, nil)
	if err != nil || r.status != http.StatusOK || len(r.body) == 0 || (ok != nil && !ok(r)) {
		return nil
	}
	c.mu.Lock()
	c.stats.Assets++
	c.mu.Unlock()
	return r
}

// licenseFile is the address of the file a bundle's licence comments were
// moved to, when the bundle names one: webpack's minifier (the default of
// webpack 5, so of create-react-app, Vue CLI and many more) replaces a
// bundle's banners with "/*! For license information please see
// main.3f2a1c.js.LICENSE.txt */" and writes them to that file, beside the
// bundle. The banners name the libraries' versions.
func licenseFile(r *response) string {
	const lead = "/*! For license information please see "
	head := r.body[:min(len(r.body), 512)]
	i := bytes.Index(head, []byte(lead))
	if i < 0 {
		return ""
	}
	rest := head[i+len(lead):]
	j := bytes.Index(rest, []byte(" */"))
	if j <= 0 {
		return ""
	}
	name := string(rest[:j])
	if !strings.HasSuffix(name, ".txt") || strings.ContainsAny(name, " \t\r\n\"'<>") {
		return ""
	}
	lu, err := url.Parse(name)
	if err != nil || lu.IsAbs() || lu.Host != "" {
		return "" // only a file beside the bundle, on its host
	}
	return r.url.ResolveReference(lu).String()
}

// extra claims u for one fetch beside a bundle; false when it was
// fetched already or the scan has fetched MaxAssets such files.
func (c *crawl) extra(u string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seenExtras[u] {
		return false
	}
	if len(c.seenExtras) >= c.cfg.MaxAssets {
		c.truncated["assets"] = true
		return false
	}
	c.seenExtras[u] = true
	return true
}

// beside fetches a file a bundle names beside it (its licence file, its
// source map), once per scan (see crawl.extra), on the bundle's host, and
// observes what read finds in it. A site that answers every path with its
// page has no such file.
func (c *crawl) beside(ctx context.Context, u, kind string, read func(r *response) []observation) {
	if !c.extra(u) {
		return
	}
	r := c.fetchFile(ctx, u, func(r *response) bool { return !isHTML(r) })
	if r == nil {
		return
	}
	done := c.analysing()
	if c.s.tap != nil {
		c.s.tap(kind, r.url.String(), r.header, r.body)
	}
	obs := read(r)
	done()
	c.observe(obs...)
}

// licenseObservations reads the banners of a bundle's licence file
// (licenseFile) as the bundle's: the evidence names both.
func licenseObservations(r *response, bundle string) []observation {
	var obs []observation
	for _, m := range banner.Find(r.url.Path, r.body) {
		if v := normVersion(m.Version); v != "" && !m.Code {
			obs = append(obs, observation{key: productKey("npm:" + m.Library), version: v, kind: sentinel.EvidenceFingerprint, url: r.url.String(),
				detail: "banner: " + m.Text + " (licence file of " + bundle + ")", confidence: sentinel.ConfidenceBanner, inFile: true})
		}
	}
	return obs
}

func (c *crawl) feed(ctx context.Context, u string) {
	r, err := c.fetchFollow(ctx, u, func(_, to *url.URL) bool { return c.sameOrigin(to) }, nil)
	if err != nil || r.status != http.StatusOK {
		return
	}
	if g := feedGenerator(r.body); g != "" {
		c.observe(generatorObservations(r.url.String(), g, "feed generator")...)
	}
}

func isHTML(r *response) bool {
	ct := strings.ToLower(r.header.Get("Content-Type"))
	if ct != "" {
		return strings.Contains(ct, "html")
	}
	head := strings.ToLower(string(r.body[:min(len(r.body), 512)]))
	return strings.Contains(head, "<html") || strings.Contains(head, "<!doctype html")
}

// crawlable reports whether a same-origin link may be a page: no file
// extension, or one that servers render as HTML.
func crawlable(u *url.URL) bool {
	switch strings.ToLower(path.Ext(u.Path)) {
	case "", ".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx", ".jsp", ".jspx", ".do", ".action", ".cfm", ".cgi", ".pl":
		return true
	}
	return false
}

func dedupe(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// unreachable turns a fetch error into one sentence for the operator. A
// netguard refusal names the kind of address, never the address.
func unreachable(err error) string {
	var ge *netguard.Error
	if errors.As(err, &ge) {
		// The guard's sentence can name the address a host name resolved
		// to; the operator is told its kind only.
		msg := ge.Reason
		if ge.Addr.IsValid() {
			msg = strings.ReplaceAll(msg, ge.Addr.String(), "the address")
		}
		return msg
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "the host name could not be resolved"
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the site did not answer in time"
	case errors.Is(err, context.Canceled):
		return "the scan was canceled"
	case errors.Is(err, errBudget):
		return "the byte budget was spent"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return "the connection failed: " + opErr.Op
	}
	return "the site could not be fetched"
}
