package catalog

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// BuildOptions configure [Build]. The zero value builds from the public npm
// registry with the default package list and no Debian packages.
type BuildOptions struct {
	// Registry is the npm registry's base URL; default
	// "https://registry.npmjs.org".
	Registry string
	// Client fetches from the registry; default a client with a 2 minute
	// timeout per request.
	Client *http.Client
	// Packages are the npm packages to hash; default DefaultPackages.
	Packages []NPMPackage
	// Versions, when set, keeps only the versions it accepts (for tests
	// and partial builds); by default every stable version is hashed.
	Versions func(pkg, version string) bool
	// Debs are paths of Debian packages (.deb files) to hash, for the
	// rebuilt copies distributions and CMSs ship. Get them with
	// `apt-get download` (see README.md).
	Debs []string
	// DebianRules label banner-less files of Debian packages; default
	// DefaultDebianRules.
	DebianRules []DebianRule
	// Concurrency is the number of tarballs fetched at once; default 8.
	Concurrency int
	// Logger receives progress; default discards.
	Logger *slog.Logger
}

// BuildStats say what a build did.
type BuildStats struct {
	Packages     int           // npm packages listed
	Versions     int           // npm versions hashed
	Tarballs     int64         // bytes of tarballs downloaded
	Debs         int           // Debian packages read
	Entries      int           // rows in the catalog
	Skipped      []string      // versions or packages left out, with why
	Duration     time.Duration // wall time
	NPMEntries   int           // rows from npm
	DebEntries   int           // rows from Debian packages
	DebUnlabeled int           // .js/.css files in Debian packages with no banner or rule
}

// Limits on what Build reads from the network and from archives.
const (
	maxPackument = 64 << 20  // an npm package document
	maxTarball   = 64 << 20  // one compressed tarball
	maxFile      = 16 << 20  // one file inside an archive
	maxDeb       = 512 << 20 // one .deb file
)

// stable matches the versions Build hashes: releases, not pre-releases.
var stable = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// Build makes a catalog: it lists every stable version of each npm package
// in opts.Packages, downloads its tarball, checks it against the registry's
// SHA-1, and hashes the files the package's rule selects; then it hashes
// the .js and .css files of each Debian package in opts.Debs that a banner
// or a DebianRule labels. A version or package that fails is skipped and
// named in BuildStats.Skipped; the error is non-nil only when ctx ends or
// nothing at all could be built.
//
// This is the function behind `sentineld catalog build`; write the result
// with [Catalog.WriteFile] and point the scan at it with [Load].
func Build(ctx context.Context, opts BuildOptions) (*Catalog, *BuildStats, error) {
	start := time.Now()
	if opts.Registry == "" {
		opts.Registry = "https://registry.npmjs.org"
	}
	opts.Registry = strings.TrimSuffix(opts.Registry, "/")
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 2 * time.Minute}
	}
	if opts.Packages == nil {
		opts.Packages = DefaultPackages
	}
	if opts.DebianRules == nil {
		opts.DebianRules = DefaultDebianRules
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &builder{opts: opts, log: log, stats: &BuildStats{}}

	for _, p := range opts.Packages {
		if err := b.npmPackage(ctx, p); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			b.skip("npm:%s: %v", p.Name, err)
		}
	}
	for _, d := range opts.Debs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := b.debFile(d); err != nil {
			b.skip("deb %s: %v", path.Base(d), err)
		}
	}
	c := New(b.entries)
	b.stats.Entries = c.Len()
	b.stats.Duration = time.Since(start)
	if c.Len() == 0 {
		return nil, b.stats, errors.New("build catalog: no entries")
	}
	sort.Strings(b.stats.Skipped)
	return c, b.stats, nil
}

type builder struct {
	opts    BuildOptions
	log     *slog.Logger
	mu      sync.Mutex
	entries []Entry
	stats   *BuildStats
}

func (b *builder) skip(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	b.stats.Skipped = append(b.stats.Skipped, msg)
	b.log.Warn("catalog: skipped", "what", msg)
}

func (b *builder) add(es []Entry, fromDeb bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries = append(b.entries, es...)
	if fromDeb {
		b.stats.DebEntries += len(es)
	} else {
		b.stats.NPMEntries += len(es)
	}
}

// packument is the part of the registry's abbreviated package document
// Build reads.
type packument struct {
	Versions map[string]struct {
		Dist struct {
			Tarball string `json:"tarball"`
			Shasum  string `json:"shasum"`
		} `json:"dist"`
	} `json:"versions"`
}

func (b *builder) get(ctx context.Context, rawURL, accept string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := b.opts.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", rawURL, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", rawURL, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("GET %s: larger than %d bytes", rawURL, limit)
	}
	return data, nil
}

