package scan

import (
	"regexp"
	"strconv"
	"strings"
)

// A product key names one product across signals: "npm:<package>" for a
// front-end library (the npm name, which is also its purl name), a bare
// lowercase word for an application, server or language ("wordpress",
// "nginx", "php"), "wp-plugin:<slug>" and "wp-theme:<slug>" for WordPress
// extensions, "drupal-module:<name>", "joomla-component:<com_x>", and
// "tech:<Name>" for whatever the fingerprint rules name that nothing here
// maps, and a purl without version ("pkg:composer/guzzlehttp/guzzle") for
// any other package an exposed dependency record lists.
type productKey string

// product describes a key: its display name, categories and how a version
// becomes a purl.
type product struct {
	name       string
	categories []string
	cpe        string
	// purl returns the purl for a version, or "" where there is no
	// ecosystem with advisories.
	purl func(version string) string
}

// npmDisplay are the people's names of the npm libraries the scan knows
// best; any other npm package is shown by its npm name.
var npmDisplay = map[string]string{
	"jquery": "jQuery", "jquery-ui": "jQuery UI", "jquery-migrate": "jQuery Migrate",
	"jquery-validation": "jQuery Validation", "bootstrap": "Bootstrap",
	"@popperjs/core": "Popper", "popper.js": "Popper.js", "angular": "AngularJS", "@angular/core": "Angular",
	"vue": "Vue.js", "react": "React", "react-dom": "ReactDOM", "lodash": "Lodash",
	"underscore": "Underscore.js", "backbone": "Backbone.js", "moment": "Moment.js",
	"handlebars": "Handlebars", "mustache": "Mustache", "dompurify": "DOMPurify",
	"select2": "Select2", "knockout": "Knockout.js", "d3": "D3", "chart.js": "Chart.js",
	"axios": "Axios", "swiper": "Swiper", "datatables.net": "DataTables",
	"marked": "Marked", "highlight.js": "Highlight.js", "tinymce": "TinyMCE",
	"prototype": "Prototype", "jquery-mobile": "jQuery Mobile", "js-cookie": "JavaScript Cookie",
	"codemirror": "CodeMirror", "jquery-ui-timepicker-addon": "jQuery Timepicker Addon", "next": "Next.js", "pdfjs-dist": "PDF.js",
	"nuxt": "Nuxt.js", "ember-source": "Ember.js", "gatsby": "Gatsby", "astro": "Astro",
	"@docusaurus/core": "Docusaurus", "vitepress": "VitePress", "vuepress": "VuePress", "hexo": "Hexo",
	"@11ty/eleventy": "Eleventy", "svelte": "Svelte", "@sveltejs/kit": "SvelteKit", "preact": "Preact",
	"moment-timezone": "Moment Timezone", "highcharts": "Highcharts", "video.js": "Video.js", "leaflet": "Leaflet",
	"plotly.js": "Plotly", "summernote": "Summernote", "bootstrap-select": "Bootstrap-select", "quill": "Quill",
	"socket.io-client": "Socket.io", "ckeditor4": "CKEditor", "ckeditor5": "CKEditor 5",
	"vue-router": "Vue Router", "vuex": "Vuex", "sweetalert2": "SweetAlert2", "core-js": "core-js",
	"echarts": "Apache ECharts", "xlsx": "SheetJS", "pdfmake": "pdfmake",
	"font-awesome": "Font Awesome", "@fortawesome/fontawesome-free": "Font Awesome", "mootools": "MooTools",
	"mathjax": "MathJax", "mediaelement": "MediaElement.js", "masonry-layout": "Masonry", "imagesloaded": "imagesLoaded",
	"jquery-color": "jQuery Color", "jquery-form": "jQuery Form", "plupload": "Plupload", "ua-parser-js": "UAParser.js",
	"slick-carousel": "Slick", "owl.carousel": "OWL Carousel", "magnific-popup": "Magnific Popup",
	"@fancyapps/fancybox": "fancyBox", "hammerjs": "Hammer.js", "three": "Three.js", "plyr": "Plyr", "prismjs": "Prism",
	"zepto": "Zepto", "clipboard": "clipboard.js", "sortablejs": "Sortable", "jspdf": "jsPDF", "handsontable": "Handsontable",
	"gsap": "GSAP", "flickity": "Flickity", "isotope-layout": "Isotope", "lazysizes": "lazysizes", "photoswipe": "PhotoSwipe",
	"lightgallery": "lightGallery", "lightbox2": "Lightbox", "@splidejs/splide": "Splide", "@glidejs/glide": "Glide.js",
	"fullcalendar": "FullCalendar", "chartist": "Chartist", "apexcharts": "ApexCharts", "c3": "C3.js", "konva": "Konva",
	"pixi.js": "PixiJS", "flatpickr": "flatpickr", "nouislider": "noUiSlider", "choices.js": "Choices", "cleave.js": "Cleave.js",
	"inputmask": "Inputmask", "jquery.inputmask": "jQuery Inputmask", "froala-editor": "Froala Editor", "dropzone": "Dropzone",
	"mithril": "Mithril", "riot": "Riot", "alpinejs": "Alpine.js", "tippy.js": "Tippy.js",
}

