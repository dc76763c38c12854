package jobsbench

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// fixtureVersion is part of the template name: bump it whenever the rows Seed writes
// change, so that a server holding the old template seeds a new one.
const fixtureVersion = 2

// Database names: the seeded template, a template being built, a caller's copy.
const (
	templatePrefix = "gozie_rb_"
	buildPrefix    = "gozie_rbbuild_"
	copyPrefix     = "gozie_rbcopy_"
)

var dbCounter atomic.Int64

// TemplateName is the name of the database that caches the fixture of spec: the spec's
// sizes, then a hash of the fixture version and every PostgreSQL schema migration, so
// that a change of the schema or of the rows seeds a new template instead of
// benchmarking a stale one.
func TemplateName(spec Spec) (string, error) {
	ms, err := postgres.Migrations()
	if err != nil {
		return "", fmt.Errorf("jobsbench: reading the migrations: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "fixture %d\n", fixtureVersion)
	for _, m := range ms {
		fmt.Fprintf(h, "%d %s %d\n%s\n", m.Version, m.Name, len(m.SQL), m.SQL)
	}
	return specPrefix(spec) + hex.EncodeToString(h.Sum(nil))[:12], nil
}

// specPrefix is the part of a template name that names spec.
func specPrefix(spec Spec) string {
	return fmt.Sprintf("%s%dx%dw%du%d_", templatePrefix, spec.Coordinators, spec.ActionsPerCoordinator,
		spec.WorkflowsPerCoordinator, spec.Users)
}

// Database returns the URL of a new database holding the fixture of spec on the server
// named by GOZIE_TEST_POSTGRES (without it the caller skips, or fails under CI, as with
// pgtest). The first call on a server seeds a template database (TemplateName) and drops
// the templates of the same spec but another schema or fixture version that nobody uses;
// every call then gets a file copy of the template, dropped when tb ends, so that what a
// benchmark writes never reaches the next one.
func Database(tb testing.TB, spec Spec) string {
	tb.Helper()
	base := pgtest.URL(tb)
	baseURL, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("jobsbench: %s: %v", pgtest.EnvVar, err)
	}
	name, err := TemplateName(spec)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	admin, err := sql.Open("postgres", base)
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close()
	var exists bool
	if err := admin.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		tb.Fatalf("jobsbench: looking for template %s: %v", name, err)
	}
	if !exists {
		start := time.Now()
		if err := buildTemplate(ctx, admin, baseURL, name, spec); err != nil {
			tb.Fatal(err)
		}
		tb.Logf("jobsbench: seeded template %s (%d coordinator actions) in %v", name, spec.Actions(),
			time.Since(start).Round(time.Second))
		dropStaleTemplates(ctx, admin, specPrefix(spec), name)
	}
	cp := fmt.Sprintf("%s%d_%d", copyPrefix, os.Getpid(), dbCounter.Add(1))
	start := time.Now()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+cp+" TEMPLATE "+name+copyStrategy(ctx, admin)); err != nil {
		tb.Fatalf("jobsbench: copying template %s: %v", name, err)
	}
	tb.Logf("jobsbench: copied template %s in %v", name, time.Since(start).Round(time.Millisecond))
	tb.Cleanup(func() { dropDatabase(base, cp) })
	return databaseURL(baseURL, cp)
}

// buildTemplate seeds a database under a private name and renames it to name, so that a
// template is never seen half-seeded; when another process won the race, its template
// is kept and ours dropped.
func buildTemplate(ctx context.Context, admin *sql.DB, base *url.URL, name string, spec Spec) error {
	build := fmt.Sprintf("%s%d_%d", buildPrefix, os.Getpid(), dbCounter.Add(1))
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+build); err != nil {
		return fmt.Errorf("jobsbench: creating %s: %w", build, err)
	}
	if err := Seed(ctx, databaseURL(base, build), spec); err != nil {
		dropDatabase(base.String(), build)
		return fmt.Errorf("jobsbench: seeding %s: %w", build, err)
	}
	if _, err := admin.ExecContext(ctx, "ALTER DATABASE "+build+" RENAME TO "+name); err != nil {
		dropDatabase(base.String(), build)
		var pe *pq.Error
		if errors.As(err, &pe) && pe.Code == "42P04" { // duplicate_database: another process was first
			return nil
		}
		return fmt.Errorf("jobsbench: publishing template %s: %w", name, err)
	}
	return nil
}

// dropStaleTemplates drops the templates named with prefix (those of one spec) other than
// keep: those of older schemas or fixture versions. One in use is kept (DROP fails on it);
// the rest is best effort, as the server is a throwaway one.
func dropStaleTemplates(ctx context.Context, admin *sql.DB, prefix, keep string) {
	rows, err := admin.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname <> $1 AND starts_with(datname, $2)`,
		keep, prefix)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			stale = append(stale, n)
		}
	}
	rows.Close()
	for _, n := range stale {
		_, _ = admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+pq.QuoteIdentifier(n))
	}
}

// copyStrategy makes PostgreSQL 15 and later copy the template's files instead of
// writing every block through the WAL, which for a database of gigabytes is several
// times faster.
func copyStrategy(ctx context.Context, admin *sql.DB) string {
	var v int
	if err := admin.QueryRowContext(ctx, `SELECT current_setting('server_version_num')::int`).Scan(&v); err == nil && v >= 150000 {
		return " STRATEGY FILE_COPY"
	}
	return ""
}

// dropDatabase drops name, disconnecting whoever still uses it.
func dropDatabase(base, name string) {
	db, err := sql.Open("postgres", base)
	if err != nil {
		return
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
}

// databaseURL is base with its database replaced by name.
func databaseURL(base *url.URL, name string) string {
	u := *base
	u.Path = "/" + name
	return u.String()
}
