package sbom

import (
	"bytes"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
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
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gomod"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/pomxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagejson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/pnpmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/ruby/gemspec"
	scalibrfs "github.com/google/osv-scalibr/fs"
	"gopkg.in/yaml.v3"

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
		".build", // SwiftPM: checkouts of the dependencies, each with its own Package.resolved
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
	// Exclude are glob patterns of paths relative to the root, with
	// forward slashes, that the walk skips: "*" and "?" within a segment,
	// "**" for any number of segments ("**/testdata/**", "docs/*.json").
	// See exclude.go. An invalid pattern fails Extract.
	Exclude []string
	// Kinds selects language lockfiles, OS package databases, or both (the
	// zero value).
	Kinds Kinds
	// CrossMounts lets the walk enter directories on another file system
	// than the root's. By default it does not, as find -xdev: scanning "/"
	// then stays out of /proc, /sys, /dev, /run and network mounts.
	CrossMounts bool
	// Logger receives the messages of the extraction library (osv-scalibr),
	// which would otherwise be dropped. See log.go.
	Logger *slog.Logger
	// FS, when not nil, is the tree to read instead of the directory root
	// names, which then only names it (the project's default name): files
	// that are not on disk, such as what an external scan fetched.
	FS fs.FS
	// MavenRepository is a Maven local repository (~/.m2/repository) in
	// which a pom.xml's parents are looked for when the tree does not hold
	// them, as Maven finds those a build has fetched; "" means none.
	MavenRepository string
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
	// Projects are the projects the manifests under Root name (project.go),
	// each of type "application" with the manifest as its location and its
	// direct dependencies in DependsOn, sorted by directory depth, then
	// manifest priority, then path. MainProject picks the scanned project.
	Projects []sentinel.Component
	// Warnings are facts about files that did not stop their extraction
	// but limit what the SBOM can say (a Go module without a toolchain
	// directive, for example).
	Warnings []FileError
}

// MainProject returns the project whose manifest sits at the root of the
// scan, the first in manifest priority when there are several, or nil.
func (r *Result) MainProject() *sentinel.Component {
	for i := range r.Projects {
		if !strings.Contains(r.Projects[i].Locations[0], "/") {
			return &r.Projects[i]
		}
	}
	return nil
}

// OmitDevelopment removes the components only development needs
// (Component.Development), but those keep reports true for (keep may be
// nil), and the edges to them, and returns how many it removed: what a
// build or a deployment installs without them (npm's --omit=dev).
func (r *Result) OmitDevelopment(keep func(*sentinel.Component) bool) int {
	gone := map[string]bool{}
	kept := r.Components[:0]
	for _, c := range r.Components {
		if c.Development && (keep == nil || !keep(&c)) {
			gone[c.Purl] = true
			continue
		}
		kept = append(kept, c)
	}
	clear(r.Components[len(kept):])
	r.Components = kept
	if len(gone) == 0 {
		return 0
	}
	drop := func(cs []sentinel.Component) {
		for i := range cs {
			cs[i].DependsOn = slices.DeleteFunc(cs[i].DependsOn, func(p string) bool { return gone[p] })
			if len(cs[i].DependsOn) == 0 {
				cs[i].DependsOn = nil
			}
		}
	}
	drop(r.Components)
	drop(r.Projects)
	return len(gone)
}

