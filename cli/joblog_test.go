package cli

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// TestJobLogFilter: `job -log` and `-errorlog` pass -logfilter (and
// -timezone) to the server and print what it sends.
func TestJobLogFilter(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id := runInfoScenario(t, f) // mkdir failed at Epoch+90s, then the job was killed
	replace := map[string]string{id: "${ID}", f.fsApp: "${APP}"}
	golden(t, "job_log", f.mustRun(t, "job", "-log", id), replace)
	golden(t, "job_log_filter", f.mustRun(t, "job", "-log", id, "-logfilter", "start=1m;loglevel=INFO"), replace)
	golden(t, "job_log_filter_tz", f.mustRun(t, "job", "-log", id, "-logfilter", "debug;text=node [mkdir];limit=2",
		"-timezone", "America/Los_Angeles"), replace)
	golden(t, "job_errorlog_filter", f.mustRun(t, "job", "-errorlog", id, "-logfilter", "recent=1m;text=JA018"), replace)

	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-log", id, "-logfilter", "limit=none"},
			"Error: E0303 : E0303: Invalid parameter value, [logfilter] = [limit=none], limit [none]: want a positive number of lines\n"},
		{[]string{"-errorlog", id, "-logfilter", "loglevel=LOUD"},
			"Error: E0303 : E0303: Invalid parameter value, [logfilter] = [loglevel=LOUD], loglevel [LOUD]: " +
				"want levels among ALL, TRACE, DEBUG, INFO, WARN, ERROR, FATAL separated by |\n"},
		{[]string{"-log", id, "-action", "1"},
			"Error: Invalid options provided for log retrieval. action and date are valid only for coordinator job log retrieval\n"},
	} {
		if _, stderr, code := f.run(t, append([]string{"job"}, tc.args...)...); code == 0 || stderr != tc.stderr {
			t.Errorf("job %v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.stderr)
		}
	}
}

// TestCoordinatorLogScope: `job -log C -action ...` and `-date ...` narrow a
// coordinator's log to those actions, together with -logfilter.
func TestCoordinatorLogScope(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id := insertCoordinatorRows(t, f)
	replace := map[string]string{id: "${ID}"}
	golden(t, "coord_log_action", f.mustRun(t, "job", "-log", id, "-action", "2-3", "-logfilter", "loglevel=INFO"), replace)
	golden(t, "coord_log_date", f.mustRun(t, "job", "-log", id, "-date", "2025-01-27T02:00Z"), replace)
	golden(t, "coord_errorlog_action", f.mustRun(t, "job", "-errorlog", id, "-action", "1-2"), replace)
	_, stderr, code := f.run(t, "job", "-log", id, "-action", "1", "-date", "2025-01-27T01:00Z")
	if want := "Error: Invalid options provided for log retrieval: either -date or -action expected. Don't use both at the same time.\n"; code == 0 || stderr != want {
		t.Errorf("-log with -action and -date: exit %d, stderr %q", code, stderr)
	}
}

// insertCoordinatorRows writes a running coordinator with three hourly
// actions straight into the store (as the coordinator engine would leave
// them: one succeeded, one failed, one waits) and returns its id.
func insertCoordinatorRows(t *testing.T, f *cliFixture) string {
	t.Helper()
	const id = "0000801-250127091857123-gozie-test-C"
	at := func(minutes int) time.Time { return jobstest.Epoch.Add(time.Duration(minutes) * time.Minute) }
	ctx := context.Background()
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		job := store.CoordJob{ID: id, AppName: "hourly", AppPath: "file:///apps/hourly", User: "joe", Status: store.JobRunning,
			Frequency: "60", TimeUnit: "MINUTE", ExecutionOrder: "FIFO", StartTime: at(0), EndTime: at(600),
			CreatedTime: at(0), LastModified: at(30)}
		if err := x.InsertCoordJob(ctx, &job); err != nil {
			return err
		}
		for _, a := range []store.CoordAction{
			{ActionNumber: 1, Status: store.CoordActionSucceeded, ExternalID: "0000802-250127091857123-gozie-test-W", LastModified: at(20)},
			{ActionNumber: 2, Status: store.CoordActionFailed, ExternalID: "0000803-250127091857123-gozie-test-W", LastModified: at(25)},
			{ActionNumber: 3, Status: store.CoordActionWaiting, MissingDependencies: "file:///data/3/_SUCCESS", LastModified: at(15)},
		} {
			a.ID, a.JobID = fmt.Sprintf("%s@%d", id, a.ActionNumber), id
			a.NominalTime = time.Date(2025, 1, 27, a.ActionNumber-1, 0, 0, 0, time.UTC)
			a.CreatedTime = at(5 * (a.ActionNumber - 1))
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}
