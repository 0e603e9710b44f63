package netguard

import "net/http"

// TransportForTest returns the *http.Transport inside a client from NewClient,
// for tests that inspect its settings or trust a test server's certificate.
func TransportForTest(c *http.Client) *http.Transport {
	return c.Transport.(*guardedTransport).next.(*http.Transport)
}
