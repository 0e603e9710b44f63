package intelsvc_test

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// countingStore counts full reads of the advisories: index rebuilds.
type countingStore struct {
	intelsvc.Store
	rebuilds atomic.Int32
}

func (c *countingStore) StreamAdvisories(ctx context.Context, fn func(id string, raw []byte) error) error {
	c.rebuilds.Add(1)
	return c.Store.StreamAdvisories(ctx, fn)
}

// TestConcurrentRefreshRebuildsOnce checks that a replica whose requests,
// watch and poller all notice another replica's sync at once rebuilds its
// index once, not once per caller.
func TestConcurrentRefreshRebuildsOnce(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "s.db")
	ctx := context.Background()
	a := &intelsvc.Service{DB: store.Bind[intelsvc.Tx](testenv.Open(t, dsn))}
	cs := &countingStore{Store: store.Bind[intelsvc.Tx](testenv.Open(t, dsn))}
	b := &intelsvc.Service{DB: cs}
	if err := b.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sync(ctx, intelsvc.Sources{OSV: []string{osvDir}, KEV: kevFile, EOL: eolDir}, nil); err != nil {
		t.Fatal(err)
	}
	cs.rebuilds.Store(0)
	var wg sync.WaitGroup
	var reloaded atomic.Int32
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := b.Refresh(ctx)
			if err != nil {
				t.Error(err)
			}
			if ok {
				reloaded.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := cs.rebuilds.Load(); n != 1 || reloaded.Load() != 1 {
		t.Errorf("8 concurrent refreshes rebuilt the index %d times (%d reported a reload), want 1", n, reloaded.Load())
	}
	if ms, _ := b.Index().Match("pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30"); len(ms) == 0 {
		t.Error("the refreshed index does not match tomcat 9.0.30")
	}
}
