package sbom

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"gopkg.in/yaml.v3"
)

// The GitHub Actions a repository's workflows run are third-party code
// with the repository's secrets: "uses: owner/repo@ref" in
// .github/workflows/*.yml (steps, and reusable workflows at job level) and
// in composite actions' action.yml. Each is a component
// pkg:githubactions/owner/repo@ref, matched against OSV's GitHub Actions
// advisories (the tj-actions/changed-files compromise, CVE-2025-30066, is
// in the CISA catalog). A ref that is a commit, pinned as hardening guides
// ask, is read with the release its comment names ("@<sha> # v4.1.1"):
// the version is v4.1.1, and the purl's vcs_url keeps the commit. Local
// actions ("./.github/actions/x") are not packages; a step run in a
// container image ("docker://alpine:3.8"), a job's container and service
// containers, and a Docker action's "docker://" image are those images,
// pkg:docker (images.go).

// actions is the extractor.
var actions = ownExtractor{name: "githubactions/workflow", required: workflowFile, read: readWorkflow}

// workflowFile reports whether p is a workflow file or an action's
// metadata file.
func workflowFile(p string) bool {
	ext := path.Ext(p)
	if ext != ".yml" && ext != ".yaml" {
		return false
	}
	if b := path.Base(p); b == "action.yml" || b == "action.yaml" {
		return true
	}
	return path.Base(path.Dir(p)) == "workflows" && path.Base(path.Dir(path.Dir(p))) == ".github"
}

// readWorkflow reads the actions a workflow or action file uses. GitHub
// runs the workflows of a repository's own .github/workflows only: one
// below the scan's root whose directory holds no repository (.git) is a
// copy (a test fixture, a vendored project's), which runs nothing here,
// and gives nothing. An action's metadata file is read wherever it is (a
// workflow may use a local composite action: ./.github/actions/setup).
func readWorkflow(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if base := path.Base(in.Path); base != "action.yml" && base != "action.yaml" && in.FS != nil {
		if repo := path.Dir(path.Dir(path.Dir(in.Path))); repo != "." {
			if _, err := fs.Stat(in.FS, path.Join(repo, ".git")); err != nil {
				return nil, nil
			}
		}
	}
	uses, err := workflowUses(b)
	if err != nil {
		return nil, err
	}
	var pkgs []*extractor.Package
	seen := map[string]bool{}
	for _, u := range uses {
		if ref, ok := strings.CutPrefix(strings.TrimSpace(u.value), "docker://"); ok {
			// A step run in a container image (images.go).
			if p, ok := imagePackage(ref, in.Path); ok && !seen["docker:"+p.Name+"@"+p.Version] {
				seen["docker:"+p.Name+"@"+p.Version] = true
				pkgs = append(pkgs, p)
			}
			continue
		}
		a, ok := parseUses(u.value, u.comment)
		if !ok || seen[a.name+"@"+a.version+"@"+a.commit] {
			continue
		}
		seen[a.name+"@"+a.version+"@"+a.commit] = true
		p := &extractor.Package{Name: a.name, Version: a.version, PURLType: "githubactions", Location: extractor.LocationFromPath(in.Path)}
		if a.commit != "" {
			p.SourceCode = &extractor.SourceCodeIdentifier{Repo: "https://github.com/" + a.name, Commit: a.commit}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// use is one "uses" value and the comment on its line.
type use struct{ value, comment string }

// workflowUses returns every scalar "uses" value of a YAML document, with
// its line comment, in document order.
func workflowUses(b []byte) ([]use, error) {
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&root); err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, fmt.Errorf("not a workflow: %w", err)
	}
	var out []use
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if depth > 64 {
			return
		}
		if n.Kind == yaml.MappingNode {
			job := mappingHas(n, "runs-on") || mappingHas(n, "steps")
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if job && (k.Value == "container" || k.Value == "services") {
					// A job's container and its service containers
					// ("container: node:18", "services: {redis: {image:
					// redis:7}}"): images, as a docker:// step's.
					out = append(out, jobImages(k.Value, v)...)
					continue
				}
				if k.Value == "image" && v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Value, "docker://") {
					out = append(out, use{value: v.Value}) // a Docker action's runs.image
					continue
				}
				if k.Value == "uses" && v.Kind == yaml.ScalarNode {
					c := v.LineComment
					if c == "" {
						c = k.LineComment
					}
					out = append(out, use{value: v.Value, comment: c})
					continue
				}
				walk(v, depth+1)
			}
			return
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(&root, 0)
	return out, nil
}

// mappingHas reports whether the mapping node n has the key k.
func mappingHas(n *yaml.Node, k string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return true
		}
	}
	return false
}

// jobImages are the images of a job's "container" (an image, or a mapping
// with one) or "services" (a mapping of such mappings), as docker:// uses.
func jobImages(key string, v *yaml.Node) []use {
	image := func(n *yaml.Node) []use {
		switch {
		case n.Kind == yaml.ScalarNode && n.Value != "":
			return []use{{value: "docker://" + n.Value}}
		case n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == "image" && n.Content[i+1].Kind == yaml.ScalarNode && n.Content[i+1].Value != "" {
					return []use{{value: "docker://" + n.Content[i+1].Value}}
				}
			}
		}
		return nil
	}
	if key == "container" {
		return image(v)
	}
	var out []use
	if v.Kind == yaml.MappingNode {
		for i := 1; i < len(v.Content); i += 2 {
			if v.Content[i].Kind == yaml.MappingNode {
				out = append(out, image(v.Content[i])...)
			}
		}
	}
	return out
}

// actionRef is an action a workflow uses.
type actionRef struct {
	name    string // owner/repo, lowercase
	version string // the tag or branch, or the release a pinned commit's comment names, or the commit
	commit  string // the commit, when the ref is one
}

var (
	commitRef = lazyRegexp(`^[0-9a-fA-F]{40}$`)
	// releaseTag is a release in a pin's comment: "v4", "v4.1.1", "4.1.1"
	// (a bare number, such as a date's year, is not one).
	releaseTag = lazyRegexp(`\b(?:v\d+(?:\.\d+){0,2}|\d+\.\d+(?:\.\d+)?)(?:[-+][0-9A-Za-z.-]+)?\b`)
)

// parseUses reads "owner/repo[/path]@ref" (with the line's comment, for
// a pinned commit's release); ok is false for a local action, a container
// image, an expression, or a reference without a ref.
func parseUses(value, comment string) (actionRef, bool) {
	value = strings.TrimSpace(value)
	if strings.HasPrefix(value, "./") || strings.HasPrefix(value, "docker://") || strings.Contains(value, "${{") {
		return actionRef{}, false
	}
	repo, ref, ok := strings.Cut(value, "@")
	if !ok || ref == "" {
		return actionRef{}, false
	}
	parts := strings.Split(repo, "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return actionRef{}, false
	}
	a := actionRef{name: strings.ToLower(parts[0] + "/" + parts[1]), version: ref}
	if commitRef().MatchString(ref) {
		a.commit = strings.ToLower(ref)
		if tag := releaseTag().FindString(strings.TrimPrefix(strings.TrimSpace(comment), "#")); tag != "" {
			a.version = tag
		}
	}
	return a, true
}
