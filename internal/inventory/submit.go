package inventory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

// AcceptedSpecVersions are the CycloneDX versions a submission may have.
// The specification says SBOMs are CycloneDX 1.5; older 1.x documents that
// sbom.Decode reads are accepted too, as a subset of 1.5. 1.6 is refused:
// Evidence Bundles state that their SBOMs are 1.5.
var AcceptedSpecVersions = []string{"1.2", "1.3", "1.4", "1.5"}

// memoryFactor is the peak heap of one submission relative to its size:
// the bytes themselves, the decoded document and the inventory rows.
// BenchmarkSubmit50MB measured 232 MB of heap growth for a 56 MB SBOM of
// 73,000 components, about 4x.
const memoryFactor = 4

func (s *Service) submit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	certOrg, err := s.Identity.CertificateOrg(ctx, r.TLS)
	if err != nil {
		return err
	}
	if certOrg == "" {
		return sentinel.Errorf(sentinel.EUNAUTHORIZED, "a client certificate is required to submit: enroll the agent (sentinel enroll) and submit with it")
	}
	p := httpapi.PrincipalFromContext(ctx)
	if p.OrgID != certOrg {
		return sentinel.Errorf(sentinel.EUNAUTHORIZED, "the API key and the agent certificate belong to different organizations; use a key of the organization the agent enrolled in")
	}
	if r.ContentLength > s.MaxSubmission {
		return sentinel.Errorf(sentinel.ETOOLARGE, "the SBOM is larger than %d bytes", s.MaxSubmission)
	}
	hostParam := r.URL.Query().Get("host")
	if hostParam == "" {
		hostParam = r.Header.Get("X-Sentinel-Host")
	}
	if hostParam != "" && !sentinel.ValidHost(hostParam) {
		return sentinel.InvalidField("host", "host must be 1-253 printable characters without spaces")
	}

	// Spool the upload to disk while hashing it: an upload holds no memory
	// while it arrives, however slowly.
	f, err := os.CreateTemp(s.TempDir, "sentinel-sbom-*")
	if err != nil {
		return fmt.Errorf("spool submission: %w", err)
	}
	defer func() {
		f.Close()
		os.Remove(f.Name())
	}()
	h := sha256.New()
	size, err := io.Copy(io.MultiWriter(f, h), http.MaxBytesReader(w, r.Body, s.MaxSubmission))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return sentinel.Errorf(sentinel.ETOOLARGE, "the SBOM is larger than %d bytes", s.MaxSubmission)
		}
		return sentinel.Errorf(sentinel.EINVALID, "the request body could not be read")
	}
	if size == 0 {
		return sentinel.InvalidField("body", "the request body must be a CycloneDX JSON SBOM")
	}
	sum := hex.EncodeToString(h.Sum(nil))

	// Decoding and storing hold the document in memory: take a share of
	// the budget first, so that concurrent large SBOMs queue.
	weight := min(memoryFactor*size, s.MemoryBudget)
	if err := s.mem.Acquire(ctx, weight); err != nil {
		return sentinel.Errorf(sentinel.EUNAVAILABLE, "the request was canceled while waiting for memory")
	}
	defer s.mem.Release(weight)
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read spooled submission: %w", err)
	}
	resp, err := s.ingest(ctx, p, certOrg, r.TLS.PeerCertificates[0].SerialNumber.Text(16),
		r.TLS.PeerCertificates[0].Subject.CommonName, hostParam, data, sum, httpapi.Actor(r))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, resp)
	return nil
}

// Ingest decodes an SBOM and stores it as a submission of org: the
// original bytes, the inventory rows, the dependency graph (as edges
// between purls), the monthly meter and the sbom.submitted event, in one
// transaction. host, when not empty, names the host; otherwise the SBOM's
// sentinel:host property does, else certHost (the agent certificate's
// common name). It is the submission endpoint without HTTP, for
// benchmarks and tools.
func (s *Service) Ingest(ctx context.Context, org *sentinel.Organization, keyID, certHost, host string, data []byte) (*SubmitResponse, error) {
	s.init()
	sum := sha256.Sum256(data)
	p := &sentinel.Principal{OrgID: org.ID, OrgSlug: org.Slug, KeyID: keyID}
	return s.ingest(ctx, p, org.ID, "", certHost, host, data, hex.EncodeToString(sum[:]), sentinel.Actor{KeyID: keyID})
}

