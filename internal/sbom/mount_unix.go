//go:build unix

package sbom

import (
	"io/fs"
	"syscall"
)

// deviceOf returns the device a file lives on, for staying on one file
// system while walking.
func deviceOf(info fs.FileInfo) (uint64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // Dev is uint32 on some platforms
}
