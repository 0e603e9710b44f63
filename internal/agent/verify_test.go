package agent_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// TestVerifyIssuedBundle walks the recipient's path with nothing but HTTP:
// an operator issues a bundle through the API, the recipient opens the
// share link, posts the password, downloads the zip, and `sentinel verify`
// checks it offline. A changed byte in any artifact makes it fail.
func TestVerifyIssuedBundle(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t)
	if _, err := server.CreateOrg(ctx, s.DB, "acme", "Acme Corp"); err != nil {
		t.Fatal(err)
	}
	_, key, err := server.CreateKey(ctx, s.DB, "acme", "auditor-share", []string{sentinel.ScopeEvidenceShare, sentinel.ScopeSCARead})
	if err != nil {
		t.Fatal(err)
	}

	req, _ := http.NewRequest("POST", s.APIURL()+"/v1/sca/bundles", strings.NewReader(`{"window_days": 30, "description": "Q4 audit"}`))
	req.Header.Set("Authorization", "ApiKey "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var issued struct {
		ID, ShareURL, Password, ExpiresAt string
		Scope                             []string
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("issue: %d %s", resp.StatusCode, body)
	}
	var raw map[string]any
	_ = json.Unmarshal(body, &raw)
	issued.ID, _ = raw["id"].(string)
	issued.ShareURL, _ = raw["share_url"].(string)
	issued.Password, _ = raw["password"].(string)
	if len(raw) != 5 || issued.ShareURL == "" || issued.Password == "" {
		t.Fatalf("issue response must hold exactly id, share_url, password, expires_at, scope: %s", body)
	}

	// The recipient: open the link, post the password, download. The
	// bundle is built by a background job; the download waits for it.
	// A script, as curl would: the session cookie is taken from the 303
	// and sent back by hand (it is Secure; cookie jars keep such cookies
	// for https only, and this test serves plain http on 127.0.0.1).
	script := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if r, err := script.Get(issued.ShareURL); err != nil || r.StatusCode != 200 {
		t.Fatalf("open share: %v %v", err, r)
	} else {
		r.Body.Close()
	}
	r, err := script.PostForm(issued.ShareURL, url.Values{"password": {issued.Password}})
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusSeeOther || len(r.Cookies()) == 0 {
		t.Fatalf("password POST: %d, cookies %v; want 303 with a session cookie", r.StatusCode, r.Cookies())
	}
	session := r.Cookies()
	var zipBytes []byte
	deadline := time.Now().Add(60 * time.Second)
	for {
		dl, _ := http.NewRequest("GET", issued.ShareURL+"/download", nil)
		for _, c := range session {
			dl.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		}
		r, err := script.Do(dl)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode == 200 && bytes.HasPrefix(b, []byte("PK")) {
			zipBytes = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("download: %d %.200s", r.StatusCode, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "bundle.zip")
	if err := os.WriteFile(good, zipBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := ciRun(t, nil, "verify", good)
	if code != 0 {
		t.Fatalf("verify of a good bundle: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, issued.ID) {
		t.Errorf("verify output does not name the bundle %s:\n%s", issued.ID, out)
	}

	// One changed byte in one artifact: verify fails and names it.
	zr, err := zip.NewReader(bytes.NewReader(zipBytes), int64(len(zipBytes)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name == "audit.csv" {
			data = append(data, ' ')
		}
		w, _ := zw.Create(f.Name)
		_, _ = w.Write(data)
	}
	_ = zw.Close()
	bad := filepath.Join(dir, "tampered.zip")
	if err := os.WriteFile(bad, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = ciRun(t, nil, "verify", bad)
	if code != 1 || !strings.Contains(out+errOut, "audit.csv") {
		t.Errorf("verify of a tampered bundle: exit %d, want 1 naming audit.csv\n%s\n%s", code, out, errOut)
	}
	if code, _, _ := ciRun(t, nil, "verify"); code != 2 {
		t.Errorf("verify without a file: exit %d, want 2", code)
	}
}
