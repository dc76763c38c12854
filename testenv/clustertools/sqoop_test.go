package clustertools_test

import (
	"context"
	"database/sql"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/yarn"
)

// sqoopDB creates a fresh PostgreSQL database holding table tt (primary
// key i) and table nokey (no primary key), and returns its JDBC URL, user
// and lib/pq URL. Without GOZIE_TEST_POSTGRES the test skips (fails under
// CI).
func sqoopDB(t *testing.T) (jdbcURL, user, dsn string) {
	t.Helper()
	dsn = pgtest.NewDatabase(t)
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{
		`CREATE TABLE tt (i INTEGER NOT NULL PRIMARY KEY, s VARCHAR(256), d DATE, b BOOLEAN)`,
		`INSERT INTO tt VALUES (1, 'a', '2024-03-01', true), (2, NULL, NULL, false), (3, 'c', '2024-03-03', NULL), (4, 'd', NULL, true)`,
		`CREATE TABLE nokey (x INTEGER)`,
		`INSERT INTO nokey VALUES (7)`,
	} {
		if _, err := db.ExecContext(ctxT(t), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return "jdbc:postgresql://" + u.Host + u.Path + "?" + u.RawQuery, u.User.Username(), dsn
}

// sqoopJob returns the MAPREDUCE application carrying tag.
func (e *env) sqoopJob(t *testing.T, tag string) yarn.AppReport {
	t.Helper()
	for _, r := range e.c.YARN.Apps() {
		if r.ApplicationType == "MAPREDUCE" && slices.Contains(r.Tags, tag) {
			return e.waitApp(t, r.ID)
		}
	}
	t.Fatalf("no MAPREDUCE application tagged %s: %+v", tag, e.c.YARN.Apps())
	return yarn.AppReport{}
}

// TestSqoopImportsTable: `sqoop import --table` reads the table's rows in
// a MapReduce job tagged as the configuration says, one part file per
// split of the primary key, as comma-separated text with Sqoop's forms of
// NULL, dates and booleans.
func TestSqoopImportsTable(t *testing.T) {
	t.Parallel()
	jdbc, user, _ := sqoopDB(t)
	e := setup(t)
	r := e.run(t, ctxT(t), "sqoop", "import", "-D", "mapreduce.job.tags=oozie-child-tag",
		"--connect", jdbc, "--username", user, "--table", "tt", "--target-dir", "/user/alice/out/tt", "-m", "2")
	if r.code != 0 {
		t.Fatalf("sqoop import: exit %d\n%s", r.code, r.stderr)
	}
	job := e.sqoopJob(t, "oozie-child-tag")
	if !job.Succeeded() || !strings.Contains(r.stderr, "Submitted application "+job.ID.String()) {
		t.Fatalf("job %+v; sqoop's output:\n%s", job, r.stderr)
	}
	got := e.read(t, "/user/alice/out/tt/part-m-00000") + e.read(t, "/user/alice/out/tt/part-m-00001")
	want := "1,a,2024-03-01,true\n2,null,null,false\n3,c,2024-03-03,null\n4,d,null,true\n"
	if got != want {
		t.Errorf("imported %q, want %q", got, want)
	}
	if e.read(t, "/user/alice/out/tt/_SUCCESS") != "" {
		t.Error("_SUCCESS is not empty")
	}
}

// TestSqoopImportsFreeFormQuery: a free-form query runs with $CONDITIONS
// replaced, its columns in the query's order.
func TestSqoopImportsFreeFormQuery(t *testing.T) {
	t.Parallel()
	jdbc, user, _ := sqoopDB(t)
	e := setup(t)
	r := e.run(t, ctxT(t), "sqoop", "import", "--connect", jdbc, "--username", user, "--password", "",
		"--query", "select tt.s, tt.i from tt where tt.i > 1 and $CONDITIONS", "--target-dir", "out/q",
		"-m", "1", "--fields-terminated-by", `\t`)
	if r.code != 0 {
		t.Fatalf("sqoop import: exit %d\n%s", r.code, r.stderr)
	}
	if got, want := e.read(t, "/user/alice/out/q/part-m-00000"), "null\t2\nc\t3\nd\t4\n"; got != want {
		t.Errorf("imported %q, want %q", got, want)
	}
}

// TestSqoopRefuses: what Sqoop refuses, the stand-in refuses with Sqoop's
// message, before any job is submitted.
func TestSqoopRefuses(t *testing.T) {
	t.Parallel()
	jdbc, user, _ := sqoopDB(t)
	e := setup(t)
	e.put(t, "/user/alice/exists/part-m-00000", "old\n")
	base := []string{"sqoop", "import", "--connect", jdbc, "--username", user}
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"unknown tool", []string{"sqoop", "imprt", "--connect", jdbc}, "No such sqoop tool: imprt. See 'sqoop help'."},
		{"query without $CONDITIONS", append(slices.Clone(base), "--query", "select * from tt", "--target-dir", "q", "-m", "1"),
			"Query [select * from tt] must contain '$CONDITIONS' in WHERE clause."},
		{"existing target dir", append(slices.Clone(base), "--table", "tt", "--target-dir", "/user/alice/exists", "-m", "1"),
			"/user/alice/exists already exists"},
		{"no connect string", []string{"sqoop", "import", "--table", "tt"}, "Error: Required argument --connect is missing."},
		{"table and query", append(slices.Clone(base), "--table", "tt", "--query", "select 1 where $CONDITIONS", "--target-dir", "q"),
			"Cannot specify --query and --table together."},
		{"query without target dir", append(slices.Clone(base), "--query", "select 1 where $CONDITIONS", "-m", "1"),
			"Must specify destination with --target-dir."},
		{"parallel query without split-by", append(slices.Clone(base), "--query", "select 1 where $CONDITIONS", "--target-dir", "q"),
			"When importing query results in parallel, you must specify --split-by."},
		{"no primary key", append(slices.Clone(base), "--table", "nokey", "--target-dir", "nk"),
			"No primary key could be found for table nokey. Please specify one with --split-by or perform a sequential import with '-m 1'."},
		{"unknown option", append(slices.Clone(base), "--table", "tt", "--frobnicate", "x"), "Unrecognized argument: --frobnicate"},
		{"unknown table", append(slices.Clone(base), "--table", "missing", "-m", "1"), `relation "missing" does not exist`},
		{"HSQLDB", []string{"sqoop", "import", "--connect", "jdbc:hsqldb:file:db.hsqldb", "--table", "TT", "-m", "1"}, "no HSQLDB engine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run(t, ctxT(t), tt.args...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.msg) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", r.code, r.stderr, tt.msg)
			}
		})
	}
	for _, r := range e.c.YARN.Apps() {
		if r.ApplicationType == "MAPREDUCE" {
			t.Errorf("a refused import submitted %s", r.ID)
		}
	}
	if got := e.read(t, "/user/alice/exists/part-m-00000"); got != "old\n" {
		t.Errorf("the existing target dir was changed: %q", got)
	}
}