// GraphFiles returns the paths of the Files whose dependency graph was
// read (BOMOptions.GraphFiles).
func (r *Result) GraphFiles() []string {
	var out []string
	for _, f := range r.Files {
		if f.Graph {
			out = append(out, f.Path)
		}
	}
	return out
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

// job is one file matched by one or more extractors, or a project
// manifest, or both (go.mod).
type job struct {
	path    string // relative, slash-separated
	info    fs.FileInfo
	exs     []filesystem.Extractor
	project bool
	binary  bool // exs read built software, through the open file (binaries.go)
	// installed marks an installed package's own manifest, left to the
	// operating system's package when that installed the file.
	installed bool
}

// fileOutcome is one job's result.
type fileOutcome struct {
	files    []File
	comps    []sentinel.Component
	errs     []FileError
	warnings []FileError
	projects []project
	roots    map[string][]string // direct dependencies by directory
	rootFile map[string]string   // the lockfile that gave a directory's roots
	links    map[string][]string // workspace members' directories by the directory depending on them
	locals   []local
}

// local is a package a lockfile lists that is the project itself or a
// workspace member (lockAnnotation.locals).
type local struct {
	purl, dir string // dir: the lockfile's directory
	// at is the package's own directory, where the lockfile says (a
	// Gemfile.lock's PATH remote, a uv.lock's editable path, a Cargo.lock's
	// one crate without a source), relative to the scan root.
	at string
}

// Extract walks the tree under root and extracts components from every
// manifest and lockfile a registered extractor recognises. The walk only
// lists candidate files (it is cheap); reading and parsing them runs on
// Options.Workers goroutines while it goes on, the largest waiting file
// first.
//
// Extract fails only when root cannot be walked at all or ctx is done; every
// per-file problem (unreadable, too large, malformed) is reported in
// Result.Errors and the file is skipped.
func Extract(ctx context.Context, root string, opts Options) (*Result, error) {
	var fsys scalibrfs.FS
	var absRoot string
	var info fs.FileInfo
	var err error
	if opts.FS != nil {
		fsys, absRoot = statFS{opts.FS}, root
		info, err = fs.Stat(fsys, ".")
	} else {
		info, err = os.Stat(root)
		if err == nil {
			absRoot, err = filepath.Abs(root)
			fsys = scalibrfs.DirFS(absRoot)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("extract %q: %w", root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("extract %q: not a directory", root)
	}
	kinds := opts.Kinds
	if kinds == 0 {
		kinds = AllKinds
	}
	exs, err := newExtractors(kinds)
	if err != nil {
		return nil, err
	}
	if opts.MavenRepository != "" {
		repo := os.DirFS(opts.MavenRepository)
		for _, ex := range exs {
			if p, ok := ex.(pomXML); ok {
				p.cache.repo = repo
			}
		}
	}
	exclude, err := newExcluder(opts.Exclude)
	if err != nil {
		return nil, fmt.Errorf("extract %q: %w", root, err)
	}
	routeScalibrLogs(opts.Logger)
	rootDev, haveDev := deviceOf(info)
	haveDev = haveDev && !opts.CrossMounts && opts.FS == nil
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
	// Read only when a program, an archive or an installed package's
	// manifest asks whether the operating system's package installed it.
	owned := &osFiles{fsys: fsys}
	if opts.FS == nil {
		owned.absRoot = absRoot
	}

	res := &Result{Root: root}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Files are parsed while the walk goes on, largest waiting file
	// first: the run lasts at least as long as its biggest lockfile, so
	// starting the big ones early keeps every worker busy to the end (a
	// large package-lock.json takes far longer than the hundreds of small
	// manifests around it).
	queue := newJobQueue()
	outcomes := make(chan fileOutcome, 64)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, ok := queue.take()
				if !ok {
					return
				}
				if ctx.Err() != nil {
					continue // drain: the walk has stopped
				}
				var out fileOutcome
				if j.installed && owned.owns(j.path) {
					// the package's files: not read, as programs are not
				} else if j.binary {
					out = extractBinary(ctx, fsys, absRoot, j, owned)
				} else {
					out = extractFile(ctx, fsys, absRoot, j)
				}
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

	var walkErrs, walkWarns []FileError
	var mavenSrc string // the src/ folder of a Maven project the walk is in, with a slash
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
			if p == "." {
				return nil
			}
			if exclude.dir(p) {
				return fs.SkipDir
			}
			if slices.Contains(skip, d.Name()) || goModCacheDir(d.Name()) {
				if kinds&Languages != 0 {
					for _, j := range hiddenLockfiles(fsys, p, d.Name(), exs) {
						if maxSize <= 0 || j.info.Size() <= maxSize {
							res.Walked++
							queue.put(j)
						}
					}
				}
				return fs.SkipDir
			}
			if kinds&Languages != 0 && d.Name() == "src" && (mavenSrc == "" || !strings.HasPrefix(p, mavenSrc)) && mavenSources(fsys, p) {
				mavenSrc = p + "/"
			}
			if absRoot == "/" && opts.FS == nil && (p == "proc" || p == "sys" || p == "dev") && !opts.CrossMounts {
				return fs.SkipDir // kernel file systems, also where devices cannot be told apart
			}
			if kinds&(Languages|Binaries) == 0 && !osDatabaseDir(p) {
				return fs.SkipDir // only OS databases: the walk goes straight to them
			}
			if haveDev {
				if di, err := d.Info(); err == nil {
					if dev, ok := deviceOf(di); ok && dev != rootDev {
						return fs.SkipDir // another file system: /proc, /sys, a network mount
					}
				}
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symlinks, devices, sockets: never followed or read
		}
		res.Walked++
		prog.walked()
		if exclude.file(p) {
			return nil
		}
		api := &fileAPI{path: p, d: d}
		var matched []filesystem.Extractor
		for _, ex := range exs {
			if ex.FileRequired(api) {
				matched = append(matched, ex)
			}
		}
		isProject := kinds&Languages != 0 && isProjectManifest(d.Name())
		if mavenSrc != "" && strings.HasPrefix(p, mavenSrc) && pomLike(d.Name()) {
			// A test fixture or an archetype's template, not a module.
			matched = slices.DeleteFunc(matched, func(ex filesystem.Extractor) bool { return ex.Name() == pomxml.Name })
			isProject = false
		}
		if len(matched) == 0 && !isProject {
			return nil
		}
		fi, err := api.Stat()
		if err != nil {
			walkErrs = append(walkErrs, FileError{Path: p, Reason: err.Error()})
			return nil
		}
		if fi.Size() > maxManifest {
			// A YAML file too large to be a Kubernetes manifest (an API
			// description, a data file): not read for one, not an error.
			matched = slices.DeleteFunc(matched, func(ex filesystem.Extractor) bool { return ex.Name() == k8sManifests.name })
			if len(matched) == 0 && !isProject {
				return nil
			}
		}
		if kinds&Binaries != 0 {
			var bin []filesystem.Extractor
			if bin, matched = splitBinary(matched); len(bin) > 0 {
				if fi.Size() <= MaxBinarySize {
					queue.put(job{path: p, info: fi, exs: bin, binary: true})
				}
				if len(matched) == 0 && !isProject {
					return nil
				}
			}
		}
		if maxSize > 0 && fi.Size() > maxSize {
			name := ""
			if len(matched) > 0 {
				name = matched[0].Name()
			}
			walkErrs = append(walkErrs, FileError{Path: p, Extractor: name,
				Reason: fmt.Sprintf("file is %d bytes, larger than the %d byte limit", fi.Size(), maxSize)})
			return nil
		}
		queue.put(job{path: p, info: fi, exs: matched, project: isProject, installed: installedOnly(matched)})
		return nil
	})
	if walkErr != nil {
		cancel() // the workers drain what is queued without reading it
	}
	queue.close()
	wg.Wait()
	close(outcomes)
	<-done

	if walkErr != nil {
		return nil, fmt.Errorf("extract %q: %w", root, walkErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract %q: %w", root, err)
	}

	n := 0
	for _, o := range collected {
		n += len(o.comps)
	}
	comps := make([]sentinel.Component, 0, n)
	var projects []project
	var locals []local
	roots := map[string][]string{}
	rootFile := map[string]string{}
	links := map[string][]string{}
	res.Errors, res.Warnings = walkErrs, walkWarns
	for _, o := range collected {
		res.Files = append(res.Files, o.files...)
		res.Errors = append(res.Errors, o.errs...)
		res.Warnings = append(res.Warnings, o.warnings...)
		comps = append(comps, o.comps...)
		projects = append(projects, o.projects...)
		locals = append(locals, o.locals...)
		for d, ls := range o.links {
			links[d] = append(links[d], ls...)
		}
		for d, rs := range o.roots {
			roots[d] = append(roots[d], rs...)
			if f := o.rootFile[d]; rootFile[d] == "" || f < rootFile[d] {
				rootFile[d] = f
			}
		}
	}
	res.Components, res.Projects = linkProjects(mergeComponents(comps), projects, locals, roots, rootFile, links, filepath.Base(absRoot))
	sortFileErrors := func(es []FileError) {
		slices.SortFunc(es, func(a, b FileError) int {
			return strings.Compare(a.Path+"\x00"+a.Extractor+"\x00"+a.Reason, b.Path+"\x00"+b.Extractor+"\x00"+b.Reason)
		})
	}
	slices.SortFunc(res.Files, func(a, b File) int {
		return strings.Compare(a.Path+"\x00"+a.Extractor, b.Path+"\x00"+b.Extractor)
	})
	sortFileErrors(res.Errors)
	sortFileErrors(res.Warnings)
	prog.finish(res)
	return res, nil
}

// jobQueue hands the walk's jobs to the workers, the largest waiting
// file first.
type jobQueue struct {
	mu     sync.Mutex
	more   sync.Cond
	jobs   jobHeap
	closed bool
}

func newJobQueue() *jobQueue {
	q := &jobQueue{}
	q.more.L = &q.mu
	return q
}

// put adds a job.
func (q *jobQueue) put(j job) {
	q.mu.Lock()
	heap.Push(&q.jobs, j)
	q.mu.Unlock()
	q.more.Signal()
}

// close says no job will be added: take returns false once the queue is
// empty.
func (q *jobQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.more.Broadcast()
}

// take waits for the largest waiting job; ok is false when the queue is
// closed and empty.
func (q *jobQueue) take() (job, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.jobs) == 0 && !q.closed {
		q.more.Wait()
	}
	if len(q.jobs) == 0 {
		return job{}, false
	}
	return heap.Pop(&q.jobs).(job), true
}

// jobHeap is a heap.Interface of jobs, the largest file on top.
type jobHeap []job

func (h jobHeap) Len() int           { return len(h) }
func (h jobHeap) Less(i, j int) bool { return h[i].info.Size() > h[j].info.Size() }
func (h jobHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *jobHeap) Push(x any)        { *h = append(*h, x.(job)) }
func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	old[len(old)-1] = job{}
	*h = old[:len(old)-1]
	return j
}

