package sbom

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync"

	"deps.dev/util/maven"
	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/pomxml"
	scalibrfs "github.com/google/osv-scalibr/fs"
	"github.com/google/osv-scalibr/inventory"
)

// pomXML is scalibr's pom.xml extractor, which merges the parents it finds
// at each <relativePath> (default ../pom.xml) and, offline, no others.
// Maven itself goes on to its repositories, and finds a parent that a
// repository holds wherever the file is. Here a parent that is not at its
// relative path is looked for nearby, by its coordinates: among the POM
// files beside the pom.xml, in the directories above it up to the root of
// the scan, and in those directories' immediate subdirectories (a sibling
// "parent" module whose children name no relativePath; a parent copied
// beside its child as parent-pom.xml), and then in the Maven local
// repository (Options.MavenRepository) where Maven keeps every parent a
// build has fetched. One that is found is shown to the
// extractor at the path it looks at (in place of another project there, as
// Maven passes over that one), so its properties, dependency management
// and own parents are merged as Maven would.
type pomXML struct {
	filesystem.Extractor
	cache *pomCache
}

// newPOMXML builds pomXML for one scan: the POM files it reads while
// looking for parents are read once in the scan.
func newPOMXML(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := pomxml.New(cfg)
	if err != nil {
		return nil, err
	}
	return pomXML{Extractor: ex, cache: newPOMCache()}, nil
}

// pomCache keeps, for one scan, the coordinates of the POM files read
// and the candidate parents near each directory: the modules of one
// multi-module project share their parents' neighbourhood.
type pomCache struct {
	// repo is the Maven local repository, or nil.
	repo   fs.FS
	mu     sync.Mutex
	coords map[string]pomCoords // by path; zero when not a POM
	near   map[string][]string  // nearbyPOMs by directory
	// boms holds the dependencyManagement of each BOM imported, by path.
	boms map[string]maven.DependencyManagement
}

func newPOMCache() *pomCache {
	return &pomCache{coords: map[string]pomCoords{}, near: map[string][]string{}, boms: map[string]maven.DependencyManagement{}}
}

// maxParents bounds the chain of parents followed (Maven's own reader
// and scalibr's stop at ten as well).
const maxParents = 10

// maxPOMCandidates bounds the POM files read while looking for parents.
const maxPOMCandidates = 200

// Extract implements filesystem.Extractor: the POM's dependencies as
// Maven resolves them (pomXML.dependencies). scalibr's extractor gives
// only the name, FileRequired and the rest.
func (p pomXML) Extract(ctx context.Context, input *filesystem.ScanInput) (inventory.Inventory, error) {
	data, err := io.ReadAll(input.Reader)
	if err != nil {
		return inventory.Inventory{}, err
	}
	// A POM without a parent (most are) is not decoded a second time.
	var chain []string
	if input.FS != nil && bytes.Contains(data, []byte("parent>")) {
		chain = locateParents(input.FS, input.Path, data, p.cache)
	}
	pkgs, err := p.dependencies(input.FS, input.Path, data, chain)
	if err != nil {
		return inventory.Inventory{}, err
	}
	return inventory.Inventory{Packages: pkgs}, nil
}

// pomCoords are what a POM says of itself and of its parent.
type pomCoords struct {
	// key has the groupId and version inherited from the parent, and the
	// properties it names that the POM defines interpolated (a BOM at
	// ${revision}); raw is as written.
	key, raw  maven.ProjectKey
	packaging string
	parent    maven.Parent
}

// is reports whether the POM has coordinates k, as written (a parent
// named ${revision}, as its children name it) or interpolated.
func (c pomCoords) is(k maven.ProjectKey) bool { return c.key == k || c.raw == k }

