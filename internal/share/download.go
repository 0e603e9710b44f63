package share

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
)

// download streams the bundle to a recipient with a live session and logs
// the download in the access log.
func (s *Site) download(w http.ResponseWriter, r *http.Request) error {
	b, ok, err := s.share(w, r)
	if !ok {
		return err
	}
	if done, err := s.gone(w, r, b); done {
		return err
	}
	live, err := s.session(r, b)
	if err != nil {
		return err
	}
	if !live {
		http.Redirect(w, r, s.shareURL(r), http.StatusSeeOther)
		return nil
	}
	if b.BuildState != sentinel.BundleReady {
		if err := s.log(r, b, sentinel.AccessRefusedNotReady, false, nil); err != nil {
			return err
		}
		w.Header().Set("Retry-After", "5")
		return s.render(w, http.StatusServiceUnavailable, "message.html", message{Title: "Not ready yet",
			Text: "The bundle is still being prepared. Go back and try again in a moment."})
	}
	if err := s.log(r, b, sentinel.AccessDownload, true, map[string]any{"access": "downloaded"}); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="`+b.ID+`.zip"`)
	h.Set("Content-Length", strconv.FormatInt(b.Size, 10))
	w.WriteHeader(http.StatusOK)
	if err := evidence.OpenZip(r.Context(), s.DB, b.ID, w); err != nil && !errors.Is(err, context.Canceled) {
		// The status is sent; a broken stream shows as a short download.
		s.Logger.Error("share download", "bundle", b.ID, "err", err)
	}
	return nil
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// formTrusted decides whether a password POST may be checked. A browser
// form carries the page's anti-forgery token, which must match its cookie
// (double submit). A script (curl, an auditor's tooling) sends neither the
// cookie nor the token, and no Sec-Fetch-Site header: it is accepted, as
// the documented HTTP shape promises ("POST <share_url> with the form field
// password"). What is refused is a browser request from another site
// (Sec-Fetch-Site other than same-origin or none) without a matching token:
// that is the cross-site form this check exists to stop.
func formTrusted(r *http.Request) bool {
	c, cerr := r.Cookie(csrfCookie)
	form := r.PostForm.Get("csrf_token")
	if cerr == nil || form != "" {
		return cerr == nil && form != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(form)) == 1
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "none", "same-origin":
		return true
	}
	return false
}
