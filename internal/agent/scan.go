package agent

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// scanFlags are what sentinel sbom and sentinel ci share about where the
// components come from: the tree under DIR, narrowed by excludes (flags
// plus the project's .sentinel.yaml) and kinds, or an SBOM another tool
// wrote.
type scanFlags struct {
	exclude     []string
	kinds       string
	crossMounts bool
	from        string // an existing SBOM instead of the walk
	// sbomNotes, with from, leaves the SBOM's notes (its components
	// without a usable purl) to the caller, whose report keeps them.
	sbomNotes bool
	omitDev   bool   // --omit-dev, or omit_dev in the configuration (set by scan)
	mavenRepo string // --maven-repo: "" for ~/.m2/repository where it exists, "none"
	// gateDev leaves development-only components in the result for the
	// gate, which applies omitDev itself (ciOmitDevelopment).
	gateDev bool
}

func (c *Command) addScanFlags(fs *flag.FlagSet, fromFlag, fromHelp string) *scanFlags {
	sf := &scanFlags{}
	fs.Func("exclude", "skip paths matching this glob, relative to DIR (\"**/testdata/**\", \"docs/*.json\"); repeatable; also the exclude list of "+sbom.ConfigFileName+" in DIR", func(s string) error {
		sf.exclude = append(sf.exclude, s)
		return nil
	})
	fs.StringVar(&sf.kinds, "kinds", "all", "what to read: all, or a comma-separated list of languages (lockfiles and manifests), os (dpkg, apk and RPM databases) and binaries (Go and Rust programs, Java archives)")
	fs.BoolVar(&sf.crossMounts, "cross-mounts", false, "let the walk enter other file systems mounted under DIR (by default it stays on DIR's, as find -xdev)")
	fs.BoolVar(&sf.omitDev, "omit-dev", false, "leave out the components only development needs, as their lockfile or manifest says (npm's devDependencies and \"dev\", composer's require-dev, dependency groups, Maven's test scope; an SBOM's scope \"excluded\"); also omit_dev: true in "+sbom.ConfigFileName)
	fs.StringVar(&sf.mavenRepo, "maven-repo", "", "the Maven local repository in which a pom.xml's parents are looked for when DIR does not hold them (default ~/.m2/repository, where it exists; none: only DIR)")
	fs.StringVar(&sf.from, fromFlag, "", fromHelp)
	return sf
}

// mavenRepository is the Maven local repository the walk reads parents
// from: --maven-repo, else ~/.m2/repository where it exists, as Maven's
// own default.
func (c *Command) mavenRepository(sf *scanFlags) string {
	switch sf.mavenRepo {
	case "none":
		return ""
	case "":
		if home := c.getenv("HOME"); home != "" {
			p := filepath.Join(home, ".m2", "repository")
			if info, err := os.Stat(p); err == nil && info.IsDir() {
				return p
			}
		}
		return ""
	}
	return sf.mavenRepo
}

// omitDevelopment applies --omit-dev (or the configuration's omit_dev) to
// res, saying on stderr how many components it left out; for the gate
// (gateDev) it only records the decision.
func (c *Command) omitDevelopment(res *sbom.Result, sf *scanFlags, omit bool) {
	sf.omitDev = omit
	if !omit || sf.gateDev {
		return
	}
	n := res.OmitDevelopment(nil)
	fmt.Fprintf(c.stderr(), "sbom: left out %d development-only components (--omit-dev)\n", n)
}

// scan returns the components: read from --sbom/--from when given, else
// extracted from root. Skipped files and warnings go to stderr.
func (c *Command) scan(ctx context.Context, root string, sf *scanFlags) (*sbom.Result, error) {
	if sf.from != "" {
		res, err := sbom.ReadSBOMFile(sf.from)
		if err != nil {
			if errors.Is(err, sbom.ErrUnsupportedSBOM) {
				if strings.Contains(err.Error(), ": give ") {
					return nil, usageErr("%v", err) // it says what to give
				}
				return nil, usageErr("%v (CycloneDX 1.2 to 1.7 JSON, CycloneDX XML, SPDX 2.2/2.3 JSON, YAML and tag-value, and SPDX 3 JSON-LD are read)", err)
			}
			return nil, err
		}
		if !sf.sbomNotes {
			c.printScanNotes(res)
		}
		fmt.Fprintf(c.stderr(), "sbom: read %d components from %s\n", len(res.Components), sf.from)
		c.omitDevelopment(res, sf, sf.omitDev)
		return res, nil
	}
	opts := sbom.Options{Progress: c.stderr(), CrossMounts: sf.crossMounts, MavenRepository: c.mavenRepository(sf)}
	kinds, err := parseKinds(sf.kinds)
	if err != nil {
		return nil, err
	}
	opts.Kinds = kinds
	cfg, found, err := sbom.ReadConfig(root)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	opts.Exclude = append(append(opts.Exclude, cfg.Exclude...), sf.exclude...)
	if found && len(cfg.Exclude) > 0 {
		fmt.Fprintf(c.stderr(), "sbom: %s excludes %s\n", sbom.ConfigFileName, strings.Join(cfg.Exclude, ", "))
	}
	res, err := sbom.Extract(ctx, root, opts)
	if err != nil {
		if errors.Is(err, sbom.ErrBadPattern) {
			return nil, usageErr("%v", err)
		}
		return nil, err
	}
	c.printScanNotes(res)
	c.omitDevelopment(res, sf, sf.omitDev || cfg.OmitDev)
	return res, nil
}

func (c *Command) printScanNotes(res *sbom.Result) {
	for _, fe := range res.Errors {
		fmt.Fprintf(c.stderr(), "sentinel: skipped %s\n", fe.Error())
	}
	for _, g := range noteGroups(res.Warnings) {
		fmt.Fprintf(c.stderr(), "sentinel: note: %s\n", g[0].Error())
		if len(g) > 1 {
			paths := make([]string, 0, 3)
			for _, w := range g[1:min(len(g), 4)] {
				paths = append(paths, w.Path)
			}
			more := ""
			if n := len(g) - 1 - len(paths); n > 0 {
				more = fmt.Sprintf(" and %d more", n)
			}
			fmt.Fprintf(c.stderr(), "sentinel: note: the same for %d more files (%s%s)\n", len(g)-1, strings.Join(paths, ", "), more)
		}
	}
}

// noteGroups groups notes of one kind (the same extractor, and reason up
// to its first colon: "no toolchain directive"), in the order of their
// first: a tree of fixtures gives dozens of one note, which one line and
// a count say as well. The report's JSON keeps each.
func noteGroups(notes []sbom.FileError) [][]sbom.FileError {
	var groups [][]sbom.FileError
	at := map[string]int{}
	for _, n := range notes {
		kind, _, _ := strings.Cut(n.Reason, ":")
		k := n.Extractor + "\x00" + kind
		i, ok := at[k]
		if !ok {
			i = len(groups)
			at[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], n)
	}
	return groups
}

// parseKinds reads --kinds: "all", or a comma-separated list of
// languages, os and binaries.
func parseKinds(s string) (sbom.Kinds, error) {
	var k sbom.Kinds
	for _, w := range strings.Split(strings.ToLower(s), ",") {
		switch strings.TrimSpace(w) {
		case "", "all":
			k |= sbom.AllKinds
		case "languages", "lang":
			k |= sbom.Languages
		case "os":
			k |= sbom.OSPackages
		case "binaries", "bin":
			k |= sbom.Binaries
		default:
			return 0, usageErr("--kinds %q: want all, or a comma-separated list of languages, os and binaries", s)
		}
	}
	return k, nil
}