var npmCategory = map[string]string{
	"bootstrap": "UI frameworks", "angular": "JavaScript frameworks", "@angular/core": "JavaScript frameworks", "next": "Web frameworks", "nuxt": "Web frameworks", "ember-source": "JavaScript frameworks",
	"gatsby": "Static site generator", "astro": "Static site generator", "@docusaurus/core": "Static site generator",
	"vitepress": "Static site generator", "vuepress": "Static site generator", "hexo": "Static site generator",
	"@11ty/eleventy": "Static site generator", "svelte": "JavaScript frameworks", "@sveltejs/kit": "Web frameworks",
	"preact": "JavaScript frameworks", "vue": "JavaScript frameworks",
	"react": "JavaScript frameworks", "react-dom": "JavaScript frameworks", "backbone": "JavaScript frameworks",
	"knockout": "JavaScript frameworks", "tinymce": "Rich text editors", "chart.js": "JavaScript graphics",
	"d3": "JavaScript graphics", "echarts": "JavaScript graphics",
}

// apps are the applications, servers and languages the scan reports, with
// the purl type their advisories use in OSV and that internal/purl maps:
// Bitnami's vulnerability database for the CMSs and servers (it has
// WordPress, Joomla, phpMyAdmin, nginx, Apache, PHP, Tomcat, ...), the
// Drupal security team's Packagist records for Drupal 8 and later, and
// GitHub's advisories' Packagist names for Roundcube
// (roundcube/roundcubemail) and Adminer (vrana/adminer).
var apps = map[productKey]product{
	"wordpress":  {name: "WordPress", categories: []string{"CMS", "Blogs"}, cpe: "cpe:2.3:a:wordpress:wordpress", purl: bitnami("wordpress")},
	"drupal":     {name: "Drupal", categories: []string{"CMS"}, cpe: "cpe:2.3:a:drupal:drupal", purl: drupalPurl},
	"joomla":     {name: "Joomla", categories: []string{"CMS"}, cpe: "cpe:2.3:a:joomla:joomla", purl: bitnami("joomla")},
	"mediawiki":  {name: "MediaWiki", categories: []string{"Wikis"}, cpe: "cpe:2.3:a:mediawiki:mediawiki", purl: bitnami("mediawiki")},
	"phpmyadmin": {name: "phpMyAdmin", categories: []string{"Database managers"}, cpe: "cpe:2.3:a:phpmyadmin:phpmyadmin", purl: bitnami("phpmyadmin")},
	"moodle":     {name: "Moodle", categories: []string{"LMS"}, cpe: "cpe:2.3:a:moodle:moodle", purl: bitnami("moodle")},
	"ghost":      {name: "Ghost", categories: []string{"CMS", "Blogs"}, purl: bitnami("ghost")},
	"magento":    {name: "Magento", categories: []string{"Ecommerce"}, purl: bitnami("magento")},
	"nextcloud":  {name: "Nextcloud", categories: []string{"Documentation"}, purl: bitnami("nextcloud")},
	"redmine":    {name: "Redmine", categories: []string{"Issue trackers"}, purl: bitnami("redmine")},
	"discourse":  {name: "Discourse", categories: []string{"Message boards"}, purl: bitnami("discourse")},
	"grafana":    {name: "Grafana", categories: []string{"Analytics"}, purl: bitnami("grafana")},
	"jenkins":    {name: "Jenkins", categories: []string{"CI"}, purl: bitnami("jenkins")},
	"gitlab":     {name: "GitLab", categories: []string{"Issue trackers"}, purl: bitnami("gitlab")},
	"roundcube":  {name: "Roundcube", categories: []string{"Webmail"}, cpe: "cpe:2.3:a:roundcube:webmail", purl: composer("roundcube/roundcubemail")},
	"adminer":    {name: "Adminer", categories: []string{"Database managers"}, cpe: "cpe:2.3:a:adminer:adminer", purl: composer("vrana/adminer")},
	"dokuwiki":   {name: "DokuWiki", categories: []string{"Wikis"}},
	"typo3":      {name: "TYPO3", categories: []string{"CMS"}},
	"nginx":      {name: "Nginx", categories: []string{"Web servers"}, cpe: "cpe:2.3:a:f5:nginx", purl: bitnami("nginx")},
	"apache":     {name: "Apache HTTP Server", categories: []string{"Web servers"}, cpe: "cpe:2.3:a:apache:http_server", purl: bitnami("apache")},
	"tomcat":     {name: "Apache Tomcat", categories: []string{"Web servers"}, cpe: "cpe:2.3:a:apache:tomcat", purl: bitnami("tomcat")},
	"php":        {name: "PHP", categories: []string{"Programming languages"}, cpe: "cpe:2.3:a:php:php", purl: bitnami("php")},
	"node":       {name: "Node.js", categories: []string{"Programming languages"}, purl: bitnami("node")},
	"openssl":    {name: "OpenSSL", categories: []string{"Web server extensions"}},
	"iis":        {name: "IIS", categories: []string{"Web servers"}},
	"aspnet":     {name: "ASP.NET", categories: []string{"Web frameworks"}},
	"aspnetmvc":  {name: "ASP.NET MVC", categories: []string{"Web frameworks"}},
	"java":       {name: "Java", categories: []string{"Programming languages"}},
	"laravel":    {name: "Laravel", categories: []string{"Web frameworks"}, purl: composer("laravel/framework")},
	"codeigniter": {name: "CodeIgniter", categories: []string{"Web frameworks"},
		purl: composer("codeigniter4/framework")},
	"express":  {name: "Express", categories: []string{"Web frameworks"}, purl: npmPurl("express")},
	"django":   {name: "Django", categories: []string{"Web frameworks"}, purl: bitnami("django")},
	"lighttpd": {name: "lighttpd", categories: []string{"Web servers"}},
	"caddy":    {name: "Caddy", categories: []string{"Web servers"}},
}

