package main

import (
	"context"
	"encoding/json"
	"flag"
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
  sync     --feeds [--intel-osv-base URL --intel-ecosystems LIST ...]   bring the intel up to date from the published feeds now
  export   -o FILE                                                    write an offline snapshot for sentinel ci --offline-db
  status                                                              what is loaded and the last syncs

A sync runs in one transaction: a failed sync leaves the previous intel in force. Running services
pick up a sync made here within 30 seconds. With --feeds, each OSV ecosystem, the KEV catalog and the
end-of-life data are their own sync; an ecosystem already stored is read incrementally.
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
		return &intelsvc.Service{DB: store.Bind[intelsvc.Tx](db)}, func() { db.Close() }, nil
	}
	switch args[0] {
	case "sync":
		var osv multiFlag
		fs.Var(&osv, "osv", "OSV source: a directory of JSON records, an osv.dev ecosystem all.zip, or its URL (repeatable)")
		kev := fs.String("kev", "", "CISA KEV catalog JSON: a file or URL")
		eol := fs.String("eol", "", "endoflife.date product files: a directory or one file")
		useFeeds := fs.Bool("feeds", false, "sync from the published feeds (the --intel-* flags, as for serve)")
		var feeds intelsvc.Feeds
		applyFeeds := feedFlags(fs, &feeds)
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		src := intelsvc.Sources{OSV: osv, KEV: *kev, EOL: *eol}
		if *useFeeds {
			if !src.Empty() {
				return usageErr("--feeds syncs from the published feeds; --osv, --kev and --eol import files: give one or the other")
			}
			if err := applyFeeds(); err != nil {
				return err
			}
			if feeds.Empty() {
				return usageErr("--feeds with every feed switched off: nothing to sync")
			}
			svc, done, err := open()
			if err != nil {
				return err
			}
			defer done()
			res, err := svc.SyncFeeds(ctx, feeds, stderr)
			for _, r := range res {
				switch {
				case r.Error != "":
					fmt.Fprintf(stdout, "%-16s failed: %s\n", r.Feed, r.Error)
				case r.Unchanged:
					fmt.Fprintf(stdout, "%-16s unchanged\n", r.Feed)
				default:
					fmt.Fprintf(stdout, "%-16s sync %d (%s): %d records, %d new, %d changed, %d new KEV listings\n", r.Feed, r.Sync.ID,
						strings.TrimSpace(r.Mode+" read"), r.Sync.Stats.OSV.Loaded+r.Sync.Stats.KEV+r.Sync.Stats.EOL,
						len(r.Sync.Delta.New), len(r.Sync.Delta.Changed), len(r.Sync.Delta.NewKEV))
				}
			}
			return err
		}
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
		// Say what this sync brought; what it did not name stays as it was.
		parts := []string{}
		if len(src.OSV) > 0 {
			parts = append(parts, fmt.Sprintf("%d advisories loaded (%d skipped)", res.Stats.OSV.Loaded, res.Stats.OSV.SkippedTotal()))
		} else {
			parts = append(parts, "advisories unchanged")
		}
		if src.KEV != "" {
			parts = append(parts, fmt.Sprintf("%d KEV entries (catalog %s)", res.Stats.KEV, res.Stats.KEVCatalogVersion))
		} else {
			parts = append(parts, "KEV catalog unchanged")
		}
		if src.EOL != "" {
			parts = append(parts, fmt.Sprintf("%d EOL products", res.Stats.EOL))
		} else {
			parts = append(parts, "end-of-life data unchanged")
		}
		fmt.Fprintf(stdout, "sync %d: %s in %v\n", res.ID, strings.Join(parts, ", "), time.Since(start).Round(time.Millisecond))
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
		if len(syncs) == 0 {
			fmt.Fprintln(stdout, "no sync yet: nothing is matched until one runs (sentineld intel sync, or serve with the default sources)")
		}
		for _, s := range syncs {
			var src intelsvc.Sources
			_ = json.Unmarshal([]byte(s.Sources), &src)
			var named []string
			for _, o := range src.OSV {
				named = append(named, "osv "+o)
			}
			if src.KEV != "" {
				named = append(named, "kev "+src.KEV)
			}
			if src.EOL != "" {
				named = append(named, "eol "+src.EOL)
			}
			line := fmt.Sprintf("sync %d  %s  %s  %s", s.ID, s.FinishedAt.Format(time.RFC3339), s.Status, strings.Join(named, ", "))
			if s.Error != "" {
				line += "  error: " + s.Error
			}
			fmt.Fprintln(stdout, line)
		}
		return nil
	}
	fmt.Fprint(stderr, intelUsage)
	return usageErr("unknown intel command %q", args[0])
}

// feedFlags registers the flags that name the published intel feeds, for
// serve and intel sync --feeds; the returned function applies them.
func feedFlags(fs *flag.FlagSet, f *intelsvc.Feeds) func() error {
	def := intelsvc.DefaultFeeds()
	mode := fs.String("intel-feeds", "default", "published intel feeds: default (OSV, CISA KEV, endoflife.date as below) or off (air-gapped sites import with sentineld intel sync)")
	osvBase := fs.String("intel-osv-base", def.OSVBase, "base URL of OSV's per-ecosystem exports (<base>/<ecosystem>/all.zip and modified_id.csv); empty: no OSV feed")
	ecos := fs.String("intel-ecosystems", strings.Join(def.Ecosystems, ","), "comma-separated OSV ecosystems to sync")
	kev := fs.String("intel-kev-url", def.KEVURL, "CISA KEV catalog feed URL; empty: no KEV feed")
	eol := fs.String("intel-eol-url", def.EOLURL, "endoflife.date API products/full URL; empty: no end-of-life feed")
	return func() error {
		switch *mode {
		case "off":
			*f = intelsvc.Feeds{}
			return nil
		case "default", "on":
		default:
			return usageErr("--intel-feeds %q: want default or off", *mode)
		}
		*f = intelsvc.Feeds{OSVBase: *osvBase, KEVURL: *kev, EOLURL: *eol}
		for _, e := range strings.Split(*ecos, ",") {
			if e = strings.TrimSpace(e); e != "" {
				f.Ecosystems = append(f.Ecosystems, e)
			}
		}
		for _, u := range []string{*osvBase, *kev, *eol} {
			if u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
				return usageErr("intel feed %q is not an http(s) URL", u)
			}
		}
		return nil
	}
}
