package scan

import (
	"crypto/sha1"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
)

func TestPathObservations(t *testing.T) {
	tests := []struct {
		url  string
		want []string // key@version (weak versions marked ~)
	}{
		{"https://cdnjs.cloudflare.com/ajax/libs/twitter-bootstrap/3.4.1/js/bootstrap.min.js", []string{"npm:bootstrap@3.4.1"}},
		{"https://ajax.googleapis.com/ajax/libs/jquery/3.6.1/jquery.min.js", []string{"npm:jquery@3.6.1"}},
		{"https://cdn.jsdelivr.net/npm/vue@2.6.14/dist/vue.min.js", []string{"npm:vue@2.6.14"}},
		{"https://unpkg.com/@popperjs/core@2.11.8/dist/umd/popper.min.js", []string{"npm:@popperjs/core@2.11.8"}},
		{"https://cdn.jsdelivr.net/gh/jquery/jquery@3.6.1/dist/jquery.min.js", []string{"npm:jquery@3.6.1"}},
		{"https://code.jquery.com/jquery-3.6.1.min.js", []string{"npm:jquery@3.6.1"}},
		{"https://code.jquery.com/ui/1.13.2/jquery-ui.min.js", []string{"npm:jquery-ui@1.13.2"}},
		{"https://maxcdn.bootstrapcdn.com/bootstrap/3.4.1/css/bootstrap.min.css", []string{"npm:bootstrap@3.4.1"}},
		{"https://ajax.aspnetcdn.com/ajax/jquery.validate/1.19.5/jquery.validate.min.js", nil},
		{"https://example.com/js/knockout-3.5.1.debug.js", []string{"npm:knockout@3.5.1"}},
		{"https://example.com/js/jquery.min.js", []string{"npm:jquery@"}},
		{"https://example.com/npm/angular/1.7.9/angular.min.js", []string{"npm:angular@1.7.9"}},
		{"https://example.com/vendor/lodash.js/4.17.15/lodash.min.js", []string{"npm:lodash@4.17.15"}},
		{"https://example.com/assets/moment/2.29.1/min/moment.min.js", []string{"npm:moment@2.29.1"}},
		{"https://example.com/static/bootstrap-3.3.7-dist/js/bootstrap.min.js", []string{"npm:bootstrap@3.3.7"}},
		{"https://example.com/js/jquery-ui-1.12.1.custom/jquery-ui.min.css", []string{"npm:jquery-ui@1.12.1"}},
		{"https://example.com/js/jquery-ui-1.12.1/external/jquery/jquery.js", []string{"npm:jquery@"}},
		{"https://example.com/vendor/jquery/3.4.1/plugins/select2.min.js", []string{"npm:select2@"}},
		{"https://example.com/lib/vue/2.6.14/dist/vue.min.js", []string{"npm:vue@2.6.14"}},
		{"https://example.com/js/app.3f9a2c.js", nil},
		// Libraries the catalog may not hold: their versioned file names,
		// their own file names and their cdnjs paths.
		{"https://example.com/assets/vendor/three/three-0.150.0.min.js", []string{"npm:three@0.150.0"}},
		{"https://example.com/js/sweetalert2-11.12.0.all.min.js", []string{"npm:sweetalert2@11.12.0"}},
		{"https://example.com/vendor/highlight.js/highlight.min.js", []string{"npm:highlight.js@"}},
		{"https://example.com/vendor/fancybox/jquery.fancybox.min.js", []string{"npm:@fancyapps/fancybox@"}},
		{"https://example.com/vendor/owl.carousel.min.js", []string{"npm:owl.carousel@"}},
		{"https://cdnjs.cloudflare.com/ajax/libs/leaflet/1.9.4/leaflet.js", []string{"npm:leaflet@1.9.4"}},
		{"https://cdnjs.cloudflare.com/ajax/libs/video.js/8.10.0/video.min.js", []string{"npm:video.js@8.10.0"}},
		{"https://example.com/js/video-8.10.0.min.js", nil}, // "video" is anyone's name
		// CKEditor's and Font Awesome's own CDNs; Font Awesome 5 and later
		// is npm's @fortawesome/fontawesome-free, 4 npm's font-awesome.
		{"https://cdn.ckeditor.com/4.16.0/standard/ckeditor.js", []string{"npm:ckeditor4@4.16.0"}},
		{"https://cdn.ckeditor.com/ckeditor5/41.0.0/classic/ckeditor.js", []string{"npm:ckeditor5@41.0.0"}},
		{"https://use.fontawesome.com/releases/v5.15.4/css/all.css", []string{"npm:@fortawesome/fontawesome-free@5.15.4"}},
		{"https://cdnjs.cloudflare.com/ajax/libs/font-awesome/6.4.2/css/all.min.css", []string{"npm:@fortawesome/fontawesome-free@6.4.2"}},
		{"https://maxcdn.bootstrapcdn.com/font-awesome/4.7.0/css/font-awesome.min.css", []string{"npm:font-awesome@4.7.0"}},
		{"https://ajax.googleapis.com/ajax/libs/mootools/1.6.0/mootools.min.js", []string{"npm:mootools@1.6.0"}},
		{"https://example.com/wp-includes/js/jquery/jquery.min.js?ver=3.6.1", []string{"wordpress@~3.6.1", "npm:jquery@", "npm:jquery@~3.6.1"}},
		{"https://example.com/wp-content/plugins/akismet/_inc/akismet.js?ver=5.0.1", []string{"wordpress@", "wp-plugin:akismet@~5.0.1"}},
		{"https://example.com/wp-content/themes/twentytwentythree/style.css", []string{"wordpress@", "wp-theme:twentytwentythree@"}},
		{"https://example.com/sites/all/modules/views/js/base.js?v=7.x", []string{"drupal@", "drupal-module:views@"}},
		{"https://example.com/sites/all/themes/bartik/css/style.css", []string{"drupal@", "drupal-theme:bartik@"}},
		{"https://example.com/core/misc/drupal.js?v=10.1.5", []string{"drupal@", "drupal@10.1.5"}},
		{"https://example.com/core/assets/vendor/jquery/jquery.min.js?v=3.7.0", []string{"drupal@", "npm:jquery@", "npm:jquery@~3.7.0"}},
		{"https://example.com/components/com_content/x.js", []string{"joomla@", "joomla-component:com_content@"}},
		{"https://example.com/media/jui/js/jquery.min.js?v=3.9.28", []string{"joomla@", "npm:jquery@", "npm:jquery@~3.9.28"}},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range pathObservations(u) {
			v := o.version
			if o.weak {
				v = "~" + v
			}
			got = append(got, string(o.key)+"@"+v)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("pathObservations(%s) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestReconcile(t *testing.T) {
	o := func(key productKey, version, kind, u string, conf int, weak bool) observation {
		return observation{key: key, version: version, kind: kind, url: u, detail: kind + " " + u + " " + version, confidence: conf, weak: weak}
	}
	obs := []observation{
		// two jQuery copies, each with its own evidence
		o("npm:jquery", "3.6.1", "hash", "/a.js", 100, false),
		o("npm:jquery", "1.12.4", "fingerprint", "/b.js", 80, false),
		o("npm:jquery", "", "path", "/a.js", 40, false),             // joins 3.6.1 (same URL)
		o("npm:jquery", "", "path", "/c.js", 40, false),             // stands alone: two versions exist
		o("npm:jquery", "6.1.9", "path", "/a.js", 40, true),         // weak, unconfirmed: versionless
		o("wordpress", "6.1.9", "generator", "/", 60, false),        // strong
		o("wordpress", "6.1.9", "path", "/wp-includes/x", 40, true), // weak, confirmed
		o("wordpress", "", "cookie", "/", 40, false),
		o("drupal", "10", "generator", "/", 60, true), // major only: weak, unconfirmed
		o("php", "", "cookie", "/", 40, false),
	}
	got := map[string]int{}
	for _, d := range reconcile(obs) {
		got[d.Name+"@"+d.Version] = len(d.Evidence)
		if d.Version == "" && d.Purl != "" {
			t.Errorf("%s: purl without version", d.Name)
		}
	}
	want := map[string]int{"jQuery@3.6.1": 3, "jQuery@1.12.4": 1, "jQuery@": 1, "WordPress@6.1.9": 3, "Drupal@": 1, "PHP@": 1}
	if !maps(got, want) {
		t.Errorf("reconcile = %v, want %v", got, want)
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestHeaderDistribution(t *testing.T) {
	for _, c := range []struct{ header, value, key, want string }{
		{"Server", "Apache/2.4.41 (Ubuntu)", "apache", "Ubuntu"},
		{"Server", "nginx/1.18.0 (Ubuntu)", "nginx", "Ubuntu"},
		{"Server", "Apache/2.4.57 (Debian) OpenSSL/3.0.11 PHP/8.2.7", "openssl", "Debian"},
		{"Server", "Apache/2.4.37 (Red Hat Enterprise Linux) OpenSSL/1.1.1k", "apache", "Red Hat Enterprise Linux"},
		{"Server", "Apache/2.4.6 (CentOS) PHP/5.4.16", "php", "CentOS"},
		{"Server", "Apache/2.4.62 (Unix) OpenSSL/3.0.13", "apache", ""},
		{"Server", "Apache/2.4.58 (Win64) OpenSSL/3.1.3 PHP/8.2.12", "php", ""},
		{"Server", "nginx/1.25.3", "nginx", ""},
		{"X-Powered-By", "PHP/7.4.3-4ubuntu2.19", "php", "Ubuntu"},
		{"X-Powered-By", "PHP/8.2.7-1~deb12u1", "php", "Debian"},
		{"X-Powered-By", "PHP/7.4.33+deb11u1", "php", "Debian"},
		{"X-Powered-By", "PHP/8.1.2-1ubuntu2.14", "php", "Ubuntu"},
		{"X-Powered-By", "PHP/8.3.8", "php", ""},
		{"X-Powered-By", "PHP/5.4.16 (CentOS)", "php", ""}, // a comment only counts in Server
	} {
		var got []string
		for _, h := range headerRules {
			if h.header != c.header || h.key != productKey(c.key) {
				continue
			}
			if loc := h.re.FindStringIndex(c.value); loc != nil {
				got = append(got, headerDistribution(c.header, c.value, loc[1]))
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %s (%s): %q, want %q", c.header, c.value, c.key, got, c.want)
		}
	}
}

// TestStampObservations: the versions applications stamp on their own
// pages, in excerpts of Debian's Roundcube 1.6.5 and Adminer 4.8.1 login
// pages.
func TestStampObservations(t *testing.T) {
	tests := []struct {
		name, page string
		want       []string // key@version (weak versions marked ~)
	}{
		{"roundcube", `var rcmail = new rcube_webmail();
rcmail.set_env({"task":"login","standard_windows":false,"locale":"en_US","devel_mode":null,"rcversion":10605,"cookie_domain":""});`, []string{"roundcube@1.6.5"}},
		{"roundcube_minor_10", `rcmail.set_env({"rcversion":11012,"skin":"elastic"});`, []string{"roundcube@1.10.12"}},
		// 1.6.0 or a release candidate of 1.6: Roundcube drops the tag.
		{"roundcube_patch_0", `rcmail.set_env({"rcversion":10600,"skin":"elastic"});`, []string{"roundcube@~1.6.0"}},
		{"roundcube_string", `rcmail.set_env({"rcversion":"1.6.5"});`, nil},
		// Debian's Adminer 4.8.1 login page; the heading alone is a loose
		// rule's, and the two must agree.
		{"adminer", "<link rel=\"stylesheet\" type=\"text/css\" href=\"adminer.php?file=default.css&amp;version=4.8.1\">\n" +
			"<script src='adminer.php?file=functions.js&amp;version=4.8.1' nonce=\"MTZl\"></script>\n" +
			"<h1>\n<a href='https://www.adminer.org/' target=\"_blank\" rel=\"noreferrer noopener\" id='h1'>Adminer</a> <span class=\"version\">4.8.1</span>", []string{"adminer@4.8.1"}},
		{"adminer_disagree", "<script src='adminer.php?file=functions.js&amp;version=4.8.1'></script><span class=\"version\">4.7.0</span>", nil},
		{"adminer_heading_alone", `<span class="version">4.8.1</span>`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range stampObservations("https://mail.example.com/", []byte(tt.page)) {
				v := o.version
				if o.weak {
					v = "~" + v
				}
				got = append(got, string(o.key)+"@"+v)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("stampObservations = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestThemeHeaderObservations: a theme's style.css header, as Debian's
// wordpress-theme-twentytwentyone 6.1.9 ships it, and files that only
// look like one.
func TestThemeHeaderObservations(t *testing.T) {
	header := "@charset \"UTF-8\";\n\n/*\nTheme Name: Twenty Twenty-One\nTheme URI: https://wordpress.org/themes/twentytwentyone/\nRequires at least: 5.3\nTested up to: 6.0\nRequires PHP: 5.6\nVersion: 1.7\nLicense: GNU General Public License v2 or later\n*/\n"
	tests := []struct{ path, body, want string }{
		{"/wp-content/themes/twentytwentyone/style.css", header, "wp-theme:twentytwentyone@1.7"},
		{"/blog/wp-content/themes/twentytwentyone/style.css", header, "wp-theme:twentytwentyone@1.7"},
		{"/wp-content/themes/twentytwentyone/assets/css/print.css", header, ""},
		{"/wp-content/themes/x/style.css", "/* Version: 2.0 */", ""},                                          // no theme header
		{"/wp-content/themes/x/style.css", "/*\nTheme Name: X\n*/\n/*\nVersion: 2.0\n*/", ""},                 // another comment's
		{"/wp-content/themes/x/style.css", "/*\nTheme Name: X\nVersion: 2.0-custom build\n*/", ""},            // not a version
		{"/wp-content/themes/x/style.css", "/*\r\nTheme Name: X\r\nVersion: 2.0.1\r\n*/", "wp-theme:x@2.0.1"}, // CRLF
	}
	for _, tt := range tests {
		u, _ := url.Parse("https://blog.example.com" + tt.path)
		got := ""
		for _, o := range themeHeaderObservations(&response{url: u, body: []byte(tt.body)}) {
			got = string(o.key) + "@" + o.version
		}
		if got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.path, tt.body, got, tt.want)
		}
	}
}

// TestReconcileOwners: a style sheet whose hash names two versions joins
// the detection of one of them; a second copy of a library, named as its
// own file, keeps its unknown version rather than take another copy's.
func TestReconcileOwners(t *testing.T) {
	obs := []observation{
		{key: "npm:select2", version: "4.0.3", kind: "fingerprint", url: "/js/lib40.js", detail: "banner", confidence: 80},
		{key: "npm:select2", version: "4.1.0-rc.0", kind: "fingerprint", url: "/js/lib42.js", detail: "banner", confidence: 80},
		{key: "npm:select2", kind: "hash", url: "/css/lib41.css", detail: "sha1 = select2 4.0.3 or 4.0.5", confidence: 40, candidates: []string{"4.0.3", "4.0.5"}},
		// slick 1.8.0 and 1.8.1 share a file: a renamed copy of it is
		// neither the 1.6.0 found elsewhere nor a guess.
		{key: "npm:slick-carousel", version: "1.6.0", kind: "hash", url: "/js/lib81.js", detail: "sha1 = slick 1.6.0", confidence: 100},
		{key: "npm:slick-carousel", kind: "hash", url: "/js/lib82.js", detail: "sha1 = slick-carousel 1.8.0 or 1.8.1", confidence: 40, candidates: []string{"1.8.0", "1.8.1"}},
		// A script URL rule on choices.min.js is that copy's evidence: it
		// does not take the version of the copy whose banner says 2.8.10.
		{key: "npm:choices.js", version: "2.8.10", kind: "fingerprint", url: "/legacy/vendor/choices.js/choices.min.js", detail: "banner", confidence: 80},
		{key: "npm:choices.js", kind: "fingerprint", url: "/vendor/choices.js/choices.min.js", detail: "script URL rule", confidence: 40, fromURL: true},
		{key: "npm:tippy.js", version: "2.6.0", kind: "fingerprint", url: "/legacy/vendor/tippy.js/tippy.all.min.js", detail: "constant", confidence: 80},
		{key: "npm:tippy.js", kind: "fingerprint", url: "/vendor/tippy.js/tippy-bundle.umd.min.js", detail: "script URL rule", confidence: 40, fromURL: true},
		{key: "npm:highlight.js", version: "11.9.0", kind: "fingerprint", url: "/vendor/highlight.js/highlight.min.js", detail: "banner", confidence: 80},
		{key: "npm:highlight.js", kind: "path", url: "/legacy/vendor/highlight.js/highlight.min.js", detail: "file name", confidence: 40, fromURL: true, ownFile: true},
		{key: "npm:highlight.js", kind: "fingerprint", url: "/legacy/vendor/highlight.js/highlight.min.js", detail: "script URL rule", confidence: 40, fromURL: true},
	}
	got := map[string]int{}
	for _, d := range reconcile(obs) {
		got[d.Name+"@"+d.Version] = len(d.Evidence)
	}
	want := map[string]int{"Select2@4.0.3": 2, "Select2@4.1.0-rc.0": 1, "Slick@1.6.0": 1, "Slick@": 1, "Choices@2.8.10": 1, "Choices@": 1, "Tippy.js@2.6.0": 1, "Tippy.js@": 1, "Highlight.js@11.9.0": 1, "Highlight.js@": 2}
	if !maps(got, want) {
		t.Errorf("reconcile = %v, want %v", got, want)
	}
}

// TestExactHashOutranksBanner: npm's datatables.net 1.13.8 ships a file
// still stamped 1.13.7; its hash says which release it is, and the file is
// one detection, not two.
func TestExactHashOutranksBanner(t *testing.T) {
	body := []byte("/*! DataTables 1.13.7\n * ©2008-2023 SpryMedia Ltd - datatables.net/license\n */\n!function(n){\"use strict\"}(jQuery);")
	s := &Scanner{cat: catalog.New([]catalog.Entry{{SHA1: sha1.Sum(body), Library: "datatables.net", Version: "1.13.8",
		File: "js/jquery.dataTables.min.js", Source: "npm:datatables.net@1.13.8"}})}
	c := &crawl{s: s}
	u, _ := url.Parse("https://example.com/js/lib45.js")
	obs := c.contentObservations(&response{url: u, status: 200, body: body}, "script")
	ds := reconcile(obs)
	if len(ds) != 1 || ds[0].Version != "1.13.8" || len(ds[0].Evidence) != 2 {
		t.Fatalf("reconcile = %+v, want one DataTables 1.13.8 with the hash and the banner", ds)
	}
	if e := ds[0].Evidence[1]; !strings.Contains(e.Detail, "DataTables 1.13.7") || !strings.Contains(e.Detail, "by its hash") {
		t.Errorf("banner evidence = %q, want the banner's text and why its version is not taken", e.Detail)
	}
}