// readPOMCoords decodes a POM's coordinates; ok is false when it is not
// a Maven project.
func readPOMCoords(data []byte) (c pomCoords, ok bool) {
	proj, ok := decodePOM(data)
	if !ok {
		return pomCoords{}, false
	}
	c.key, c.packaging, c.parent = proj.ProjectKey, string(proj.Packaging), proj.Parent
	if c.key.GroupID == "" {
		c.key.GroupID = proj.Parent.GroupID
	}
	if c.key.Version == "" {
		c.key.Version = proj.Parent.Version
	}
	c.raw = c.key
	if strings.Contains(string(c.key.GroupID)+string(c.key.Version), "${") {
		props := pomProperties(&proj)
		c.key.GroupID = maven.String(interpolatePOM(string(c.key.GroupID), props))
		c.key.Version = maven.String(interpolatePOM(string(c.key.Version), props))
	}
	return c, c.key.ArtifactID != ""
}

// locateParents follows the chain of parents of the POM at p (content
// data) and lists every parent found, nearest first, where it is (a path
// of the tree, or of the repository with repoMark). A parent is first
// looked for at its relativePath; one found elsewhere (nearby, or in the
// repository) has its own relativePath read both from the path it was
// looked for at and from where it really is, as Maven reads a parent it
// took from a repository.
func locateParents(fsys scalibrfs.FS, p string, data []byte, cache *pomCache) (chain []string) {
	c, ok := readPOMCoords(data)
	if !ok {
		return nil
	}
	is := func(f string, want maven.Parent) bool {
		pc, ok := cache.pomAt(fsys, f)
		return ok && pc.is(want.ProjectKey) && pc.packaging == "pom"
	}
	visited := map[maven.ProjectKey]bool{c.key: true}
	// cur is where the current POM was looked for, real where it is.
	cur, real, parent := p, p, c.parent
	// The last parent came from the repository (or p is there): so do the
	// others.
	inRepo := strings.HasPrefix(p, repoMark)
	for range maxParents {
		if parent.GroupID == "" || parent.ArtifactID == "" || parent.Version == "" || visited[parent.ProjectKey] {
			break
		}
		visited[parent.ProjectKey] = true
		want, dir := parentPath(fsys, cur, string(parent.RelativePath))
		if dir {
			want = path.Join(want, "pom.xml")
		}
		if !inRepo && is(want, parent) {
			pc, _ := cache.pomAt(fsys, want)
			cur, real, parent = want, want, pc.parent
			chain = append(chain, want)
			continue
		}
		found := ""
		if !inRepo && real != cur {
			if f, dir := parentPath(fsys, real, string(parent.RelativePath)); dir && is(path.Join(f, "pom.xml"), parent) {
				found = path.Join(f, "pom.xml")
			} else if !dir && is(f, parent) {
				found = f
			}
		}
		if !inRepo {
			for _, f := range cache.nearby(fsys, real) {
				if found != "" {
					break
				}
				if is(f, parent) {
					found = f
				}
			}
		}
		if found == "" && cache.repo != nil {
			if f, ok := repoPOM(parent.ProjectKey); ok && is(f, parent) {
				found, inRepo = f, true
			}
		}
		if found == "" {
			break
		}
		// What is at want, if anything, is another project (an aggregator
		// at ../pom.xml): Maven passes over it too.
		chain = append(chain, found)
		pc, _ := cache.pomAt(fsys, found)
		cur, real, parent = want, found, pc.parent
	}
	return chain
}

// parentPath is the path of a parent declared with relativePath in the
// POM at cur: the file itself, or (dir true) the directory whose pom.xml
// it is. A path above the root ("../pom.xml" of the root's pom.xml) is in
// no file system.
func parentPath(fsys scalibrfs.FS, cur, rel string) (p string, dir bool) {
	if rel == "" {
		rel = "../pom.xml"
	}
	p = path.Join(path.Dir(cur), rel) // as the extractor joins them
	if info, err := fsys.Stat(p); err == nil && info.IsDir() {
		return p, true
	}
	return p, false
}

// repoMark starts a path of the Maven local repository in a chain of
// parents and in pomCache.coords.
const repoMark = "\x00repo/"

// marked resolves p, a path of the tree or (with repoMark) of the
// repository, to its file system and path there.
func marked(tree, repo fs.FS, p string) (fs.FS, string) {
	if r, ok := strings.CutPrefix(p, repoMark); ok {
		return repo, r
	}
	return tree, p
}

