package postgres_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/internal/sqlstore"
	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		dsn := pgtest.NewDatabase(t)
		return func(t *testing.T) store.Store {
			s, err := postgres.Open(context.Background(), dsn)
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
	dsn := pgtest.NewDatabase(t)
	ms, err := postgres.Migrations()
	if err != nil || len(ms) == 0 {
		t.Fatalf("migrations: %v (%d)", err, len(ms))
	}
	// Servers starting together migrate once between them.
	errs := make(chan error, 3)
	stores := make(chan *postgres.Store, 3)
	for i := 0; i < 3; i++ {
		go func() {
			s, err := postgres.Open(ctx, dsn)
			errs <- err
			stores <- s
		}()
	}
	for i := 0; i < 3; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		s := <-stores
		defer s.Close()
	}
	s, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v, err := sqlstore.SchemaVersion(ctx, s.SQL())
	if err != nil || v != len(ms) {
		t.Fatalf("schema version %d (%v), want %d", v, err, len(ms))
	}
	var n int
	if err := s.SQL().QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
		t.Fatalf("%d migration rows (%v)", n, err)
	}
}

// TestMigrationKeepsJudgedSLAEvents: the events of a database from before
// migration 0002 get the status and times they were judged with.
func TestMigrationKeepsJudgedSLAEvents(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	ms, err := postgres.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.SLAEventsMigration(t, db, ms, func(t time.Time) any { return t }, func() store.Store {
		s, err := postgres.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, func(b *testing.B) store.Store {
		s, err := postgres.Open(context.Background(), pgtest.NewDatabase(b))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	})
}
