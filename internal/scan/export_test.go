package scan

import "net/http"

// SetTap lets tests see every page and asset a Scanner analyses.
func SetTap(s *Scanner, f func(kind, url string, header http.Header, body []byte)) { s.tap = f }
