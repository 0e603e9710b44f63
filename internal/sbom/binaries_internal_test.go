package sbom

import (
	"archive/zip"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gobinary"
)

// FuzzBinaries: whatever a Java archive holds, and whatever dpkg's list
// beside it says, reading it ends with components that have a purl and
// the file's location, or with an error for the file.
func FuzzBinaries(f *testing.F) {
	// Small seeds (the fuzzer minimises every new input it finds, which
	// takes long on large ones): a jar with only Maven's record, and a WAR
	// holding it.
	jar := zipFiles(f, map[string][]byte{"META-INF/maven/org.example/lib/pom.properties": []byte("groupId=org.example\nartifactId=lib\nversion=1.2.3\n")})
	f.Add(jar, []byte("/opt/app/x.jar\n"))
	f.Add(zipFiles(f, map[string][]byte{"WEB-INF/lib/lib-1.2.3.jar": jar}), []byte(""))
	f.Add([]byte("PK\x03\x04"), []byte("/\n/opt\n"))
	exs, err := newExtractors(Binaries)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, archive, list []byte) {
		fsys := statFS{fstest.MapFS{
			"opt/app/app.war":            {Data: archive, Mode: 0o644},
			"var/lib/dpkg/info/app.list": {Data: list, Mode: 0o644},
		}}
		info, err := fs.Stat(fsys, "opt/app/app.war")
		if err != nil {
			t.Fatal(err)
		}
		j := job{path: "opt/app/app.war", info: info, binary: true}
		for _, ex := range exs {
			if binaryExtractor(ex) && ex.FileRequired(&fileAPI{path: j.path, info: info, done: true}) {
				j.exs = append(j.exs, ex)
			}
		}
		out := extractBinary(context.Background(), fsys, "", j, &osFiles{fsys: fsys})
		for _, c := range out.comps {
			if c.Purl == "" || len(c.Locations) != 1 || c.Locations[0] != j.path {
				t.Fatalf("component without a purl or the archive's location: %+v", c)
			}
		}
	})
}

// zipFiles builds a zip archive of the given files, stored uncompressed.
func zipFiles(tb testing.TB, files map[string][]byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, b := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// statCounter is a FileAPI that counts its Stat calls.
type statCounter struct {
	path  string
	info  fs.FileInfo
	stats int
}

func (s *statCounter) Path() string { return s.path }
func (s *statCounter) Stat() (fs.FileInfo, error) {
	s.stats++
	return s.info, nil
}

// TestProgramRequiredByName: a source or data file is never a Go or Rust
// program, whatever its mode, and is passed over without a stat; a file
// without an extension is still asked about.
func TestProgramRequiredByName(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "prog")
	if err := os.WriteFile(p, make([]byte, minProgram), 0o755); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := gobinary.New(&cpb.PluginConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ex := goBinary{Extractor: inner}
	for _, name := range []string{"build.sh", "Gemfile.lock.rb", "config.YML", "tool.py"} {
		api := &statCounter{path: "bin/" + name, info: info}
		if ex.FileRequired(api) || api.stats != 0 {
			t.Errorf("%s: required %v after %d stats, want false without one", name, ex.FileRequired(api), api.stats)
		}
	}
	api := &statCounter{path: "bin/prog", info: info}
	if !ex.FileRequired(api) || api.stats == 0 {
		t.Errorf("an executable without an extension: not required (%d stats)", api.stats)
	}
}
