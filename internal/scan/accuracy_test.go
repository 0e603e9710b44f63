package scan_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sync"
	"testing"

	wappalyzer "github.com/projectdiscovery/wappalyzergo"

	"github.com/sentinel-sca/sentinel/internal/scan"
)

// TestAccuracyDump writes, for each test site, what the scan detected, what
// wappalyzergo alone detects on the same pages, and the scripts fetched (for
// retire.js), into $SENTINEL_ACCURACY_DIR. It is a measuring tool for the
// accuracy table, not a check: without the variable it skips.
func TestAccuracyDump(t *testing.T) {
	out := os.Getenv("SENTINEL_ACCURACY_DIR")
	if out == "" {
		t.Skip("set SENTINEL_ACCURACY_DIR to write the accuracy dumps")
	}
	wz, err := wappalyzer.New()
	if err != nil {
		t.Fatal(err)
	}
	sites := map[string]string{}
	libs, _, _ := libsSite(t)
	sites["libs"] = libs
	sites["wordpress"] = wordpressSite(t)
	if _, err := os.Stat("/usr/share/dokuwiki/doku.php"); err == nil {
		sites["dokuwiki"] = phpServer(t, "/usr/share/dokuwiki") + "/doku.php"
	}
	if _, err := os.Stat("/usr/share/phpmyadmin/index.php"); err == nil {
		root := t.TempDir()
		os.Symlink("/usr/share/phpmyadmin", filepath.Join(root, "phpmyadmin"))
		sites["phpmyadmin"] = phpServer(t, root) + "/phpmyadmin/"
	}
	if _, err := os.Stat("/usr/share/mediawiki/index.php"); err == nil {
		sites["mediawiki"] = mediawikiSite(t) + "/"
	}
	for name, target := range sites {
		dir := filepath.Join(out, name)
		os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
		s, err := scan.New(testConfig())
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		wapp := map[string]bool{}
		scan.SetTap(s, func(kind, u string, h http.Header, body []byte) {
			if kind == "page" {
				res := wz.FingerprintWithInfo(h, body)
				mu.Lock()
				for app := range res {
					wapp[app] = true
				}
				mu.Unlock()
				return
			}
			if kind == "script" {
				// retire.js reads files named *.js: keep the URL's file
				// name without its query, prefixed to keep copies apart.
				sum := sha1.Sum([]byte(u))
				name := path.Base(u)
				if pu, err := url.Parse(u); err == nil {
					name = path.Base(pu.Path)
				}
				os.WriteFile(filepath.Join(dir, "assets", hex.EncodeToString(sum[:4])+"-"+name), body, 0o644)
			}
		})
		res, err := s.Scan(context.Background(), target)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(res.Detections, "", " ")
		os.WriteFile(filepath.Join(dir, "ours.json"), b, 0o644)
		var ws []string
		for a := range wapp {
			ws = append(ws, a)
		}
		b, _ = json.MarshalIndent(ws, "", " ")
		os.WriteFile(filepath.Join(dir, "wappalyzer.json"), b, 0o644)
	}
}
