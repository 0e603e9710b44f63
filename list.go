package sentinel

// Page is a keyset page request: items after Cursor, at most Limit.
type Page struct {
	Cursor string
	Limit  int
}
