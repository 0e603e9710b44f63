package sbom

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	scalibrfs "github.com/google/osv-scalibr/fs"

	sentinel "github.com/sentinel-sca/sentinel"
)

// DefaultSkipDirs returns the directory names the walk never enters unless
// Options.SkipDirs says otherwise. They hold installed or vendored copies of
// dependencies (whose own manifests describe packages the project's lockfile
// already lists), version-control metadata, virtual environments and build
// caches.
func DefaultSkipDirs() []string {
	return []string{
		".git", ".hg", ".svn",
		"node_modules", "bower_components", "jspm_packages",
		"vendor",
		".venv", "venv", "__pycache__", ".tox", ".mypy_cache",
		".gradle", ".m2",
		".idea", ".vscode",
	}
}

// DefaultMaxFileSize is the largest manifest or lockfile Extract reads, 64 MiB:
// large enough for the biggest real lockfiles, small enough that a stray
// multi-gigabyte file named go.mod cannot exhaust memory.
const DefaultMaxFileSize = 64 << 20

// Options tunes Extract. The zero value is ready to use.
type Options struct {
	// Workers is the number of files extracted in parallel; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// SkipDirs replaces DefaultSkipDirs() when not nil. Names are matched
	// against every directory's base name.
	SkipDirs []string
	// MaxFileSize is the largest file read, in bytes; 0 means
	// DefaultMaxFileSize, a negative value means no limit. Larger files are
	// reported in Result.Errors and skipped.
	MaxFileSize int64
	// Progress, when not nil, receives a human-readable progress line at most
	// every ProgressInterval and a summary line at the end. The agent passes
	// stderr. Writes are serialised.
	Progress io.Writer
	// ProgressInterval is the minimum time between progress lines; 0 means
	// one second.
	ProgressInterval time.Duration
}

// Result is what Extract found under one root.
type Result struct {
	// Root is the scanned directory as given to Extract.
	Root string
	// Components are deduplicated by purl and sorted by purl. A component
	// found in several files lists every file in Locations.
	Components []sentinel.Component
	// Files are the manifests and lockfiles that were read, relative to Root
	// with forward slashes, sorted, each with the extractor that read it and
	// the number of packages it gave.
	Files []File
	// Errors are the files that could not be read or parsed. They do not fail
	// the extraction: a broken lockfile is skipped and reported here.
	Errors []FileError
	// Walked is the number of regular files visited.
	Walked int
}

// File is one manifest or lockfile that an extractor read.
type File struct {
	Path      string `json:"path"`
	Extractor string `json:"extractor"`
	Packages  int    `json:"packages"`
	// Graph is true when the dependency graph of this file was read.
	Graph bool `json:"graph,omitempty"`
}

// FileError is one file that could not be extracted.
type FileError struct {
	// Path is relative to the scanned root, with forward slashes.
	Path string `json:"path"`
	// Extractor is the scalibr extractor name, empty for walk errors.
	Extractor string `json:"extractor,omitempty"`
	// Reason is the error text.
	Reason string `json:"reason"`
}

// Error implements error: "path: extractor: reason".
func (e FileError) Error() string {
	if e.Extractor == "" {
		return e.Path + ": " + e.Reason
	}
	return e.Path + ": " + e.Extractor + ": " + e.Reason
}

// job is one file matched by one or more extractors.
type job struct {
	path string // relative, slash-separated
	info fs.FileInfo
	exs  []filesystem.Extractor
}

// fileOutcome is one job's result.
type fileOutcome struct {
	files []File
	comps []sentinel.Component
	errs  []FileError
}

