package evidence

import (
	"context"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/signing"
)

// caAD binds the sealed CA keys to their row: the ciphertext cannot be
// moved elsewhere and opened.
var caAD = []byte("sentinel signing_ca 1")

// LoadOrCreateCA returns the deployment's signing CA, creating it on the
// first start. Its certificates are stored in the clear; its intermediate
// and timestamp-authority keys sealed with the master key. The root key is
// not kept at all: it is needed only to create the other two, and without
// it a stolen database and master key still cannot mint a new intermediate.
// When two replicas start at once, the first CA stored wins and both use it.
func LoadOrCreateCA(ctx context.Context, db Store, box *seal.Box, now time.Time) (*signing.CA, error) {
	certs, sealed, err := db.SigningCA(ctx)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		ca, cerr := signing.NewCA(now, signing.CAOptions{Organization: "Sentinel"})
		if cerr != nil {
			return nil, fmt.Errorf("create signing CA: %w", cerr)
		}
		keys, kerr := ca.PrivateKeysPEM(false)
		if kerr != nil {
			return nil, fmt.Errorf("create signing CA: %w", kerr)
		}
		if terr := db.Update(ctx, func(tx Tx) error {
			_, err := tx.PutSigningCA(ctx, string(ca.CertificatesPEM()), box.Seal(keys, caAD))
			return err
		}); terr != nil {
			return nil, terr
		}
		certs, sealed, err = db.SigningCA(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("load signing CA: %w", err)
	}
	keys, err := box.Open(sealed, caAD)
	if err != nil {
		return nil, fmt.Errorf("load signing CA: %w", err)
	}
	return signing.LoadCA([]byte(certs), keys)
}
