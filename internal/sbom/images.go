package sbom

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"gopkg.in/yaml.v3"
)

// Container images a project builds on or runs beside: the base images of
// its Dockerfiles (every FROM of every stage, not the stages themselves),
// the images of its Compose files (services.*.image), the images of its
// Kubernetes manifests (k8sManifests, below), and the images its GitHub
// workflows run ("uses: docker://...", a job's containers: actions.go). Each
// is a component pkg:docker/<namespace>/<name>@<tag>, a Docker Hub
// official image in the "library" namespace as endoflife.date names it
// (pkg:docker/library/python), another registry's as repository_url. No
// advisory database covers images, but end-of-life data does: a python:3.7
// or node:14-alpine base image is past end of life, and says so.
//
// A reference whose tag comes from a build argument with no default
// (FROM node:${NODE_VERSION}) names no image that can be known here and is
// left out; one without a tag is "latest"; one pinned by digest only has
// the digest as its version.

var images = ownExtractor{name: "containers/images", required: imageFile, read: readImages}

// imageFile reports whether p is a Dockerfile (Dockerfile, Containerfile,
// Dockerfile.prod, app.dockerfile) or a Compose file (compose.yaml,
// docker-compose.yml, docker-compose.override.yml, compose-dev.yaml).
func imageFile(p string) bool {
	b := strings.ToLower(path.Base(p))
	switch {
	case strings.HasSuffix(b, ".dockerignore"):
		return false
	case strings.HasPrefix(b, "dockerfile.") && notDockerfile[path.Ext(b)]:
		return false // Dockerfile.md, Dockerfile.sh: about a Dockerfile, not one
	case b == "dockerfile" || b == "containerfile" || strings.HasPrefix(b, "dockerfile.") || strings.HasSuffix(b, ".dockerfile"):
		return true
	}
	return composeFile(b)
}

// notDockerfile are the extensions of files named after a Dockerfile that
// are documents or scripts, not Dockerfiles.
var notDockerfile = map[string]bool{".md": true, ".txt": true, ".rst": true, ".html": true, ".sh": true, ".py": true, ".go": true, ".json": true, ".yml": true, ".yaml": true}

// composeFile reports whether base (lower case) names a Compose file.
func composeFile(base string) bool {
	ext := path.Ext(base)
	if ext != ".yml" && ext != ".yaml" {
		return false
	}
	stem := strings.TrimSuffix(base, ext)
	for _, s := range []string{"compose", "docker-compose"} {
		if rest, ok := strings.CutPrefix(stem, s); ok && (rest == "" || rest[0] == '.' || rest[0] == '-') {
			return true // compose.yaml, docker-compose.override.yml, compose-dev.yaml
		}
	}
	return false
}

func readImages(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	var refs []string
	if composeFile(strings.ToLower(path.Base(in.Path))) {
		var doc struct {
			Services map[string]struct {
				Image string `yaml:"image"`
			} `yaml:"services"`
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("not a Compose file: %w", err)
		}
		for _, s := range doc.Services {
			refs = append(refs, expandArgs(s.Image, nil)) // "${TAG:-1.0}": Compose's default
		}
		slices.Sort(refs)
	} else {
		refs = dockerfileBases(b)
	}
	return imagePackages(refs, in.Path), nil
}

// imagePackages are the packages of image references, each image once;
// a reference that names no image (an unset build argument, a template's
// placeholder) is left out.
func imagePackages(refs []string, loc string) []*extractor.Package {
	var pkgs []*extractor.Package
	seen := map[string]bool{}
	for _, r := range refs {
		p, ok := imagePackage(r, loc)
		if !ok || seen[p.Name+"@"+p.Version] {
			continue
		}
		seen[p.Name+"@"+p.Version] = true
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// dockerfileBases returns the images a Dockerfile's FROM instructions
// name, and those its COPY --from copies files from, build arguments
// declared before the first FROM substituted with their defaults, stages
// ("FROM build AS final", "COPY --from=build") and scratch left out.
func dockerfileBases(b []byte) []string {
	args := map[string]string{}
	stages := map[string]bool{"scratch": true}
	var out []string
	seenFrom := false
	for _, line := range dockerfileInstructions(b) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch strings.ToUpper(f[0]) {
		case "ARG":
			if seenFrom {
				continue // a stage's own argument: not in FROM's scope
			}
			for _, a := range f[1:] {
				if k, v, ok := strings.Cut(a, "="); ok {
					args[k] = strings.Trim(v, `"'`)
				}
			}
		case "FROM":
			seenFrom = true
			rest := f[1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0], "--") {
				rest = rest[1:] // --platform=$BUILDPLATFORM
			}
			if len(rest) == 0 {
				continue
			}
			ref := expandArgs(rest[0], args)
			if !stages[strings.ToLower(ref)] {
				out = append(out, ref)
			}
			if len(rest) >= 3 && strings.EqualFold(rest[1], "AS") {
				stages[strings.ToLower(rest[2])] = true
			}
		case "COPY":
			// COPY --from=golang:1.22 /usr/local/go /usr/local/go: files
			// of an image, not of an earlier stage (by name or number).
			for _, flag := range f[1:] {
				from, ok := strings.CutPrefix(flag, "--from=")
				if !ok {
					continue
				}
				ref := expandArgs(from, args)
				if _, err := strconv.Atoi(ref); err != nil && !stages[strings.ToLower(ref)] {
					out = append(out, ref)
				}
			}
		}
	}
	return out
}

