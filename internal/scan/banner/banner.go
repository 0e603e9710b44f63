// Package banner reads the version a front-end library's file claims for
// itself: the licence banner a build keeps at the top of a distributable
// ("/*! jQuery v3.6.1 | (c) OpenJS Foundation ... */", "Bootstrap v4.6.2
// (https://getbootstrap.com/)") and, for a few libraries whose minified
// builds drop the banner, a version constant in the code (lodash's
// VERSION="4.17.21"), only when the file's name names that library, or
// anywhere when the code around it is that library's alone (a signature:
// lodash's `nn="4.17.21",tn=200,rn="Unsupported core-js use.`), or the
// constant such code names (Vue 3's app object, `version:ss`, and
// `ss="3.2.47"`), so that a bundle or a renamed copy still names its
// version.
//
// Both the external scan (internal/scan) and the hash catalog builder
// (internal/scan/catalog) use it: the scan to report a version the file
// carries, the builder to label the copies that Debian and CMSs ship, which
// differ byte for byte from the npm ones.
//
// The reader is bounded for hostile input: it looks for each rule's literal
// key with bytes.Index, runs the rule's regular expression only on a short
// window after the key, stops after a fixed number of keys per rule, and
// never reads past MaxScan bytes. Go's regular expressions run in linear
// time, so the whole call is linear in min(len(content), MaxScan).
package banner

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// MaxScan is the number of bytes of a file that Find reads: as much as the
// scan reads of a response.
const MaxScan = 8 << 20

// window is how many bytes after a key a rule's expression may look at.
const window = 200

// maxKeys bounds how many occurrences of one rule's key Find examines.
const maxKeys = 32

// Match is one library version that a file's content claims.
type Match struct {
	// Library is the npm package name ("jquery", "bootstrap", "@popperjs/core").
	Library string
	// Version is the version the text names.
	Version string
	// Text is the matched text, trimmed to one line, for evidence.
	Text string
	// Offset is where the text starts in the file.
	Offset int
	// Code is true for a version constant in code rather than a banner
	// comment: read only in a file named after the library, or anywhere
	// beside code that library alone has (a signature).
	Code bool
}

// rule finds one library's version: key is a literal that must occur in the
// file, re runs on the window starting at the key and must capture the
// version as its first group. fileRe, when set, must match the file's base
// name (lowercased) for the rule to apply.
type rule struct {
	lib    string
	key    string
	re     *regexp.Regexp
	fileRe *regexp.Regexp
	code   bool
	// not lists literals that, found just before the key (within 40 bytes),
	// veto the match: "Based on Underscore.js 1.8.3" in lodash's banner.
	not []string
	// notIn lists literals that veto the match when the matched text has
	// them: "jQuery UI Touch Punch 0.2.3" is a plugin, not jQuery UI.
	notIn []string
	// anywhere lets a banner rule match outside a comment (mustache's
	// name and version object); other banner rules must be in a comment,
	// so that Bootstrap's "requires at least jQuery v1.9.1" names nothing.
	anywhere bool
	// back makes re run on the window that ends with the key, for a
	// version written just before a distinctive literal; it must end with
	// the key.
	back bool
	// ref makes re capture, instead of the version, the name of the
	// constant that holds it ("version:ss" in Vue 3's app object): the
	// version is then the string that name is set to elsewhere in the
	// file (`ss="3.2.47"`).
	ref bool
	// join makes the version the first two groups joined by a dot (TinyMCE
	// keeps majorVersion:"6",minorVersion:"8.2").
	join bool
	// revision makes the capture (or the constant's value) a three.js
	// revision, "150" or "125dev", whose version is 0.150.0.
	revision bool
}

// ver is the version capture every rule uses: dotted numbers with an
// optional pre-release tag, never more than the window.
const ver = `(\d{1,4}\.\d{1,4}(?:\.\d{1,4})?(?:-(?:alpha|beta|rc|pre)[.\d]{0,8})?)`

// getter is a bundler's export getter of a minified name:
// function(){return ef} or ()=>ef.
const getter = `(?:function\(\)\{return [\w$]{1,4}\}|\(\)=>[\w$]{1,4})`

func banner(lib, key, expr string, not ...string) rule {
	return rule{lib: lib, key: key, re: regexp.MustCompile(`^(?:` + expr + `)`), not: not}
}

func revision(r rule) rule {
	r.revision = true
	return r
}

func joined(r rule) rule {
	r.join = true
	return r
}

func withNotIn(r rule, notIn ...string) rule {
	r.notIn = notIn
	return r
}

func anywhere(r rule) rule {
	r.anywhere = true
	return r
}

// signature is a version constant beside code only that library has, so
// it applies in any file: a bundle, a renamed copy. The version comes
// before the key.
func signature(lib, key, expr string) rule {
	return rule{lib: lib, key: key, re: regexp.MustCompile(`(?:` + expr + `)$`), code: true, back: true}
}

// after is a signature whose version follows the distinctive literal,
// which is key.
func after(lib, key, expr string) rule {
	return rule{lib: lib, key: key, re: regexp.MustCompile(`^(?:` + expr + `)`), code: true}
}

// constant is a signature that names the constant holding the version; see
// rule.ref.
func constant(lib, key, expr string) rule {
	return rule{lib: lib, key: key, re: regexp.MustCompile(`^(?:` + expr + `)`), code: true, ref: true}
}

func code(lib, key, expr, file string) rule {
	return rule{lib: lib, key: key, re: regexp.MustCompile(`^(?:` + expr + `)`), fileRe: regexp.MustCompile(file), code: true}
}

