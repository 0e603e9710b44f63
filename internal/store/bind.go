package store

import (
	"context"
	"fmt"
)

// Binding is the store as one consumer package sees it: every method of
// *DB, plus Update, which runs a write transaction and hands it to the
// consumer as T, an interface the consumer defines with just the *Tx
// methods it writes with.
//
// Why: a feature package depends on a small interface it owns (finding.Store,
// share.Store, ...), never on the concrete *DB. Its reads are plain methods
// that *DB has. Its writes need a transaction, and Go cannot make
// InTx(ctx, func(*Tx) error) satisfy an interface method that takes
// func(finding.Tx) error; Binding[finding.Tx] does.
//
// The conversion from *Tx to T happens at run time, so every T gets a
// compile-time assertion where the service is wired
// (var _ finding.Tx = (*store.Tx)(nil)); should one be missing, Update
// fails with an error rather than a panic.
type Binding[T any] struct{ *DB }

// Bind returns db as a Binding[T].
func Bind[T any](db *DB) Binding[T] { return Binding[T]{db} }

// Update runs fn in one write transaction (see DB.InTx: on PostgreSQL a
// serialization failure runs fn again).
func (b Binding[T]) Update(ctx context.Context, fn func(T) error) error {
	return b.DB.InTx(ctx, func(tx *Tx) error {
		t, ok := any(tx).(T)
		if !ok {
			var zero T
			return fmt.Errorf("store: *Tx does not implement %T", &zero)
		}
		return fn(t)
	})
}
