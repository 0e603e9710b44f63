package scan

import (
	"cmp"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	sentinel "github.com/sentinel-sca/sentinel"
)

// detections reconciles the scan's observations (see the package comment
// for the rules).
func (c *crawl) detections() []sentinel.Detection {
	c.mu.Lock()
	obs := slices.Clone(c.obs)
	c.mu.Unlock()
	return reconcile(obs)
}

// reconcile turns observations into one detection per product and
// version:
//
//  1. Observations are grouped by product.
//  2. Each version named by strong evidence (a hash, a banner, a versioned
//     path, a generator, a header, a CMS file) is a detection of its own:
//     two jQuery copies are two detections, and evidence that disagrees is
//     never merged into a guess.
//  3. A weak version (a ?ver= query, a loose HTML rule, a major release
//     alone) joins the detection whose strong evidence names the same
//     version; otherwise it is kept as versionless evidence, its version
//     only in the detail.
//  4. Versionless evidence joins a versioned detection of the product that
//     has evidence from the same URL; failing that, for a hash that names
//     several versions, the lowest detection of one of them (and never
//     one of another version); failing that, the product's only
//     versioned detection when it has exactly one, unless the evidence is
//     a script named as the library's own file (lodash.js): that is
//     another copy, whose version is unknown, and must not hide behind
//     another file's; failing that, it makes one detection of the product
//     without a version. Evidence from an asset's URL alone (a file name,
//     a script URL rule) is dropped when the file's own strong evidence
//     names other products and not this one, or when the file, read
//     whole, is too small to be a library and names none. So a product without
//     version is reported only when no versioned detection can own its
//     evidence. Evidence that only says a page references the product
//     somewhere (a fingerprint rule on the whole HTML) joins the lowest
//     version rather than stand alone beside versioned detections.
//
// A detection's confidence is its strongest evidence's; its purl is set
// only with a version and an ecosystem.
func reconcile(obs []observation) []sentinel.Detection {
	// The products each URL's own strong evidence names, the URLs that
	// are the site's own code (observation.siteCode), and the files named
	// as a library's own (observation.ownFile: all their evidence of that
	// library is the copy's).
	named := map[string]map[productKey]bool{}
	siteCode := map[string]bool{}
	ownFile := map[[2]string]bool{}
	for i := range obs {
		o := &obs[i]
		o.key = versionedKey(o.key, o.version)
		switch {
		case o.siteCode:
			siteCode[o.url] = true
		case o.ownFile:
			ownFile[[2]string{o.url, string(o.key)}] = true
		}
		if o.version != "" && !o.weak {
			if named[o.url] == nil {
				named[o.url] = map[productKey]bool{}
			}
			named[o.url][o.key] = true
		}
	}
	byKey := map[productKey][]observation{}
	for _, o := range obs {
		if o.key == "" {
			continue
		}
		o.ownFile = ownFile[[2]string{o.url, string(o.key)}] || o.fromURL && namesOwnFile(o.url, o.key)
		if o.fromURL && o.version == "" && (siteCode[o.url] || len(named[o.url]) > 0 && !named[o.url][o.key]) {
			continue // the file is another product's, or the site's own (see observation.fromURL)
		}
		byKey[o.key] = append(byKey[o.key], o)
	}
	var out []sentinel.Detection
	for key, os := range byKey {
		strong := map[string][]observation{}
		var loose []observation
		for _, o := range os {
			if o.version != "" && !o.weak {
				strong[o.version] = append(strong[o.version], o)
			}
		}
		for _, o := range os {
			switch {
			case o.version != "" && !o.weak:
			case o.version != "" && strong[o.version] != nil:
				strong[o.version] = append(strong[o.version], o)
			default:
				if o.version != "" { // weak and unconfirmed
					o.detail += " (version " + o.version + " not confirmed by other evidence)"
					o.version = ""
					o.confidence = min(o.confidence, sentinel.ConfidenceProduct)
				}
				loose = append(loose, o)
			}
		}
		versions := make([]string, 0, len(strong))
		for v := range strong {
			versions = append(versions, v)
		}
		slices.SortFunc(versions, compareVersions)
		var orphans []observation
		for _, o := range loose {
			owner := ""
			for _, v := range versions {
				if hasURL(strong[v], o.url) {
					owner = v
					break
				}
			}
			if owner == "" {
				if i := slices.IndexFunc(versions, func(v string) bool { return slices.Contains(o.candidates, v) }); i >= 0 {
					owner = versions[i]
				}
			}
			// Evidence that only a page's reference or a script URL rule
			// gives (a jQuery rule matching .../jquery-ui/ui/widgets/dialog.min.js)
			// is not a copy of its own: with versioned copies found, it
			// joins the lowest instead of standing as an unknown one.
			if owner == "" && !o.ownFile && o.candidates == nil && (len(versions) == 1 || ((o.aux || o.fromURL) && len(versions) > 0)) {
				owner = versions[0]
			}
			if owner == "" {
				orphans = append(orphans, o)
				continue
			}
			strong[owner] = append(strong[owner], o)
		}
		for _, v := range versions {
			out = append(out, detection(key, v, strong[v]))
		}
		if len(orphans) > 0 {
			out = append(out, detection(key, "", orphans))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := strings.ToLower(out[i].Name), strings.ToLower(out[j].Name); a != b {
			return a < b
		}
		return compareVersions(out[i].Version, out[j].Version) < 0
	})
	return out
}

