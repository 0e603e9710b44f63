package sbom

import (
	"bytes"
	"io/fs"
	"path"
	"strings"

	"deps.dev/util/maven"
	"github.com/google/osv-scalibr/clients/datasource"

	sentinel "github.com/sentinel-sca/sentinel"
)

// pomProject reads the project a pom.xml builds: its groupId, artifactId
// and version, with what it leaves out taken from its parents as Maven
// inherits it (the groupId and version, the properties a version such as
// ${revision} names, the licenses). Parents are followed at their
// relativePath (default ../pom.xml) inside the scanned tree, as long as the
// file there is the parent named; a parent kept only in a repository
// still gives the groupId and version its <parent> element states.
func pomProject(fsys fs.FS, p string, data []byte) (project, bool) {
	proj, ok := decodePOM(data)
	if !ok || proj.ArtifactID == "" {
		return project{}, false
	}
	own := proj.Parent
	cur, at := proj, p
	for range maxParents {
		par := cur.Parent
		if par.ArtifactID == "" {
			break
		}
		rel := strings.TrimSpace(string(par.RelativePath))
		if rel == "" {
			rel = "../pom.xml"
		}
		if !strings.HasSuffix(rel, ".xml") {
			rel = path.Join(rel, "pom.xml")
		}
		pp := path.Join(path.Dir(at), rel)
		if !fs.ValidPath(pp) || pp == at {
			break
		}
		b, err := fs.ReadFile(fsys, pp)
		if err != nil {
			break
		}
		parent, ok := decodePOM(plainText(b))
		if !ok || parent.ArtifactID != par.ArtifactID {
			break // another project sits there: Maven passes over it
		}
		if g := parent.GroupID; g != "" && par.GroupID != "" && g != par.GroupID {
			break
		}
		proj.MergeParent(parent)
		cur, at = parent, pp
	}
	if proj.GroupID == "" {
		proj.GroupID = own.GroupID
	}
	if proj.Version == "" {
		proj.Version = own.Version
	}
	if err := proj.MergeProfiles("", maven.ActivationOS{}); err != nil {
		return project{}, false
	}
	if err := proj.Interpolate(); err != nil {
		return project{}, false
	}
	props := pomProperties(&proj)
	group := interpolatePOM(string(proj.GroupID), props)
	version := interpolatePOM(string(proj.Version), props)
	if strings.Contains(group, "${") || group == "" {
		return project{}, false
	}
	if strings.Contains(version, "${") {
		version = ""
	}
	name := group + ":" + string(proj.ArtifactID)
	pr := project{comp: sentinel.Component{
		Purl: projectPurl("maven", group, string(proj.ArtifactID), version), Ecosystem: "Maven",
		Name: name, Version: version,
	}}
	for _, l := range proj.Licenses {
		pr.comp.Licenses = appendLicense(pr.comp.Licenses, string(l.Name))
	}
	for _, d := range proj.Dependencies {
		pr.deps = append(pr.deps, d.Name())
	}
	return pr, true
}

// decodePOM decodes a POM as Maven reads it (any declared encoding).
func decodePOM(data []byte) (maven.Project, bool) {
	var proj maven.Project
	if err := datasource.NewMavenDecoder(bytes.NewReader(data)).Decode(&proj); err != nil {
		return maven.Project{}, false
	}
	return proj, true
}

// pomProperties are the properties a POM's own coordinates may name,
// after its parents were merged.
func pomProperties(proj *maven.Project) map[string]string {
	m := map[string]string{}
	for _, prop := range proj.Properties.Properties {
		m[prop.Name] = prop.Value
	}
	set := func(k string, v maven.String) {
		if v == "" {
			return
		}
		if _, ok := m[k]; !ok {
			m[k] = string(v)
		}
		m["project."+k], m["pom."+k] = string(v), string(v)
	}
	set("groupId", proj.GroupID)
	set("artifactId", proj.ArtifactID)
	set("version", proj.Version)
	set("parent.groupId", proj.Parent.GroupID)
	set("parent.version", proj.Parent.Version)
	return m
}

// interpolatePOM replaces the ${name} properties of s that props defines,
// again in what they expand to, a few levels deep (a property naming
// itself stays as it is).
func interpolatePOM(s string, props map[string]string) string {
	s = strings.TrimSpace(s)
	for range 8 {
		i := strings.Index(s, "${")
		if i < 0 {
			return s
		}
		var b strings.Builder
		changed := false
		for {
			i := strings.Index(s, "${")
			if i < 0 {
				b.WriteString(s)
				break
			}
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				b.WriteString(s)
				break
			}
			key := s[i+2 : i+j]
			b.WriteString(s[:i])
			if v, ok := props[key]; ok && v != "${"+key+"}" {
				b.WriteString(strings.TrimSpace(v))
				changed = true
			} else {
				b.WriteString(s[i : i+j+1])
			}
			s = s[i+j+1:]
		}
		s = b.String()
		if !changed {
			return s
		}
	}
	return s
}