// osDatabaseDirs are where the OS extractors' databases live, relative to
// the root (registry.go): a walk for OS packages alone enters only these
// and the directories on the way to them.
var osDatabaseDirs = []string{
	"var/lib/dpkg", "usr/lib/opkg",
	"lib/apk/db", "var/lib/apk/db", "usr/lib/apk/db",
	"var/lib/rpm", "usr/lib/sysimage/rpm", "usr/share/rpm",
	"etc", // os-release, read by the extractors through the file system
}

// osDatabaseDir reports whether the walk for OS packages enters dir.
func osDatabaseDir(dir string) bool {
	for _, d := range osDatabaseDirs {
		if dir == d || strings.HasPrefix(d, dir+"/") || strings.HasPrefix(dir, d+"/") {
			return true
		}
	}
	return false
}

// goModCacheDir reports whether a directory name is one of the Go module
// cache's "<module>@v<version>" copies: their go.mod files are the
// dependencies', not projects of their own, and their go lines would read
// as the standard library's version.
func goModCacheDir(name string) bool {
	i := strings.LastIndex(name, "@v")
	return i > 0 && i+2 < len(name) && name[i+2] >= '0' && name[i+2] <= '9'
}

// extractFile reads one file once, runs every matched extractor on it,
// reads what scalibr does not give (annotate), and reads the project a
// manifest names. A panic inside a third-party parser is turned into a
// per-file error: a malformed lockfile must never take the whole scan down.
func extractFile(ctx context.Context, fsys scalibrfs.FS, absRoot string, j job) fileOutcome {
	var out fileOutcome
	data, err := fs.ReadFile(fsys, j.path)
	if err != nil {
		for _, ex := range j.exs {
			out.errs = append(out.errs, FileError{Path: j.path, Extractor: ex.Name(), Reason: err.Error()})
		}
		return out
	}
	// A byte order mark, as Windows editors and Visual Studio write it,
	// stops most parsers at the first byte (go.mod, package-lock.json,
	// Pipfile.lock, packages.lock.json, a .csproj): no format gives it a
	// meaning. A file in UTF-16 (PowerShell's redirection) is read as
	// UTF-8.
	data = plainText(data)
	if j.project {
		if pr, ok := readProject(fsys, j.path, data); ok {
			out.projects = append(out.projects, pr)
		}
	}
	for _, ex := range j.exs {
		var pkgs []*extractor.Package
		var pre any
		var err error
		if op, ok := ex.(onePass); ok {
			pkgs, pre, err = runOnePass(op, fsys, j, data)
		} else {
			pkgs, err = runExtractor(ctx, fsys, absRoot, j, ex, data)
		}
		comps, ok := out.components(j.path, ex.Name(), pkgs, err)
		if !ok {
			continue
		}
		if ex.Name() == gomod.Name {
			var w *FileError
			comps, w = goStdlib(j.path, data, goSelected(comps), goWorkspace(fsys, j.path))
			if w != nil {
				out.warnings = append(out.warnings, *w)
			}
		}
		an := annotate(ctx, fsys, j.path, data, pre, comps)
		out.projects = append(out.projects, an.members...)
		if an.self != nil {
			out.projects = append(out.projects, *an.self)
		}
		if len(an.roots) > 0 {
			if out.roots == nil {
				out.roots = map[string][]string{}
			}
			if out.rootFile == nil {
				out.rootFile = map[string]string{}
			}
			for d, rs := range an.roots {
				out.roots[d] = append(out.roots[d], rs...)
				out.rootFile[d] = j.path
			}
		}
		for d, ls := range an.links {
			if out.links == nil {
				out.links = map[string][]string{}
			}
			out.links[d] = append(out.links[d], ls...)
		}
		for _, l := range an.locals {
			l.dir = path.Dir(j.path)
			out.locals = append(out.locals, l)
		}
		out.files = append(out.files, File{Path: j.path, Extractor: ex.Name(), Packages: len(comps), Graph: an.graph})
		out.comps = append(out.comps, comps...)
	}
	return out
}

