package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/gozie/gozie/store"
)

// DB is the shared store.Store implementation.
type DB struct {
	db    *sql.DB
	stmts *stmts
	d     *Dialect
	wake  chan struct{}
	close sync.Once
	// onClose runs before the database is closed (listeners).
	onClose func()
	// announce, if set, runs after a transaction that made work due has
	// committed (see OnScheduled).
	announce func()
}

var _ store.Store = (*DB)(nil)

// New wraps an open database. The caller has applied migrations.
func New(db *sql.DB, d *Dialect) *DB {
	return &DB{db: db, stmts: newStmts(db, d.Prepare, d.PreparedLost), d: d, wake: make(chan struct{}, 1)}
}

// OnClose registers fn to run when the store closes.
func (s *DB) OnClose(fn func()) { s.onClose = fn }

// OnScheduled registers fn to run, after its commit, for every transaction
// that made work due, so that other servers can be told; fn must not block.
func (s *DB) OnScheduled(fn func()) { s.announce = fn }

// SQL returns the underlying database, for backend-specific tooling.
func (s *DB) SQL() *sql.DB { return s.db }

// Wake delivers a wake-up without blocking; backends call it for
// notifications from other servers.
func (s *DB) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Wakeups implements store.Store.
func (s *DB) Wakeups() <-chan struct{} { return s.wake }

// Backend implements store.Store.
func (s *DB) Backend() string { return s.d.Name }

// Close implements store.Store.
func (s *DB) Close() error {
	var err error
	s.close.Do(func() {
		if s.onClose != nil {
			s.onClose()
		}
		s.stmts.close()
		err = s.db.Close()
	})
	return err
}

// txn is one transaction; it implements store.Tx.
type txn struct {
	tx        stmtTx
	d         *Dialect
	scheduled bool
}

var _ store.Tx = (*txn)(nil)

// Tx implements store.Store.
func (s *DB) Tx(ctx context.Context, fn func(store.Tx) error) (err error) {
	tx, err := s.d.BeginTx(ctx, s.db)
	if err != nil {
		return fmt.Errorf("beginning transaction: %w", err)
	}
	x := &txn{tx: stmtTx{tx: tx, c: s.stmts}, d: s.d}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(x); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return x.mapErr(err, "committing")
	}
	if x.scheduled {
		s.Wake()
		if s.announce != nil {
			s.announce()
		}
	}
	return nil
}

// View implements store.Store: fn's statements run on the pool, each on
// its own, without BEGIN and COMMIT.
func (s *DB) View(ctx context.Context, fn func(store.Tx) error) error {
	return fn(&txn{tx: stmtTx{c: s.stmts}, d: s.d})
}

// markScheduled records that this transaction made work due: when it
// commits, this server's engine wakes and other servers are told (OnScheduled).
func (x *txn) markScheduled() {
	x.scheduled = true
}

// mapErr maps driver errors to the store's sentinels once.
func (x *txn) mapErr(err error, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%s: %w", msg, store.ErrNotFound)
	case x.d.IsUniqueViolation(err):
		return fmt.Errorf("%s: %w (%v)", msg, store.ErrConflict, err)
	case x.d.IsRetryable != nil && x.d.IsRetryable(err), x.d.PreparedLost != nil && x.d.PreparedLost(err):
		return fmt.Errorf("%s: %w (%v)", msg, store.ErrConflict, err)
	}
	return fmt.Errorf("%s: %w", msg, err)
}