func (b *builder) npmPackage(ctx context.Context, p NPMPackage) error {
	name := url.PathEscape(p.Name) // "@popperjs%2Fcore"
	name = strings.Replace(name, "%40", "@", 1)
	data, err := b.get(ctx, b.opts.Registry+"/"+name, "application/vnd.npm.install-v1+json", maxPackument)
	if err != nil {
		return err
	}
	var doc packument
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("decode package document: %w", err)
	}
	var versions []string
	for v := range doc.Versions {
		if stable.MatchString(v) && (b.opts.Versions == nil || b.opts.Versions(p.Name, v)) {
			versions = append(versions, v)
		}
	}
	sort.Strings(versions)
	b.mu.Lock()
	b.stats.Packages++
	b.mu.Unlock()
	b.log.Info("catalog: npm package", "name", p.Name, "versions", len(versions))

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(b.opts.Concurrency)
	for _, v := range versions {
		d := doc.Versions[v].Dist
		g.Go(func() error {
			es, n, err := b.npmVersion(gctx, p, v, d.Tarball, d.Shasum)
			if err != nil {
				if gctx.Err() != nil {
					return gctx.Err()
				}
				b.skip("npm:%s@%s: %v", p.Name, v, err)
				return nil
			}
			b.add(es, false)
			b.mu.Lock()
			b.stats.Versions++
			b.stats.Tarballs += n
			b.mu.Unlock()
			return nil
		})
	}
	return g.Wait()
}

func (b *builder) npmVersion(ctx context.Context, p NPMPackage, version, tarball, shasum string) ([]Entry, int64, error) {
	if tarball == "" {
		return nil, 0, errors.New("no tarball")
	}
	data, err := b.get(ctx, tarball, "", maxTarball)
	if err != nil {
		return nil, 0, err
	}
	if shasum != "" {
		sum := sha1.Sum(data)
		if hex.EncodeToString(sum[:]) != strings.ToLower(shasum) {
			return nil, 0, fmt.Errorf("tarball sha1 %x, registry says %s", sum, shasum)
		}
	}
	zr, err := gzip.NewReader(bytesReader(data))
	if err != nil {
		return nil, 0, fmt.Errorf("tarball: %w", err)
	}
	source := "npm:" + p.Name + "@" + version
	var es []Entry
	err = eachTarFile(zr, func(name string, r io.Reader) error {
		// npm tarballs put everything under one top directory, usually
		// "package/" (a few old ones use another name).
		_, rel, ok := strings.Cut(strings.TrimPrefix(name, "./"), "/")
		if !ok || !p.Files.MatchString(rel) {
			return nil
		}
		sum, err := hashReader(r)
		if err != nil {
			return err
		}
		es = append(es, Entry{SHA1: sum, Library: p.library(), Version: version, File: rel, Source: source})
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return es, int64(len(data)), nil
}

// eachTarFile calls fn for every regular file in a tar stream.
func eachTarFile(r io.Reader, fn func(name string, r io.Reader) error) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tar: %w", err)
		}
		if h.Typeflag != tar.TypeReg { // the reader reports old tarballs' TypeRegA as TypeReg
			continue
		}
		if h.Size > maxFile {
			continue
		}
		if err := fn(h.Name, io.LimitReader(tr, maxFile)); err != nil {
			return err
		}
	}
}

func hashReader(r io.Reader) ([20]byte, error) {
	h := sha1.New()
	if _, err := io.Copy(h, r); err != nil {
		return [20]byte{}, err
	}
	var sum [20]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// libraries returns the set of library names the catalog may label Debian
// files with: the npm packages' libraries.
func (b *builder) libraries() map[string]bool {
	set := map[string]bool{}
	for _, p := range b.opts.Packages {
		set[p.library()] = true
	}
	return set
}

// upstreamVersion turns a Debian version into the upstream release it
// packages, or "" when that is not plain: "3.6.1+dfsg+~3.5.14-1" -> "3.6.1",
// "3:4.7.7+~4.1.0-1" -> "4.7.7", "1.13.4~dfsg+~1.11.4-3" -> "1.13.4";
// "18.1.0~18.2.0+dfsg-4" (a range) -> "".
func upstreamVersion(debVersion string) string {
	v := debVersion
	if i := strings.IndexByte(v, ':'); i >= 0 {
		v = v[i+1:]
	}
	if i := strings.LastIndexByte(v, '-'); i >= 0 {
		v = v[:i]
	}
	m := upstreamRe.FindStringSubmatch(v)
	if m == nil {
		return ""
	}
	return m[1]
}

var upstreamRe = regexp.MustCompile(`^(\d+\.\d+(?:\.\d+)?)(?:$|\+|~(?:dfsg|ds|repack))`)
