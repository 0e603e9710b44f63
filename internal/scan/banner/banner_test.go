package banner_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/scan/banner"
)

// TestFind_NPMFiles reads every real npm distributable in the scan's test
// data and checks that the banner (or, for minified builds without one,
// the version constant) names the library and version INDEX.csv records.
func TestFind_NPMFiles(t *testing.T) {
	dir := filepath.Join("..", "testdata", "npm")
	f, err := os.Open(filepath.Join(dir, "INDEX.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows[1:] {
		path, lib, version := row[0], row[1], row[2]
		t.Run(path, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, path))
			if err != nil {
				t.Fatal(err)
			}
			ms := banner.Find(path, b)
			if len(ms) == 0 {
				t.Fatalf("Find(%q) = nothing, want %s %s", path, lib, version)
			}
			if ms[0].Library != lib || ms[0].Version != version {
				t.Errorf("Find(%q)[0] = %s %s (%q), want %s %s", path, ms[0].Library, ms[0].Version, ms[0].Text, lib, version)
			}
			for _, m := range ms[1:] {
				if m.Library == lib && m.Version != version {
					t.Errorf("Find(%q) also claims %s %s (%q)", path, m.Library, m.Version, m.Text)
				}
			}
		})
	}
}

func TestFind_Synthetic(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                []string // library@version
	}{
		{"jquery_min", "a.js", "/*! jQuery v3.6.1 | (c) OpenJS Foundation */", []string{"jquery@3.6.1"}},
		{"jquery_ui_widget", "dialog.min.js", "/*!\n * jQuery UI Dialog 1.13.2\n * http://jqueryui.com", []string{"jquery-ui@1.13.2"}},
		{"jquery_ui", "jquery-ui.min.js", "/*! jQuery UI - v1.12.1 - 2016-09-14", []string{"jquery-ui@1.12.1"}},
		{"migrate", "m.js", "/*! jQuery Migrate v3.4.0 | (c) OpenJS Foundation", []string{"jquery-migrate@3.4.0"}},
		{"lodash_banner_no_underscore", "x.js", "/**\n * @license\n * Lodash lodash.com/license | Underscore.js 1.8.3 underscorejs.org/LICENSE\n */", nil},
		{"lodash_code_needs_name", "bundle.js", `var VERSION="4.17.15";`, nil},
		{"lodash_code", "lodash.min.js", `var VERSION="4.17.15";`, []string{"lodash@4.17.15"}},
		// Signatures apply in any file: a bundle, a renamed copy.
		{"lodash_signature_bundle", "vendor.3f2a1c.js", `!function(){var X,nn="4.17.21",tn=200,rn="Unsupported core-js use. Try https://npms.io/search?q=ponyfill.";}`, []string{"lodash@4.17.21"}},
		{"lodash_signature_other_number", "vendor.js", `var X,nn="4.17.21",tn=300,rn="Unsupported core-js use.`, nil},
		{"moment_signature_bundle", "Chart.bundle.min.js", `D(e))}),c.version="2.24.0",e=bt,c.fn=mn,c.min=function(){return Wt("isBefore",[].slice.call(arguments,0))},c.max=function(){}`, []string{"moment@2.24.0"}},
		{"react_dom_signature", "main.chunk.js", `({findFiberByHostInstance:Bb,bundleType:0,version:"16.14.0",rendererPackageName:"react-dom"})`, []string{"react-dom@16.14.0"}},
		{"react_dom_signature_other_renderer", "main.chunk.js", `({findFiberByHostInstance:Bb,bundleType:0,version:"0.28.0",rendererPackageName:"react-three-fiber"})`, nil},
		// webpack, lodash's VERSION inlined; Vue 2's version beside its FunctionalRenderContext.
		{"lodash_inlined_version", "main.53629e5a.js", `hu),{chain:!1}),Nn.VERSION="4.17.20",wt(["bind","bindKey","curry","curryRight","partial","partialRight"],function(e){Nn[e].placeholder=Nn})`, []string{"lodash@4.17.20"}},
		{"vue2_signature", "main.js", `Object.defineProperty(An,"FunctionalRenderContext",{value:$t}),An.version="2.6.14";var $n=k("style,class")`, []string{"vue@2.6.14"}},
		{"vue2_signature_other_property", "main.js", `Object.defineProperty(An,"FunctionalRenderContext",{value:$t}),An.release="2.6.14"`, nil},
		// Shapes of real builds without banners (npm dist files, concatenated
		// or bundled by webpack 5 and esbuild 0.19): Bootstrap 4's inlined
		// getter, Bootstrap 5's constant, Chart.js 4, Vue 2.7's exports,
		// d3 v7, Handlebars' and Backbone's and Knockout's dist, Axios 1's.
		{"bootstrap4_getter_dist", "vendor.js", `close(this)}},s(i,null,[{key:"VERSION",get:function(){return"4.3.1"}}]),i}();g(document).on(h.CLICK_DATA_API,'[data-dismiss="alert"]',p._handleDismiss(new p))`, []string{"bootstrap@4.3.1"}},
		{"bootstrap4_getter_webpack", "app.5089dcf3.js", `(e,null,[{key:"VERSION",get:function(){return"4.6.2"}}]),e}();i.default(document).on(b,'[data-dismiss="alert"]',M._handleDismiss(new M))`, []string{"bootstrap@4.6.2"}},
		{"bootstrap4_getter_other_plugin", "app.js", `(e,null,[{key:"VERSION",get:function(){return"1.2.3"}}]),e}();i.default(document).on(b,'[data-toggle="thing"]',M._x(new M))`, nil},
		{"bootstrap5_constant_esbuild", "vendor.8f3b2a1c.js", `L2e="5.3.2",zo=class extends zd{constructor(){super()}static get VERSION(){return L2e}static get DATA_KEY(){return` + "`bs.${this.NAME}`" + `}}`, []string{"bootstrap@5.3.2"}},
		{"chartjs4_signature", "vendor.js", `.reduce((t,n)=>t||Nu(e[n]),!1);kte="4.4.0",Cte=["top","bottom","left","right","chartArea"];db={}`, []string{"chart.js@4.4.0"}},
		{"vue27_exports", "vendor.js", `Ln=kn("errorCaptured");var Rn="2.7.14";var Fn=Object.freeze({__proto__:null,version:Rn,defineComponent:function(t){return t}})`, []string{"vue@2.7.14"}},
		{"d3v7_exports", "vendor.js", `t.utcYears=rv,t.variance=x,t.version="7.8.5",t.window=pn,t.xml=Sc,t.zip=function(){return gt(arguments)}`, []string{"d3@7.8.5"}},
		{"handlebars_dist_min", "vendor.js", `var s=n(5),o=n(6),a=i(o),l=n(10),g="4.7.7";t.VERSION=g;var _=8;t.COMPILER_REVISION=_;var x=7;t.LAST_COMPATIBLE_COMPILER_REVISION=x`, []string{"handlebars@4.7.7"}},
		{"backbone_dist_min", "vendor.js", `var i=t.Backbone;var a=Array.prototype.slice;h.VERSION="1.4.1";h.$=e;h.noConflict=function(){t.Backbone=i;return this}`, []string{"backbone@1.4.1"}},
		{"knockout_dist", "vendor.js", `function(a,c,d){a[c]=d};a.version="3.4.2";a.b("version",a.version);a.options={deferUpdates:!1,useOnlyNativeEvents:!1}`, []string{"knockout@3.4.2"}},
		{"axios_dist_min", "vendor.js", `return function(r,o,i){if(!1===e)throw new AxiosError(n(o," has been removed"+(t?" in "+t:"")));return t&&!a[o]&&(a[o]=!0,console.warn("[Axios v1.6.0] Transitional option '"+o+"'"))}`, []string{"axios@1.6.0"}},
		// Vue 3.4+ in a Vite bundle: its packages' banners.
		{"vue3_package_banner", "index-Uu7yGAAh.js", "/**\n* @vue/runtime-core v3.4.21\n* (c) 2018-present Yuxi (Evan) You and Vue contributors\n* @license MIT\n**/", []string{"vue@3.4.21"}},
		{"alpine_bundles_vue_reactivity", "module.esm.js", "/**\n* @vue/shared v3.5.41\n* (c) 2018-present Yuxi (Evan) You and Vue contributors\n* @license MIT\n**/\n/**\n* @vue/reactivity v3.5.41\n**/", nil},
		{"vue3_package_banner_other_package", "index.js", "/**\n* @vue/devtools-api v6.5.1\n**/", nil},
		// Vue 3 before 3.4: the app object's version constant, set elsewhere.
		{"vue3_constant", "index-DRgSW_2M.js", `bo=Symbol(""),xo=()=>Pt(bo),ss="3.2.47",Oo="http://www.w3.org/2000/svg";const u=i.app={_uid:Xi++,_component:s,_props:r,_container:null,_context:i,_instance:null,version:ss,get config(){return i.config}}`, []string{"vue@3.2.47"}},
		{"vue3_constant_longer_name", "index.js", `ass="3.2.47";const u={_context:i,_instance:null,version:ss,get config(){}}`, nil},
		{"vue3_constant_not_a_version", "index.js", `ss=fn("x");const u={_context:i,_instance:null,version:ss,get config(){}}`, nil},
		{"vue3_constant_inlined", "index.js", `const u={_context:i,_instance:null,version:"3.2.47",get config(){}}`, []string{"vue@3.2.47"}},
		// Angular's ng-version stamp, inlined (esbuild) or through its VERSION constant (webpack).
		{"angular_inlined", "main-KEXRCG7P.js", `function sm(e,t,n,r){if(r)fi(e,n,["ng-version","17.3.12"]);else{let{attrs:o}=yh(t.selectors[0])}}`, []string{"@angular/core@17.3.12"}},
		{"angular_constant", "main.3f2a1c.js", `const Xc=new Pd("12.2.16");function Kb(e,t){e.setAttribute(t,"ng-version",Xc.full)}`, []string{"@angular/core@12.2.16"}},
		{"angular_constant_unset", "main.js", `function Kb(e,t){e.setAttribute(t,"ng-version",Xc.full)}`, nil},
		// Next.js's client runtime exports its version constant.
		{"next_constant", "main-f61746aa183f4a64.js", `(t,{emitter:function(){return z},hydrate:function(){return ef},initialize:function(){return K},router:function(){return n},version:function(){return G}});let _=r(8754);G="14.2.3",z=(0,v.default)()`, []string{"next@14.2.3"}},
		{"next_constant_arrows", "main.js", `(t,{emitter:()=>z,hydrate:()=>ef,initialize:()=>K,router:()=>n,version:()=>G});let G="15.0.3"`, []string{"next@15.0.3"}},
		{"next_other_exports", "main.js", `(t,{hydrate:function(){return ef},render:function(){return K},version:function(){return G}});G="1.2.3"`, nil},
		// jQuery's version constant, the nearest assignment before its use
		// taken over another module's of the same short name.
		{"jquery_constant", "vendor.js", `function(e){var k="1.0.2";e.exports=k},function(e){var u=[],k="3.5.1",C=function(e,t){return new C.fn.init(e,t)};C.fn=C.prototype={jquery:k,constructor:C,length:0}}`, []string{"jquery@3.5.1"}},
		{"jquery_constant_after", "vendor.js", `C.fn=C.prototype={jquery:k,constructor:C,length:0};var k="3.6.0"`, []string{"jquery@3.6.0"}},
		// PDF.js: the version its API sends the worker, and the worker's check.
		{"pdfjs_api", "viewer.js", `orker(t);e._worker=A}const Y={docId:i,apiVersion:"4.0.379",data:a,password:h,disableAutoFetch:j}`, []string{"pdfjs-dist@4.0.379"}},
		{"pdfjs_worker", "pdf.worker.min.js", "=[],p=(0,r.getVerbosityLevel)(),m=e.apiVersion,b=\"2.16.105\";if(m!==b)throw new Error(\x60The API version \"${m}\" does not match", []string{"pdfjs-dist@2.16.105"}},
		{"pdfjs_source", "pdf.worker.js", "const pdfjsVersion = '2.16.105';\nconst pdfjsBuild = '172ccdbe5';", []string{"pdfjs-dist@2.16.105"}},
		// Bundles without banners (real excerpts of webpack, Vite, Nuxt and ember-cli builds).
		{"moment_not_inlined", "579.6ebc7e7e.js", `Re("x",function(e,t,n){n._d=new Date(ce(e))}),a.version="2.29.1",i(Jn),a.fn=li,a.min=Zn,a.max=er,a.now=tr`, []string{"moment@2.29.1"}},
		{"moment_like_other", "app.js", `a.version="2.29.1",i(Jn),a.fn=li,a.max=er`, nil},
		{"handlebars_bundle", "579.6ebc7e7e.js", `t.HandlebarsEnvironment=c;var a=n(2849);t.VERSION="4.7.6",t.COMPILER_REVISION=8,t.LAST_COMPATIBLE_COMPILER_REVISION=7`, []string{"handlebars@4.7.6"}},
		{"dompurify2_bundle", "579.6ebc7e7e.js", `t=function(e){return G(e)};if(t.version="2.0.12",t.removed=[],!e||!e.document||9!==e.document.nodeType)return t.isSupported=!1,t;`, []string{"dompurify@2.0.12"}},
		{"dompurify2_licence_url", "purify.min.js", "/*! @license DOMPurify | (c) Cure53 and other contributors | Released under the Apache license 2.0 and Mozilla Public License 2.0 | github.com/cure53/DOMPurify/blob/2.0.8/LICENSE */", nil},
		{"react18_bundle", "index-agr7Dc4V.js", `U.useTransition=function(){return _e.current.useTransition()};U.version="18.3.1";Nf.exports=U;`, []string{"react@18.3.1"}},
		{"react16_bundle", "579.6ebc7e7e.js", `t.useRef=function(e){return R().useRef(e)},t.useState=function(e){return R().useState(e)},t.version="16.14.0"},6540(e,t,n){`, []string{"react@16.14.0"}},
		{"react_dom_next_version", "index.js", `Ie.unstable_renderSubtreeIntoContainer=function(){};Ie.version="18.3.1-next-f1338f8080-20240426"`, nil},
		{"axios1_bundle", "index-agr7Dc4V.js", `const om="1.6.0",na={};["object","boolean"].forEach((e,t)=>{na[e]=function(r){}});na.transitional=function(t,n,r){function i(l,o){return"[Axios v"+om+"] Transitional option '"+l+"'"}}`, []string{"axios@1.6.0"}},
		{"bootstrap4_plugin", "579.6ebc7e7e.js", `var p="alert",y="4.3.1",g="bs.alert",v="."+g,M=".data-api",L=t.fn[p]`, []string{"bootstrap@4.3.1"}},
		{"bootstrap4_other_name", "app.js", `var p="myplugin",y="1.0.0",g="bs.myplugin"`, nil},
		{"bootstrap5_min", "bootstrap.bundle.min.js", "t,\"object\"==typeof e?e:null)}static get VERSION(){return\"5.3.3\"}static get DATA_KEY(){return\x60bs.${this.NAME}\x60}", []string{"bootstrap@5.3.3"}},
		{"nuxt3_app", "BrbEt05w.js", `n={_id:e.id||lc||"nuxt-app",_scope:sf(),provide:void 0,globalName:"nuxt",versions:{get nuxt(){return"3.21.11"},get vue(){return n.vueApp.version}}`, []string{"nuxt@3.21.11"}},
		{"ember_banner", "vendor.js", "/*!\n * @overview  Ember - JavaScript Application Framework\n * @copyright Copyright 2011 Tilde Inc. and contributors\n * @license   Licensed under MIT license\n *            See https://raw.github.com/emberjs/ember.js/master/LICENSE\n * @version   5.12.0\n */", []string{"ember-source@5.12.0"}},
		// Real excerpts of webpack 5, Vite 4, Next.js 12 and 13 and terser
		// builds that dropped the libraries' banners.
		{"next12_runtime", "main-fd4bba890fc1cc60.js", `A=r(4119),k=r(3935);t.version="12.3.4",t.router=p;var T=y.default();t.emitter=T;var L,I,N`, []string{"next@12.3.4"}},
		{"next13_constant", "main-719487b3f4029baa.js", `(t,{version:function(){return q},router:function(){return n},emitter:function(){return z},initialize:function(){return $}});W=g._(r(3248)),q="13.4.19",z=(0,v.default)()`, []string{"next@13.4.19"}},
		{"next13_other_exports", "main.js", `(t,{version:function(){return q},render:function(){return n}});q="1.2.3"`, nil},
		{"vue_router3", "chunk-vendors.cb8e6f76.js", `o.beforeRouteEnter=o.beforeRouteLeave=o.beforeRouteUpdate=o.created}},Ht.version="3.5.3",Ht.isNavigationFailure=At,Ht.NavigationFailureType=bt`, []string{"vue-router@3.5.3"}},
		{"vuex3", "chunk-vendors.cb8e6f76.js", `var n}const P={Store:p,install:b,version:"3.6.2",mapState:w,mapMutations:C,mapGetters:$,mapActions:x}`, []string{"vuex@3.6.2"}},
		{"underscore_umd", "vendor.min.js", `module.exports&&(exports=module.exports=d),exports._=d),d.VERSION="1.9.1";var p,g=function(t,e,n){if(void 0===e)return t`, []string{"underscore@1.9.1"}},
		{"underscore_vite", "vendor-6cbe1016.js", `t.nodeType?r._=R:(!e.nodeType&&e.exports&&(t=e.exports=R),t._=R),R.VERSION="1.9.1";var m=function(S,L,Y){if(L===void 0)return S`, []string{"underscore@1.9.1"}},
		{"backbone", "vendor.min.js", `(function(t,e,n,i){var r=t.Backbone,o=Array.prototype.slice;e.VERSION="1.4.0",e.$=i,e.noConflict=function(){return t.Backbone=r,this}`, []string{"backbone@1.4.0"}},
		{"d3_umd", "vendor.min.js", `t.variance=l,t.version="5.16.0",t.voronoi=function(){var t=Ny,e=Oy,n=null;`, []string{"d3@5.16.0"}},
		{"d3_esm", "vendor-6cbe1016.js", `r.fn.dataTable})})(AU);var e7="5.16.0";function GE(e,t){return e<t?-1:e>t?1:e>=t?0:NaN}function TU(e){`, []string{"d3@5.16.0"}},
		{"d3_other_comparator", "app.js", `var e7="1.0.0";function GE(e,t){return e>t?-1:e<t?1:0}`, nil},
		{"bootstrap3_plugin", "vendor.min.js", `var e='[data-dismiss="alert"]',n=function(n){t(n).on("click",e,this.close)};n.VERSION="3.3.7",n.TRANSITION_DURATION=150,n.prototype.close=function(e){`, []string{"bootstrap@3.3.7"}},
		{"jquery_ui_core", "vendors.aaf2a775.js", `e!==this.element.val()&&this._trigger("change")}}t.ui=t.ui||{},t.ui.version="1.12.1";var a=0,s=Array.prototype.slice;`, []string{"jquery-ui@1.12.1"}},
		{"lodash_4_17_15_min", "vendor.min.js", `{chain:!1}),_t.VERSION="4.17.15",n("bind bindKey curry curryRight partial partialRight".split(" "),function(t){_t[t].placeholder=_t})`, []string{"lodash@4.17.15"}},
		{"angularjs_min", "vendor.min.js", `wi=/[A-Z]/g,ki=!1,Si=3,Ci={full:"1.7.9",major:1,minor:7,dot:9,codeName:"pollution-eradication"};pt.expando="ng339";`, []string{"angular@1.7.9"}},
		{"knockout_min", "vendor.min.js", `_.J=function(t,e,n){t[e]=n},_.version="3.5.0",_.b("version",_.version),_.options={deferUpdates:!1,useOnlyNativeEvents:!1}`, []string{"knockout@3.5.0"}},
		{"datatables_min", "vendor.min.js", `e.replace("%d",r)}),qt.version="1.10.20",qt.settings=[],qt.models={},qt.models.oSearch={bCaseInsensitive:!0,sSearch:""}`, []string{"datatables.net@1.10.20"}},
		{"sweetalert2", "vendor-6cbe1016.js", `yl[e]=function(...t){if(Zm)return Zm[e](...t)}});yl.DismissReason=gf;yl.version="9.10.0";const sf=yl;`, []string{"sweetalert2@9.10.0"}},
		{"core_js", "vendor-6cbe1016.js", `return Xb[e]||(Xb[e]=t!==void 0?t:{})})("versions",[]).push({version:"3.6.5",mode:"global",copyright:"© 2020 Denis Pushkarev (zloirock.ru)"});`, []string{"core-js@3.6.5"}},
		{"echarts4", "app.f3b3ae17.js", `_e("light",T),_e("dark",A),t.version="4.9.0",t.dependencies={zrender:"4.3.2"},t.PRIORITY={PROCESSOR:{FILTER:1e3}}`, []string{"echarts@4.9.0"}},
		{"xlsx", "app.f3b3ae17.js", `7869:(e,t,n)=>{!function(t){t.version="0.16.9";var r=1200,i=1252;"undefined"==typeof cptable&&`, []string{"xlsx@0.16.9"}},
		{"pdfmake_licence", "app.f3b3ae17.js.LICENSE.txt", "/*! pdfmake v0.1.68, @license MIT, @link http://pdfmake.org */", []string{"pdfmake@0.1.68"}},
		// moment-timezone's banner and code are not moment's (npm's moment-timezone 0.5.43).
		{"moment_timezone_banner", "moment-timezone.js", "//! moment-timezone.js\n//! version : 0.5.43\n//! Copyright (c) JS Foundation and other contributors\n", []string{"moment-timezone@0.5.43"}},
		{"moment_timezone_min", "moment-timezone-with-data.min.js", `this.abbrScore++},S.version="0.5.43",S.dataVersion="",S._zones=W,S._links=A`, []string{"moment-timezone@0.5.43"}},
		{"moment_banner", "moment.js", "//! moment.js\n//! version : 2.29.4\n//! authors : Tim Wood, Iskren Chernev, Moment.js contributors\n", []string{"moment@2.29.4"}},
		// Banners of npm's distributables.
		{"highcharts", "highcharts.js", "/**\n * Highcharts JS v11.2.0 (2023-10-30)\n *\n * (c) 2009-2021 Torstein Honsi", []string{"highcharts@11.2.0"}},
		{"videojs", "video.min.js", "/**\n * @license\n * Video.js 8.6.1 <http://videojs.com/>\n * Copyright Brightcove, Inc.", []string{"video.js@8.6.1"}},
		{"leaflet", "leaflet.js", "/* @preserve\n * Leaflet 1.9.4, a JS library for interactive maps. https://leafletjs.com\n */", []string{"leaflet@1.9.4"}},
		{"plotly", "plotly.min.js", "/**\n* plotly.js v2.27.0\n* Copyright 2012-2023, Plotly, Inc.\n*/", []string{"plotly.js@2.27.0"}},
		{"summernote", "summernote.min.js", "/*! Summernote v0.8.20 | (c) 2013- Alan Hong and contributors | MIT license */", []string{"summernote@0.8.20"}},
		{"bootstrap_select", "bootstrap-select.min.js", "/*!\n * Bootstrap-select v1.13.18 (https://developer.snapappointments.com/bootstrap-select)\n */", []string{"bootstrap-select@1.13.18"}},
		{"quill", "quill.min.js", "/*!\n * Quill Editor v1.3.7\n * https://quilljs.com/\n */", []string{"quill@1.3.7"}},
		{"socketio", "socket.io.min.js", "/*!\n * Socket.IO v4.7.2\n * (c) 2014-2023 Guillermo Rauch\n */", []string{"socket.io-client@4.7.2"}},
		{"ckeditor4", "ckeditor.js", `^|.*[\\\/])ckeditor\.js(?:\?.*|;.*)?$/i,f={timestamp:"L7CC",version:"4.16.2 (Standard)",revision:"4e64f67219",rnd:Math.floor(900*Math.random())}`, []string{"ckeditor4@4.16.2"}},
		// jQuery plugins and widgets, npm's owl.carousel 2.1.4, magnific-popup
		// 1.1.0, @fancyapps/fancybox 3.5.7, hammerjs 2.0.8 (whose build says
		// 2.0.7), slick-carousel 1.6.0, markdown-it 14.1.0, js-cookie 3.0.5,
		// highlight.js 10.7.3 and @highlightjs/cdn-assets 11.9.0.
		{"owl_carousel", "owl.carousel.min.js", "/**\n * Owl Carousel v2.1.4\n * Copyright 2013-2016 David Deutsch\n", []string{"owl.carousel@2.1.4"}},
		{"magnific_popup", "jquery.magnific-popup.min.js", "/*! Magnific Popup - v1.1.0 - 2016-02-20\n* http://dimsemenov.com/plugins/magnific-popup/\n", []string{"magnific-popup@1.1.0"}},
		{"fancybox3", "jquery.fancybox.min.js", "// ==================================================\n// fancyBox v3.5.7\n//\n// Licensed GPLv3 for open source use\n", []string{"@fancyapps/fancybox@3.5.7"}},
		{"hammerjs", "hammer.min.js", "/*! Hammer.JS - v2.0.7 - 2016-04-22\n * http://hammerjs.github.io/\n", []string{"hammerjs@2.0.7"}},
		{"slick", "slick.min.js", "/*\n     _ _      _       _\n\n Version: 1.6.0\n  Author: Ken Wheeler\n Website: http://kenwheeler.github.io\n", []string{"slick-carousel@1.6.0"}},
		{"version_other_author", "carousel.js", "/*\n Version: 1.6.0\n  Author: Someone Else\n", nil},
		{"markdown_it", "markdown-it.min.js", "/*! markdown-it 14.1.0 https://github.com/markdown-it/markdown-it @license MIT */\n!function(t,e){", []string{"markdown-it@14.1.0"}},
		{"js_cookie3", "js.cookie.min.js", "/*! js-cookie v3.0.5 | MIT */\n!function(e,t){", []string{"js-cookie@3.0.5"}},
		{"highlightjs10", "highlight.min.js", "/*\n  Highlight.js 10.7.3 (0c4cc8a1)\n  License: BSD-3-Clause\n", []string{"highlight.js@10.7.3"}},
		{"highlightjs11", "highlight.min.js", "/*!\n  Highlight.js v11.9.0 (git: f47103d4f1)\n  (c) 2006-2023 undefined and other contributors\n", []string{"highlight.js@11.9.0"}},
		{"highlightjs9", "highlight.pack.js", "/*! highlight.js v9.18.5 | BSD3 License | git.io/hljslicense */\n!function(e){", []string{"highlight.js@9.18.5"}},
		// Versions in code: npm's sweetalert2 7.33.1, video.js 6.13.0,
		// plyr 3.7.8, three 0.125.0 (whose build says "125dev") and 0.150.0.
		{"sweetalert2_7", "sweetalert2.all.min.js", `return De.default=De}),"undefined"!=typeof window&&window.Sweetalert2&&(window.Sweetalert2.version="7.33.1",window.swal=window.sweetAlert=window.Swal=window.SweetAlert=window.Sweetalert2)`, []string{"sweetalert2@7.33.1"}},
		{"videojs6_constant", "video.min.js", `n}var ae,le="6.13.0",ce="undefined"!=typeof window?window:{};function se(){}return G(1,se),se.VERSION=le,se.options=Yo.prototype.options_,se.getPlayers=function(){}`, []string{"video.js@6.13.0"}},
		{"videojs_constant_other_object", "app.js", `le="6.13.0";se.VERSION=le,se.options=Yo.prototype.defaults`, nil},
		{"plyr", "plyr.min.js", `loadSprite:!0,iconPrefix:"plyr",iconUrl:"https://cdn.plyr.io/3.7.8/plyr.svg",blankVideo:"https://cdn.plyr.io/static/blank.mp4"`, []string{"plyr@3.7.8"}},
		{"three_umd", "three.min.js", `(function(t){"use strict";const e="150",i=0,n=1,r=2;const _e=3201;t.RED_RGTC1_Format=se,t.REVISION=e,t.RGBADepthPacking=_e,t.RGBAFormat=St`, []string{"three@0.150.0"}},
		{"three_umd_dev", "vendor.js", `Function("r","regeneratorRuntime = r")(e)}var n="125dev",i=100,r=300;t.Quaternion=At,t.REVISION=n,t.RGBADepthPacking=3201`, []string{"three@0.125.0"}},
		{"three_module", "three.module.js", "/**\n * @license\n * Copyright 2010-2023 Three.js Authors\n * SPDX-License-Identifier: MIT\n */\nconst REVISION = '150';\n", []string{"three@0.150.0"}},
		{"revision_not_three", "app.js", `const e="2.1.0";t.REVISION=e,t.RGBADepthPacking=_e`, nil},
		// A constant's assignment found past many longer names ending in it.
		{"constant_past_longer_names", "vendor.js", `const e="150"` + strings.Repeat(`;_e="x",se="y"`, 40) + `;t.REVISION=e,t.RGBADepthPacking=_e`, []string{"three@0.150.0"}},
		// Editors, charts and widgets (npm's dist files: jspdf 2.5.1,
		// froala-editor 4.2.0, codemirror 5.40.0, echarts 5.5.0, quill 2.0.2,
		// core-js-bundle 3.37.1, bootstrap-datepicker 1.6.4, dropzone 5.9.3,
		// lazysizes 5.3.2, inputmask 5.0.8, gsap 2.1.3, flickity 3.0.0).
		{"jspdf_banner", "jspdf.umd.min.js", "/** @license\n *\n * jsPDF - PDF Document creation from JavaScript\n * Version 2.5.1 Built on 2022-01-28T15:37:57.791Z\n", []string{"jspdf@2.5.1"}},
		{"jspdf_constant", "vendor.js", `var M=function(t){};M.API={events:[]},M.version="2.5.1";var S=`, []string{"jspdf@2.5.1"}},
		{"froala", "froala_editor.pkgd.min.js", "/*!\r\n * froala_editor v4.2.0 (https://www.froala.com/wysiwyg-editor)\r\n * License https://froala.com/wysiwyg-editor/terms/\r\n", []string{"froala-editor@4.2.0"}},
		{"codemirror_rollup", "lib13.js", "  CodeMirror$1.version = \"5.40.0\";\n\n  return CodeMirror$1;\n", []string{"codemirror@5.40.0"}},
		{"echarts5", "echarts.min.js", `t.use=Ad,t.util=Pd,t.vector=Xt,t.version="5.5.0",t.zrUtil=St,t.zrender=Ur`, []string{"echarts@5.5.0"}},
		{"quill2", "quill.js", `class O extends T{static DEFAULTS={};static sources=N.A.sources;static version="2.0.2";static imports={delta:o(),parchment:r}`, []string{"quill@2.0.2"}},
		{"corejs3_bundle", "minified.js", `;(u.versions||(u.versions=[])).push({version:"3.37.1",mode:n?"pure":"global",copyright:"© 2014-2024 Denis Pushkarev (zloirock.ru)"`, []string{"core-js@3.37.1"}},
		{"datepicker_eternicode", "bootstrap-datepicker.min.js", "/*!\n * Datepicker for Bootstrap v1.6.4 (https://github.com/eternicode/bootstrap-datepicker)\n", []string{"bootstrap-datepicker@1.6.4"}},
		{"dropzone", "dropzone.min.js", `return e}(),b.version="5.9.3",b.options={},b.optionsForElement=function(e){`, []string{"dropzone@5.9.3"}},
		{"lazysizes", "lazysizes.min.js", "/*! lazysizes - v5.3.2 */\n\n!function(e){", []string{"lazysizes@5.3.2"}},
		{"inputmask", "inputmask.min.js", "/*!\n * dist/inputmask.min\n * https://github.com/RobinHerbots/Inputmask\n * Copyright (c) 2010 - 2023 Robin Herbots\n * Licensed under the MIT license\n * Version: 5.0.8\n */", []string{"inputmask@5.0.8"}},
		{"gsap2", "TweenMax.min.js", "/*!\n * VERSION: 2.1.3\n * DATE: 2019-05-17\n * UPDATES AND DOCS AT: http://greensock.com\n", []string{"gsap@2.1.3"}},
		{"version_other_project", "app.js", "/*!\n * VERSION: 2.1.3\n * DATE: 2019-05-17\n * UPDATES AND DOCS AT: http://example.com\n", nil},
		{"flickity", "flickity.pkgd.min.js", "/*!\n * Flickity PACKAGED v3.0.0\n * Touch, responsive, flickable carousels\n", []string{"flickity@3.0.0"}},
		// Version constants alone (npm's fabric 5.3.0, toastr 2.1.4, alpinejs
		// 3.13.10 and 2.8.2, mithril 1.1.6, inferno 8.2.3, tippy.js 2.6.0,
		// raphael 2.3.0, immutable 4.3.5).
		{"fabric", "fabric.min.js", `var fabric=fabric||{version:"5.3.0"};"undefined"!=typeof exports?exports.fabric=fabric:`, []string{"fabric@5.3.0"}},
		{"toastr", "lib84.js", `clear:c,remove:l,error:t,getContainer:r,info:n,options:{},subscribe:s,success:i,version:"2.1.4",warning:a}`, []string{"toastr@2.1.4"}},
		{"alpine3", "cdn.min.js", `get raw(){return st},version:"3.13.10",flushAndStopDeferringMutations:Ri,dontAutoEvaluateFunctions:`, []string{"alpinejs@3.13.10"}},
		{"alpine2", "alpine.js", "  const Alpine = {\n    version: \"2.8.2\",\n    pauseMutationObserver: false,\n", []string{"alpinejs@2.8.2"}},
		{"mithril1", "mithril.min.js", `D.route=U;D.withAttr=I;D.render=H.render;D.redraw=M.redraw;D.request=P.request;D.jsonp=P.jsonp;D.parseQueryString=G;D.buildQueryString=F;D.version="1.1.6";D.vnode=B;`, []string{"mithril@1.1.6"}},
		{"inferno", "inferno.min.js", `e.linkEvent=function(e,t){},e.render=An,e.rerender=On,e.version="8.2.3"}));`, []string{"inferno@8.2.3"}},
		{"tippy2", "tippy.all.min.js", `_t.version='2.6.0',_t.browser=Ft,_t.defaults=Zt,_t.setDefaults=function(t){}`, []string{"tippy.js@2.6.0"}},
		{"raphael", "raphael.min.js", `return e.version="2.3.0",e.eve=t,i=e},e.exports=r(`, []string{"raphael@2.3.0"}},
		{"immutable4", "immutable.min.js", `B={version:"4.3.5",Collection:I,Iterable:I,Seq:F,Map:Te,OrderedMap:wr,List:ur}`, []string{"immutable@4.3.5"}},
		{"version_other_api", "app.js", `{clear:c,subscribe:s,success:i,version:"2.1.4",error:a}`, nil},
		// Plugins' banners and comments that name another library's version.
		{"blockui_requires_jquery", "jquery.blockUI.js", "/*!\r\n * jQuery blockUI plugin\r\n * Version 2.70.0-2014.11.23\r\n * Requires jQuery v1.7 or later\r\n */", nil},
		{"slick_extracted_from_jquery", "slick.js", "            // Strict HTML recognition (must start with <)\n            // Extracted from jQuery v1.11 source\n", nil},
		{"touch_punch_not_jquery_ui", "jquery.ui.touch-punch.min.js", "/*!\n * jQuery UI Touch Punch 0.2.3\n *\n * Copyright 2011–2014, Dave Furfero\n */", nil},
		{"datepicker_not_bootstrap", "bootstrap-datepicker.min.js", "/*!\n * Datepicker for Bootstrap v1.9.0 (https://github.com/uxsolutions/bootstrap-datepicker)\n *\n * Licensed under the Apache License v2.0", []string{"bootstrap-datepicker@1.9.0"}},
		{"jquery_ui_component", "widget.js", "/*!\n * jQuery UI Widget 1.13.2\n * http://jqueryui.com\n */", []string{"jquery-ui@1.13.2"}},
		// TinyMCE and CKEditor 5 in bundles (npm's tinymce 6.8.2 and 5.10.9, ckeditor5-build-classic 41.0.0).
		{"tinymce6_bundle", "vendor.js", `URL:null,defaultOptions:{},documentBaseURL:null,suffix:null,majorVersion:"6",minorVersion:"8.2",releaseDate:"2023-12-11",i18n:Ka`, []string{"tinymce@6.8.2"}},
		{"tinymce5_bundle", "vendor.js", `documentBaseURL:null,suffix:null,$:Ya,majorVersion:"5",minorVersion:"10.9",releaseDate:"2023-11-15",editors:tw`, []string{"tinymce@5.10.9"}},
		{"ckeditor5_bundle", "ckeditor.js", `(t);return e?[t,e,n]:[t,n]}const x="41.0.0",E=new Date(2024,0,17);if(globalThis.CKEDITOR_VERSION)throw new A("ckeditor-duplicated-modules",null);`, []string{"ckeditor5@41.0.0"}},
		{"ckeditor5_older", "main.js", `const vn="35.0.0";if(window.CKEDITOR_VERSION)throw new Qe("ckeditor-duplicated-modules",null);window.CKEDITOR_VERSION=vn`, []string{"ckeditor5@35.0.0"}},
		// Debian's wordpress 6.1.9 (wp-includes/js), libjs-mathjax 2.7.9 and
		// libjs-jquery-ui 1.13.2 (its vendored jquery-color).
		{"mathjax2_packed", "MathJax.js", `indow.MathJax}}else{window.MathJax={}}MathJax.isPacked=true;MathJax.version="2.7.9";MathJax.fileversion="2.7.9";MathJax.cdnVersion="2`, []string{"mathjax@2.7.9"}},
		{"mathjax2_unpacked", "MathJax.js", "MathJax.version = \"2.7.9\";\nMathJax.fileversion = \"2.7.9\";\nMathJax.cdnVersion = \"2.7.9", []string{"mathjax@2.7.9"}},
		{"mathjax_compared", "app.js", `if(MathJax.version=="2.7.9"){x()}`, nil},
		{"mediaelement_min", "mediaelement-and-player.min.js", "/*!\n * MediaElement.js\n * http://www.mediaelementjs.com/\n */\n" + `efineProperty(n,"__esModule",{value:!0});var r,a=e(3);var i={version:"4.2.17",html5media:{properties:["volume","src","currentTime","muted`, []string{"mediaelement@4.2.17"}},
		{"uaparser_in_moxie", "moxie.js", "define(\"moxie/core/utils/Env\", [\n\t\"moxie/core/utils/Basic\"\n], function(Basic) {\n\t\n\t/**\n\t * UAParser.js v0.7.7\n\t * Lightweight JavaScript-based User-Agent string parser\n", []string{"ua-parser-js@0.7.7"}},
		{"uaparser_min", "ua-parser.min.js", "(function(window,undefined){\"use strict\";var LIBVERSION=\"1.0.35\",EMPTY=\"\",UNKNOWN=\"?\"", []string{"ua-parser-js@1.0.35"}},
		{"uaparser_elsewhere", "app.js", `var LIBVERSION="1.0.35",EMPTY=""`, nil},
		{"mediaelement", "mediaelement.js", " : { default: obj }; }\n\nvar mejs = {};\n\nmejs.version = '4.2.17';\n\nme", []string{"mediaelement@4.2.17"}},
		{"masonry_packaged", "masonry.min.js", "/*! This file is auto-generated */\n/*!\n * Masonry PACKAGED v4.2.2\n * Cascading grid layout library\n * https://masonry.desandro.com\n * MIT License\n */", []string{"masonry-layout@4.2.2"}},
		{"imagesloaded_packaged", "imagesloaded.min.js", "/*! This file is auto-generated */\n/*!\n * imagesLoaded PACKAGED v4.1.4\n * JavaScript is all like \"You images are done yet or what?\"\n * MIT License\n */", []string{"imagesloaded@4.1.4"}},
		{"jquery_color", "jquery.color.min.js", "/*! jQuery Color v2.2.0 http://github.com/jquery/jquery-color | jquery.org/license */\n\n!function(r,n){\"functio", []string{"jquery-color@2.2.0"}},
		{"jquery_color_source", "jquery.color.js", "/*!\n * jQuery Color Animations v2.2.0\n * https://github.com/jquery/jquery-color\n", []string{"jquery-color@2.2.0"}},
		{"jquery_form", "jquery.form.js", "/*!\n * jQuery Form Plugin\n * version: 4.3.0\n * Requires jQuery v1.7.2 or later\n * Project repository: https://github.com", []string{"jquery-form@4.3.0"}},
		{"plupload_min", "plupload.min.js", `})),e.runtimes="html5,html4",r}var t,F={VERSION:"2.1.9",STOPPED:1,STARTED:2,QUEUED:1,UPLOADING:2,FAILED:4,DONE:5,GENERIC_ERROR:-100,HTT`, []string{"plupload@2.1.9"}},
		{"plupload", "plupload.js", "\n\t * @static\n\t * @final\n\t */\n\tVERSION : '2.1.9',\n\n", []string{"plupload@2.1.9"}},
		{"plupload_version_other_file", "app.js", "\tVERSION : '2.1.9',\n", nil},
		// Knockout minified from its debug build (the shape a real site
		// served), and bundled pretty-printed.
		{"knockout_export_symbol", "vendor.js", `function(n,t,i){n[t]=i},f.version="3.4.2",f.exportSymbol("version",f.version),f.options={deferUpdates:!1`, []string{"knockout@3.4.2"}},
		{"knockout_export_symbol_spaced", "bundle.js", "}, t.exportProperty = function (e, t, n) {\n            e[t] = n;\n          }, t.version = \"3.0.0\", t.exportSymbol(\"version\", t.version), t.utils", []string{"knockout@3.0.0"}},
		{"export_symbol_other_name", "vendor.js", `f.release="3.4.2",f.exportSymbol("version",f.version)`, nil},
		{"bundle_two", "app.js", "/*! jQuery v1.12.4 | x */\n/*!\n * Bootstrap v3.4.1 (https://getbootstrap.com/)\n */", []string{"jquery@1.12.4", "bootstrap@3.4.1"}},
		{"requires_jquery", "plugin.js", "requires jQuery v1.8+ to work", nil},
		{"bootstrap4_util", "util.js", "/**\n * Bootstrap (v4.6.2): util.js", []string{"bootstrap@4.6.2"}},
		{"bootstrap3_plugin", "modal.js", "/* ====\n * Bootstrap: modal.js v3.3.7", []string{"bootstrap@3.3.7"}},
		{"react_dom", "react-dom.production.min.js", "/** @license React v16.14.0\n * react-dom.production.min.js", []string{"react-dom@16.14.0"}},
		{"underscore", "underscore-min.js", "//     Underscore.js 1.13.6\n//     https://underscorejs.org", []string{"underscore@1.13.6"}},
		{"codemirror", "codemirror.js", "  CodeMirror.version = \"5.65.0\";", []string{"codemirror@5.65.0"}},
		{"codemirror_min", "codemirror.min.js", `C.version="5.65.0";CodeMirror.version="5.65.0"`, []string{"codemirror@5.65.0"}},
		{"codemirror_other_file", "editor.js", "CodeMirror.version = \"5.65.0\";", nil},
		{"timepicker", "jquery-ui-timepicker-addon.js", "\t$.timepicker.version = \"1.6.3\";", []string{"jquery-ui-timepicker-addon@1.6.3"}},
		{"no_version", "x.js", "/*! jQuery | (c) */", nil},
		{"huge_version", "x.js", "/*! jQuery v123456789.1.1 | */", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range banner.Find(tt.file, []byte(tt.content)) {
				got = append(got, m.Library+"@"+m.Version)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Find(%q) = %v, want %v", tt.content, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("Find(%q) = %v, want %v", tt.content, got, tt.want)
				}
			}
		})
	}
}

