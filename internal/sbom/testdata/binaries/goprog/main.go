// Command goprog is a small Go program the binaries tests build and read:
// its build information lists the modules it imports from Sentinel's own
// go.mod.
package main

import (
	"fmt"

	"github.com/google/go-cmp/cmp"
	"github.com/package-url/packageurl-go"
	"golang.org/x/mod/semver"
)

func main() {
	p, _ := packageurl.FromString("pkg:golang/golang.org/x/mod@v0.41.0")
	fmt.Println(semver.Compare(p.Version, "v0.1.0"), cmp.Equal(p.Name, "mod"))
}
