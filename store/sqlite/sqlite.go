// Package sqlite is the embedded store backend: one SQLite file in WAL mode,
// through the pure-Go modernc.org/sqlite driver (no cgo, so the gozie binary
// stays a single static file). Writers are serialized by SQLite itself
// (every transaction begins IMMEDIATE), so the claim statement needs no row
// locks; wake-ups are in-process only, as one file serves one server.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the SQLite backend.
type Store struct {
	*sqlstore.DB
}

var _ store.Store = (*Store)(nil)

func dialect() *sqlstore.Dialect {
	return &sqlstore.Dialect{
		Name:            "sqlite",
		NativeTime:      false,
		ClaimKindColumn: "+kind",
		// Statements run unprepared: with the driver's statements kept
		// prepared across transactions, the workflow runner's tests once
		// lost engine work under load (BENCHMARKS.md, "Coordinators").
		Prepare: false,
		IsUniqueViolation: func(err error) bool {
			var e *sqlite.Error
			if errors.As(err, &e) {
				c := e.Code()
				return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
			}
			return false
		},
		BeginTx: func(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
			return db.BeginTx(ctx, nil)
		},
	}
}

// Open opens (creating if needed) the SQLite database at path and applies
// migrations.
func Open(ctx context.Context, path string) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sqlite: creating %s: %w", dir, err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	// SQLite allows one writer at a time. Queueing transactions on one
	// connection in Go is fair and cheap, where several connections would
	// contend through SQLite's sleeping busy handler and can starve a
	// writer (a lease renewal, say) for longer than a lease lasts.
	db.SetMaxOpenConns(1)
	d := dialect()
	ms, err := sqlstore.LoadMigrations(migrations, "migrations")
	if err != nil {
		db.Close()
		return nil, err
	}
	if _, err := sqlstore.Migrate(ctx, db, d, ms); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return &Store{DB: sqlstore.New(db, d)}, nil
}

// Migrations returns the embedded migrations, for tests.
func Migrations() ([]sqlstore.Migration, error) {
	return sqlstore.LoadMigrations(migrations, "migrations")
}