// components turns what one extractor read of a file into components.
// An error with nothing read is the file's error (ok is false); with
// packages read, the file was read in part (an extractor that skips a bad
// entry and says so): the packages it did read count, with a warning.
func (out *fileOutcome) components(file, exName string, pkgs []*extractor.Package, err error) (comps []sentinel.Component, ok bool) {
	if err != nil {
		fe := FileError{Path: file, Extractor: exName, Reason: err.Error()}
		if len(pkgs) == 0 {
			out.errs = append(out.errs, fe)
			return nil, false
		}
		var pe *partialError
		if !errors.As(err, &pe) {
			fe.Reason = "some entries could not be read and were left out: " + strings.ReplaceAll(fe.Reason, "\n", "; ")
		}
		out.warnings = append(out.warnings, fe)
	}
	comps = make([]sentinel.Component, 0, len(pkgs))
	for _, p := range pkgs {
		if c, ok := toComponent(p, file, exName); ok {
			comps = append(comps, c)
		}
	}
	return comps, true
}

// runOnePass runs one of Sentinel's own lockfile readers, returning the
// parsed document with the packages for the second reading.
func runOnePass(op onePass, fsys scalibrfs.FS, j job, data []byte) (pkgs []*extractor.Package, doc any, err error) {
	defer func() {
		if r := recover(); r != nil {
			pkgs, doc, err = nil, nil, fmt.Errorf("extractor panicked: %v", r)
		}
	}()
	if sh, ok := op.(interface {
		shadowed(*filesystem.ScanInput) bool
	}); ok && sh.shadowed(&filesystem.ScanInput{FS: fsys, Path: j.path}) {
		return nil, nil, nil // another lockfile beside it is the one read
	}
	doc, err = op.parse(data)
	if doc == nil {
		return nil, nil, err
	}
	return op.packages(doc, j.path), doc, err
}

