package edgesvc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/edge"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Content types of POST /v1/edge/events.
const (
	// ContentTypeBatch is Sentinel's JSON batch ({"observations": [...]},
	// edge.DecodeBatch).
	ContentTypeBatch = "application/json"
	// ContentTypeModSec is a ModSecurity v2 JSON audit log, one entry per
	// line (also ?format=modsecurity).
	ContentTypeModSec = "application/x-modsecurity-audit+json"
)

// Routes are the package's routes on the public API.
func (s *Service) Routes() []httpapi.Route {
	s.init()
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/edge/events", Scope: sentinel.ScopeEdgeSubmit, Query: []string{"format"},
			Summary: "Submit observations of adversary traffic: Sentinel's JSON batch (application/json, at most 10,000) or a ModSecurity JSON audit log " +
				"(application/x-modsecurity-audit+json, or ?format=modsecurity); at most 32 MiB. Matches raise the risk of the targeted asset's open findings " +
				"once per 24-hour window (edge.correlation_match, finding.escalated); invalid items are listed and skipped.",
			Request: batchDoc{}, Response: Result{}, Handler: s.submit},
	}
}

// batchDoc documents the JSON batch for OpenAPI.
type batchDoc struct {
	Observations []edge.Observation `json:"observations"`
}

func (s *Service) submit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	format, err := requestFormat(r)
	if err != nil {
		return err
	}
	if r.ContentLength > s.MaxBody {
		return sentinel.Errorf(sentinel.ETOOLARGE, "the request body is larger than %d bytes", s.MaxBody)
	}
	body := http.MaxBytesReader(w, r.Body, s.MaxBody)
	res := &Result{Errors: []edge.ItemError{}}
	var obs []edge.Observation
	switch format {
	case "modsecurity":
		obs, err = readModSec(body, res)
	default:
		obs, err = readBatch(body, res)
	}
	if err != nil {
		return err
	}
	p := httpapi.PrincipalFromContext(ctx)
	org, err := s.DB.FindOrgByID(ctx, p.OrgID)
	if err != nil {
		return err
	}
	if err := s.Ingest(ctx, org, obs, res, httpapi.Actor(r)); err != nil {
		return err
	}
	if res.Findings == nil {
		res.Findings = []string{}
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
	return nil
}

// requestFormat is "json" or "modsecurity", from ?format= or the
// Content-Type.
func requestFormat(r *http.Request) (string, error) {
	switch f := r.URL.Query().Get("format"); f {
	case "modsecurity", "json":
		return f, nil
	case "":
	default:
		return "", sentinel.InvalidField("format", "format must be json or modsecurity")
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "json", nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", sentinel.InvalidField("Content-Type", "Content-Type %q is not a media type", ct)
	}
	switch mt {
	case ContentTypeBatch:
		return "json", nil
	case ContentTypeModSec:
		return "modsecurity", nil
	}
	return "", sentinel.InvalidField("Content-Type", "Content-Type must be %s (a batch) or %s (a ModSecurity audit log)", ContentTypeBatch, ContentTypeModSec)
}

func tooLarge(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return sentinel.Errorf(sentinel.ETOOLARGE, "the request body is larger than %d bytes", mbe.Limit)
	}
	return nil
}

// readBatch decodes a JSON batch. Invalid observations are listed in res
// and skipped; a body that is not a batch at all is refused.
func readBatch(body io.Reader, res *Result) ([]edge.Observation, error) {
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, body); err != nil {
		if e := tooLarge(err); e != nil {
			return nil, e
		}
		return nil, sentinel.Errorf(sentinel.EINVALID, "the request body could not be read")
	}
	obs, err := edge.DecodeBatch(buf.Bytes())
	var be *edge.BatchError
	switch {
	case errors.As(err, &be):
		for _, ie := range be.Items {
			res.addError(ie)
		}
		res.Rejected = countItems(be.Items)
	case err != nil:
		return nil, sentinel.InvalidField("body", "%v", err)
	}
	return obs, nil
}

// countItems counts the distinct observations among item errors.
func countItems(items []edge.ItemError) int {
	seen := map[int]bool{}
	for _, ie := range items {
		seen[ie.Index] = true
	}
	return len(seen)
}

// readModSec reads a ModSecurity JSON audit log. A line that cannot be
// read is listed (its index is the line number less one) and skipped.
func readModSec(body io.Reader, res *Result) ([]edge.Observation, error) {
	rd := edge.NewModSecReader(body)
	var obs []edge.Observation
	lastErr := -1
	for {
		o, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *edge.LineError
		if errors.As(err, &le) {
			if e := tooLarge(le.Err); e != nil {
				return nil, e
			}
			if errors.Is(le.Err, bufio.ErrTooLong) {
				return nil, sentinel.InvalidField("body", "line %d of the audit log is longer than 4 MiB", le.Line)
			}
			if le.Line == lastErr {
				// The reader reports a read error at the same line
				// again: the log ends there.
				return nil, sentinel.InvalidField("body", "the audit log could not be read after line %d", le.Line-1)
			}
			lastErr = le.Line
			res.Rejected++
			res.addError(edge.ItemError{Index: le.Line - 1, Field: fmt.Sprintf("line %d", le.Line), Message: le.Err.Error()})
			continue
		}
		if err != nil {
			return nil, err
		}
		obs = append(obs, o)
	}
	res.NotAttacks = rd.NotAttacks
	return obs, nil
}

func (r *Result) addError(ie edge.ItemError) {
	if len(r.Errors) >= MaxErrors {
		r.ErrorsTruncated = true
		return
	}
	r.Errors = append(r.Errors, ie)
}