// repoPOM is the path, marked with repoMark, of a project's POM in a Maven
// repository: org/apache/apache/29/apache-29.pom.
func repoPOM(k maven.ProjectKey) (string, bool) {
	g, a, v := string(k.GroupID), string(k.ArtifactID), string(k.Version)
	for _, part := range []string{g, a, v} {
		if part == "" || strings.ContainsAny(part, "/\\") || strings.Contains(part, "..") {
			return "", false
		}
	}
	p := strings.ReplaceAll(g, ".", "/") + "/" + a + "/" + v + "/" + a + "-" + v + ".pom"
	return repoMark + p, fs.ValidPath(p)
}

// pomAt returns the coordinates of the POM file at p (in the repository
// when p has repoMark), read once.
func (pc *pomCache) pomAt(fsys scalibrfs.FS, p string) (pomCoords, bool) {
	c := memo(&pc.mu, pc.coords, p, func() pomCoords {
		var c pomCoords
		if data, ok := pc.read(fsys, p); ok {
			c, _ = readPOMCoords(data)
		}
		return c
	})
	return c, c.key.ArtifactID != ""
}

// nearby is nearbyPOMs of the POM at p, listed once per directory.
func (pc *pomCache) nearby(fsys scalibrfs.FS, p string) []string {
	dir := path.Dir(p)
	return memo(&pc.mu, pc.near, dir, func() []string { return nearbyPOMs(fsys, dir) })
}

// maxPOMSize bounds a candidate parent POM (the largest on Maven Central
// are a few hundred kilobytes).
const maxPOMSize = 4 << 20

func existsFile(fsys scalibrfs.FS, p string) bool {
	info, err := fsys.Stat(p)
	return err == nil && !info.IsDir()
}

// nearbyPOMs lists the POM files near the directory start, nearest first:
// in it and each directory above it, the files named pom.xml or like a
// POM (parent-pom.xml, parent.pom), then the pom.xml of each of that
// directory's subdirectories. Hidden directories, node_modules and build
// output are not looked into.
func nearbyPOMs(fsys scalibrfs.FS, start string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(f string) bool {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
		return len(out) < maxPOMCandidates
	}
	for dir := start; ; dir = path.Dir(dir) {
		entries, err := fsys.ReadDir(dir)
		if err == nil {
			for _, e := range entries {
				if !e.IsDir() && pomLike(e.Name()) && !add(path.Join(dir, e.Name())) {
					return out
				}
			}
			for _, e := range entries {
				if e.IsDir() && !skipPOMDir(e.Name()) {
					if f := path.Join(dir, e.Name(), "pom.xml"); existsFile(fsys, f) && !add(f) {
						return out
					}
				}
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			return out
		}
	}
}

// mavenSources reports whether the folder src is a Maven project's source
// folder: a pom.xml beside it that does not name a module inside it. The
// POMs below it are not modules but test fixtures (src/test/resources,
// src/it: maven-surefire has hundreds) and archetype templates
// (src/main/resources/archetype-resources), which Maven itself never
// builds as part of the project; the walk does not read them.
func mavenSources(fsys scalibrfs.FS, src string) bool {
	b, err := readLimited(fsys, path.Join(path.Dir(src), "pom.xml"), maxPOMSize)
	if err != nil {
		return false
	}
	for _, m := range []string{"<module>src/", "<module>./src/"} {
		if bytes.Contains(b, []byte(m)) {
			return false
		}
	}
	return true
}

// pomLike reports whether a file name is a POM's: pom.xml, and the names a
// POM takes when it is kept beside others (parent-pom.xml, parent.pom.xml,
// a repository's artifact-1.0.pom).
func pomLike(name string) bool {
	lower := strings.ToLower(name)
	return lower == "pom.xml" || strings.HasSuffix(lower, "-pom.xml") || strings.HasSuffix(lower, ".pom.xml") ||
		strings.HasSuffix(lower, "_pom.xml") || strings.HasSuffix(lower, ".pom")
}

// skipPOMDir reports whether a directory is not where a parent module
// lives.
func skipPOMDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "target" || name == "build"
}
