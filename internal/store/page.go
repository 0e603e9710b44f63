package store

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// A page cursor is the sort key of the last item of a page: a number (a
// sequence, an id, a time in ms), a string id, or both. Clients treat it
// as opaque; every list encodes and checks it here, so a cursor that was
// not made by a list is refused with EINVALID rather than read as an empty
// page.
type cursor struct {
	n  int64
	id string
}

func (c cursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.n, 10) + "." + c.id))
}

var errCursor = sentinel.InvalidField("cursor", "cursor is not valid: pass the next_cursor of the previous page")

// parseCursor reads a cursor made by String; ok is false for "" (the first
// page).
func parseCursor(s string) (c cursor, ok bool, err error) {
	if s == "" {
		return c, false, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return c, false, errCursor
	}
	n, id, found := strings.Cut(string(b), ".")
	if !found {
		return c, false, errCursor
	}
	if c.n, err = strconv.ParseInt(n, 10, 64); err != nil {
		return c, false, errCursor
	}
	c.id = id
	return c, true, nil
}

// pageLimit is a page's size: def when the page names none.
func pageLimit(p sentinel.Page, def int) int {
	if p.Limit <= 0 {
		return def
	}
	return p.Limit
}

// trimPage cuts a page fetched with limit+1 rows and returns the cursor of
// the next page ("" when this is the last).
func trimPage[T any](items []T, limit int, key func(T) cursor) ([]T, string) {
	if len(items) > limit {
		items = items[:limit]
		return items, key(items[len(items)-1]).String()
	}
	return items, ""
}
