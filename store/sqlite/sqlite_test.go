package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/internal/sqlstore"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "gozie.db")
		return func(t *testing.T) store.Store {
			s, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	})
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gozie.db")
	ms, err := sqlite.Migrations()
	if err != nil || len(ms) == 0 {
		t.Fatalf("migrations: %v (%d)", err, len(ms))
	}
	for i := 0; i < 2; i++ { // up from empty, then a no-op
		s, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		v, err := sqlstore.SchemaVersion(ctx, s.SQL())
		if err != nil || v != len(ms) {
			t.Fatalf("open %d: schema version %d (%v), want %d", i, v, err, len(ms))
		}
		var n int
		if err := s.SQL().QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
			t.Fatalf("open %d: %d migration rows (%v)", i, n, err)
		}
		s.Close()
	}
}

// TestMigrationKeepsJudgedSLAEvents: the events of a database from before
// migration 0002 get the status and times they were judged with.
func TestMigrationKeepsJudgedSLAEvents(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gozie.db")
	ms, err := sqlite.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.SLAEventsMigration(t, db, ms, func(t time.Time) any { return t.UnixMilli() }, func() store.Store {
		db.Close()
		s, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) store.Store {
		s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "gozie.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	})
}
