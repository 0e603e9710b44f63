package portal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// apiError is the API's answer to a request it refused: its status and
// its JSON error body, shown to the user as they are.
type apiError struct {
	Status int
	Body   httpapi.ErrorBody
}

func (e *apiError) Error() string {
	return fmt.Sprintf("API %d %s: %s", e.Status, e.Body.Error, e.Body.Message)
}

// recorder keeps an in-process API response.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

// apiRequest builds an in-process API request from the page's request:
// the same context (it ends when the browser goes away), client address
// (the audit log's and the rate limiter's) and user agent.
func apiRequest(r *http.Request, method, path string, query url.Values, body any) (*http.Request, error) {
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(r.Context(), method, path, rd)
	if err != nil {
		return nil, err
	}
	req.RemoteAddr = r.RemoteAddr
	req.Header.Set("User-Agent", r.UserAgent())
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// call makes one API request on behalf of the signed-in user and decodes
// its JSON answer into out (when not nil). A refusal is an *apiError with
// the API's status and message.
func (s *Site) call(r *http.Request, c *reqCtx, method, path string, query url.Values, body, out any) error {
	req, err := apiRequest(r, method, path, query, body)
	if err != nil {
		return err
	}
	rec := &recorder{header: http.Header{}}
	s.API.ServeAs(rec, req, c.p)
	if rec.status >= 400 {
		e := &apiError{Status: rec.status}
		if err := json.Unmarshal(rec.body.Bytes(), &e.Body); err != nil {
			return fmt.Errorf("API %s %s: %d with an unreadable body", method, path, rec.status)
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(rec.body.Bytes(), out); err != nil {
		return fmt.Errorf("API %s %s: decode: %w", method, path, err)
	}
	return nil
}

// passThrough writes a successful API response straight to the browser
// (a download, which may be large) and records a refusal instead, so that
// the page can show it.
type passThrough struct {
	w      http.ResponseWriter
	rec    recorder
	failed bool
	wrote  bool
	header http.Header
}

func (p *passThrough) Header() http.Header { return p.header }

func (p *passThrough) WriteHeader(code int) {
	if p.wrote || p.failed {
		return
	}
	if code >= 400 {
		p.failed = true
		p.rec.status = code
		return
	}
	for _, k := range []string{"Content-Type", "Content-Length", "Content-Disposition"} {
		if v := p.header.Get(k); v != "" {
			p.w.Header().Set(k, v)
		}
	}
	p.wrote = true
	p.w.WriteHeader(code)
}

func (p *passThrough) Write(b []byte) (int, error) {
	if !p.wrote && !p.failed {
		p.WriteHeader(http.StatusOK)
	}
	if p.failed {
		return p.rec.body.Write(b)
	}
	return p.w.Write(b)
}

// stream makes an API request whose successful answer goes to the browser
// as it is (a submission's original bytes).
func (s *Site) stream(w http.ResponseWriter, r *http.Request, c *reqCtx, path string) error {
	req, err := apiRequest(r, http.MethodGet, path, nil, nil)
	if err != nil {
		return err
	}
	pt := &passThrough{w: w, header: http.Header{}}
	s.API.ServeAs(pt, req, c.p)
	if pt.failed {
		e := &apiError{Status: pt.rec.status}
		if err := json.Unmarshal(pt.rec.body.Bytes(), &e.Body); err != nil {
			return fmt.Errorf("API GET %s: %d with an unreadable body", path, pt.rec.status)
		}
		return e
	}
	return nil
}

func apiBody(code, msg string) httpapi.ErrorBody { return httpapi.ErrorBody{Error: code, Message: msg} }
