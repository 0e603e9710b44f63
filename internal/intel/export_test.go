package intel

import "io"

// LoadEcosystems is loadEcosystems for the external tests: osv.dev's
// per-ecosystem all.zip layout, not used by the service yet (intel sync
// takes directories, zips and URLs).
var LoadEcosystems = loadEcosystems

// Indexed reports whether the snapshot's parts were read from its index.
func (sr *SnapshotReader) Indexed() bool { return sr.indexed }

// ReadLocalHeader is readLocalHeader for the external tests.
func ReadLocalHeader(r io.ReaderAt, size, off int64) (name string, err error) {
	h, err := readLocalHeader(r, size, off)
	return h.name, err
}

// ReadRecordAt is readRecordAt for the external tests.
func ReadRecordAt(r io.ReaderAt, size, off int64, name string) ([]byte, string, error) {
	return readRecordAt(r, size, off, name, MaxRecordSize)
}