// compareVersions orders versions as releases follow one another: their
// dot-separated numbers as numbers (9.18.5 before 10.7.3), then what
// follows them, a pre-release before the release ("4.1.0-rc.0" before
// "4.1.0").
func compareVersions(a, b string) int {
	for {
		na, ra := leadingNumber(a)
		nb, rb := leadingNumber(b)
		if na < 0 || nb < 0 {
			return strings.Compare(a, b)
		}
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
		a, b = ra, rb
		da, db := strings.HasPrefix(a, "."), strings.HasPrefix(b, ".")
		if da && db {
			a, b = a[1:], b[1:]
			continue
		}
		// One or both stop being dotted numbers here.
		switch {
		case a == b:
			return 0
		case da: // "1.2.1" after "1.2" and "1.2-rc.0"
			return 1
		case db:
			return -1
		case a == "": // the release after its pre-release
			return 1
		case b == "":
			return -1
		default:
			return strings.Compare(a, b)
		}
	}
}

// leadingNumber splits the number s starts with (at most 9 digits) from
// the rest; -1 when s does not start with a digit.
func leadingNumber(s string) (int, string) {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return -1, s
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:]
}

// namesOwnFile reports whether URL u's file is named as npm library key's
// own (choices.min.js for choices.js, splide.min.js for @splidejs/splide,
// tippy-bundle.umd.min.js for tippy.js): evidence its URL gives is that
// copy's, which may be another version than the library's other copies.
func namesOwnFile(u string, key productKey) bool {
	npm, ok := strings.CutPrefix(string(key), "npm:")
	if !ok {
		return false
	}
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	n := segmentName(path.Base(pu.Path), "")
	own := npm[strings.LastIndexByte(npm, '/')+1:]
	short := strings.TrimSuffix(own, ".js")
	// A build's name after the library's ("tippy-bundle.umd.min.js" for
	// tippy.js) too, unless that name is another library's.
	build := strings.HasPrefix(n, short+"-") && fileNames[n] == ""
	return n != "" && (n == short || n == own || fileNames[n] == npm || build)
}

// versionedKey is the product a version of key is: Popper 1 is the npm
// package popper.js, Popper 2 and later @popperjs/core.
func versionedKey(key productKey, version string) productKey {
	if key == "npm:@popperjs/core" && strings.HasPrefix(version, "1.") {
		return "npm:popper.js"
	}
	return key
}

func hasURL(os []observation, u string) bool {
	for _, o := range os {
		if o.url == u {
			return true
		}
	}
	return false
}

// maxEvidence bounds the evidence a detection carries: one line per
// (kind, detail) for page-wide evidence, so the same cookie or header on
// every page is one, one per file for a file's, and at most this many
// (the strongest first).
const maxEvidence = 25

func detection(key productKey, version string, os []observation) sentinel.Detection {
	p := describe(key)
	d := sentinel.Detection{Name: p.name, Version: version, CPE: p.cpe, Categories: slices.Clone(p.categories)}
	if version != "" && p.purl != nil && precise(version) {
		d.Purl = p.purl(version)
	}
	sort.SliceStable(os, func(i, j int) bool {
		if os[i].confidence != os[j].confidence {
			return os[i].confidence > os[j].confidence
		}
		if os[i].kind != os[j].kind {
			return os[i].kind < os[j].kind
		}
		if os[i].url != os[j].url {
			return os[i].url < os[j].url
		}
		return os[i].detail < os[j].detail
	})
	seen := map[[3]string]bool{}
	for _, o := range os {
		d.Confidence = max(d.Confidence, o.confidence)
		if d.Distribution == "" && o.distro != "" {
			d.Distribution = o.distro
		}
		if d.CPE == "" && o.cpe != "" {
			d.CPE = o.cpe
		}
		for _, c := range o.categories {
			if !slices.Contains(d.Categories, c) {
				d.Categories = append(d.Categories, c)
			}
		}
		// Page-wide evidence (a header, a cookie, a generator, a rule) is
		// one line however many pages show it; what a file's content says
		// is one line per file, so that a bundle with the same banner as
		// a style sheet is still listed.
		k := [3]string{o.kind, o.detail, ""}
		if o.inFile {
			k[2] = o.url
		}
		if seen[k] || len(d.Evidence) >= maxEvidence {
			continue
		}
		seen[k] = true
		d.Evidence = append(d.Evidence, sentinel.DetectionEvidence{Kind: o.kind, URL: o.url, Detail: o.detail, Version: o.version})
	}
	if d.CPE != "" {
		d.CPE = cpeWithVersion(d.CPE, version)
	}
	return d
}

// cpeWithVersion fills the version field of a CPE 2.3 name
// ("cpe:2.3:a:jquery:jquery:*:..." or the short "cpe:2.3:a:jquery:jquery").
func cpeWithVersion(cpe, version string) string {
	parts := strings.Split(cpe, ":")
	if len(parts) < 5 || parts[0] != "cpe" || parts[1] != "2.3" {
		return cpe
	}
	for len(parts) < 13 {
		parts = append(parts, "*")
	}
	parts[5] = "*"
	if version != "" {
		parts[5] = version
	}
	return strings.Join(parts[:13], ":")
}
