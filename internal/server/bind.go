package server

import (
	"github.com/sentinel-sca/sentinel/internal/agents"
	"github.com/sentinel-sca/sentinel/internal/assets"
	"github.com/sentinel-sca/sentinel/internal/edgesvc"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/iocs"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/keys"
	"github.com/sentinel-sca/sentinel/internal/org"
	"github.com/sentinel-sca/sentinel/internal/portal"
	"github.com/sentinel-sca/sentinel/internal/scan"
	"github.com/sentinel-sca/sentinel/internal/scancap"
	"github.com/sentinel-sca/sentinel/internal/scans"
	"github.com/sentinel-sca/sentinel/internal/secrets/intake"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
	"github.com/sentinel-sca/sentinel/internal/share"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/watch"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// The store serves each feature package through the interfaces that package
// defines. store.Binding converts *store.Tx to a package's Tx at run time,
// so these assertions are what makes a missing or mistyped method a compile
// error rather than a failed transaction.
var (
	_ agents.Store    = store.Binding[agents.Tx]{}
	_ agents.Tx       = (*store.Tx)(nil)
	_ evidence.Store  = store.Binding[evidence.Tx]{}
	_ evidence.Tx     = (*store.Tx)(nil)
	_ finding.Store   = store.Binding[finding.Tx]{}
	_ finding.Tx      = (*store.Tx)(nil)
	_ intelsvc.Store  = store.Binding[intelsvc.Tx]{}
	_ intelsvc.Tx     = (*store.Tx)(nil)
	_ inventory.Store = store.Binding[inventory.Tx]{}
	_ inventory.Tx    = (*store.Tx)(nil)
	_ keys.Store      = store.Binding[keys.Tx]{}
	_ keys.Tx         = (*store.Tx)(nil)
	_ share.Store     = store.Binding[share.Tx]{}
	_ share.Tx        = (*store.Tx)(nil)
	_ webhooks.Store  = store.Binding[webhooks.Tx]{}
	_ webhooks.Tx     = (*store.Tx)(nil)
	_ scans.Store     = store.Binding[scans.Tx]{}
	_ scans.Tx        = (*store.Tx)(nil)
	_ assets.Store    = store.Binding[assets.Tx]{}
	_ assets.Tx       = (*store.Tx)(nil)
	_ iocs.Store      = store.Binding[iocs.Tx]{}
	_ iocs.Tx         = (*store.Tx)(nil)
	_ org.Store       = store.Binding[org.Tx]{}
	_ org.Tx          = (*store.Tx)(nil)
	_ intake.Store    = store.Binding[intake.Tx]{}
	_ intake.Tx       = (*store.Tx)(nil)
	_ edgesvc.Store   = store.Binding[edgesvc.Tx]{}
	_ edgesvc.Tx      = (*store.Tx)(nil)
	_ portal.Store    = store.Binding[portal.Tx]{}
	_ portal.Tx       = (*store.Tx)(nil)

	// Read-only consumers take *store.DB itself.
	_ jobs.Store      = (*store.DB)(nil)
	_ scancap.Leases  = (*store.DB)(nil)
	_ watch.Store     = (*store.DB)(nil)
	_ intake.KeyStore = (*store.DB)(nil)

	// Interfaces satisfied by other packages' types.
	_ inventory.Identity  = (*agents.Service)(nil)
	_ intake.Identity     = (*agents.Service)(nil)
	_ intake.Verifier     = (*verify.Set)(nil)
	_ watch.Reconciler    = (*finding.Engine)(nil)
	_ scans.Reconciler    = (*finding.Engine)(nil)
	_ scans.Engine        = (*scan.Scanner)(nil)
	_ iocs.Findings       = (*finding.Engine)(nil)
	_ finding.Indicators  = (*iocs.Service)(nil)
	_ intelsvc.Indicators = (*iocs.Service)(nil)
	_ watch.Intel         = (*intelsvc.Service)(nil)
	_ inventory.Identity  = (*agents.Service)(nil)
	_ watch.Reconciler    = (*finding.Engine)(nil)
	_ scans.Reconciler    = (*finding.Engine)(nil)
	_ scans.Engine        = (*scan.Scanner)(nil)
	_ portal.API          = (*httpapi.Server)(nil)
)

// The intel index is what findings match against.
var _ finding.Matcher = (*intel.Index)(nil)
