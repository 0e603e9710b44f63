//go:build !unix

package sbom

import "io/fs"

// deviceOf reports false where devices cannot be told apart: the walk then
// relies on the skipped directory names alone.
func deviceOf(fs.FileInfo) (uint64, bool) { return 0, false }