// Extract walks the tree under root and extracts components from every
// manifest and lockfile a registered extractor recognises. The walk only
// lists candidate files (it is cheap); reading and parsing them runs on
// Options.Workers goroutines, largest file first.
//
// Extract fails only when root cannot be walked at all or ctx is done; every
// per-file problem (unreadable, too large, malformed) is reported in
// Result.Errors and the file is skipped.
func Extract(ctx context.Context, root string, opts Options) (*Result, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("extract %q: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("extract %q: not a directory", root)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("extract %q: %w", root, err)
	}
	exs, err := newExtractors()
	if err != nil {
		return nil, err
	}
	skip := opts.SkipDirs
	if skip == nil {
		skip = DefaultSkipDirs()
	}
	maxSize := opts.MaxFileSize
	if maxSize == 0 {
		maxSize = DefaultMaxFileSize
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	prog := newProgress(opts.Progress, opts.ProgressInterval)

	fsys := scalibrfs.DirFS(absRoot)
	res := &Result{Root: root}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job, 64)
	outcomes := make(chan fileOutcome, 64)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				out := extractFile(ctx, fsys, absRoot, j)
				prog.fileDone(len(out.comps))
				outcomes <- out
			}
		}()
	}

	// Collect outcomes as they come, so that workers never block.
	var collected []fileOutcome
	done := make(chan struct{})
	go func() {
		for o := range outcomes {
			collected = append(collected, o)
		}
		close(done)
	}()

	var walkErrs []FileError
	var pending []job
	walkErr := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			if p == "." {
				return err
			}
			walkErrs = append(walkErrs, FileError{Path: p, Reason: err.Error()})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != "." && slices.Contains(skip, d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symlinks, devices, sockets: never followed or read
		}
		res.Walked++
		prog.walked()
		api := &fileAPI{path: p, d: d}
		var matched []filesystem.Extractor
		for _, ex := range exs {
			if ex.FileRequired(api) {
				matched = append(matched, ex)
			}
		}
		if len(matched) == 0 {
			return nil
		}
		fi, err := api.Stat()
		if err != nil {
			walkErrs = append(walkErrs, FileError{Path: p, Reason: err.Error()})
			return nil
		}
		if maxSize > 0 && fi.Size() > maxSize {
			walkErrs = append(walkErrs, FileError{Path: p, Extractor: matched[0].Name(),
				Reason: fmt.Sprintf("file is %d bytes, larger than the %d byte limit", fi.Size(), maxSize)})
			return nil
		}
		pending = append(pending, job{path: p, info: fi, exs: matched})
		return nil
	})
	if walkErr == nil {
		// Largest first: the run lasts at least as long as its biggest
		// lockfile, so starting the big ones early keeps every worker busy
		// to the end (a large package-lock.json takes far longer than the
		// hundreds of small manifests around it).
		slices.SortStableFunc(pending, func(a, b job) int { return cmp.Compare(b.info.Size(), a.info.Size()) })
	send:
		for _, j := range pending {
			select {
			case jobs <- j:
			case <-ctx.Done():
				break send
			}
		}
	}
	close(jobs)
	wg.Wait()
	close(outcomes)
	<-done

	if walkErr != nil {
		return nil, fmt.Errorf("extract %q: %w", root, walkErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract %q: %w", root, err)
	}

	var comps []sentinel.Component
	res.Errors = walkErrs
	for _, o := range collected {
		res.Files = append(res.Files, o.files...)
		res.Errors = append(res.Errors, o.errs...)
		comps = append(comps, o.comps...)
	}
	res.Components = mergeComponents(comps)
	slices.SortFunc(res.Files, func(a, b File) int {
		return strings.Compare(a.Path+"\x00"+a.Extractor, b.Path+"\x00"+b.Extractor)
	})
	slices.SortFunc(res.Errors, func(a, b FileError) int {
		return strings.Compare(a.Path+"\x00"+a.Extractor, b.Path+"\x00"+b.Extractor)
	})
	prog.finish(res)
	return res, nil
}

// extractFile reads one file once and runs every matched extractor on it. A
// panic inside a third-party parser is turned into a per-file error: a
// malformed lockfile must never take the whole scan down.
func extractFile(ctx context.Context, fsys scalibrfs.FS, absRoot string, j job) fileOutcome {
	var out fileOutcome
	data, err := fs.ReadFile(fsys, j.path)
	if err != nil {
		for _, ex := range j.exs {
			out.errs = append(out.errs, FileError{Path: j.path, Extractor: ex.Name(), Reason: err.Error()})
		}
		return out
	}
	if base := path.Base(j.path); base == "package-lock.json" || base == "npm-shrinkwrap.json" {
		data = compactJSON(data)
	}
	for _, ex := range j.exs {
		pkgs, err := runExtractor(ctx, fsys, absRoot, j, ex, data)
		if err != nil {
			out.errs = append(out.errs, FileError{Path: j.path, Extractor: ex.Name(), Reason: err.Error()})
			continue
		}
		comps := make([]sentinel.Component, 0, len(pkgs))
		for _, p := range pkgs {
			if c, ok := toComponent(p, j.path); ok {
				comps = append(comps, c)
			}
		}
		graph := addGraph(ctx, j.path, data, comps)
		out.files = append(out.files, File{Path: j.path, Extractor: ex.Name(), Packages: len(comps), Graph: graph})
		out.comps = append(out.comps, comps...)
	}
	return out
}

