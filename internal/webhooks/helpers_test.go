package webhooks_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
	"github.com/sentinel-sca/sentinel/webhook"
)

// mustStore opens a fresh SQLite store in a temp dir.
func mustStore(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "sentinel.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func mustBox(tb testing.TB) *seal.Box {
	tb.Helper()
	k := make([]byte, seal.KeySize)
	_, _ = rand.Read(k)
	b, err := seal.NewBox(k)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func mustOrg(tb testing.TB, db *store.DB, slug string) *sentinel.Organization {
	tb.Helper()
	var o *sentinel.Organization
	err := db.InTx(context.Background(), func(tx *store.Tx) (err error) {
		o, err = tx.CreateOrg(context.Background(), slug, "")
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// mustWebhook registers a webhook for url directly in the store and
// returns it with its secret in the clear.
func mustWebhook(tb testing.TB, db *store.DB, box *seal.Box, org *sentinel.Organization, url string, events ...string) (*sentinel.Webhook, string) {
	tb.Helper()
	id := sentinel.NewID(sentinel.PrefixWebhook)
	plain := "whsec_" + seal.Token(32)
	w := &sentinel.Webhook{ID: id, OrgID: org.ID, URL: url, Events: events, Active: true, Secret: box.Seal([]byte(plain), []byte(id))}
	if err := db.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateWebhook(context.Background(), w) }); err != nil {
		tb.Fatal(err)
	}
	return w, plain
}

// local lets a service deliver to the receivers tests run on 127.0.0.1.
var local = netguard.Policy{AllowPrivate: true}

// startService runs a delivery service until the test ends.
func startService(tb testing.TB, s *webhooks.Service) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Run(ctx)
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
	})
}

// received is one request a receiver got.
type received struct {
	EventID, Type, Delivery, Signature, ContentType, UserAgent string
	Body                                                       []byte
	At                                                         time.Time
	// Subject and N are the finding_id and n that emitAll puts in data.
	Subject string
	N       int
}

// readDelivery reads the parts of a delivery request tests look at.
func readDelivery(r *http.Request) (received, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return received{}, err
	}
	var env struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Data struct {
			FindingID string `json:"finding_id"`
			N         int    `json:"n"`
		} `json:"data"`
	}
	err = json.Unmarshal(body, &env)
	return received{EventID: env.ID, Type: env.Type, Body: body, At: time.Now(), Subject: env.Data.FindingID, N: env.Data.N,
		Delivery: r.Header.Get(webhook.HeaderDelivery), Signature: r.Header.Get(webhook.HeaderSignature),
		ContentType: r.Header.Get("Content-Type"), UserAgent: r.Header.Get("User-Agent")}, err
}

// checkHeaders reports what is wrong with a delivery's headers, or "".
func checkHeaders(rc received, eventHeader, secret string) string {
	var bad []string
	if rc.ContentType != "application/json" {
		bad = append(bad, "Content-Type "+rc.ContentType)
	}
	if eventHeader != rc.Type {
		bad = append(bad, "Service-Event "+eventHeader+" != body type "+rc.Type)
	}
	if len(rc.Delivery) != 36 {
		bad = append(bad, "Service-Delivery "+rc.Delivery)
	}
	if !strings.HasPrefix(rc.UserAgent, "Sentinel-Webhooks/") {
		bad = append(bad, "User-Agent "+rc.UserAgent)
	}
	if err := webhook.Verify(secret, rc.Signature, rc.Body, 0); err != nil {
		bad = append(bad, "signature: "+err.Error())
	}
	return strings.Join(bad, "; ")
}

// emitAll writes events of typ about subjects (in that order) in
// transactions of batch events each, and returns their ids in order.
func emitAll(tb testing.TB, db *store.DB, org *sentinel.Organization, typ string, subjects []string, batch int, after func()) []string {
	tb.Helper()
	ids := make([]string, 0, len(subjects))
	for i := 0; i < len(subjects); i += batch {
		end := min(i+batch, len(subjects))
		err := db.InTx(context.Background(), func(tx *store.Tx) error {
			ids = ids[:i]
			for j := i; j < end; j++ {
				e, err := tx.EmitEvent(context.Background(), org, typ, subjects[j], map[string]any{"finding_id": subjects[j], "n": j})
				if err != nil {
					return err
				}
				ids = append(ids, e.ID)
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		if after != nil {
			after()
		}
	}
	return ids
}

// ledger records what a receiver acknowledged.
type ledger struct {
	mu    sync.Mutex
	acked map[string]int
}

func (l *ledger) ack(id string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.acked == nil {
		l.acked = map[string]int{}
	}
	l.acked[id]++
	return l.acked[id]
}

func (l *ledger) count(ids []string) (delivered int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		if l.acked[id] > 0 {
			delivered++
		}
	}
	return delivered
}
