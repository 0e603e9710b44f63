package catalog

import "regexp"

// NPMPackage says which files of an npm package's versions the catalog
// hashes: the distributables a site serves to browsers, never tests,
// sources for bundlers or locale data.
type NPMPackage struct {
	// Name is the npm package name.
	Name string
	// Files matches the paths inside the tarball, without the leading
	// "package/" directory.
	Files *regexp.Regexp
	// License is the package's licence, for data/SOURCES.md.
	License string
	// Library is the library the files are, where it is not the package:
	// the browser builds of highlight.js are published as
	// @highlightjs/cdn-assets, at highlight.js's versions, and its
	// advisories name highlight.js. Empty: Name.
	Library string
}

// library is the name the package's entries record.
func (p NPMPackage) library() string {
	if p.Library != "" {
		return p.Library
	}
	return p.Name
}

func pkg(name, license, files string) NPMPackage {
	return NPMPackage{Name: name, License: license, Files: regexp.MustCompile(files)}
}

// DefaultPackages are the libraries the embedded catalog covers: the
// front-end libraries with advisories in OSV's npm ecosystem first (jquery,
// jquery-ui, bootstrap, angular, lodash, moment, handlebars, dompurify,
// underscore, select2, vue, jquery-validation, datatables.net, marked,
// axios, chart.js, swiper, d3, knockout, mustache, backbone), then the
// companions they are loaded with, then editors, widgets and other
// libraries sites load from their own servers (tinymce to plyr). Most are
// MIT, BSD, ISC or Apache licensed; tinymce and ckeditor4 are (L)GPL, MIT
// or commercial by version, as License says and data/SOURCES.md records.
var DefaultPackages = []NPMPackage{
	pkg("jquery", "MIT", `^(dist/)?jquery(\.slim)?(\.min)?\.js$`),
	pkg("jquery-ui", "MIT", `^(dist/)?(jquery-ui(\.min)?\.(js|css)|themes/base/(jquery-ui|theme|all)(\.min)?\.css|ui/(widgets/|effects/)?[a-z-]+\.js)$`),
	pkg("jquery-migrate", "MIT", `^(dist/)?jquery-migrate(\.min)?\.js$`),
	pkg("jquery-validation", "MIT", `^dist/(jquery\.validate|additional-methods)(\.min)?\.js$`),
	pkg("bootstrap", "MIT", `^(dist/(js|css)/[a-z0-9.-]+\.(js|css)|js/(dist/)?[a-z-]+\.js)$`),
	pkg("@popperjs/core", "MIT", `^dist/umd/[a-z-]+(\.min)?\.js$`),
	pkg("popper.js", "MIT", `^dist/(umd/)?popper(-utils)?(\.min)?\.js$`),
	pkg("angular", "MIT", `^angular(-csp)?(\.min)?\.(js|css)$`),
	pkg("vue", "MIT", `^dist/vue(\.runtime)?(\.global|\.esm-browser)?(\.min|\.prod)?\.js$`),
	pkg("react", "MIT", `^(umd|dist)/react\.(development|production\.min|profiling\.min|min)?\.?js$`),
	pkg("react-dom", "MIT", `^(umd|dist)/react-dom\.(development|production\.min|profiling\.min|min)?\.?js$`),
	pkg("lodash", "MIT", `^(dist/)?lodash(\.core|\.compat|\.underscore)?(\.min)?\.js$|^core(\.min)?\.js$`),
	pkg("underscore", "MIT", `^underscore(-umd)?(-min)?\.js$`),
	pkg("backbone", "MIT", `^backbone(-min)?\.js$`),
	pkg("moment", "MIT", `^(min/)?moment(-with-locales)?(\.min)?\.js$`),
	pkg("handlebars", "MIT", `^dist/handlebars(\.runtime)?(\.min)?\.js$`),
	pkg("mustache", "MIT", `^mustache(\.min)?\.js$`),
	pkg("dompurify", "MPL-2.0 OR Apache-2.0", `^dist/purify(\.min)?\.js$`),
	pkg("select2", "MIT", `^(dist/(js|css)/)?select2(\.full)?(\.min)?\.(js|css)$`),
	pkg("knockout", "MIT", `^(build/output/knockout-latest(\.debug)?|dist/knockout(\.debug)?)\.js$`),
	pkg("d3", "ISC (BSD-3-Clause before v6)", `^(dist/)?d3(\.v\d)?(\.min)?\.js$`),
	pkg("chart.js", "MIT", `^dist/(?i:chart)(\.bundle)?(\.umd)?(\.min)?\.js$`),
	pkg("axios", "MIT", `^dist/axios(\.min)?\.js$`),
	pkg("swiper", "MIT", `^(swiper-bundle(\.min)?\.(js|css)|(dist/)?(js|css)/swiper(\.min)?\.(js|css))$`),
	pkg("datatables.net", "MIT", `^js/(jquery\.)?dataTables(\.min)?\.js$`),
	pkg("marked", "MIT", `^(lib/marked\.umd|marked\.min|lib/marked|marked)\.js$`),
	pkg("tinymce", "LGPL-2.1 (4.x, 5.x), MIT (6.x), GPL-2.0-or-later (7.x, 8.x; from 8.3 also Tiny's commercial terms)", `^tinymce(\.min)?\.js$`),
	pkg("ckeditor4", "GPL-2.0-or-later OR LGPL-2.1-or-later OR MPL-1.1 (to 4.22), CKSource's commercial LTS terms (4.23 on)", `^ckeditor\.js$`),
	pkg("prismjs", "MIT", `^(prism\.js|components/prism-core(\.min)?\.js|themes/prism(-[a-z]+)?(\.min)?\.css)$`),
	// highlight.js's own npm package has no browser build; the CDN build
	// (what cdnjs and jsDelivr serve) is published as @highlightjs/cdn-assets.
	{Name: "@highlightjs/cdn-assets", Library: "highlight.js", License: "BSD-3-Clause", Files: regexp.MustCompile(`^(highlight(\.min)?\.js|styles/default(\.min)?\.css)$`)},
	pkg("markdown-it", "MIT", `^dist/(markdown-it(\.min)?\.js|browser/markdown-it\.umd\.min\.js)$`),
	pkg("video.js", "Apache-2.0", `^(dist/(video-js/|cdn/)?)?(video(\.dev)?(\.min)?\.js|video-js(\.dev)?(\.min)?\.css)$`),
	pkg("three", "MIT", `^(build/)?three(\.min)?\.js$`),
	pkg("sweetalert2", "MIT", `^dist/(sweetalert2(\.all)?(\.min)?\.js|sweetalert2(\.min)?\.css)$`),
	pkg("leaflet", "BSD-2-Clause", `^dist/(leaflet(-src)?\.js|leaflet\.css)$`),
	pkg("slick-carousel", "MIT", `^slick/(slick(\.min)?\.js|slick(-theme)?\.css)$`),
	pkg("socket.io-client", "MIT", `^dist/socket\.io(\.slim|\.msgpack|\.esm)?(\.dev)?(\.min)?\.js$`),
	pkg("js-cookie", "MIT", `^(src/js\.cookie|dist/js\.cookie(\.min)?)\.js$`),
	pkg("moment-timezone", "MIT", `^(moment-timezone\.js|(builds|min)/moment-timezone(-with-data(-[0-9a-z-]+)?)?(\.min)?\.js)$`),
	pkg("plyr", "MIT", `^dist/(plyr(\.polyfilled)?(\.min)?\.js|plyr\.css)$`),
}