// compactJSON removes insignificant whitespace from a package-lock.json.
// scalibr's extractor looks up the line of every package with a scan from
// the top of the document (quadratic in the file size); the same document
// without indentation is about a quarter smaller, and that scan is most of
// the agent's CPU time on npm projects. Sentinel does not use the line
// numbers. Invalid JSON is returned unchanged, so the extractor reports its
// own error.
func compactJSON(data []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(data))
	if err := json.Compact(&buf, data); err != nil {
		return data
	}
	return buf.Bytes()
}

func runExtractor(ctx context.Context, fsys scalibrfs.FS, absRoot string, j job, ex filesystem.Extractor, data []byte) (pkgs []*extractor.Package, err error) {
	defer func() {
		if r := recover(); r != nil {
			pkgs, err = nil, fmt.Errorf("extractor panicked: %v", r)
		}
	}()
	inv, err := ex.Extract(ctx, &filesystem.ScanInput{
		FS:     fsys,
		Path:   j.path,
		Root:   absRoot,
		Info:   j.info,
		Reader: bytes.NewReader(data),
	})
	if err != nil {
		return nil, err
	}
	return inv.Packages, nil
}

// toComponent converts one scalibr package. Packages without a purl type
// (none of the registered extractors produce them) are dropped.
func toComponent(p *extractor.Package, loc string) (sentinel.Component, bool) {
	pu := p.PURL()
	if pu == nil || p.Name == "" {
		return sentinel.Component{}, false
	}
	if pu.Type == "nuget" && p.Version == "" {
		// A "Project" entry of packages.lock.json: a project reference
		// inside the same solution, not a NuGet package.
		return sentinel.Component{}, false
	}
	if pu.Type == "npm" {
		// scalibr adds ?source=PUBLIC_REGISTRY|LOCAL to package-lock
		// packages only; the same package from yarn or pnpm has none. The
		// purl is the component's identity across files and submissions,
		// so the qualifier is dropped.
		pu.Qualifiers = nil
	}
	return sentinel.Component{
		Purl:      pu.String(),
		Ecosystem: p.Ecosystem().String(),
		Name:      p.Name,
		Version:   p.Version,
		Type:      "library",
		Locations: []string{loc},
	}, true
}

// mergeComponents deduplicates by purl (joining locations and dependency
// edges) and sorts by purl.
func mergeComponents(in []sentinel.Component) []sentinel.Component {
	byPurl := make(map[string]int, len(in))
	var out []sentinel.Component
	for _, c := range in {
		i, ok := byPurl[c.Purl]
		if !ok {
			byPurl[c.Purl] = len(out)
			out = append(out, c)
			continue
		}
		m := &out[i]
		m.Locations = append(m.Locations, c.Locations...)
		m.DependsOn = append(m.DependsOn, c.DependsOn...)
	}
	for i := range out {
		out[i].Locations = sortedUnique(out[i].Locations)
		out[i].DependsOn = sortedUnique(out[i].DependsOn)
		if len(out[i].DependsOn) == 0 {
			out[i].DependsOn = nil
		}
	}
	slices.SortFunc(out, func(a, b sentinel.Component) int { return strings.Compare(a.Purl, b.Purl) })
	return out
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// fileAPI is the lazily stat'ing filesystem.FileAPI given to FileRequired.
type fileAPI struct {
	path string
	d    fs.DirEntry
	info fs.FileInfo
	err  error
	done bool
}

func (a *fileAPI) Path() string { return a.path }

func (a *fileAPI) Stat() (fs.FileInfo, error) {
	if !a.done {
		a.info, a.err = a.d.Info()
		a.done = true
	}
	return a.info, a.err
}

// progress prints throttled progress lines.
type progress struct {
	w        io.Writer
	interval time.Duration
	mu       sync.Mutex
	last     time.Time
	walkedN  int
	files    int
	comps    int
}

func newProgress(w io.Writer, interval time.Duration) *progress {
	if interval <= 0 {
		interval = time.Second
	}
	return &progress{w: w, interval: interval, last: time.Now()}
}

func (p *progress) walked() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.walkedN++
	p.maybePrintLocked()
}

func (p *progress) fileDone(comps int) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.files++
	p.comps += comps
	p.maybePrintLocked()
}

func (p *progress) maybePrintLocked() {
	if now := time.Now(); now.Sub(p.last) >= p.interval {
		p.last = now
		fmt.Fprintf(p.w, "sbom: %d files walked, %d lockfiles read, %d packages\n", p.walkedN, p.files, p.comps)
	}
}

func (p *progress) finish(r *Result) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "sbom: done: %d files walked, %d lockfiles read, %d components, %d files skipped with errors\n",
		r.Walked, len(r.Files), len(r.Components), len(r.Errors))
}
