package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

func (c *Command) sbomCmd(ctx context.Context, args []string) error {
	fs := c.flagSet("sbom")
	o := c.commonFlags(fs)
	output := fs.String("output", "", "write the SBOM to this file, - for standard output (default: standard output, unless --submit)")
	fs.StringVar(output, "o", "", "short for --output")
	submit := fs.Bool("submit", false, "submit the SBOM to the agent listener with the enrolled certificate")
	host := fs.String("host", "", "the host name written in the SBOM (default: the enrolled host name, else the system's)")
	asJSON := fs.Bool("json", false, "with --submit, print the service's answer as JSON")
	enrich := fs.Bool("enrich", false, "add vulnerabilities (OSV id, aliases, ratings, CWEs, fixed versions, known-exploited flag) from the match API or --offline-db")
	offlineDB := fs.String("offline-db", "", "with --enrich: an intel snapshot (sentineld intel export) instead of the match API")
	sf := c.addScanFlags(fs, "from", "read the components from this CycloneDX (JSON or XML) or SPDX (JSON or tag-value) SBOM, another tool's, instead of walking DIR; with --enrich, the SBOM gains vulnerabilities")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErr("usage: sentinel sbom [--output FILE] [--submit] [--exclude GLOB]... [--from SBOM] [DIR]")
	}
	o.env(c)
	root := "."
	if len(pos) == 1 {
		root = pos[0]
	}
	if *host == "" {
		// An enrolled agent names itself as it enrolled.
		if dir, err := c.home(); err == nil {
			var cfg savedConfig
			if b, err := os.ReadFile(filepath.Join(dir, configFile)); err == nil && json.Unmarshal(b, &cfg) == nil {
				*host = cfg.Host
			}
		}
	}
	if *host == "" {
		if *host, err = c.hostname(); err != nil {
			return fmt.Errorf("host name: %w (pass --host)", err)
		}
	}
	if *submit && o.apiKey == "" {
		return usageErr("--submit needs an API key with the sca:submit scope: --api-key or SENTINEL_API_KEY")
	}
	if sf.from != "" && len(pos) == 1 {
		return usageErr("--from reads an SBOM instead of a directory: give one or the other")
	}
	res, err := c.scan(ctx, root, sf)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(root)
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{ToolVersion: Version, Host: *host, Root: filepath.Base(abs), Projects: res.Projects, GraphFiles: res.GraphFiles()})
	if *enrich {
		purls := make([]string, 0, len(res.Components))
		for _, comp := range res.Components {
			if comp.Purl != "" {
				purls = append(purls, comp.Purl)
			}
		}
		matches, err := c.enrichMatches(ctx, o, *offlineDB, purls)
		if err != nil {
			return err
		}
		sbom.Enrich(bom, matches)
		fmt.Fprintf(c.stderr(), "sentinel: enriched %d of %d components with advisories\n", len(matches), len(purls))
	}
	if !*submit {
		// Streamed to where it goes: a large SBOM is never held whole.
		return c.writeSBOM(*output, bom, len(res.Components))
	}
	data, err := sbom.Marshal(bom)
	if err != nil {
		return err
	}
	switch {
	case *output != "" && *output != "-":
		if err := os.WriteFile(*output, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(c.stderr(), "sentinel: wrote %s (%d components)\n", *output, len(res.Components))
	case *output == "-":
		if _, err := c.stdout().Write(data); err != nil {
			return err
		}
	}
	resp, err := c.submit(ctx, o, "", "", data)
	if err != nil {
		return err
	}
	return c.printSubmitted(resp, *asJSON)
}

// writeSBOM writes bom to the file output, or to stdout when output is ""
// or "-". A file left incomplete by an error is removed.
func (c *Command) writeSBOM(output string, bom *cdx.BOM, components int) error {
	if output == "" || output == "-" {
		return sbom.Encode(c.stdout(), bom)
	}
	f, err := os.OpenFile(output, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	err = sbom.Encode(f, bom)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(output)
		return err
	}
	fmt.Fprintf(c.stderr(), "sentinel: wrote %s (%d components)\n", output, components)
	return nil
}
