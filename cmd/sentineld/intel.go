package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
)

const intelUsage = `usage: sentineld intel <command> [flags]

commands:
  sync     --osv PATH_OR_URL [--osv ...] --kev PATH_OR_URL --eol DIR   import advisories, KEV and end-of-life data
  export   -o FILE                                                    write an offline snapshot for sentinel ci --offline-db
  status                                                              what is loaded and the last syncs

A sync runs in one transaction: a failed sync leaves the previous intel in force. Running services
pick up a sync made here within 30 seconds.
`

// multiFlag collects a repeatable, comma-separable flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*m = append(*m, p)
		}
	}
	return nil
}

func intelCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, intelUsage)
		return usageErr("no intel command given")
	}
	cfg := server.DefaultConfig()
	fs := newFlagSet("intel "+args[0], stderr)
	storeFlags(fs, &cfg)
	open := func() (*intelsvc.Service, func(), error) {
		db, err := store.Open(ctx, cfg.DSN())
		if err != nil {
			return nil, nil, err
		}
		return &intelsvc.Service{DB: db}, func() { db.Close() }, nil
	}
	switch args[0] {
	case "sync":
		var osv multiFlag
		fs.Var(&osv, "osv", "OSV source: a directory of JSON records, an osv.dev ecosystem all.zip, or its URL (repeatable)")
		kev := fs.String("kev", "", "CISA KEV catalog JSON: a file or URL")
		eol := fs.String("eol", "", "endoflife.date product files: a directory or one file")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		src := intelsvc.Sources{OSV: osv, KEV: *kev, EOL: *eol}
		if src.Empty() {
			return usageErr("name at least one of --osv, --kev, --eol")
		}
		svc, done, err := open()
		if err != nil {
			return err
		}
		defer done()
		start := time.Now()
		res, err := svc.Sync(ctx, src, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "sync %d: %d advisories loaded (%d skipped), %d KEV entries, %d EOL products in %v\n",
			res.ID, res.Stats.OSV.Loaded, res.Stats.OSV.SkippedTotal(), res.Stats.KEV, res.Stats.EOL, time.Since(start).Round(time.Millisecond))
		meaningful := 0
		for _, c := range res.Delta.Changed {
			if c.Meaningful() {
				meaningful++
			}
		}
		fmt.Fprintf(stdout, "delta: %d new advisories, %d changed (%d meaningful), %d new KEV listings\n",
			len(res.Delta.New), len(res.Delta.Changed), meaningful, len(res.Delta.NewKEV))
		for reason, n := range res.Stats.OSV.Skipped {
			fmt.Fprintf(stdout, "skipped %d records: %s\n", n, reason)
		}
		return nil
	case "export":
		out := fs.String("o", "", "output file (default stdout)")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		svc, done, err := open()
		if err != nil {
			return err
		}
		defer done()
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		if err := svc.WriteSnapshot(ctx, w); err != nil {
			return err
		}
		if *out != "" {
			fmt.Fprintf(stderr, "wrote %s\n", *out)
		}
		return nil
	case "status":
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		svc, done, err := open()
		if err != nil {
			return err
		}
		defer done()
		adv, wd, kev, eol, err := svc.DB.IntelCounts(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "advisories: %d (%d withdrawn)\nKEV entries: %d\nEOL products: %d\n", adv, wd, kev, eol)
		syncs, err := svc.DB.LastSyncs(ctx, 5)
		if err != nil {
			return err
		}
		for _, s := range syncs {
			var src any
			_ = json.Unmarshal([]byte(s.Sources), &src)
			fmt.Fprintf(stdout, "sync %d %s %s %v %s\n", s.ID, s.FinishedAt.Format(time.RFC3339), s.Status, src, s.Error)
		}
		return nil
	}
	fmt.Fprint(stderr, intelUsage)
	return usageErr("unknown intel command %q", args[0])
}