func (s *Service) ingest(ctx context.Context, p *sentinel.Principal, orgID, serial, certHost, host string, data []byte, sum string, actor sentinel.Actor) (*SubmitResponse, error) {
	// Checked against the official schema of its declared version before
	// it is kept: what is accepted is evidence an auditor receives signed.
	// The check runs while the submission is written, and the transaction
	// commits only when it passes; an error found before then waits for
	// the check, whose error comes first, as it would have.
	doc, checked, err := validation.DecodeValidating(data)
	if err != nil {
		return nil, submissionError(data, err)
	}
	fail := func(err error) (*SubmitResponse, error) {
		if cerr := checked(); cerr != nil {
			return nil, submissionError(data, cerr)
		}
		return nil, err
	}
	if !slices.Contains(AcceptedSpecVersions, doc.SpecVersion) {
		return fail(sentinel.InvalidField("body", "CycloneDX %s is not accepted: submit CycloneDX 1.5 JSON (1.2 to 1.4 are read as subsets of 1.5): sentinel sbom --from FILE writes it as 1.5 (--submit sends it)", doc.SpecVersion))
	}
	// The certificate's identity is the host: what the request or the SBOM
	// claims is recorded as a claim, never as the host (an agent cannot
	// file components under another host's name). Without a certificate
	// (a tool calling Ingest) the given host, else the SBOM's, is the host.
	claimed := host
	if claimed == "" {
		claimed = doc.Metadata.Host
	}
	switch {
	case certHost != "":
		host = certHost
	case host == "":
		host = doc.Metadata.Host
	}
	if !sentinel.ValidHost(host) {
		return fail(sentinel.InvalidField("host", "the SBOM names no host: pass ?host="))
	}
	if claimed == host || !sentinel.ValidHost(claimed) {
		claimed = ""
	}
	asset := doc.Metadata.ComponentName
	if asset != "" && doc.Metadata.ComponentVersion != "" {
		asset += "@" + doc.Metadata.ComponentVersion
	}
	if len(asset) > 512 {
		asset = asset[:512]
	}
	items := make([]sentinel.InventoryItem, 0, len(doc.Components))
	for _, c := range doc.Components {
		name := c.Name
		if c.Group != "" {
			name = c.Group + "/" + c.Name
		}
		pu := c.Purl
		if c.NoPurl {
			pu = ""
		}
		it := purl.ItemFromPurl(pu, name, c.Version)
		it.Development = c.Development
		items = append(items, it)
	}
	edges := graphEdges(doc, items)
	org, err := s.DB.FindOrgByID(ctx, orgID)
	if err != nil {
		return fail(err)
	}
	sub := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: orgID, Host: host, Asset: asset,
		ClaimedHost: claimed, SpecVersion: doc.SpecVersion, SerialNumber: truncate(doc.SerialNumber, 200), ComponentCount: len(doc.Components),
		Size: int64(len(data)), SHA256: sum, KeyID: p.KeyID}
	if serial != "" {
		if a, err := s.DB.FindAgentBySerial(ctx, orgID, serial); err == nil {
			sub.AgentID = a.ID
		}
	}
	err = s.DB.Update(ctx, func(tx Tx) error {
		if err := tx.ConsumeMeter(ctx, orgID, sentinel.MeterSBOMSubmissions, 1); err != nil {
			return err
		}
		if err := tx.CreateSubmission(ctx, sub, data, items); err != nil {
			return err
		}
		if err := tx.CreateSubmissionEdges(ctx, sub, edges); err != nil {
			return err
		}
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventSBOMSubmitted, sub.ID, SubmittedData{
			SubmissionID: sub.ID, Host: host, Asset: asset, SpecVersion: sub.SpecVersion,
			Components: sub.ComponentCount, SHA256: sum}); err != nil {
			return err
		}
		if err := tx.Audit(ctx, orgID, actor, "sbom.submit", sub.ID, map[string]any{
			"host": host, "components": sub.ComponentCount, "sha256": sum, "size": sub.Size, "agent": sub.AgentID}); err != nil {
			return err
		}
		if s.OnSubmitted != nil {
			if err := s.OnSubmitted(ctx, tx, orgID, sub.ID); err != nil {
				return err
			}
		}
		// Commit only a document that passed the check (fail answers
		// with its error).
		return checked()
	})
	if err != nil {
		return fail(err)
	}
	return &SubmitResponse{ID: sub.ID, Host: host, ClaimedHost: claimed, Asset: asset, SpecVersion: sub.SpecVersion, Components: sub.ComponentCount,
		Indexed: sub.IndexedCount, SHA256: sum, Size: sub.Size, CreatedAt: sub.CreatedAt, Unchecked: s.unchecked(items)}, nil
}