func runExtractor(ctx context.Context, fsys scalibrfs.FS, absRoot string, j job, ex filesystem.Extractor, data []byte) (pkgs []*extractor.Package, err error) {
	return runExtractorOn(ctx, fsys, absRoot, j, ex, bytes.NewReader(data))
}

// runExtractorOn runs ex on the file j read through r.
func runExtractorOn(ctx context.Context, fsys scalibrfs.FS, absRoot string, j job, ex filesystem.Extractor, r io.Reader) (pkgs []*extractor.Package, err error) {
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
		Reader: r,
	})
	// scalibr's extractors return what they could read with the errors of
	// the entries they could not (bun.lock's, for one).
	return inv.Packages, err
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

// statFS gives any fs.FS the directory listing and stat that the
// extractors' file system interface has.
type statFS struct{ fs.FS }

func (f statFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.FS, name) }
func (f statFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(f.FS, name) }

// hiddenLockfiles are the jobs for the records a package manager keeps
// inside the directory it installs into, when the project beside it has
// no lockfile of its own: a deployed application often ships its
// installed packages without the lockfile, and those records say exactly
// what is installed. name is dir's base name; there are none when dir is
// not such a directory, the project has a lockfile (it is read instead)
// or dir holds no record.
func hiddenLockfiles(fsys fs.FS, dir, name string, exs []filesystem.Extractor) []job {
	h, ok := hiddenRecords[name]
	if !ok || projectLockfile(fsys, path.Dir(dir), h.lockfiles...) {
		return nil
	}
	if name == "node_modules" && workspaceLocked(fsys, path.Dir(dir), h.lockfiles) {
		return nil
	}
	var jobs []job
	for _, r := range h.records {
		i := slices.IndexFunc(exs, func(e filesystem.Extractor) bool { return e.Name() == r.extractor })
		if i < 0 || anyFile(fsys, path.Dir(dir), r.lockfiles...) {
			continue
		}
		var matches []string
		if r.list != nil {
			matches = r.list(fsys, dir)
		} else {
			matches, _ = fs.Glob(fsys, path.Join(globQuote(dir), r.pattern))
		}
		for _, p := range matches {
			fi, err := fs.Stat(fsys, p)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			ex := []filesystem.Extractor{exs[i]}
			jobs = append(jobs, job{path: p, info: fi, exs: ex, installed: installedOnly(ex)})
		}
		if len(jobs) > 0 && !h.all {
			break
		}
	}
	return jobs
}

