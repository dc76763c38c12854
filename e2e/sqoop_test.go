package e2e

import (
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/yarn"
)

// skipOozieSqoop is why Oozie's own sqoop examples are not run: they
// import from an HSQLDB file database shipped with the app, which only a
// JVM with HSQLDB's engine can read; gozie's examples of the same form read
// PostgreSQL instead.
const skipOozieSqoop = "Oozie's sqoop examples read an HSQLDB file database (jdbc:hsqldb:file:db.hsqldb); " +
	"the stand-in sqoop reads PostgreSQL only, so gozie's own examples of the same form run instead (README.md)"

// sqoopDatabase creates a fresh PostgreSQL database with the examples'
// table (db.sql of the app) and returns the job properties that point the
// examples at it.
func sqoopDatabase(t *testing.T, app string) []string {
	t.Helper()
	dsn := pgtest.NewDatabase(t)
	script, err := os.ReadFile(filepath.Join(app, "db.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatalf("db.sql: %v", err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return []string{"jdbcURL=jdbc:postgresql://" + u.Host + u.Path + "?" + u.RawQuery, "dbUser=" + u.User.Username()}
}

// sqoopJobs returns the MAPREDUCE applications of the cluster.
func (e *env) sqoopJobs(t *testing.T) []yarn.AppReport {
	t.Helper()
	var out []yarn.AppReport
	for _, r := range e.yarnApps(t) {
		if r.ApplicationType == "MAPREDUCE" {
			out = append(out, r)
		}
	}
	return out
}

// TestSqoopExamplesImportFromPostgreSQL runs gozie's sqoop examples (the
// <command> form and the free-form query of <arg>s) against a PostgreSQL
// table: the launcher runs the cluster's sqoop, whose MapReduce job reads
// the rows; the action then shows that job as its external id, and the
// rows are on the DFS.
func TestSqoopExamplesImportFromPostgreSQL(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		if testapps.Source(apps) == testapps.Oozie {
			t.Skip(skipOozieSqoop)
		}
		t.Parallel()
		for _, name := range []string{"sqoop", "sqoop-freeform"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				src := filepath.Join(apps, name)
				props := sqoopDatabase(t, src)
				e := exampleServer(t, apps)
				node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "sqoop")
				app := e.copyApp(t, src, name)
				id := e.run(t, filepath.Join(app, "job.properties"), props...)
				status, info := e.waitJob(t, id, 2*time.Minute)
				if status != "SUCCEEDED" {
					t.Fatalf("%s example ended %s:\n%s", name, status, info)
				}
				jobs := e.sqoopJobs(t)
				if len(jobs) != 1 || !jobs[0].Succeeded() {
					t.Fatalf("want one succeeded MapReduce job, have %+v", jobs)
				}
				a := e.jobInfo(t, id).action(t, node.Name)
				if a.ExternalID != jobs[0].ID.String() || a.ExternalStatus != "SUCCEEDED" {
					t.Errorf("action external id %s (%s), want the job's application %s", a.ExternalID, a.ExternalStatus, jobs[0].ID)
				}
				out := "user/" + e.user + "/examples/output-data/" + name
				if got, want := e.readData(t, out), "1,a\n2,a\n3,a\n"; got != want {
					t.Errorf("imported %q, want %q", got, want)
				}
			})
		}
	})
}

// TestSqoopFailedJobTakesErrorTransition: a free-form query that fails
// only when its rows are read (a division by zero) passes Sqoop's checks
// and fails the MapReduce job; the action ends in ERROR with that job as
// its external id and the database's error in wf:errorMessage, and the
// workflow takes the error transition to its kill node.
func TestSqoopFailedJobTakesErrorTransition(t *testing.T) {
	t.Parallel()
	src := testapps.App(t, "sqoop-freeform")
	props := sqoopDatabase(t, src)
	e := localServer(t)
	app := e.copyApp(t, src, "sqoop-freeform")
	id := e.run(t, filepath.Join(app, "job.properties"),
		append(props, "query=select I, 10 / (I - 2) from TT where $CONDITIONS")...)
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "KILLED" {
		t.Fatalf("job ended %s, want KILLED through the error transition:\n%s", status, info)
	}
	jobs := e.sqoopJobs(t)
	if len(jobs) != 1 || jobs[0].FinalStatus != yarn.FinalFailed {
		t.Fatalf("want one failed MapReduce job, have %+v", jobs)
	}
	j := e.jobInfo(t, id)
	a := j.action(t, "import-query")
	if a.Status != "ERROR" || a.ExternalID != jobs[0].ID.String() || !strings.Contains(a.ErrorMessage, "division by zero") {
		t.Errorf("action %s, external id %s, error %s %q; want ERROR on %s with the database's error",
			a.Status, a.ExternalID, a.ErrorCode, a.ErrorMessage, jobs[0].ID)
	}
	if k := j.action(t, "import-failed"); !strings.Contains(k.ErrorMessage, "division by zero") {
		t.Errorf("kill node message %q, want wf:errorMessage with the database's error", k.ErrorMessage)
	}
}

// TestKillSqoopWorkflowKillsItsJob: killing a workflow while Sqoop's job
// reads (a query that sleeps in the database) kills the job, found by the
// action's child tag.
func TestKillSqoopWorkflowKillsItsJob(t *testing.T) {
	t.Parallel()
	src := testapps.App(t, "sqoop-freeform")
	props := sqoopDatabase(t, src)
	e := localServer(t)
	app := e.copyApp(t, src, "sqoop-freeform")
	id := e.run(t, filepath.Join(app, "job.properties"),
		append(props, "query=select I, pg_sleep(120) from TT where $CONDITIONS")...)
	e.killWhileJobRuns(t, id)
}