// submissionError is the API error of a document DecodeValidating refused.
func submissionError(data []byte, err error) error {
	var ve *validation.ValidationError
	if errors.As(err, &ve) {
		// Not CycloneDX JSON at all (XML, SPDX, not JSON): the reader
		// says what it is, which helps more than a schema path.
		e := sentinel.InvalidField("body", "%s; fix the SBOM's generator or submit CycloneDX 1.5 JSON", ve.Error())
		var de *sbom.DecodeError
		if _, derr := sbom.Decode(data); errors.As(derr, &de) {
			e.Message = de.Message()
		}
		for _, se := range ve.Errors {
			e.Details = append(e.Details, sentinel.ErrorDetail{Path: se.Path, Reason: se.Reason})
		}
		return e
	}
	var de *sbom.DecodeError
	if errors.As(err, &de) {
		return sentinel.InvalidField("body", "%s", de.Message())
	}
	return sentinel.InvalidField("body", "the SBOM could not be read")
}

// unchecked counts the distinct components of items, per ecosystem, that
// no advisory can match (see wire.SubmitResponse.Unchecked), sorted by
// ecosystem.
func (s *Service) unchecked(items []sentinel.InventoryItem) []wire.UncheckedEcosystem {
	var have []string
	if s.Advisories != nil {
		have = s.Advisories.Ecosystems()
	}
	seen := map[sentinel.InventoryItem]bool{}
	count := map[string]int{}
	for _, it := range items {
		if it.Ecosystem != "" && slices.Contains(have, it.Ecosystem) {
			continue
		}
		k := sentinel.InventoryItem{Ecosystem: it.Ecosystem, Name: it.Name, Version: it.Version}
		if !seen[k] {
			seen[k] = true
			count[it.Ecosystem]++
		}
	}
	var out []wire.UncheckedEcosystem
	for _, eco := range slices.Sorted(maps.Keys(count)) {
		out = append(out, wire.UncheckedEcosystem{Ecosystem: eco, Components: count[eco]})
	}
	return out
}

// graphEdges translates the document's dependency graph from bom-refs to
// the purls of the inventory rows: items[i] is the inventory item of
// doc.Components[i]. A reference names the purl of the row that
// CreateSubmission keeps for the component's package (the first item of
// each ecosystem, name and version), so both ends of every edge are purls
// of the submission's inventory. Edges with an end that has no purl (the
// root metadata component, a component without a usable purl, an unknown
// reference) are dropped; CreateSubmissionEdges removes duplicates and
// self-references.
func graphEdges(doc *sbom.Document, items []sentinel.InventoryItem) []sentinel.DependencyEdge {
	if len(doc.Dependencies) == 0 {
		return nil
	}
	type key struct{ eco, name, version string }
	kept := make(map[key]string, len(items))
	refs := make(map[string]string, len(items))
	for i, c := range doc.Components {
		it := items[i]
		if it.Name == "" {
			continue // not indexed
		}
		k := key{it.Ecosystem, it.Name, it.Version}
		p, ok := kept[k]
		if !ok {
			p = it.Purl
			kept[k] = p
		}
		if _, dup := refs[c.BOMRef]; p != "" && c.BOMRef != "" && !dup {
			refs[c.BOMRef] = p
		}
	}
	n := 0
	for _, d := range doc.Dependencies {
		n += len(d.DependsOn)
	}
	edges := make([]sentinel.DependencyEdge, 0, n)
	for _, d := range doc.Dependencies {
		from := refs[d.Ref]
		if from == "" {
			continue
		}
		for _, ref := range d.DependsOn {
			if to := refs[ref]; to != "" {
				edges = append(edges, sentinel.DependencyEdge{From: from, To: to})
			}
		}
	}
	return edges
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (s *Service) listSubmissions(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := sentinel.SubmissionFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, Host: q.Get("host"), Page: page}
	switch q.Get("order") {
	case "", "oldest":
	case "newest":
		f.Newest = true
	default:
		return sentinel.InvalidField("order", "order must be oldest or newest")
	}
	subs, next, err := s.DB.FindSubmissions(r.Context(), f)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, subs, next)
	return nil
}

func (s *Service) getSubmission(w http.ResponseWriter, r *http.Request) error {
	sub, err := s.DB.FindSubmission(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sub)
	return nil
}

func (s *Service) getSubmissionDocument(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	body, err := s.DB.SubmissionBody(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/vnd.cyclonedx+json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("Content-Disposition", `attachment; filename="`+id+`.cdx.json"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return nil
}
