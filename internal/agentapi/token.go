package agentapi

// validHost reports whether s can be an agent's host name (the client
// certificate's common name and the inventory's host): 1 to 253 printable
// ASCII characters without spaces, slashes or quotes.
func validHost(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '/' || c == '\\' || c == '"' || c == '\'' || c == '<' || c == '>' {
			return false
		}
	}
	return true
}
