package sbom

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/osv-scalibr/extractor/filesystem"
)

// wrappedReaders are the lockfile readers this file fuzzes, by the file
// name each reads: Sentinel's own (renv.lock, Julia's Manifest.toml) and
// its corrections of scalibr's (Podfile.lock, conan.lock,
// Package.resolved).
var wrappedReaders = []struct{ extractor, file string }{
	{"r/renvlock", "renv.lock"},
	{"swift/podfilelock", "Podfile.lock"},
	{"cpp/conanlock", "conan.lock"},
	{"julia/manifesttoml", "Manifest.toml"},
	{"swift/packageresolved", "Package.resolved"},
}

// FuzzWrappedReaders: any bytes, read as any of these files, either are
// refused with an error or give packages that have a name; none panics.
func FuzzWrappedReaders(f *testing.F) {
	f.Add(uint8(0), []byte(`{"Packages":{"a":{"Package":"a","Version":"1.0","Source":"GitHub","RemoteUsername":"o","RemoteRepo":"r","RemoteSha":"abc"},"b":{"Package":"b","Version":"2","Source":"Bioconductor"}}}`))
	f.Add(uint8(1), []byte("PODS:\n  - A/Sub (1.0)\n  - B (2.0)\n\nEXTERNAL SOURCES:\n  B:\n    :git: https://x/b.git\n\nCHECKOUT OPTIONS:\n  B:\n    :commit: abc\n"))
	f.Add(uint8(2), []byte(`{"version":"0.5","requires":["zlib/1.3.1#r%1"],"build_requires":["cmake/3.28.1@u/c#r"]}`))
	f.Add(uint8(2), []byte(`{"graph_lock":{"nodes":{"0":{"path":"conanfile.txt","requires":["1"]},"1":{"ref":"a/1.0@u/c","context":"build"}}},"version":"0.4"}`))
	f.Add(uint8(3), []byte("[[A]]\nuuid = \"u\"\nversion = \"1.0.0\"\ngit-tree-sha1 = \"t\"\n"))
	f.Add(uint8(4), []byte(`{"pins":[{"identity":"a","kind":"localSourceControl","location":"/x/a","state":{"version":"1.0.0"}},{"identity":"b","kind":"remoteSourceControl","location":"https://github.com/o/b","state":{"branch":"main","revision":"abc"}}],"version":2}`))
	exs := map[string]filesystem.Extractor{}
	for _, r := range wrappedReaders {
		ex, err := NewExtractor(r.extractor)
		if err != nil {
			f.Fatal(err)
		}
		exs[r.extractor] = ex
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		r := wrappedReaders[int(which)%len(wrappedReaders)]
		inv, err := exs[r.extractor].Extract(context.Background(), &filesystem.ScanInput{Path: "app/" + r.file, Reader: bytes.NewReader(b)})
		if err != nil {
			return
		}
		for _, p := range inv.Packages {
			if p.Name == "" {
				t.Fatalf("%s: a package without a name: %+v", r.file, p)
			}
		}
	})
}
