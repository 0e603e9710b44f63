// Command catalogbuild builds the scan's known-file catalog: every stable
// version of the front-end libraries in catalog.DefaultPackages from the npm
// registry, plus the .deb files in -debs, written as a gzip CSV.
//
//	go run ./internal/scan/catalog/cmd/catalogbuild -debs /tmp/debs -o catalog.csv.gz
//
// See ../../README.md for how to get the Debian packages. The service wires
// the same function as `sentineld catalog build`.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
)

func main() {
	out := flag.String("o", "catalog.csv.gz", "output file")
	debs := flag.String("debs", "", "directory searched (recursively) for .deb files to include")
	registry := flag.String("registry", "https://registry.npmjs.org", "npm registry")
	only := flag.String("only", "", "comma-separated npm packages to build (default: all)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	opts := catalog.BuildOptions{Registry: *registry, Logger: log}
	if *only != "" {
		want := map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			want[strings.TrimSpace(n)] = true
		}
		for _, p := range catalog.DefaultPackages {
			if want[p.Name] {
				opts.Packages = append(opts.Packages, p)
			}
		}
		if len(opts.Packages) == 0 {
			fmt.Fprintln(os.Stderr, "catalogbuild: -only names no known package")
			os.Exit(2)
		}
	}
	if *debs != "" {
		err := filepath.WalkDir(*debs, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".deb") {
				opts.Debs = append(opts.Debs, p)
			}
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "catalogbuild:", err)
			os.Exit(1)
		}
	}
	c, st, err := catalog.Build(ctx, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogbuild:", err)
		os.Exit(1)
	}
	if err := c.WriteFile(*out); err != nil {
		fmt.Fprintln(os.Stderr, "catalogbuild:", err)
		os.Exit(1)
	}
	for _, s := range st.Skipped {
		fmt.Fprintln(os.Stderr, "skipped:", s)
	}
	fmt.Printf("%d entries (%d from npm, %d from Debian): %d packages, %d versions, %d MB of tarballs, %d .deb files (%d unlabelled files), %s\n",
		st.Entries, st.NPMEntries, st.DebEntries, st.Packages, st.Versions, st.Tarballs>>20, st.Debs, st.DebUnlabeled, st.Duration.Round(1e9))
}
