package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel/webhook"
)

// webhooksCmd is `sentinel webhooks listen`: a receiver for trying
// webhooks out. It verifies each delivery's signature with the secret,
// prints the event as one JSON line on stdout, and answers 204; a delivery
// that does not verify is refused (401) and reported on stderr.
//
//	sentinel webhooks listen --secret whsec_... [--addr 127.0.0.1:9000]
func (c *Command) webhooksCmd(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "listen" {
		return usageErr("usage: sentinel webhooks listen --secret whsec_... [--addr 127.0.0.1:9000]")
	}
	fs := c.flagSet("webhooks listen")
	secret := fs.String("secret", "", "the webhook's signing secret, whsec_... (env SENTINEL_WEBHOOK_SECRET)")
	addr := fs.String("addr", "127.0.0.1:9000", "address to listen on; register http://ADDR/ as the webhook's url")
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *secret == "" {
		*secret = c.getenv("SENTINEL_WEBHOOK_SECRET")
	}
	if *secret == "" {
		return usageErr("--secret is required: the secret POST /v1/webhooks answered with (whsec_...)")
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (pick another --addr)", *addr, err)
	}
	fmt.Fprintf(c.stderr(), "sentinel: listening on http://%s/ ; each verified event is printed as one JSON line (Ctrl-C stops)\n", ln.Addr())
	var mu sync.Mutex // one line at a time
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, webhook.DefaultMaxBodyBytes+1))
		if err != nil || len(body) > webhook.DefaultMaxBodyBytes {
			http.Error(w, "body too large or unreadable", http.StatusRequestEntityTooLarge)
			return
		}
		if err := webhook.Verify(*secret, r.Header.Get("Service-Signature"), body, webhook.DefaultTolerance); err != nil {
			mu.Lock()
			fmt.Fprintf(c.stderr(), "sentinel: refused a delivery (%s): %v\n", r.Header.Get("Service-Event"), err)
			mu.Unlock()
			http.Error(w, "signature does not verify", http.StatusUnauthorized)
			return
		}
		var e webhook.Event
		if err := json.Unmarshal(body, &e); err != nil || e.Type != r.Header.Get("Service-Event") {
			http.Error(w, "not an event envelope, or Service-Event disagrees with it", http.StatusBadRequest)
			return
		}
		line, _ := json.Marshal(e)
		mu.Lock()
		fmt.Fprintf(c.stdout(), "%s\n", line)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