// workspaceLocked reports whether the JavaScript project in dir is a
// workspace member whose packages a lockfile above it records: the
// package manager installs a member's own copies (a devDependency at
// another version than the root's) in the member's node_modules, and the
// workspace root's lockfile lists them with what the installed manifests
// do not say, whether they are for development. An ancestor counts when it
// has such a lockfile and either its workspaces (package.json
// "workspaces", pnpm-workspace.yaml "packages") take dir in, or the
// lockfile names dir's path (npm's and bun's list their members').
func workspaceLocked(fsys fs.FS, dir string, lockfiles []string) bool {
	if dir == "." || dir == "" {
		return false
	}
	for up := path.Dir(dir); ; up = path.Dir(up) {
		if projectLockfile(fsys, up, lockfiles...) {
			rel := strings.TrimPrefix(dir, up+"/")
			if up == "." {
				rel = dir
			}
			if slices.ContainsFunc(workspaceGlobs(fsys, up), func(g string) bool { return workspaceMatch(g, rel) }) {
				return true
			}
			for _, n := range lockfiles {
				if b, err := readLimited(fsys, path.Join(up, n), maxWorkspaceFile); err == nil && bytes.Contains(b, []byte(`"`+rel+`"`)) {
					return true
				}
			}
		}
		if up == "." || up == "/" || up == "" {
			return false
		}
	}
}

// workspaceGlobs are the workspace patterns of the project in dir: its
// package.json "workspaces" (a list, or yarn's {"packages": [...]}) and
// its pnpm-workspace.yaml "packages".
func workspaceGlobs(fsys fs.FS, dir string) []string {
	var globs []string
	if b, err := readLimited(fsys, path.Join(dir, "package.json"), maxWorkspaceFile); err == nil {
		var m struct {
			Workspaces json.RawMessage `json:"workspaces"`
		}
		if json.Unmarshal(b, &m) == nil && len(m.Workspaces) > 0 {
			var list []string
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(m.Workspaces, &list) == nil {
				globs = append(globs, list...)
			} else if json.Unmarshal(m.Workspaces, &obj) == nil {
				globs = append(globs, obj.Packages...)
			}
		}
	}
	if b, err := readLimited(fsys, path.Join(dir, "pnpm-workspace.yaml"), maxWorkspaceFile); err == nil {
		var w struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(b, &w) == nil {
			globs = append(globs, w.Packages...)
		}
	}
	return globs
}

// workspaceMatch reports whether a workspace pattern ("packages/*",
// "apps/**", "./tools/cli") takes in the directory rel; a negated pattern
// takes in nothing.
func workspaceMatch(glob, rel string) bool {
	glob = strings.TrimSuffix(strings.TrimPrefix(glob, "./"), "/")
	if glob == "" || strings.HasPrefix(glob, "!") {
		return false
	}
	if before, _, ok := strings.Cut(glob, "**"); ok {
		return strings.HasPrefix(rel, before)
	}
	ok, err := path.Match(glob, rel)
	return err == nil && ok
}

// maxWorkspaceFile bounds a workspace root's package.json, workspace file
// or lockfile read to tell its members (a large workspace's lockfile).
const maxWorkspaceFile = 64 << 20

// readLimited reads at most limit bytes of a file.
func readLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

