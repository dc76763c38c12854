package enginetest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/store/sqlite"
)

// Backend says which store a test's engines run on.
type Backend struct {
	// Postgres selects PostgreSQL (a fresh database from pgtest unless DSN
	// is set); otherwise SQLite.
	Postgres bool
	// DSN is the PostgreSQL database to open, for tests that share one.
	DSN string
	// SQLitePath is the SQLite file to open, for tests that reopen one; a
	// temporary file when empty.
	SQLitePath string
}

// Open opens the store b names, closed when the test ends.
func (b Backend) Open(t testing.TB) store.Store {
	t.Helper()
	var s store.Store
	var err error
	if b.Postgres {
		dsn := b.DSN
		if dsn == "" {
			dsn = pgtest.NewDatabase(t)
		}
		s, err = postgres.Open(context.Background(), dsn)
	} else {
		path := b.SQLitePath
		if path == "" {
			path = filepath.Join(t.TempDir(), "gozie.db")
		}
		s, err = sqlite.Open(context.Background(), path)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// LogOut is where the engines of a test log: stderr with GOZIE_TEST_LOG
// set, else nowhere.
func LogOut() io.Writer {
	if os.Getenv("GOZIE_TEST_LOG") != "" {
		return os.Stderr
	}
	return io.Discard
}

// LocalFS opens the local filesystem (file:///) as gozie's filesystems,
// closed when the test ends.
func LocalFS(t testing.TB) *hadoop.Resolver {
	t.Helper()
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	return res
}