func bitnami(name string) func(string) string {
	return func(v string) string { return "pkg:bitnami/" + name + "@" + v }
}

func composer(name string) func(string) string {
	return func(v string) string { return "pkg:composer/" + name + "@" + v }
}

func npmPurl(name string) func(string) string {
	return func(v string) string { return "pkg:npm/" + npmPurlName(name) + "@" + v }
}

// npmPurlName writes a scoped npm name as a purl namespace and name: the @
// of the scope is percent-encoded ("%40popperjs/core").
func npmPurlName(name string) string {
	if strings.HasPrefix(name, "@") {
		return "%40" + name[1:]
	}
	return name
}

// drupalPurl: the Drupal security team's advisories in OSV name
// Packagist's drupal/core, which exists from Drupal 8 on; Drupal 7 and
// older are matched through Bitnami's records.
func drupalPurl(v string) string {
	if major, _, _ := strings.Cut(v, "."); major != "" {
		if n, err := strconv.Atoi(major); err == nil && n >= 8 {
			return "pkg:composer/drupal/core@" + v
		}
	}
	return "pkg:bitnami/drupal@" + v
}

// describe returns the product behind a key.
func describe(k productKey) product {
	s := string(k)
	switch {
	case strings.HasPrefix(s, "npm:"):
		name := s[4:]
		p := product{name: name, purl: npmPurl(name), categories: []string{"JavaScript libraries"}}
		if d, ok := npmDisplay[name]; ok {
			p.name = d
		}
		if c, ok := npmCategory[name]; ok {
			p.categories = []string{c}
		}
		return p
	case strings.HasPrefix(s, "wp-plugin:"):
		return product{name: "WordPress plugin " + s[len("wp-plugin:"):], categories: []string{"WordPress plugins"}}
	case strings.HasPrefix(s, "wp-theme:"):
		return product{name: "WordPress theme " + s[len("wp-theme:"):], categories: []string{"WordPress themes"}}
	case strings.HasPrefix(s, "drupal-module:"):
		// Drupal's contributed modules have advisories in OSV as
		// Packagist drupal/<module>.
		m := s[len("drupal-module:"):]
		return product{name: "Drupal module " + m, categories: []string{"CMS"}, purl: composer("drupal/" + m)}
	case strings.HasPrefix(s, "drupal-theme:"):
		return product{name: "Drupal theme " + s[len("drupal-theme:"):], categories: []string{"Drupal themes"}}
	case strings.HasPrefix(s, "joomla-component:"):
		return product{name: "Joomla component " + s[len("joomla-component:"):], categories: []string{"CMS"}}
	case strings.HasPrefix(s, "tech:"):
		return product{name: s[5:]}
	case strings.HasPrefix(s, "pkg:"):
		return purlProduct(k) // a package a dependency record lists (exposed.go)
	}
	if p, ok := apps[k]; ok {
		return p
	}
	return product{name: s}
}

// validVersion accepts what a version string may look like: digits first,
// dotted numbers, an optional pre-release or build tag; at most 40 bytes.
// It refuses hashes and words that loose rules capture ("abc1234").
var validVersion = regexp.MustCompile(`^\d{1,6}(?:\.\d{1,8}){0,4}(?:[-+.~]?(?:alpha|beta|rc|pre|dev|p|pl|patch)?[.\d]{0,12})?$`)

// normVersion trims a leading "v" and checks the result; "" when it is not
// a version.
func normVersion(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")
	if len(v) > 40 || !validVersion.MatchString(v) {
		return ""
	}
	return v
}

// precise reports whether a version says more than a major release: "10"
// (Drupal's generator) names a release line, not a version, and would match
// every advisory of 10.0.0.
func precise(v string) bool {
	return strings.Contains(v, ".")
}