// TestSqoopFailedJob: a query that fails only when its rows are read (a
// division by zero in row 3) passes Sqoop's checks; the job's map task
// fails it with the database's error as diagnostics, and sqoop fails.
func TestSqoopFailedJob(t *testing.T) {
	t.Parallel()
	jdbc, user, _ := sqoopDB(t)
	e := setup(t)
	r := e.run(t, ctxT(t), "sqoop", "import", "-conf", jobFile(t, "mapreduce.job.tags", "fail-tag"),
		"--connect", jdbc, "--username", user, "--query", "select i, 10 / (i - 3) from tt where $CONDITIONS",
		"--target-dir", "out/fail", "-m", "1")
	if r.code != 1 || !strings.Contains(r.stderr, "Import failed: org.apache.sqoop.util.ImportException: Import job failed!") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	job := e.sqoopJob(t, "fail-tag")
	if job.FinalStatus != yarn.FinalFailed || !strings.Contains(job.Diagnostics, "division by zero") {
		t.Errorf("job %s ended %s/%s: %q, want FAILED with the database's error", job.ID, job.State, job.FinalStatus, job.Diagnostics)
	}
	if _, err := e.c.FS.Stat(context.Background(), e.c.DFS.URI()+"/user/alice/out/fail/_SUCCESS"); err == nil {
		t.Error("a failed job committed _SUCCESS")
	}
}

// TestSqoopExport: `sqoop export` inserts the export directory's records
// into the table through a tagged MapReduce job ("null" is NULL); a record
// with a wrong number of fields fails the job and rolls its file back; a
// missing export directory or table is refused before any job.
func TestSqoopExport(t *testing.T) {
	t.Parallel()
	jdbc, user, dsn := sqoopDB(t)
	e := setup(t)
	e.put(t, "/user/alice/export/good/part-m-00000", "5|e|2024-05-05|true\n6|null|null|false\n")
	e.put(t, "/user/alice/export/bad/part-m-00000", "7|g|2024-05-07|true\n8|h\n")
	base := []string{"sqoop", "export", "--connect", jdbc, "--username", user, "--table", "tt",
		"--input-fields-terminated-by", "|", "-m", "1"}
	// -D goes before the tool's options, as Hadoop's generic options must.
	r := e.run(t, ctxT(t), append([]string{"sqoop", "export", "-D", "mapreduce.job.tags=export-tag"}, append(base[2:], "--export-dir", "export/good")...)...)
	if r.code != 0 {
		t.Fatalf("sqoop export: exit %d\n%s", r.code, r.stderr)
	}
	if job := e.sqoopJob(t, "export-tag"); !job.Succeeded() {
		t.Errorf("export job %+v", job)
	}
	r = e.run(t, ctxT(t), append([]string{"sqoop", "export", "-D", "mapreduce.job.tags=bad-tag"}, append(base[2:], "--export-dir", "export/bad")...)...)
	if r.code != 1 || !strings.Contains(r.stderr, "Export job failed!") {
		t.Fatalf("bad export: exit %d\n%s", r.code, r.stderr)
	}
	if job := e.sqoopJob(t, "bad-tag"); !strings.Contains(job.Diagnostics, "Can't parse input data: '8|h'") {
		t.Errorf("bad export job diagnostics %q", job.Diagnostics)
	}
	for _, tt := range []struct{ args []string }{
		{append(slices.Clone(base), "--export-dir", "export/missing")},
		{append(slices.Clone(base), "--export-dir", "export/good", "-D", "x=y")}, // a generic option after the tool's
		{[]string{"sqoop", "export", "--connect", jdbc, "--table", "tt"}},
	} {
		if r := e.run(t, ctxT(t), tt.args...); r.code != 1 {
			t.Errorf("%q: exit %d, want 1\n%s", tt.args, r.code, r.stderr)
		}
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got []string
	rows, err := db.QueryContext(ctxT(t), `SELECT i, coalesce(s, 'NULL'), coalesce(d::text, 'NULL') FROM tt WHERE i > 4 ORDER BY i`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var s, d string
		if err := rows.Scan(&i, &s, &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, strconv.Itoa(i)+","+s+","+d)
	}
	if want := []string{"5,e,2024-05-05", "6,NULL,NULL"}; !slices.Equal(got, want) {
		t.Errorf("exported rows %q, want %q (the bad file's rows rolled back)", got, want)
	}
}
