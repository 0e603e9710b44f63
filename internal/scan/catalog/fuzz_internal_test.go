package catalog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// FuzzRead: a hostile catalog file gives an error or a catalog, never a
// panic.
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	New([]Entry{{SHA1: [20]byte{1}, Library: "jquery", Version: "3.6.1", File: "f", Source: "s"}}).Write(&b)
	f.Add(b.Bytes())
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Read(bytes.NewReader(data))
		if err == nil && c == nil {
			t.Fatal("nil catalog without error")
		}
	})
}

// FuzzDebData: a hostile .deb gives an error or a stream, never a panic.
func FuzzDebData(f *testing.F) {
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	zw.Write([]byte("data"))
	zw.Close()
	var deb bytes.Buffer
	deb.WriteString("!<arch>\ndebian-binary   0           0     0     100644  4         `\n2.0\n")
	deb.WriteString("data.tar.gz     0           0     0     100644  ")
	deb.WriteString(padInt(tgz.Len()))
	deb.WriteString("`\n")
	deb.Write(tgz.Bytes())
	f.Add(deb.Bytes())
	f.Add([]byte("!<arch>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := debData(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return
		}
		io.Copy(io.Discard, io.LimitReader(r, 1<<20))
		r.Close()
	})
}

func padInt(n int) string {
	s := []byte("          ")
	d := []byte{}
	for n > 0 || len(d) == 0 {
		d = append([]byte{byte('0' + n%10)}, d...)
		n /= 10
	}
	copy(s, d)
	return string(s)
}
