// Package pgtest gives tests a fresh PostgreSQL database on the throwaway
// server that `make test` starts (scripts/test-services.sh), named by the
// GOZIE_TEST_POSTGRES environment variable. Without it the tests skip, except
// under CI, where a missing server is a failure: the PostgreSQL tests must run.
package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testreq"
	_ "github.com/lib/pq" // the driver under test
)

// EnvVar names the server's URL.
const EnvVar = "GOZIE_TEST_POSTGRES"

var counter atomic.Int64

// URL returns the server URL, skipping (or failing under CI) without one.
func URL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(EnvVar)
	if u == "" {
		testreq.Missing(tb, "PostgreSQL", EnvVar+" is not set; make test starts a throwaway server and sets it")
	}
	return u
}

// NewDatabase creates an empty database for this test, dropped when the test
// ends, and returns its URL.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	base := URL(tb)
	admin, err := sql.Open("postgres", base)
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("gozie_t%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, counter.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("creating test database: %v", err)
	}
	tb.Cleanup(func() {
		db, err := sql.Open("postgres", base)
		if err != nil {
			return
		}
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + strings.TrimPrefix(name, "/")
	return u.String()
}

// Analyze gathers the planner's statistics of every table of the database
// at dsn, as autovacuum does within a minute of a table's first rows. A
// benchmark that fills a fresh database and measures at once calls it:
// without statistics PostgreSQL plans as if each table were nearly empty
// (a sort of every due trigger instead of a walk of the index, say),
// which no running server sees for more than that minute.
func Analyze(tb testing.TB, dsn string) {
	tb.Helper()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
		tb.Fatalf("analyzing the test database: %v", err)
	}
}
