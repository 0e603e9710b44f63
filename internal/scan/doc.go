// Package scan is Sentinel's external detection engine (layer N1): given a
// site's URL, it crawls the site from outside, within fixed bounds, and
// reports the third-party components it finds, each with its evidence.
//
// # API
//
//	s, err := scan.New(cfg)            // compile rules, load the catalog (once)
//	res, err := s.Scan(ctx, "https://example.com/")
//	res, err := scan.Run(ctx, target, cfg) // New + Scan, for one-off use
//
// An unreachable site is a Result with Reachable false and a reason, not an
// error; the error is for a malformed target or a canceled ctx (the partial
// Result comes with it). Config.Timeout ending the scan is not an error
// either: Stats.Truncated says "time".
//
// # The crawl
//
// The homepage is fetched first, following redirects that stay on the site
// (same host, http to https, or the host with or without "www."); its final
// scheme, host and port are the scan's origin. From there the crawl goes
// breadth first through links (a, area, iframe, frame) of the same origin
// whose path looks like a page, never to another host's pages, within
// MaxPages and MaxDepth. Each page's scripts (script src, modulepreload,
// preload as script) and style sheets (stylesheet, preload as style) are
// fetched from whatever host serves them, CDNs included, once each, within
// MaxAssets. Redirects are followed only within the origin for pages and
// only within the asset's host for assets. Every response body is read to
// at most MaxResponseBytes (the rest is left unread and the part read is
// analysed), every byte counts against MaxTotalBytes, Concurrency bounds
// the requests in flight, Timeout the whole scan. Every connection goes
// through netguard's client, which checks each dialled address. The CPU
// work (parsing, hashing, rules) of all the scans of one Scanner runs on at
// most Analysis goroutines at once, GOMAXPROCS-1 by default, so that
// concurrent scans never take every core from the API in the same process.
//
// # The seven signals
//
//   - path: a versioned file name ("jquery-3.6.1.min.js") or a CDN's
//     library path (cdnjs and Google's /ajax/libs/<name>/<version>/,
//     jsDelivr and unpkg /npm/<name>@<version>/, jsDelivr /gh/, code.jquery.com,
//     BootstrapCDN, the ASP.NET CDN), a site's own copy in a directory that
//     names the library and its version (/vendor/lodash/4.17.15/lodash.min.js,
//     /bootstrap-3.3.7-dist/js/bootstrap.min.js), and CMS layouts: WordPress plugins and
//     themes (/wp-content/plugins/<slug>/), Drupal modules, Joomla
//     components. Plugins of WordPress have no advisory ecosystem in OSV,
//     so they are reported without a purl; Drupal modules map to Packagist
//     drupal/<module>. Also the dependency records a site serves by
//     mistake (exposed.go): /composer.lock, Composer's
//     /vendor/composer/installed.json, /package-lock.json, /yarn.lock,
//     /pnpm-lock.yaml, /Gemfile.lock, /Pipfile.lock, /poetry.lock,
//     /requirements.txt (one with a pinned line) (and
//     the same in the homepage's folder, for an application installed in
//     one), each asked for once and read with internal/sbom's readers;
//     every package one lists is a detection at a file's confidence.
//   - hash: the SHA-1 of every fetched script and style sheet, looked up in
//     the known-file catalog (package catalog): npm's distributables and
//     the rebuilt copies Debian and CMSs ship.
//   - fingerprint: two kinds. The version banner a library's file carries
//     (package banner: "/*! jQuery v3.6.1 | ...") is content evidence of the
//     file itself, so it is "fingerprint" evidence at banner confidence;
//     and the rules of a subset of wappalyzergo's rule set (see rules.go),
//     matched on headers, cookies, meta tags, script URLs and HTML. A
//     library's script URL rule is not applied where the URL names another
//     library, as a plugin's does (urlNamesOther). And the version an
//     application stamps on its own pages where no generator tag names it
//     (appStamps): Roundcube's "rcversion" setting, Adminer's heading and
//     the URLs of the files it serves itself, when both agree. And a
//     WordPress theme's version from the header of its style.css
//     ("Version: 1.7"), which WordPress itself reads.
//   - generator: <meta name="generator"> and an RSS or Atom feed's
//     <generator>.
//   - header: Server, X-Powered-By, X-Generator, X-Drupal-Cache,
//     X-Drupal-Dynamic-Cache, X-Pingback, Link (wp-json), X-AspNet-Version,
//     X-AspNetMvc-Version, and a few more.
//   - cookie: session cookie names (PHPSESSID, JSESSIONID, ASP.NET_SessionId,
//     wordpress_*, wp-settings-*, Drupal's SESS<hash>, laravel_session,
//     ci_session, ...). A cookie never names a version.
//   - cms_path: a short fixed list of well-known paths (WordPress
//     /wp-login.php, /readme.html, /wp-json/, /feed/; Drupal CHANGELOG.txt,
//     core/install.php; Joomla's manifests; MediaWiki's siteinfo API;
//     phpMyAdmin's directory, ChangeLog and README; DokuWiki's /VERSION,
//     whose release, "2022-07-31b", is reported as DokuWiki names it, and
//     without a purl: its advisories name no package ecosystem). An
//     answer counts only when it is a 200, carries the file's marker and
//     does not look like the site's answer to a random path (a soft 404).
//
// # Confidence
//
// A detection's confidence is its strongest evidence's: a catalog hash 100
// (the exact file); a banner, a versioned path or a CMS file that states
// the version 80; a generator, a header or a fingerprint rule with a
// version 60; anything without a version 40.
//
// # Versions and reconciliation
//
// A version is never invented: a minified or hash-named file with no
// banner and no catalog hit gives the product without a version. Some
// versions are weak, because they may be another product's: a ?ver= or ?v=
// query (WordPress appends its own version to every asset), a version a
// loose HTML rule captured where the page also has it after an "=" (a
// query), a major release alone ("Drupal 10"). A weak
// version counts only when strong evidence names the same version. A hash
// that names several versions of one library (a file unchanged between
// releases) gives the version a banner in the same file names, or none,
// and then joins a detection of one of them; a hash that names one
// version outranks the file's banner where they disagree (npm's
// datatables.net 1.13.8 ships files still stamped 1.13.7): one file is
// one copy.
//
// Observations are reconciled into one detection per product and version
// (see reconcile): each version named by strong evidence is its own
// detection, so a site loading two jQuery copies has two, and evidence that
// disagrees is never merged into a guess. Evidence without a version joins
// the versioned detection with evidence from the same URL, else the
// product's only versioned detection, else it stands as one detection of
// the product without version; so a product without version is dropped
// whenever a versioned detection of the same product owns its source URL.
//
// Purls: pkg:npm/<name>@<version> for front-end libraries; the CMSs,
// servers and PHP use the purl types whose OSV advisories internal/intel
// indexes: pkg:bitnami/<name> (wordpress, joomla, phpmyadmin, mediawiki,
// nginx, apache, php, tomcat, ...), pkg:composer/drupal/core for Drupal 8
// and later (Drupal's own advisories) and pkg:bitnami/drupal before,
// pkg:composer/roundcube/roundcubemail and pkg:composer/vrana/adminer
// (GitHub's advisories' names for Roundcube and Adminer).
//
// No input is trusted: every reader is bounded in size (and so, with Go's
// linear-time regular expressions, in time), and nothing panics on hostile
// input.
package scan
