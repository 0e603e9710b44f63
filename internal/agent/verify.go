package agent

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
)

// verifyCmd checks an Evidence Bundle offline, with no cosign installed:
// every artifact's signature, certificate chain, signing identity, OIDC
// issuer and timestamp, and the listing in verification.txt. It exits 0
// when everything verifies and 1 naming each artifact that does not.
//
//	sentinel verify [--identity-regexp RE] [--issuer URL] [--root ROOT.pem] BUNDLE.zip
func (c *Command) verifyCmd(ctx context.Context, args []string) error {
	fs := c.flagSet("verify")
	identity := fs.String("identity-regexp", "", "regular expression the signing identity must match (default: the identity verification.txt states)")
	issuer := fs.String("issuer", "", "OIDC issuer the certificates must name (default: the issuer verification.txt states)")
	rootFile := fs.String("root", "", "PEM file of the root certificate to trust; without it the bundle's own root is used and its fingerprint printed for you to compare")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sentinel verify [--identity-regexp RE] [--issuer URL] [--root ROOT.pem] BUNDLE.zip")
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("name one bundle zip: sentinel verify BUNDLE.zip")
	}
	opts := verify.Options{IdentityRegexp: *identity, Issuer: *issuer}
	if *rootFile != "" {
		b, err := os.ReadFile(*rootFile)
		if err != nil {
			return fmt.Errorf("read --root: %w", err)
		}
		if opts.Roots, err = verify.ParseRoots(b); err != nil {
			return usageErr("--root %s: %v", *rootFile, err)
		}
	}
	rep, err := verify.File(ctx, pos[0], opts)
	if err != nil {
		return fmt.Errorf("cannot read %s as an Evidence Bundle: %w", pos[0], err)
	}
	if err := rep.WriteText(c.stdout()); err != nil {
		return err
	}
	if !rep.OK {
		return &exitError{ExitError, errors.New("the bundle did NOT verify: see the artifacts marked above; do not rely on it")}
	}
	return nil
}
