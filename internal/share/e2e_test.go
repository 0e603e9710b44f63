package share_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// TestBrowserEndToEnd drives headless Chromium through the recipient's
// flow with no JavaScript of ours: open the link, submit the password
// form, read the artifact list and the access history, download the zip,
// and verify it offline. The share site runs on http://127.0.0.1, which
// Chromium treats as a secure context, so it keeps the Secure cookies.
func TestBrowserEndToEnd(t *testing.T) {
	bin := testenv.Chromium(t)
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	e := MustEnv(t)
	b := e.MustIssue(t, `{"description":"Globex procurement"}`)

	downloads := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:0:0],
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // tests run as root in CI containers
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads})
			return err
		}),
		chromedp.Navigate(b.ShareURL),
		chromedp.WaitVisible(chromedp.ID("password")),
		chromedp.SendKeys(chromedp.ID("password"), b.Password),
		chromedp.Click(chromedp.ID("unlock")),
		chromedp.WaitVisible(chromedp.ID("artifacts")),
	)
	if err != nil {
		t.Fatalf("chromium: open, unlock: %v", err)
	}
	text := func(id string) string {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID(id)))
		if err != nil {
			t.Fatalf("chromium: text of #%s: %v", id, err)
		}
		return s
	}
	bundleID, artifacts, history := text("bundle-id"), text("artifacts"), text("access-log")
	t.Logf("access history as Chromium shows it:\n%s", history)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("download"))); err != nil {
		t.Fatalf("chromium: download: %v", err)
	}
	if bundleID != b.ID {
		t.Errorf("page shows bundle %q, want %q", bundleID, b.ID)
	}
	bd, _ := e.s.DB.FindBundle(context.Background(), e.org.ID, b.ID)
	for _, a := range bd.Artifacts {
		if !strings.Contains(artifacts, a.Name) || !strings.Contains(artifacts, a.SHA256) {
			t.Errorf("artifact list lacks %s %s:\n%s", a.Name, a.SHA256, artifacts)
		}
	}
	if !strings.Contains(history, "password_accepted") || !strings.Contains(history, "HeadlessChrome") {
		t.Errorf("access history:\n%s", history)
	}

	zipPath := filepath.Join(downloads, b.ID+".zip")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if st, err := os.Stat(zipPath); err == nil && st.Size() == bd.Size {
			break
		}
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(downloads)
			t.Fatalf("no complete download at %s (folder holds %v)", zipPath, entries)
		}
		time.Sleep(100 * time.Millisecond)
	}
	rep, err := verify.File(context.Background(), zipPath, verify.Options{})
	if err != nil || !rep.OK {
		t.Fatalf("downloaded bundle does not verify: %v %+v", err, rep)
	}
	var log struct {
		Data []evidence.AccessEntry `json:"data"`
	}
	e.api(t, "GET", "/v1/sca/bundles/"+b.ID+"/audit", "", &log)
	var outcomes []string
	for _, a := range log.Data {
		outcomes = append(outcomes, a.Outcome)
	}
	if got := strings.Join(outcomes, " "); !strings.Contains(got, "opened password_accepted") || !strings.HasSuffix(got, "downloaded") {
		t.Errorf("access log %q", got)
	}
}
