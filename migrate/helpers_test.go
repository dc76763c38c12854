package migrate

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/migrate/oozie"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/testenv/ooziedb"
)

var bg = context.Background()

// cutover is when the fixture's Oozie stopped.
var cutover = time.Date(2026, 3, 10, 10, 30, 0, 0, time.UTC)

// sourceKind is a database Oozie runs on, which the tests read from.
type sourceKind struct {
	name    string
	dialect *ooziedb.Dialect
	// newDB creates an empty database for the test and returns its URL
	// as -from takes it.
	newDB func(testing.TB) string
}

// sources are the databases every test of the package runs against.
var sources = []sourceKind{
	{"postgres", ooziedb.Postgres, pgtest.NewDatabase},
	{"mysql", ooziedb.MySQL, newMySQLDatabase},
}

// eachSource runs f as a parallel subtest for each source.
func eachSource(t *testing.T, f func(t *testing.T, src sourceKind)) {
	t.Helper()
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			f(t, src)
		})
	}
}

var mysqlCounter atomic.Int64

// newMySQLDatabase creates an empty database on the test MySQL/MariaDB
// server, dropped when the test ends, and returns its mysql:// URL.
func newMySQLDatabase(tb testing.TB) string {
	tb.Helper()
	base := testreq.MySQL(tb)
	src, err := parseSource(base)
	if err != nil {
		tb.Fatalf("%s: %v", testreq.MySQLEnv, err)
	}
	admin, err := sql.Open(src.driver, src.dsn)
	if err != nil {
		tb.Fatal(err)
	}
	name := fmt.Sprintf("oozie_t%d_%d", os.Getpid(), mysqlCounter.Add(1))
	if _, err := admin.ExecContext(bg, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		tb.Fatalf("creating test database: %v", err)
	}
	tb.Cleanup(func() {
		defer admin.Close()
		_, _ = admin.ExecContext(bg, "DROP DATABASE IF EXISTS "+name)
	})
	return strings.TrimSuffix(base, "/") + "/" + name
}

// oozieSource is a fixture database of Oozie's.
type oozieSource struct {
	url     string
	dialect *ooziedb.Dialect
	db      *sql.DB
	reader  *oozie.Reader
	fx      *ooziedb.Fixture
}

// newOozie creates Oozie's schema in a fresh database of src and loads the
// fixture, with datasets and apps under nn.
func newOozie(t *testing.T, src sourceKind, nn string) *oozieSource {
	t.Helper()
	url := src.newDB(t)
	s, err := parseSource(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open(s.driver, s.dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fx, err := ooziedb.Load(bg, db, ooziedb.Options{Now: cutover, NameNode: nn, Dialect: src.dialect})
	if err != nil {
		t.Fatal(err)
	}
	rdb, r, err := s.open(bg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	return &oozieSource{url: url, dialect: src.dialect, db: db, reader: r, fx: fx}
}

// plan reads and plans the source.
func (o *oozieSource) plan(t *testing.T, opts oozie.Options) []oozie.Unit {
	t.Helper()
	snap, err := o.reader.Read(bg)
	if err != nil {
		t.Fatal(err)
	}
	units, err := oozie.Plan(bg, snap, o.reader, opts)
	if err != nil {
		t.Fatal(err)
	}
	return units
}

func newStore(t *testing.T) store.Store {
	t.Helper()
	s, err := sqlite.Open(bg, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func fixedNow() time.Time { return cutover }

// since30d is the -since of the tests: 30 days before the cutover.
var since30d = oozie.Options{Since: cutover.AddDate(0, 0, -30)}

func unitByID(t *testing.T, units []oozie.Unit, id string) oozie.Unit {
	t.Helper()
	for _, u := range units {
		if u.ID == id {
			return u
		}
	}
	t.Fatalf("no unit %s", id)
	return oozie.Unit{}
}

func coordJob(t *testing.T, s store.Store, id string) store.CoordJob {
	t.Helper()
	var j store.CoordJob
	if err := s.Tx(bg, func(x store.Tx) (err error) { j, err = x.GetCoordJob(bg, id); return }); err != nil {
		t.Fatalf("coordinator %s: %v", id, err)
	}
	return j
}

func coordActions(t *testing.T, s store.Store, id string) []store.CoordAction {
	t.Helper()
	var as []store.CoordAction
	if err := s.Tx(bg, func(x store.Tx) (err error) {
		as, _, err = x.ListCoordActions(bg, store.CoordActionFilter{JobID: id})
		return
	}); err != nil {
		t.Fatal(err)
	}
	return as
}

// counts counts the rows of gozie's store a test compares between runs.
func counts(t *testing.T, s store.Store) [4]int {
	t.Helper()
	var c [4]int
	if err := s.Tx(bg, func(x store.Tx) error {
		_, n, err := x.ListCoordJobs(bg, store.JobFilter{})
		if err != nil {
			return err
		}
		c[0] = n
		if _, c[1], err = x.ListWorkflowJobs(bg, store.JobFilter{}); err != nil {
			return err
		}
		if _, c[2], err = x.ListBundleJobs(bg, store.JobFilter{}); err != nil {
			return err
		}
		slas, err := x.ListSLAs(bg, store.SLAFilter{})
		c[3] = len(slas)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return c
}

// digest is a digest of every row of Oozie's tables, to show that nothing
// changed them.
func (o *oozieSource) digest(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	for _, table := range ooziedb.TableNames() {
		rows, err := o.db.QueryContext(bg, "SELECT * FROM "+o.dialect.Table(table))
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%q", vals))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		sort.Strings(lines)
		fmt.Fprintf(h, "%s=%s;", table, strings.Join(lines, "|"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
