package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// ListResponse is every list endpoint's shape.
type ListResponse[T any] struct {
	Data       []T    `json:"data"`
	NextCursor string `json:"next_cursor"`
}

// WriteList answers a list operation with its page of items and the
// cursor of the next page ("" on the last).
func WriteList[T any](w http.ResponseWriter, items []*T, next string) {
	WriteListOf(w, items, next, func(x *T) T { return *x })
}

// WriteListOf is WriteList for items shown through a view.
func WriteListOf[S, T any](w http.ResponseWriter, items []S, next string, view func(S) T) {
	out := ListResponse[T]{Data: make([]T, 0, len(items)), NextCursor: next}
	for _, it := range items {
		out.Data = append(out.Data, view(it))
	}
	WriteJSON(w, http.StatusOK, out)
}

// PageFromQuery reads ?limit= (default 50, at most 500) and ?cursor=.
func PageFromQuery(r *http.Request) (sentinel.Page, error) {
	p := sentinel.Page{Limit: 50, Cursor: r.URL.Query().Get("cursor")}
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			return p, sentinel.InvalidField("limit", "limit must be an integer from 1 to 500")
		}
		p.Limit = n
	}
	if len(p.Cursor) > 200 {
		return p, sentinel.InvalidField("cursor", "cursor is not valid")
	}
	return p, nil
}

// TimeParam reads an optional RFC 3339 query parameter (zero when absent).
func TimeParam(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return t, sentinel.InvalidField(name, "%s must be an RFC 3339 time such as 2026-11-21T00:00:00Z", name)
	}
	return t, nil
}