// rules are the banners of the libraries the catalog covers and a few more
// with advisories. Keys are case-sensitive literals as the projects write
// them. Each expression starts at the key.
var rules = []rule{
	// A plugin's banner or a comment names the jQuery it needs or copied
	// from: "Requires jQuery v1.7 or later", "Extracted from jQuery v1.11 source".
	banner("jquery", "jQuery v", `jQuery v`+ver+`(?:[ |]|$)`, "equires ", "equire ", "from ", "for ", "with ", "than ", "least ", "ested ", "upports ", "ompatible "),
	banner("jquery", "jQuery JavaScript Library v", `jQuery JavaScript Library v`+ver),
	banner("jquery-ui", "jQuery UI", `jQuery UI (?:- v|v)`+ver),
	withNotIn(banner("jquery-ui", "jQuery UI", `jQuery UI(?: [A-Z][A-Za-z]{1,20}){0,3} `+ver), "Touch Punch"),
	banner("jquery-migrate", "jQuery Migrate", `jQuery Migrate (?:- )?v`+ver),
	banner("jquery-validation", "jQuery Validation Plugin", `jQuery Validation Plugin (?:- )?v`+ver),
	// Not a plugin's "Datepicker for Bootstrap v1.9.0 (https://github.com/uxsolutions/bootstrap-datepicker)".
	banner("bootstrap", "Bootstrap", `Bootstrap {1,2}v`+ver+` \(`, "for ", "with "),
	banner("bootstrap-datepicker", "Datepicker for Bootstrap v", `Datepicker for Bootstrap v`+ver+` \(https://github\.com/(?:uxsolutions|eternicode)/bootstrap-datepicker`),
	banner("bootstrap", "Bootstrap", `Bootstrap \(v`+ver+`\)`),
	banner("bootstrap", "Bootstrap ", `Bootstrap [a-z-]{1,20}\.js v`+ver+` \(`),
	banner("bootstrap", "Bootstrap: ", `Bootstrap: [a-z-]{1,20}\.js v`+ver),
	banner("angular", "AngularJS v", `AngularJS v`+ver),
	banner("lodash", "lodash ", `lodash `+ver+` \((?:Custom|Modern|Legacy|Compat)`),
	banner("lodash", "Lo-Dash ", `Lo-Dash `+ver+` \(`),
	banner("vue", "Vue.js v", `Vue\.js v`+ver),
	banner("vue", "vue v", `vue v`+ver+`\n`),
	// Vue 3.4 and later: each package's banner, which bundlers keep
	// ("@vue/runtime-core v3.4.21"); the packages are released together.
	// Not @vue/reactivity and @vue/shared alone: Alpine.js bundles them.
	banner("vue", "@vue/", `@vue/(?:runtime-core|runtime-dom|compiler-core|compiler-dom|compiler-sfc|compiler-ssr|server-renderer) v`+ver),
	banner("react", "@license React v", `@license React v`+ver+`\s*\n?\s*\*?\s*react\.`),
	banner("react-dom", "@license React v", `@license React v`+ver+`\s*\n?\s*\*?\s*react-dom\.`),
	banner("underscore", "Underscore.js ", `Underscore\.js `+ver+`\n`, "Based on", "| "),
	banner("backbone", "Backbone.js ", `Backbone\.js `+ver+`\n`),
	banner("handlebars", "handlebars v", `handlebars v`+ver),
	banner("dompurify", "DOMPurify ", `DOMPurify `+ver+` \|`),
	banner("select2", "Select2 ", `Select2 `+ver+`(?: \||\n)`),
	banner("knockout", "Knockout JavaScript library v", `Knockout JavaScript library v`+ver),
	banner("d3", "https://d3js.org v", `https://d3js\.org v`+ver),
	banner("chart.js", "Chart.js v", `Chart\.js v`+ver),
	banner("chart.js", "Chart.js\n", `Chart\.js\n \* http://chartjs\.org/\n \* Version: `+ver),
	banner("axios", "Axios v", `Axios v`+ver),
	banner("axios", "axios v", `axios v`+ver+` \|`),
	banner("swiper", "Swiper ", `Swiper `+ver+`\n`),
	banner("@popperjs/core", "@popperjs/core v", `@popperjs/core v`+ver),
	banner("popper.js", "@version ", `@version `+ver+`\n[ *]*@license\n[ *]*Copyright \(c\) 20\d\d Federico Zivolo`),
	banner("datatables.net", "DataTables ", `DataTables `+ver+`\n`),
	banner("marked", "marked v", `marked v`+ver+` - a markdown parser`),
	banner("moment", "//! version : ", `//! version : `+ver, "moment-timezone"),
	banner("moment-timezone", "//! moment-timezone.js", `//! moment-timezone\.js\s{0,4}\n//! version : `+ver),
	banner("highcharts", "Highcharts JS v", `Highcharts JS v`+ver+` \(`),
	banner("video.js", "Video.js ", `Video\.js `+ver+` <http`),
	banner("leaflet", "Leaflet ", `Leaflet `+ver+`, a JS library for interactive maps`),
	banner("plotly.js", "plotly.js v", `plotly\.js v`+ver+`\s`),
	banner("summernote", "Summernote v", `Summernote v`+ver+` \|`),
	banner("bootstrap-select", "Bootstrap-select v", `Bootstrap-select v`+ver+` \(`),
	banner("quill", "Quill Editor v", `Quill Editor v`+ver+`\s`),
	banner("socket.io-client", "Socket.IO v", `Socket\.IO v`+ver+`\s`),
	anywhere(banner("mustache", "name: 'mustache.js'", `name: 'mustache\.js',\s{0,20}version: '`+ver+`'`)),
	anywhere(banner("mustache", `name:"mustache.js"`, `name:"mustache\.js",version:"`+ver+`"`)),
	// "Highlight.js v11.9.0 (git: f47103d4f1)", "Highlight.js 10.7.3 (0c4cc8a1)"
	// and 9.x's "highlight.js v9.18.5 | BSD3 License".
	banner("highlight.js", "Highlight.js ", `Highlight\.js v?`+ver+`\s`),
	banner("highlight.js", "highlight.js v", `highlight\.js v`+ver+` \|`),
	banner("tinymce", "TinyMCE version ", `TinyMCE version `+ver),
	banner("prototype", "Prototype JavaScript framework, version ", `Prototype JavaScript framework, version `+ver),
	banner("jquery-mobile", "jQuery Mobile ", `jQuery Mobile `+ver),
	banner("js-cookie", "JavaScript Cookie v", `JavaScript Cookie v`+ver),
	banner("js-cookie", "js-cookie v", `js-cookie v`+ver+` \|`),
	// jQuery plugins and widgets sites load from a vendor folder, under
	// their own names or renamed.
	banner("owl.carousel", "Owl Carousel v", `Owl Carousel v`+ver+`\s`),
	banner("magnific-popup", "Magnific Popup - v", `Magnific Popup - v`+ver+` - `),
	banner("@fancyapps/fancybox", "fancyBox v", `fancyBox v`+ver+`\s`),
	banner("hammerjs", "Hammer.JS - v", `Hammer\.JS - v`+ver+` - `),
	// slick's ASCII-art banner: " Version: 1.6.0\n  Author: Ken Wheeler".
	banner("slick-carousel", "Version: ", `Version: `+ver+`\s*\n\s*Author: Ken Wheeler`),
	banner("markdown-it", "markdown-it ", `markdown-it `+ver+` https://github\.com/markdown-it/markdown-it`),
	// Widgets, editors, charts and helpers sites load from their own
	// servers, by the banners of their npm dist files.
	banner("zepto", "Zepto v", `Zepto v`+ver+` - `),
	banner("clipboard", "clipboard.js v", `clipboard\.js v`+ver+`\s`),
	banner("sortablejs", "Sortable ", `Sortable `+ver+` - MIT`),
	banner("jspdf", "jsPDF - PDF Document creation from JavaScript", `jsPDF - PDF Document creation from JavaScript\s*\n[ \t*]*Version `+ver+`\s`),
	banner("gsap", "GSAP ", `GSAP `+ver+`\s`),
	// GSAP 2's TweenMax: "VERSION: 2.1.3\n * DATE: 2019-05-17\n * UPDATES AND DOCS AT: http://greensock.com"
	banner("gsap", "VERSION: ", `VERSION: `+ver+`\s*\n[ \t*]*DATE: [^\n]{0,40}\n[ \t*]*UPDATES AND DOCS AT: https?://(?:www\.)?greensock\.com`),
	banner("flickity", "Flickity ", `Flickity (?:PACKAGED )?v`+ver+`\s`),
	banner("isotope-layout", "Isotope ", `Isotope (?:PACKAGED )?v`+ver+`\s`),
	banner("lazysizes", "lazysizes - v", `lazysizes - v`+ver+`\s`),
	banner("photoswipe", "PhotoSwipe ", `PhotoSwipe (?:- v)?`+ver+` - `),
	banner("lightgallery", "lightgallery ", `lightgallery (?:- v|\| )`+ver+`\s`),
	banner("lightbox2", "Lightbox v", `Lightbox v`+ver+`\s*\n[ \t*]*by Lokesh Dhakar`),
	banner("@splidejs/splide", "Splide.js", `Splide\.js\s*\n[ \t*]*Version\s*: `+ver),
	banner("@glidejs/glide", "Glide.js v", `Glide\.js v`+ver+`\s`),
	banner("fullcalendar", "FullCalendar ", `FullCalendar (?:Standard Bundle )?v`+ver+`\s`),
	banner("chartist", "Chartist.js ", `Chartist\.js `+ver+`\s`),
	banner("apexcharts", "ApexCharts v", `ApexCharts v`+ver+`\s`),
	banner("c3", "C3.js v", `C3\.js v`+ver+`\s`),
	banner("konva", "Konva JavaScript Framework v", `Konva JavaScript Framework v`+ver+`\s`),
	banner("pixi.js", "pixi.js - v", `pixi\.js - v`+ver+`\s`),
	banner("flatpickr", "flatpickr v", `flatpickr v`+ver+`,`),
	banner("nouislider", "nouislider - ", `nouislider - `+ver+` - `),
	banner("choices.js", "choices.js v", `choices\.js v`+ver+` \|`),
	banner("cleave.js", "cleave.js - ", `cleave\.js - `+ver+`\s`),
	// Inputmask's banner names its repository, then its version:
	// "https://github.com/RobinHerbots/Inputmask\n* Copyright ...\n* Licensed under the MIT license ...\n* Version: 5.0.8".
	banner("inputmask", "RobinHerbots/Inputmask", `RobinHerbots/Inputmask\s*\n(?:[ \t*]*[^\n]{0,100}\n){0,3}[ \t*]*Version: `+ver),
	banner("jquery.inputmask", "RobinHerbots/jquery.inputmask", `RobinHerbots/jquery\.inputmask\s*\n(?:[ \t*]*[^\n]{0,100}\n){0,3}[ \t*]*Version: `+ver),
	banner("simplemde", "simplemde v", `simplemde v`+ver+`\s`),
	banner("easymde", "easymde v", `easymde v`+ver+`\s`),
	banner("jsencrypt", "JSEncrypt v", `JSEncrypt v`+ver+` \|`),
	banner("riot", "Riot v", `Riot v`+ver+`, @license`),
	banner("core-js", "core-js ", `core-js `+ver+`\s*\n[ \t*]*(?:https://github\.com/zloirock/core-js|© 20)`),
	banner("froala-editor", "froala_editor v", `froala_editor v`+ver+` \(https://www\.froala\.com`),
	// UAParser.js, also where a library bundles it with its banner
	// (plupload's moxie.js: "UAParser.js v0.7.7"); its minified builds
	// without one keep LIBVERSION="1.0.35".
	banner("ua-parser-js", "UAParser.js v", `UAParser\.js v`+ver),

	code("lodash", "VERSION", `VERSION\s?=\s?["']`+ver+`["']`, `^lodash(\.core)?(\.min)?\.js$`),
	code("moment", "version", `version\s?=\s?["']`+ver+`["']`, `^moment(-with-locales)?(\.min)?\.js$`),
	code("underscore", "VERSION", `VERSION\s?=\s?["']`+ver+`["']`, `^underscore(-umd|-esm)?(-min|\.min)?\.js$`),
	code("backbone", "VERSION", `VERSION\s?=\s?["']`+ver+`["']`, `^backbone(-min|\.min)?\.js$`),
	code("handlebars", "VERSION", `VERSION\s?=\s?["']`+ver+`["']`, `^handlebars(\.runtime)?(\.min)?\.js$`),
	code("d3", "version", `version\s?[:=]\s?["']`+ver+`["']`, `^d3(\.v\d)?(\.min)?\.js$`),
	code("react", "version", `version\s?=\s?["']`+ver+`["']`, `^react\.(development|production\.min)\.js$`),
	code("react-dom", "version", `version\s?=\s?["']`+ver+`["']`, `^react-dom\.(development|production\.min)\.js$`),
	code("codemirror", "CodeMirror.version", `CodeMirror\.version\s?=\s?["']`+ver+`["']`, `^codemirror(\.min)?\.js$`),
	code("ua-parser-js", "LIBVERSION", `LIBVERSION\s?=\s?["']`+ver+`["']`, `^ua-parser(\.min)?\.js$`),
	code("jquery-ui-timepicker-addon", "$.timepicker.version", `\$\.timepicker\.version\s?=\s?["']`+ver+`["']`, `^jquery-ui-timepicker-addon(\.min)?\.js$`),
	// lodash 4.17.16 and later minified: var X,nn="4.17.21",tn=200,rn="Unsupported core-js use. ..."
	signature("lodash", `="Unsupported core-js use.`, `="`+ver+`",[\w$]{1,3}=200,[\w$]{1,3}="Unsupported core-js use\.`),
	// moment minified: c.version="2.24.0",e=bt,c.fn=mn,c.min=function(){return Wt("isBefore",[].slice.call(arguments,0))}
	signature("moment", `("isBefore",[].slice.call(arguments,0))`,
		`\.version="`+ver+`",[\w$]{1,3}=[\w$]{1,3},[\w$]{1,3}\.fn=[\w$]{1,3},[\w$]{1,3}\.min=function\(\)\{return [\w$]{1,3}\("isBefore",\[\]\.slice\.call\(arguments,0\)\)`),
	// React DOM 16 production: {findFiberByHostInstance:Bb,bundleType:0,version:"16.14.0",rendererPackageName:"react-dom"}
	signature("react-dom", `,rendererPackageName:"react-dom"`, `bundleType:0,version:"`+ver+`",rendererPackageName:"react-dom"`),
	// lodash bundled and minified with its VERSION inlined (webpack):
	// Nn.VERSION="4.17.20",wt(["bind","bindKey","curry","curryRight","partial","partialRight"],...
	signature("lodash", `(["bind","bindKey","curry","curryRight","partial","partialRight"]`,
		`\.VERSION="`+ver+`"[,;][\w$]{1,4}\(\["bind","bindKey","curry","curryRight","partial","partialRight"\]`),
	// Vue 2 bundled and minified: Object.defineProperty(An,"FunctionalRenderContext",{value:$t}),An.version="2.6.14"
	after("vue", `"FunctionalRenderContext",{value:`, `"FunctionalRenderContext",\{value:[\w$]{1,4}\}\)[,;][\w$]{1,4}\.version="`+ver+`"`),
	// Vue 3 bundled and minified, whose banners (before 3.4) a bundle does
	// not keep: the app object's version is a constant set elsewhere,
	// {_uid:Xi++,_component:s,...,_context:i,_instance:null,version:ss,...} and ss="3.2.47".
	constant("vue", `,_instance:null,version:`, `,_instance:null,version:([\w$]{1,4})[,}]`),
	after("vue", `,_instance:null,version:"`, `,_instance:null,version:"`+ver+`"`),
	// jQuery minified, alone or in a bundle that dropped its banner:
	// C.fn=C.prototype={jquery:k,constructor:C,... and k="3.5.1".
	constant("jquery", `.prototype={jquery:`, `\.prototype=\{jquery:([\w$]{1,4}),constructor:`),
	// Angular (2 and later) stamps its version on the root element:
	// esbuild builds (Angular 17+) inline it, fi(e,n,["ng-version","17.3.12"]);
	// webpack builds name the VERSION constant, "ng-version",Xc.full with
	// Xc=new Pd("12.2.16").
	after("@angular/core", `["ng-version","`, `\["ng-version","`+ver+`"\]`),
	constant("@angular/core", `"ng-version",`, `"ng-version",([\w$]{1,4})\.full\b`),
	// Next.js (13 and later) client runtime, whose exports are emitter,
	// hydrate, initialize, router and version, the last a constant:
	// {emitter:function(){return z},hydrate:function(){return ef},initialize:
	// function(){return K},router:function(){return n},version:function(){return G}} and G="14.2.3".
	constant("next", `,hydrate:`, `,hydrate:`+getter+`,initialize:`+getter+`,router:`+getter+`,version:(?:function\(\)\{return |\(\)=>)([\w$]{1,4})\b`),
	// PDF.js: its source's pdfjsVersion, and in the minified builds the
	// version the API sends its worker, {docId:n,apiVersion:"2.16.105",source:...},
	// and the worker checks: l="4.0.379";if(c!==l)throw new Error(`The API version ...
	after("pdfjs-dist", "pdfjsVersion", `pdfjsVersion\s?=\s?['"]`+ver+`['"]`),
	after("pdfjs-dist", `,apiVersion:"`, `,apiVersion:"`+ver+`",(?:source|data):`),
	signature("pdfjs-dist", "throw new Error(\x60The API version", `="`+ver+`";if\([\w$]{1,4}!==[\w$]{1,4}\)throw new Error\(\x60The API version`),
	// moment bundled by a minifier that did not inline its min (terser
	// without extra passes): a.version="2.29.1",i(Jn),a.fn=li,a.min=Zn,...
	after("moment", `.version="`, `\.version="`+ver+`",(?:[\w$]{1,4}\([\w$]{1,4}\)|[\w$]{1,4}=[\w$]{1,4}),[\w$]{1,4}\.fn=[\w$]{1,4},[\w$]{1,4}\.min=`),
	// Handlebars 4 bundled: t.VERSION="4.7.6",t.COMPILER_REVISION=8; its
	// minified dist: g="4.7.7";t.VERSION=g;var _=8;t.COMPILER_REVISION=_
	signature("handlebars", `.COMPILER_REVISION=`, `\.VERSION="`+ver+`"[,;][\w$]{1,4}\.COMPILER_REVISION=`),
	signature("handlebars", `.COMPILER_REVISION=`, `="`+ver+`";[\w$]{1,4}\.VERSION=[\w$]{1,4};var [\w$]{1,4}=\d{1,2};[\w$]{1,4}\.COMPILER_REVISION=`),
	// DOMPurify 2 bundled: t.version="2.0.12",t.removed=[] (its banner
	// names no version, and its licence URL another one).
	signature("dompurify", `.removed=[]`, `\.version="`+ver+`"[,;][\w$]{1,4}\.removed=\[\]`),
	// React without its banner (React 18's names no version): the last
	// exports, t.useTransition=function(){return U.current.useTransition()},t.version="18.3.1"
	// and in React 16 and 17 t.useState=function(e){return R().useState(e)},t.version="16.14.0".
	after("react", `.useTransition()}`, `\.useTransition\(\)\}[,;][\w$]{1,4}\.version="`+ver+`"`),
	after("react", `().useState(`, `\(\)\.useState\([\w$]{1,3}\)\}[,;][\w$]{1,4}\.version="`+ver+`"`),
	// Axios 1.x bundled: its version constant names its warnings,
	// "[Axios v"+om+"] Transitional option ... and om="1.6.0".
	constant("axios", `"[Axios v"+`, `"\[Axios v"\+([\w$]{1,4})\+"\] Transitional option`),
	// and its dist build, with the version written in: "[Axios v1.6.0] Transitional option
	after("axios", `"[Axios v`, `"\[Axios v`+ver+`\] Transitional option`),
	// Bootstrap 4 plugins without their banner: var p="alert",y="4.3.1",g="bs.alert"
	signature("bootstrap", `="bs.`, `="(?:alert|button|carousel|collapse|dropdown|modal|popover|scrollspy|tab|toast|tooltip)",[\w$]{1,4}="`+ver+`",[\w$]{1,4}="bs\.`),
	// Bootstrap 5: static get VERSION(){return"5.3.3"}static get DATA_KEY(){return`bs.${this.NAME}`},
	// and esbuild's builds, which keep the constant: L2e="5.3.2",... static get VERSION(){return L2e}
	after("bootstrap", `static get VERSION(){return"`, `static get VERSION\(\)\{return"`+ver+`"\}static get DATA_KEY\(\)\{return\x60bs\.`),
	constant("bootstrap", `static get VERSION(){return `, `static get VERSION\(\)\{return ([\w$]{1,4})\}static get DATA_KEY\(\)\{return\x60bs\.`),
	// Bootstrap 4's dist and its webpack builds, whose constants terser
	// inlined into Babel's class getters: the alert plugin's
	// [{key:"VERSION",get:function(){return"4.6.2"}}]),t}();o.default(document).on("click.bs.alert.data-api",'[data-dismiss="alert"]'
	after("bootstrap", `{key:"VERSION",get:function(){return"`, `\{key:"VERSION",get:function\(\)\{return"`+ver+`"\}\}\]\),[\w$]{1,4}\}\(\);[\w$]{1,4}(?:\.default)?\(document\)\.on\([^)]{0,60}?'\[data-dismiss="alert"\]'`),
	// Chart.js 3 and 4 without their banner: kte="4.4.0",Cte=["top","bottom","left","right","chartArea"]
	signature("chart.js", `,"chartArea"]`, `="`+ver+`",[\w$]{1,4}=\["top","bottom","left","right","chartArea"\]`),
	// Vue 2.7's exports object: var Rn="2.7.14";var Fn=Object.freeze({__proto__:null,version:Rn,defineComponent:
	constant("vue", `Object.freeze({__proto__:null,version:`, `Object\.freeze\(\{__proto__:null,version:([\w$]{1,4}),defineComponent:`),
	// Nuxt 3's app object: versions:{get nuxt(){return"3.21.11"},get vue(){...}}
	after("nuxt", `versions:{get nuxt(){return"`, `versions:\{get nuxt\(\)\{return"`+ver+`"\}`),
	// Ember's banner, kept in vendor.js: "@overview  Ember - JavaScript
	// Application Framework ... See https://raw.github.com/emberjs/ember.js/master/LICENSE
	// * @version   5.12.0".
	banner("ember-source", "emberjs/ember.js/master/LICENSE", `emberjs/ember\.js/master/LICENSE\s*\n\s*\*\s*@version\s+`+ver),
	// TinyMCE bundled without its banner: majorVersion:"6",minorVersion:"8.2",releaseDate:"2023-12-11"
	joined(after("tinymce", `majorVersion:"`, `majorVersion:"(\d{1,2})",minorVersion:"(\d{1,3}\.\d{1,3})",releaseDate:"`)),
	// CKEditor 5: const x="41.0.0",E=new Date(2024,0,17);if(globalThis.CKEDITOR_VERSION)throw new A("ckeditor-duplicated-modules"
	signature("ckeditor5", `.CKEDITOR_VERSION)throw`, `="`+ver+`"(?:,[\w$]{1,4}=new Date\([\d,]{5,12}\))?;if\((?:globalThis|window)\.CKEDITOR_VERSION\)throw`),
	// moment-timezone minified: S.version="0.5.43",S.dataVersion="",S._zones=W
	after("moment-timezone", `.version="`, `\.version="`+ver+`",[\w$]{1,4}\.dataVersion=`),
	// CKEditor 4 (ckeditor.js): {timestamp:"L7CC",version:"4.16.2 (Standard)",revision:"4e64f67219",...
	after("ckeditor4", `timestamp:"`, `timestamp:"\w{1,8}",version:"`+ver+`(?: \([\w ]{1,40}\))?",revision:"`),
	code("vue", "version", `version\s?=\s?["']`+ver+`["']`, `^vue(\.runtime)?(\.global|\.esm-browser|\.common)?(\.prod|\.min)?\.js$`),

	// Libraries bundled or concatenated without their banners, each by the
	// version constant beside code only it has (excerpts of real webpack,
	// Vite and terser builds in banner_test.go).
	//
	// Next.js 12 and 13's client runtime: t.version="12.3.4",t.router=p;var T=y.default();t.emitter=T
	// and {version:function(){return q},router:function(){return n},emitter:... with q="13.4.19".
	signature("next", `.emitter=`, `\.version="`+ver+`",[\w$]{1,4}\.router=[\w$]{1,4};var [\w$]{1,4}=[\w$]{1,4}\.default\(\);[\w$]{1,4}\.emitter=`),
	constant("next", `{version:`, `\{version:(?:function\(\)\{return |\(\)=>)([\w$]{1,4})\}?,router:`+getter+`\}?,emitter:`),
	// vue-router 3: Ht.version="3.5.3",Ht.isNavigationFailure=At; vuex 3 and
	// 4's export object: {Store:p,install:b,version:"3.6.2",mapState:w
	signature("vue-router", `.isNavigationFailure=`, `\.version="`+ver+`"[,;][\w$]{1,4}\.isNavigationFailure=`),
	signature("vuex", `",mapState:`, `,version:"`+ver+`",mapState:`),
	// Underscore 1.x's UMD export: exports._=d),d.VERSION="1.9.1" (or t._=R),R.VERSION=...).
	after("underscore", `._=`, `\._=[\w$]{1,4}\),[\w$]{1,4}\.VERSION="`+ver+`"`),
	// Backbone: e.VERSION="1.4.0",e.$=i,e.noConflict=function(){return t.Backbone=r
	signature("backbone", `.noConflict=`, `\.VERSION="`+ver+`"[,;][\w$]{1,4}\.\$=[\w$]{1,4}[,;][\w$]{1,4}\.noConflict=`),
	// d3 v4-v7, UMD: t.variance=l,t.version="5.16.0",t.voronoi= (its exports
	// in alphabetical order); ES modules: var e7="5.16.0";function GE(e,t){return e<t?-1:e>t?1:e>=t?0:NaN}
	signature("d3", `.voronoi=`, `\.version="`+ver+`",[\w$]{1,4}\.voronoi=`),
	// d3 v7, which has no voronoi: t.version="7.8.5",t.window=pn,t.xml=
	signature("d3", `.xml=`, `\.version="`+ver+`",[\w$]{1,4}\.window=[\w$]{1,4},[\w$]{1,4}\.xml=`),
	signature("d3", `?0:NaN}`, `="`+ver+`";function [\w$]{1,4}\([\w$]{1,4},[\w$]{1,4}\)\{return [\w$]{1,4}<[\w$]{1,4}\?-1:[\w$]{1,4}>[\w$]{1,4}\?1:[\w$]{1,4}>=[\w$]{1,4}\?0:NaN\}`),
	// Bootstrap 3's plugins: n.VERSION="3.3.7",n.TRANSITION_DURATION=150
	signature("bootstrap", `.TRANSITION_DURATION=`, `\.VERSION="(3\.\d{1,2}\.\d{1,2})"[,;][\w$]{1,4}\.TRANSITION_DURATION=`),
	// jQuery UI's core: t.ui=t.ui||{},t.ui.version="1.12.1"
	after("jquery-ui", `.ui.version="`, `\.ui\.version="`+ver+`"`),
	// lodash 4.17.15 and earlier, minified: _t.VERSION="4.17.15",n("bind bindKey curry curryRight partial partialRight".split(" ")
	signature("lodash", `("bind bindKey curry curryRight partial partialRight".split(" ")`,
		`\.VERSION="`+ver+`"[,;][\w$]{1,4}\("bind bindKey curry curryRight partial partialRight"\.split\(" "\)`),
	// AngularJS: Ci={full:"1.7.9",major:1,minor:7,dot:9,codeName:"pollution-eradication"}
	after("angular", `{full:"`, `\{full:"`+ver+`",major:\d{1,2},minor:\d{1,2},dot:\d{1,3},codeName:"`),
	// Knockout: _.version="3.5.0",_.b("version",_.version),_.options={deferUpdates:!1
	signature("knockout", `.options={deferUpdates:`, `\.version="`+ver+`"[,;][\w$]{1,4}\.[\w$]{1,4}\("version",[\w$]{1,4}\.version\)[,;][\w$]{1,4}\.options=\{deferUpdates:`),
	// DataTables: qt.version="1.10.20",qt.settings=[],qt.models={},qt.models.oSearch=
	signature("datatables.net", `.models.oSearch=`, `\.version="`+ver+`",[\w$]{1,4}\.settings=\[\],[\w$]{1,4}\.models=\{\},[\w$]{1,4}\.models\.oSearch=`),
	// SweetAlert2 7 and 8 set it on their global: window.Sweetalert2.version="7.33.1"
	after("sweetalert2", `.Sweetalert2.version="`, `\.Sweetalert2\.version="`+ver+`"`),
	// Video.js without its banner (6.x minified): se.VERSION=le,se.options=Yo.prototype.options_
	// and le="6.13.0".
	constant("video.js", `.VERSION=`, `\.VERSION=([\w$]{1,4}),[\w$]{1,4}\.options=[\w$]{1,4}\.prototype\.options_[,;]`),
	// Plyr's default sprite is the CDN's copy of its own version:
	// iconUrl:"https://cdn.plyr.io/3.7.8/plyr.svg".
	after("plyr", `https://cdn.plyr.io/`, `https://cdn\.plyr\.io/`+ver+`/plyr\.svg`),
	// three.js names its releases by revision, r150, which npm publishes
	// as 0.150.0 (a few as "125dev"): its UMD build exports them in
	// alphabetical order, t.REVISION=e,t.RGBADepthPacking=_e with const
	// e="150"; its unminified builds write const REVISION = '150';.
	revision(constant("three", `.REVISION=`, `\.REVISION=([\w$]{1,4}),[\w$]{1,4}\.RGBADepthPacking=`)),
	revision(after("three", ` REVISION = '`, ` REVISION = '(\d{2,3})(?:dev)?';`)),
	// SweetAlert2: yl.DismissReason=gf;yl.version="9.10.0"
	after("sweetalert2", `.DismissReason=`, `\.DismissReason=[\w$]{1,4}[,;][\w$]{1,4}\.version="`+ver+`"`),
	// core-js 3.2x's minified bundle: (u.versions||(u.versions=[])).push({version:"3.37.1",mode:n?"pure":"global",copyright:"© 2014-2024 Denis Pushkarev
	after("core-js", `.push({version:"`, `\.push\(\{version:"`+ver+`",mode:[\w$?:"]{1,30},copyright:"© [\d-]{4,9} Denis Pushkarev`),
	// jsPDF: M.API={events:[]},M.version="2.5.1"
	after("jspdf", `.API={events:[]},`, `\.API=\{events:\[\]\},[\w$]{1,4}\.version="`+ver+`"`),
	// Handsontable: .packageName="handsontable",p.buildDate="16/04/2024 12:24:50",p.version="14.3.0"
	after("handsontable", `.packageName="handsontable",`, `\.packageName="handsontable",[\w$]{1,4}\.buildDate="[^"]{0,40}",[\w$]{1,4}\.version="`+ver+`"`),
	// Dropzone: b.version="5.9.3",b.options={},b.optionsForElement=
	signature("dropzone", `.optionsForElement=`, `\.version="`+ver+`",[\w$]{1,4}\.options=\{\},[\w$]{1,4}\.optionsForElement=`),
	// ECharts 5: t.vector=Xt,t.version="5.5.0",t.zrUtil=St (its exports in alphabetical order)
	signature("echarts", `.zrUtil=`, `\.version="`+ver+`",[\w$]{1,4}\.zrUtil=`),
	// Quill 2: static sources=N.A.sources;static version="2.0.2";static imports={delta:
	after("quill", `static version="`, `static version="`+ver+`";static imports=\{delta:`),
	// Libraries whose builds keep only a version constant, by the code
	// around it (npm's dist files): fabric's global, fabric=fabric||{version:"5.3.0"};
	// toastr's API object, {...,subscribe:s,success:i,version:"2.1.4",warning:a};
	// Alpine.js 3, ...,version:"3.13.10",flushAndStopDeferringMutations: and
	// 2, version: "2.8.2",\n pauseMutationObserver:; Mithril 1,
	// D.buildQueryString=F;D.version="1.1.6";D.vnode=B; Inferno,
	// e.rerender=On,e.version="8.2.3"; Tippy.js 2, _t.version='2.6.0',_t.browser=Ft,_t.defaults=;
	// Raphaël, e.version="2.3.0",e.eve=t; Immutable 4, B={version:"4.3.5",Collection:I,Iterable:I,Seq:F,...
	after("fabric", `fabric=fabric||{version:"`, `fabric=fabric\|\|\{version:"`+ver+`"\}`),
	signature("toastr", `",warning:`, `subscribe:[\w$]{1,4},success:[\w$]{1,4},version:"`+ver+`",warning:`),
	signature("alpinejs", `",flushAndStopDeferringMutations:`, `version:"`+ver+`",flushAndStopDeferringMutations:`),
	signature("alpinejs", `pauseMutationObserver:`, `version:\s?"`+ver+`",\s{0,12}pauseMutationObserver:`),
	signature("mithril", `.vnode=`, `\.buildQueryString=[\w$]{1,4};[\w$]{1,4}\.version="`+ver+`";[\w$]{1,4}\.vnode=`),
	after("inferno", `.rerender=`, `\.rerender=[\w$]{1,4},[\w$]{1,4}\.version="`+ver+`"`),
	signature("tippy.js", `.defaults=`, `\.version='`+ver+`',[\w$]{1,4}\.browser=[\w$]{1,4},[\w$]{1,4}\.defaults=`),
	signature("raphael", `.eve=`, `\.version="`+ver+`",[\w$]{1,4}\.eve=`),
	signature("immutable", `,Seq:`, `\{version:"`+ver+`",Collection:[\w$]{1,4},Iterable:[\w$]{1,4},Seq:`),
	// CodeMirror 5 built with rollup: CodeMirror$1.version = "5.40.0";
	after("codemirror", "CodeMirror$1.version", `CodeMirror\$1\.version\s?=\s?["']`+ver+`["']`),
	// core-js's shared store: ("versions",[]).push({version:"3.6.5",mode:"global",copyright:"© 2020 Denis Pushkarev
	after("core-js", `("versions",[]).push({version:"`, `\("versions",\[\]\)\.push\(\{version:"`+ver+`",mode:"(?:global|pure)"`),
	// ECharts 4 and 5: t.version="4.9.0",t.dependencies={zrender:"4.3.2"}
	signature("echarts", `.dependencies={zrender:`, `\.version="`+ver+`"[,;][\w$]{1,4}\.dependencies=\{zrender:`),
	// SheetJS (xlsx): t.version="0.16.9";var r=1200,i=1252; (its codepage
	// defaults follow the version)
	signature("xlsx", `=1252`, `\.version="`+ver+`";var [\w$]{1,4}=1200,[\w$]{1,4}=1252`),
	banner("pdfmake", "pdfmake v", `pdfmake v`+ver+`, @license`),

	// Libraries WordPress and other PHP applications ship (excerpts of
	// Debian's wordpress 6.1.9 and libjs-mathjax 2.7.9 in banner_test.go).
	//
	// MathJax 2 sets its version on its global, packed or not:
	// MathJax.isPacked=true;MathJax.version="2.7.9";MathJax.fileversion="2.7.9"
	after("mathjax", "MathJax.version", `MathJax\.version\s?=\s?["']`+ver+`["']`),
	// MediaElement.js's banner names no version; its core object does,
	// var r={version:"4.2.17",html5media:{properties:["volume",... and
	// unminified mejs.version = '4.2.17';
	signature("mediaelement", `",html5media:{`, `\{version:"`+ver+`",html5media:\{`),
	after("mediaelement", "mejs.version", `mejs\.version\s?=\s?["']`+ver+`["']`),
	// Masonry's and imagesLoaded's packaged builds: "Masonry PACKAGED v4.2.2".
	banner("masonry-layout", "Masonry ", `Masonry (?:PACKAGED )?v`+ver+`\s`),
	banner("imagesloaded", "imagesLoaded ", `imagesLoaded (?:PACKAGED )?v`+ver+`\s`),
	// "jQuery Color v2.2.0" (its dist) and "jQuery Color Animations v2.2.0" (its source).
	banner("jquery-color", "jQuery Color ", `jQuery Color (?:Animations )?v`+ver+`\s`),
	// "jQuery Form Plugin\n * version: 4.3.0\n * Requires jQuery v1.7.2 or later"
	banner("jquery-form", "jQuery Form Plugin", `jQuery Form Plugin\s*\n[ \t*]*version: `+ver),
	// Plupload's constants: {VERSION:"2.1.9",STOPPED:1,STARTED:2,QUEUED:1,UPLOADING:2,
	// and in plupload.js, VERSION : '2.1.9', (VERSION alone is anyone's).
	signature("plupload", `",STOPPED:1,STARTED:2,QUEUED:1,`, `VERSION:"`+ver+`",STOPPED:1,STARTED:2,QUEUED:1,`),
	code("plupload", "VERSION", `VERSION\s?:\s?["']`+ver+`["']`, `^plupload(\.full|\.dev)?(\.min)?\.js$`),
	// Knockout's debug build minified, or bundled from its source, keeps
	// the name of its export helper: f.version="3.4.2",f.exportSymbol("version",f.version)
	signature("knockout", `.exportSymbol("version",`, `\.version\s?=\s{0,2}"`+ver+`"\s{0,2}[,;]\s{0,2}[\w$]{1,4}\.exportSymbol\("version",`),
}