// projectLockfile reports whether dir has one of the lockfiles names: a
// bun.lockb counts only when it reads (bunBinaryLock).
func projectLockfile(fsys fs.FS, dir string, names ...string) bool {
	for _, n := range names {
		if n == bunBinaryLock {
			if bunLockbReadable(fsys, dir) {
				return true
			}
		} else if anyFile(fsys, dir, n) {
			return true
		}
	}
	return false
}

// bunBinaryLock is the lockfile bun wrote before 1.2, in a binary format
// of its own (bunlockb.go). It is read where no bun.lock is beside it (bun
// itself prefers bun.lock), and it then stands for a node_modules beside
// it; one that cannot be read is a file error saying how to write
// bun.lock, and the node_modules is read meanwhile.
const bunBinaryLock = "bun.lockb"

// globQuote escapes the characters fs.Glob reads as a pattern's, so that a
// directory named "app/[slug]" is that directory.
func globQuote(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// installedReader is an extractor of a package manager's records of the
// packages it installed (site-packages, node_modules, a gem home): a
// record the operating system's package manager installed is left to
// that package (osFiles), whose advisories know the distribution's
// patches.
type installedReader interface{ installedRecord() }

// installedOnly reports whether exs are all installedReaders: a file only
// they read is an installed package's record.
func installedOnly(exs []filesystem.Extractor) bool {
	return len(exs) > 0 && !slices.ContainsFunc(exs, func(ex filesystem.Extractor) bool {
		_, ok := ex.(installedReader)
		return !ok
	})
}

// projectDir is the directory of the project a lockfile or record at p
// speaks for: where it is, or, for the records a package manager keeps
// inside the folder it installs into (node_modules/.package-lock.json,
// node_modules/.pnpm/lock.yaml, an installed package's package.json,
// vendor/composer/installed.json, a virtual environment's METADATA), the
// directory holding that folder, whose manifest names the project.
func projectDir(p string) string {
	dir := path.Dir(p)
	rest := dir
	for off := 0; rest != ""; {
		seg, next, _ := strings.Cut(rest, "/")
		if _, ok := hiddenRecords[seg]; ok {
			if off == 0 {
				return "."
			}
			return dir[:off-1]
		}
		off += len(seg) + 1
		rest = next
	}
	return dir
}

// hiddenRecord is where a package manager's record of what it installed
// is inside the directory it installs into (an fs.Glob pattern), and its
// extractor.
type hiddenRecord struct {
	pattern, extractor string
	// lockfiles are the project's lockfiles that take precedence over
	// this record alone, beside those over every record of the directory.
	lockfiles []string
	// list, when set, finds the records instead of pattern.
	list func(fsys fs.FS, dir string) []string
}

// hiddenRecords are, by the name of the directory packages are installed
// into, the project's lockfiles that take precedence and the records: the
// first that exists, or with all, every one.
var hiddenRecords = map[string]struct {
	lockfiles []string
	records   []hiddenRecord
	all       bool
}{
	// npm (node_modules/.package-lock.json) and pnpm
	// (node_modules/.pnpm/lock.yaml).
	"node_modules": {
		// bun.lockb only where it reads (projectLockfile).
		lockfiles: []string{"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", bunBinaryLock},
		records: []hiddenRecord{
			{pattern: ".package-lock.json", extractor: packagelockjson.Name},
			{pattern: ".pnpm/lock.yaml", extractor: pnpmlock.Name},
			// Without either: the installed packages' own manifests
			// (npminstalled.go).
			{extractor: packagejson.Name, list: installedManifests},
		},
	},
	// Composer (vendor/composer/installed.json, composerinstalled.go) and
	// bundler's deployment path (vendor/bundle/ruby/3.3.0/specifications,
	// rubyinstalled.go), each left to its own lockfile.
	"vendor": {
		records: []hiddenRecord{
			{pattern: "composer/installed.json", extractor: composerInstalled.name, lockfiles: []string{"composer.lock"}},
			{pattern: "bundle/*/*/specifications/*.gemspec", extractor: gemspec.Name, lockfiles: []string{"Gemfile.lock", "gems.locked"}},
		},
		all: true,
	},
	// A Python virtual environment's installed distributions, one
	// METADATA each (pyinstalled.go).
	".venv": venvRecords,
	"venv":  venvRecords,
}

// anyFile reports whether dir holds a file of one of the names: a
// manifest reader's way of leaving a project to its lockfile.
func anyFile(fsys fs.FS, dir string, names ...string) bool {
	for _, n := range names {
		if _, err := fs.Stat(fsys, path.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}
