package scan

import "testing"

// TestPurlKey: a package a record lists joins the product the scan's other
// signals name (Laravel's session cookie, Drupal's generator, an npm
// library's banner), else stands under its purl.
func TestPurlKey(t *testing.T) {
	for _, c := range []struct {
		purl string
		want productKey
	}{
		{"pkg:composer/laravel/framework@v10.48.4", "laravel"},
		{"pkg:composer/Laravel/Framework@v10.48.4", "laravel"},
		{"pkg:composer/drupal/core@10.2.3", "drupal"},
		{"pkg:composer/drupal/webform@6.2.2", "drupal-module:webform"},
		{"pkg:composer/drupal/core-recommended@10.2.3", "pkg:composer/drupal/core-recommended"},
		{"pkg:composer/guzzlehttp/guzzle@7.4.5", "pkg:composer/guzzlehttp/guzzle"},
		{"pkg:npm/express@4.17.1", "express"},
		{"pkg:npm/jquery@3.7.1", "npm:jquery"},
		{"pkg:npm/%40angular/core@17.0.0", "npm:@angular/core"},
		{"pkg:gem/rails@7.0.8", "pkg:gem/rails"},
		{"pkg:pypi/django@4.2.7", "pkg:pypi/django"},
		{"pkg:npm/left-pad?vcs_url=git%2Bhttps://github.com/x/left-pad@abc", ""},
		{"not a purl", ""},
	} {
		if got := purlKey(c.purl); got != c.want {
			t.Errorf("purlKey(%q) = %q, want %q", c.purl, got, c.want)
		}
	}
	// The product of a purl key names the package and makes its purls.
	p := describe("pkg:composer/guzzlehttp/guzzle")
	if p.name != "guzzlehttp/guzzle" || p.purl("7.4.5") != "pkg:composer/guzzlehttp/guzzle@7.4.5" {
		t.Errorf("describe: %q, %q", p.name, p.purl("7.4.5"))
	}
}