// Find returns the versions that content claims, in file order, at most one
// per (library, version). name is the file's URL path or name: code rules
// apply only when its base name names their library. Content past MaxScan is
// ignored.
func Find(name string, content []byte) []Match {
	if len(content) > MaxScan {
		content = content[:MaxScan]
	}
	base := strings.ToLower(path.Base(name))
	if i := strings.IndexAny(base, "?#"); i >= 0 {
		base = base[:i]
	}
	var out []Match
	seen := map[[2]string]bool{}
	for i := range rules {
		r := &rules[i]
		if r.fileRe != nil && !r.fileRe.MatchString(base) {
			continue
		}
		key := []byte(r.key)
		for n, off := 0, 0; n < maxKeys && off < len(content); n++ {
			j := bytes.Index(content[off:], key)
			if j < 0 {
				break
			}
			at := off + j
			off = at + len(key)
			if vetoed(content, at, r.not) || (!r.code && !r.anywhere && !inComment(content, at)) {
				continue
			}
			var m [][]byte
			if r.back {
				m = r.re.FindSubmatch(content[max(0, at-window) : at+len(key)])
			} else {
				m = r.re.FindSubmatch(content[at:min(len(content), at+window)])
			}
			if len(m) < 2 || len(m[1]) == 0 || slices.ContainsFunc(r.notIn, func(n string) bool { return bytes.Contains(m[0], []byte(n)) }) {
				continue
			}
			v, text := string(m[1]), m[0]
			if r.join {
				if len(m) < 3 || len(m[2]) == 0 {
					continue
				}
				v += "." + string(m[2])
			}
			if r.ref {
				value := constVersion
				if r.revision {
					value = constRevision
				}
				cv, set := constantValue(content, m[1], at, value)
				if cv == "" {
					continue
				}
				v, text = cv, slices.Concat(m[0], []byte(" … "), set)
			}
			if r.revision {
				v = "0." + v + ".0"
			}
			k := [2]string{r.lib, v}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, Match{Library: r.lib, Version: v, Text: oneLine(text), Offset: at, Code: r.code})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return dropShadowed(out)
}

// constVersion is what a version constant is set to, right after its
// name: `="3.2.47"`, or a version object, `=new Pd("12.2.16")`.
var constVersion = regexp.MustCompile(`^=(?:new [\w$]{1,4}\()?"` + ver + `"`)

// constRevision is what three.js's revision constant is set to: `="150"`,
// `="125dev"`.
var constRevision = regexp.MustCompile(`^="(\d{2,3})(?:dev)?"`)

// constantValue finds where the constant named name is set to a version,
// as value reads it (`,ss="3.2.47"`, `const ss="3.2.47"`, `Xc=new
// Pd("12.2.16")`), and returns the version and the text; "" when it is
// not found within maxKeys assignments to name each way. Minified names
// are short and a bundle reuses them in every module, so the assignment
// nearest before use, at, is taken first (a library sets its version at
// its top), then the nearest after it. The end of a longer name (`_e="`
// for e) is passed over without counting: each search starts where the
// last ended, so the whole is still linear in the content.
func constantValue(content, name []byte, at int, value *regexp.Regexp) (string, []byte) {
	for _, back := range []bool{true, false} {
		for _, op := range []string{`="`, `=new `} {
			assign := append(bytes.Clone(name), op...)
			lo, hi := at, at
			for n := 0; n < maxKeys; {
				var j int
				if back {
					if j = bytes.LastIndex(content[:hi], assign); j < 0 {
						break
					}
					hi = j
				} else {
					if j = bytes.Index(content[lo:], assign); j < 0 {
						break
					}
					j += lo
					lo = j + len(assign)
				}
				if j > 0 && isIdent(content[j-1]) {
					continue // the end of a longer name
				}
				n++
				end := j + len(name)
				if m := value.FindSubmatch(content[end:min(len(content), end+window)]); m != nil {
					return string(m[1]), content[j : end+len(m[0])]
				}
			}
		}
	}
	return "", nil
}

// isIdent reports whether c can be part of a JavaScript identifier (ASCII).
func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// dropShadowed removes a code match when a banner already named the same
// library: the banner is the stronger claim, and a second version from code
// in the same file would only be another library's constant.
func dropShadowed(ms []Match) []Match {
	banners := map[string]bool{}
	for _, m := range ms {
		if !m.Code {
			banners[m.Library] = true
		}
	}
	out := ms[:0]
	for _, m := range ms {
		if m.Code && banners[m.Library] {
			continue
		}
		out = append(out, m)
	}
	return out
}

// inComment reports whether position at is inside a comment: a block
// comment opened in the 2 KiB before it and not closed since, or a line
// comment ("//" or "//!") earlier on the same line.
func inComment(content []byte, at int) bool {
	lo := max(0, at-2048)
	before := content[lo:at]
	if open := bytes.LastIndex(before, []byte("/*")); open >= 0 && bytes.LastIndex(before, []byte("*/")) < open {
		return true
	}
	line := before
	if nl := bytes.LastIndexByte(before, '\n'); nl >= 0 {
		line = before[nl+1:]
	}
	rest := bytes.TrimLeft(line, " \t")
	if len(rest) == 0 { // the key starts the line: is the key the comment?
		rest = content[at:min(len(content), at+2)]
	}
	return bytes.HasPrefix(rest, []byte("//"))
}

func vetoed(content []byte, at int, not []string) bool {
	if len(not) == 0 {
		return false
	}
	lo := max(0, at-40)
	for _, n := range not {
		if bytes.Contains(content[lo:at], []byte(n)) {
			return true
		}
	}
	return false
}

// oneLine returns b with runs of whitespace and comment stars folded to one
// space, for evidence text.
func oneLine(b []byte) string {
	f := strings.FieldsFunc(string(b), func(r rune) bool { return r == '\n' || r == '\r' || r == '\t' || r == ' ' || r == '*' })
	return strings.Join(f, " ")
}

// Libraries returns the npm names of the libraries Find knows, sorted.
func Libraries() []string {
	set := map[string]bool{}
	for _, r := range rules {
		set[r.lib] = true
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}