// dockerfileInstructions splits a Dockerfile into its instructions: lines
// continued with a trailing backslash joined, comments and blank lines
// left out.
func dockerfileInstructions(b []byte) []string {
	var out []string
	var cur strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || line == "" && cur.Len() == 0 {
			continue
		}
		if s, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(s)
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(line)
		out = append(out, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// dockerArg matches a build argument reference: $NAME, ${NAME},
// ${NAME:-default}, ${NAME-default}.
var dockerArg = lazyRegexp(`\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))`)

// expandArgs substitutes the build arguments of s; one without a value
// stays as written (imagePackage then leaves the reference out).
func expandArgs(s string, args map[string]string) string {
	re := dockerArg()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		g := re.FindStringSubmatch(m)
		name := g[1] + g[3]
		if v, ok := args[name]; ok && v != "" {
			return v
		}
		if g[2] != "" {
			return g[2]
		}
		return m
	})
}

// imageMeta is where an image comes from: its registry, when not Docker
// Hub, for the purl's repository_url.
type imageMeta struct{ registry string }

// IsProtoable implements scalibr's metadata marker; Sentinel never
// converts it to a protocol buffer.
func (*imageMeta) IsProtoable() {}

// imagePackage reads an image reference ("python:3.12-slim",
// "ghcr.io/owner/app:v1@sha256:...", "localhost:5000/app") as a package
// named "<namespace>/<name>", or reports false for one that is not a
// complete reference.
func imagePackage(ref, loc string) (*extractor.Package, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.ContainsAny(ref, "${} \t") {
		return nil, false
	}
	ref, digest, _ := strings.Cut(ref, "@")
	repo, tag := ref, ""
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		repo, tag = ref[:i], ref[i+1:]
	}
	registry := ""
	if first, rest, ok := strings.Cut(repo, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		registry, repo = strings.ToLower(first), rest
	}
	switch registry {
	case "docker.io", "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com":
		registry = ""
	}
	if registry == "" && !strings.Contains(repo, "/") {
		repo = "library/" + repo
	}
	if repo == "" || strings.HasSuffix(repo, "/") || !imageRepo().MatchString(repo) {
		return nil, false
	}
	version := tag
	if version == "" {
		version = digest
	}
	if version == "" {
		version = "latest"
	}
	p := &extractor.Package{Name: repo, Version: version, PURLType: "docker", Location: extractor.LocationFromPath(loc)}
	if registry != "" {
		p.Metadata = &imageMeta{registry: registry}
	}
	return p, true
}

// imageRepo is an image repository's path: lower-case components of
// letters, digits and separators.
var imageRepo = lazyRegexp(`^[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*$`)

// k8sManifests reads the images of Kubernetes manifests: any YAML file
// (not a workflow, Compose file or lockfile, which others read) whose
// documents have an apiVersion and a kind, the images of their
// containers, initContainers and ephemeralContainers wherever the
// resource nests them (a Pod, a Deployment's template, a CronJob's job
// template, an operator's custom resource). A YAML file that is no
// manifest, or a template that is no YAML ("{{ .Values.image }}"), gives
// nothing and no error: most YAML files are neither.
var k8sManifests = ownExtractor{name: "kubernetes/manifests", required: k8sFile, read: readK8sManifests}

// k8sFile reports whether p may be a Kubernetes manifest.
func k8sFile(p string) bool {
	ext := path.Ext(p)
	if ext != ".yaml" && ext != ".yml" {
		return false
	}
	b := path.Base(p)
	return !workflowFile(p) && !composeFile(strings.ToLower(b)) && !isCondaEnv(p) && b != "pnpm-lock.yaml" && !strings.HasPrefix(b, ".")
}

// maxManifest is the largest YAML file read as a manifest.
const maxManifest = 1 << 20

func readK8sManifests(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if len(b) > maxManifest || !bytes.Contains(b, []byte("kind:")) || !bytes.Contains(b, []byte("image:")) {
		return nil, nil
	}
	var refs []string
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			break // the end, or no YAML (a template): what was read stands
		}
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode || !mappingHas(root, "apiVersion") || !mappingHas(root, "kind") {
			continue
		}
		refs = append(refs, containerImages(root, 0)...)
	}
	return imagePackages(refs, in.Path), nil
}

// containerImages returns the images of the container lists under n.
func containerImages(n *yaml.Node, depth int) []string {
	if depth > 32 {
		return nil
	}
	var out []string
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			if (k == "containers" || k == "initContainers" || k == "ephemeralContainers") && v.Kind == yaml.SequenceNode {
				for _, c := range v.Content {
					if c.Kind != yaml.MappingNode {
						continue
					}
					for j := 0; j+1 < len(c.Content); j += 2 {
						if c.Content[j].Value == "image" && c.Content[j+1].Kind == yaml.ScalarNode {
							out = append(out, c.Content[j+1].Value)
						}
					}
				}
				continue
			}
			out = append(out, containerImages(v, depth+1)...)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out = append(out, containerImages(c, depth+1)...)
		}
	}
	return out
}