// DebianRule labels the files of a Debian package whose copies carry no
// banner: the files whose path matches Files belong to Library at the
// package's upstream version. Files with a banner are labelled by the
// banner whatever the package.
type DebianRule struct {
	Package string
	Library string
	Files   *regexp.Regexp
}

func deb(p, lib, files string) DebianRule {
	return DebianRule{Package: p, Library: lib, Files: regexp.MustCompile(files)}
}

// DefaultDebianRules cover Debian's libjs-* and node-* packages of the
// libraries above.
var DefaultDebianRules = []DebianRule{
	deb("libjs-jquery", "jquery", `/jquery(\.slim)?(\.min)?\.js$`),
	deb("node-jquery", "jquery", `/dist/jquery(\.slim)?(\.min)?\.js$`),
	deb("libjs-jquery-ui", "jquery-ui", `/jquery-ui(\.min)?\.(js|css)$`),
	deb("libjs-jquery-migrate-1", "jquery-migrate", `/jquery-migrate(\.min)?\.js$`),
	deb("libjs-bootstrap", "bootstrap", `/bootstrap(-theme)?(\.min)?\.(js|css)$`),
	deb("libjs-bootstrap4", "bootstrap", `/bootstrap[a-z.-]*\.(js|css)$`),
	deb("libjs-bootstrap5", "bootstrap", `/bootstrap[a-z.-]*\.(js|css)$`),
	deb("libjs-angularjs", "angular", `/angular(-csp)?(\.min)?\.(js|css)$`),
	deb("libjs-vue", "vue", `/vue(\.runtime)?(\.min)?\.js$`),
	deb("libjs-lodash", "lodash", `/lodash(\.core)?(\.min)?\.js$`),
	deb("libjs-underscore", "underscore", `/underscore(-umd)?(-min|\.min)?\.js$`),
	deb("libjs-backbone", "backbone", `/backbone(-min|\.min)?\.js$`),
	deb("libjs-moment", "moment", `/moment(-with-locales)?(\.min)?\.js$`),
	deb("libjs-handlebars", "handlebars", `/handlebars(\.runtime)?(\.min)?\.js$`),
	deb("libjs-mustache", "mustache", `/mustache(\.min)?\.js$`),
	deb("node-dompurify", "dompurify", `/purify(\.min)?\.js$`),
	deb("libjs-select2.js", "select2", `/select2(\.full)?(\.min)?\.(js|css)$`),
	deb("libjs-d3", "d3", `/d3(\.v\d)?(\.min)?\.js$`),
	deb("libjs-popper.js", "popper.js", `/popper(-utils)?(\.min)?\.js$`),
	deb("node-popper2", "@popperjs/core", `/umd/popper(-lite|-base)?(\.min)?\.js$`),
	deb("libjs-chart.js", "chart.js", `/(?i:chart)(\.bundle)?(\.umd)?(\.min)?\.js$`),
	deb("node-axios", "axios", `/dist/axios(\.min)?\.js$`),
	deb("libjs-jquery-datatables", "datatables.net", `/(jquery\.)?dataTables(\.min)?\.js$`),
	deb("libjs-marked", "marked", `/marked(\.min|\.umd)?\.js$`),
	deb("node-react", "react", `/umd/react\.(development|production\.min|profiling\.min)\.js$`),
	deb("node-react-dom", "react-dom", `/umd/react-dom\.(development|production\.min|profiling\.min)\.js$`),
}