func FuzzFind(f *testing.F) {
	f.Add("jquery.min.js", []byte("/*! jQuery v3.6.1 | (c) OpenJS */"))
	f.Add("lodash.js", []byte(`VERSION = '4.17.21'`))
	f.Add("x.css", []byte("/*!\n * Bootstrap  v5.3.3 (https://getbootstrap.com/)"))
	f.Fuzz(func(t *testing.T, name string, content []byte) {
		for _, m := range banner.Find(name, content) {
			if m.Library == "" || m.Version == "" || len(m.Version) > 40 {
				t.Fatalf("bad match %+v", m)
			}
			if m.Offset < 0 || m.Offset >= len(content) {
				t.Fatalf("offset %d out of range", m.Offset)
			}
		}
	})
}

func TestFind_OnlyInComments(t *testing.T) {
	for _, c := range []string{
		`throw new Error("Bootstrap's JavaScript requires at least jQuery v1.9.1 but less than v4.0.0")`,
		`var s = "Bootstrap v3.4.1 (x)";`,
		"/* closed */ var x = 'jQuery v3.6.1 |';",
	} {
		if ms := banner.Find("bootstrap.min.js", []byte(c)); len(ms) != 0 {
			t.Errorf("Find(%q) = %+v, want nothing outside comments", c, ms)
		}
	}
	if ms := banner.Find("a.js", []byte("//! moment.js\n//! version : 2.29.4\n")); len(ms) != 1 || ms[0].Version != "2.29.4" {
		t.Errorf("line comment banner: %+v", ms)
	}
}
