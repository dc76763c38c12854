// Package postgres is the store backend for many servers sharing one
// PostgreSQL database through github.com/lib/pq. Triggers are claimed with
// FOR UPDATE SKIP LOCKED so that servers never contend on the same row, and
// every transaction that makes work due sends NOTIFY on the channel
// gozie_triggers, which each server LISTENs on to wake at once.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lib/pq"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Channel is the NOTIFY channel that announces new due work.
const Channel = "gozie_triggers"

// Store is the PostgreSQL backend.
type Store struct {
	*sqlstore.DB
	listener *pq.Listener
}

var _ store.Store = (*Store)(nil)

func dialect() *sqlstore.Dialect {
	return &sqlstore.Dialect{
		Name:       "postgres",
		NativeTime: true,
		SkipLocked: " FOR UPDATE SKIP LOCKED",
		LockRow:    " FOR UPDATE",
		IsUniqueViolation: func(err error) bool {
			var e *pq.Error
			return errors.As(err, &e) && e.Code == "23505"
		},
		// deadlock_detected and serialization_failure: the transaction was
		// rolled back and can run again.
		IsRetryable: func(err error) bool {
			var e *pq.Error
			return errors.As(err, &e) && (e.Code == "40P01" || e.Code == "40001")
		},
		Notify: func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, Channel)
			return err
		},
		// A fixed advisory-lock key serializes migrations of servers that
		// start together.
		MigrationLock: `SELECT pg_advisory_xact_lock(7260431985)`,
		BeginTx: func(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
			return db.BeginTx(ctx, nil)
		},
	}
}

// Open connects to the database at dsn (a postgres:// URL), applies
// migrations and starts listening for wake-ups from other servers.
func Open(ctx context.Context, dsn string) (*Store, error) {
	// With binary_parameters lib/pq sends a parameterized statement in one
	// round trip instead of two (parse, then bind); every store statement
	// is parameterized.
	if !strings.Contains(dsn, "binary_parameters") {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		dsn += sep + "binary_parameters=yes"
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db.SetMaxOpenConns(32)
	db.SetMaxIdleConns(16)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: connecting: %w", err)
	}
	d := dialect()
	ms, err := sqlstore.LoadMigrations(migrations, "migrations")
	if err != nil {
		db.Close()
		return nil, err
	}
	if _, err := sqlstore.Migrate(ctx, db, d, ms); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{DB: sqlstore.New(db, d)}
	// The listener reconnects by itself; after a reconnect it delivers a nil
	// notification, which also wakes the engine so nothing missed is lost.
	s.listener = pq.NewListener(dsn, 100*time.Millisecond, 10*time.Second, nil)
	if err := s.listener.Listen(Channel); err != nil {
		s.listener.Close()
		db.Close()
		return nil, fmt.Errorf("postgres: listening on %s: %w", Channel, err)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case _, ok := <-s.listener.Notify:
				if !ok {
					return
				}
				s.Wake()
			case <-done:
				return
			}
		}
	}()
	s.OnClose(func() {
		close(done)
		s.listener.Close()
	})
	return s, nil
}

// Migrations returns the embedded migrations, for tests.
func Migrations() ([]sqlstore.Migration, error) {
	return sqlstore.LoadMigrations(migrations, "migrations")
}
