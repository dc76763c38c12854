package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
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

// TestOtherServersWakeAfterCommit: a transaction that makes work due wakes
// another server on the same database once it has committed (the NOTIFY
// sent after it), and one that rolls back wakes nobody.
func TestOtherServersWakeAfterCommit(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	open := func() *postgres.Store {
		s, err := postgres.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	drain := func() {
		for {
			select {
			case <-b.Wakeups():
			default:
				return
			}
		}
	}
	drain()
	due := time.Now()
	rolledBack := errors.New("rolled back")
	err := a.Tx(ctx, func(x store.Tx) error {
		if err := x.Schedule(ctx, "test-kind", "e1", due, ""); err != nil {
			return err
		}
		return rolledBack
	})
	if !errors.Is(err, rolledBack) {
		t.Fatal(err)
	}
	if err := a.Tx(ctx, func(x store.Tx) error { return x.Schedule(ctx, "test-kind", "e2", due, "") }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Wakeups():
	case <-time.After(10 * time.Second):
		t.Fatal("the other server was not woken by a committed schedule")
	}
	// Only the committed trigger is there to be found.
	var ts []store.Trigger
	if err := b.Tx(ctx, func(x store.Tx) (err error) { ts, err = x.ListTriggers(ctx, false, 10); return err }); err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].EntityID != "e2" {
		t.Fatalf("triggers %+v, want only e2", ts)
	}
}

// TestLostPreparedStatements: when the session loses its prepared
// statements (a pooler in transaction mode hands the transaction another
// server connection), the statement fails once as a conflict, to be run
// again, and the store runs its statements unprepared from then on.
func TestLostPreparedStatements(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db := s.SQL()
	db.SetMaxOpenConns(1) // one session, which the test can look into
	get := func() error {
		return s.Tx(ctx, func(x store.Tx) error { _, err := x.GetWorkflowJob(ctx, "0000000-000000000000000-gozie-W"); return err })
	}
	prepared := func() int {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_prepared_statements`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	testwait.WaitFor(t, 10*time.Second, "the lookup to be prepared", func() bool {
		if err := get(); !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return prepared() > 0
	})
	if _, err := db.ExecContext(ctx, `DEALLOCATE ALL`); err != nil {
		t.Fatal(err)
	}
	if err := get(); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("lookup after the session lost its statements: %v, want a conflict", err)
	}
	for range 5 {
		if err := get(); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("lookup run again: %v, want not found", err)
		}
	}
	if n := prepared(); n != 0 {
		t.Fatalf("%d statements prepared again, want none", n)
	}
}

// TestLargeColumnsUseLZ4: on a server with LZ4, the configurations and
// definitions written after migration 0006 are compressed with it; on one
// without, the migration leaves the default and still applies.
func TestLargeColumnsUseLZ4(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var lz4 bool
	if err := s.SQL().QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_settings
		WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals))`).Scan(&lz4); err != nil {
		t.Fatal(err)
	}
	want := "pglz"
	if lz4 {
		want = "lz4"
	}
	var conf strings.Builder
	for i := range 200 {
		fmt.Fprintf(&conf, "<property><name>p%d</name><value>v</value></property>", i)
	}
	if _, err := s.SQL().Exec(`INSERT INTO coord_jobs (id, status, created_time, version) VALUES ('j', 'RUNNING', now(), 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SQL().Exec(`INSERT INTO coord_actions (id, job_id, action_number, status, nominal_time,
		created_conf, run_conf, created_time, version) VALUES ('a', 'j', 1, 'WAITING', now(), $1, $1 || '', now(), 1)`, conf.String()); err != nil {
		t.Fatal(err)
	}
	var created, run string
	if err := s.SQL().QueryRow(`SELECT pg_column_compression(created_conf), pg_column_compression(run_conf)
		FROM coord_actions WHERE id = 'a'`).Scan(&created, &run); err != nil {
		t.Fatal(err)
	}
	if created != want || run != want {
		t.Fatalf("configurations compressed with %s and %s, want %s", created, run, want)
	}
}

// TestPoolKeepsItsConnections: connections released after a burst of
// concurrent transactions stay open for the next burst instead of being
// closed and opened again.
func TestPoolKeepsItsConnections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Every transaction of a burst holds its connection until all have
	// begun, so a burst needs n connections at once (the notifier holds one
	// more of the pool's).
	n := postgres.PoolSize - 4
	burst := func() {
		var began, wg sync.WaitGroup
		began.Add(n)
		errs := make(chan error, n)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.Tx(ctx, func(x store.Tx) error {
					began.Done()
					began.Wait()
					_, err := x.GetWorkflowJob(ctx, "none")
					if errors.Is(err, store.ErrNotFound) {
						return nil
					}
					return err
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	burst()
	before := s.SQL().Stats()
	burst()
	after := s.SQL().Stats()
	if after.MaxIdleClosed != 0 || after.OpenConnections < n {
		t.Errorf("after two bursts of %d transactions: %d connections closed for the idle cap, %d open; want none closed, %d or more open",
			n, after.MaxIdleClosed, after.OpenConnections, n)
	}
	if opened := after.OpenConnections - before.OpenConnections + int(after.MaxIdleClosed-before.MaxIdleClosed); opened > 0 {
		t.Errorf("the second burst opened %d connections", opened)
	}
}
