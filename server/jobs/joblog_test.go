package jobs

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// failedRun is a killed workflow run: one action failed after user retries,
// another is still running.
func failedRun() (store.WorkflowJob, []store.WorkflowAction) {
	t0 := time.Date(2025, 1, 27, 9, 0, 0, 0, time.UTC)
	job := store.WorkflowJob{
		ID: "0000004-250127091857123-gozie-test-W", AppName: "etl", AppPath: "hdfs://nn/apps/etl", User: "joe", Group: "eng",
		Status: store.WorkflowKilled, Run: 1, ErrorCode: "E0729", ErrorMessage: "load failed",
		CreatedTime: t0, StartTime: t0.Add(time.Minute), EndTime: t0.Add(10 * time.Minute), LastModified: t0.Add(10 * time.Minute),
	}
	acts := []store.WorkflowAction{
		{ID: job.ID + "@load", Name: "load", Type: "hive2", Status: store.ActionError, Transition: "fail",
			ExternalID: "hive-op-1", ConsoleURL: "http://hs2/op/1", ErrorCode: "JA018", ErrorMessage: "table not found",
			UserRetryCount: 2, UserRetryMax: 3, CreatedTime: t0.Add(time.Minute), StartTime: t0.Add(2 * time.Minute),
			EndTime: t0.Add(9 * time.Minute), LastModified: t0.Add(8 * time.Minute)},
		{ID: job.ID + "@report", Name: "report", Type: "shell", Status: store.ActionRunning, ExternalID: "application_1_2",
			ExternalStatus: "RUNNING", CreatedTime: t0.Add(3 * time.Minute), StartTime: t0.Add(3 * time.Minute),
			LastModified: t0.Add(4 * time.Minute)},
	}
	return job, acts
}

// failedRunLog is the whole log of failedRun, in GMT.
func failedRunLog() []string {
	job, _ := failedRun()
	p := "USER[joe] GROUP[eng] APP[etl] JOB[" + job.ID + "] ACTION["
	return []string{
		"2025-01-27 09:00:00,000 INFO  " + p + "-] workflow job submitted, app path [hdfs://nn/apps/etl]",
		"2025-01-27 09:01:00,000 INFO  " + p + "-] workflow job started, run [1]",
		"2025-01-27 09:02:00,000 INFO  " + p + job.ID + "@load] node [load] type [hive2] started, external id [hive-op-1], console [http://hs2/op/1]",
		"2025-01-27 09:03:00,000 INFO  " + p + job.ID + "@report] node [report] type [shell] started, external id [application_1_2]",
		"2025-01-27 09:04:00,000 INFO  " + p + job.ID + "@report] node [report] is [RUNNING], external status [RUNNING]",
		"2025-01-27 09:08:00,000 INFO  " + p + job.ID + "@load] node [load] user retry [2] of [3]",
		"2025-01-27 09:09:00,000 WARN  " + p + job.ID + "@load] node [load] ended with status [ERROR], transition [fail], error [JA018]: table not found",
		"2025-01-27 09:10:00,000 WARN  " + p + "-] workflow job ended with status [KILLED], error [E0729]: load failed",
	}
}

// render writes l narrowed by filter (times read and shown in GMT) and
// returns its lines.
func render(t *testing.T, l jobLog, filter string, levels []string, now time.Time) []string {
	t.Helper()
	f, err := parseLogFilter(filter, oozieapi.GMT)
	if err != nil {
		t.Fatalf("parseLogFilter(%q): %v", filter, err)
	}
	var b strings.Builder
	if err := l.write(&b, f, levels, now, oozieapi.GMT); err != nil {
		t.Fatal(err)
	}
	if b.Len() == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// pick returns the lines of all at the indexes.
func pick(all []string, indexes ...int) []string {
	var out []string
	for _, i := range indexes {
		out = append(out, all[i])
	}
	return out
}

func TestJobLogOfAFailedRun(t *testing.T) {
	t.Parallel()
	job, acts := failedRun()
	if got, want := render(t, workflowLog(&job, acts), "", nil, job.EndTime), failedRunLog(); !reflect.DeepEqual(got, want) {
		t.Errorf("log\n got %q\nwant %q", got, want)
	}
}

// TestWorkflowLogFilters: every logfilter option narrows show=log and
// show=errorlog of a finished workflow; offsets count from the job's start
// (09:01), recent from its end (09:10), not from now (a day later).
func TestWorkflowLogFilters(t *testing.T) {
	t.Parallel()
	job, acts := failedRun()
	all := failedRunLog()
	now := job.EndTime.Add(24 * time.Hour)
	for _, tc := range []struct {
		filter  string
		errors  bool // show=errorlog
		indexes []int
	}{
		{filter: "", indexes: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{filter: "loglevel=WARN", indexes: []int{6, 7}},
		{filter: "loglevel=INFO", indexes: []int{0, 1, 2, 3, 4, 5}},
		{filter: "loglevel=ERROR"},
		{filter: "loglevel=warn|INFO", indexes: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{filter: "loglevel=ALL", indexes: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{filter: "text=@load]", indexes: []int{2, 5, 6}},
		{filter: "text=node [report]", indexes: []int{3, 4}},
		{filter: "text=no such words"},
		{filter: "limit=3", indexes: []int{0, 1, 2}},
		{filter: "text=node;limit=2", indexes: []int{2, 3}},
		{filter: "start=2025-01-27T09:08Z", indexes: []int{5, 6, 7}},
		{filter: "start=2025-01-27 09:03:00", indexes: []int{3, 4, 5, 6, 7}},
		{filter: "end=2025-01-27 09:02:00,000", indexes: []int{0, 1, 2}},
		{filter: "start=2m", indexes: []int{3, 4, 5, 6, 7}},
		{filter: "start=1m;end=3m", indexes: []int{2, 3, 4}},
		{filter: "start=2025-01-27T09:02Z;end=1m", indexes: []int{2, 3}}, // end counts from the start's time
		{filter: "recent=2m", indexes: []int{5, 6, 7}},
		{filter: "recent=1h", indexes: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{filter: "recent=3m;end=5m", indexes: []int{3, 4}},
		{filter: "", errors: true, indexes: []int{6, 7}},
		{filter: "loglevel=INFO", errors: true},
		{filter: "loglevel=WARN|INFO;limit=1", errors: true, indexes: []int{6}},
		{filter: "text=KILLED", errors: true, indexes: []int{7}},
		{filter: "end=2025-01-27T09:09Z", errors: true, indexes: []int{6}},
	} {
		var levels []string
		if tc.errors {
			levels = errorLogLevels
		}
		if got, want := render(t, workflowLog(&job, acts), tc.filter, levels, now), pick(all, tc.indexes...); !reflect.DeepEqual(got, want) {
			t.Errorf("filter %q (errorlog %v)\n got %q\nwant %q", tc.filter, tc.errors, got, want)
		}
	}
}

// TestWorkflowLogRecentWhileRunning: recent counts back from now while the
// job runs.
func TestWorkflowLogRecentWhileRunning(t *testing.T) {
	t.Parallel()
	job, acts := failedRun()
	job.Status, job.EndTime, job.ErrorCode = store.WorkflowRunning, time.Time{}, ""
	got := render(t, workflowLog(&job, acts), "recent=3m", nil, job.LastModified.Add(2*time.Minute))
	want := pick(failedRunLog(), 6)
	want = append(want, "2025-01-27 09:10:00,000 INFO  USER[joe] GROUP[eng] APP[etl] JOB["+job.ID+"] ACTION[-] workflow job is [RUNNING]")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recent lines of a running job\n got %q\nwant %q", got, want)
	}
}

// TestLogDebugLine: debug first tells what the filter selects, the window
// resolved for the job.
func TestLogDebugLine(t *testing.T) {
	t.Parallel()
	job, acts := failedRun()
	got := render(t, workflowLog(&job, acts), "debug;recent=2m;loglevel=INFO;limit=1", nil, job.EndTime)
	want := []string{"Log filter: start [2025-01-27 09:08:00,000], end [-], loglevel [INFO], text [-], limit [1]", failedRunLog()[5]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("debug\n got %q\nwant %q", got, want)
	}
}

// coordRun is a running hourly coordinator: one action succeeded, one
// failed, one waits for its input.
func coordRun() (store.CoordJob, []store.CoordAction) {
	t0 := time.Date(2025, 1, 27, 8, 0, 0, 0, time.UTC)
	job := store.CoordJob{ID: "0000007-250127091857123-gozie-test-C", AppName: "hourly", AppPath: "hdfs://nn/apps/hourly",
		User: "ann", Status: store.JobRunning, Frequency: "60", TimeUnit: "MINUTE", CreatedTime: t0, LastModified: t0.Add(30 * time.Minute)}
	acts := []store.CoordAction{
		{ID: job.ID + "@1", JobID: job.ID, ActionNumber: 1, Status: store.CoordActionSucceeded, NominalTime: t0,
			ExternalID: "0000008-250127091857123-gozie-test-W", CreatedTime: t0, LastModified: t0.Add(20 * time.Minute)},
		{ID: job.ID + "@2", JobID: job.ID, ActionNumber: 2, Status: store.CoordActionFailed, NominalTime: t0.Add(time.Hour),
			ExternalID: "0000009-250127091857123-gozie-test-W", CreatedTime: t0, LastModified: t0.Add(25 * time.Minute)},
		{ID: job.ID + "@3", JobID: job.ID, ActionNumber: 3, Status: store.CoordActionWaiting, NominalTime: t0.Add(2 * time.Hour),
			MissingDependencies: "hdfs://nn/data/10/_SUCCESS", CreatedTime: t0.Add(10 * time.Minute), LastModified: t0.Add(15 * time.Minute)},
	}
	return job, acts
}

// TestCoordinatorLogFilters: the coordinator's log, whole or narrowed to some
// of its actions, under logfilters and as the errorlog.
func TestCoordinatorLogFilters(t *testing.T) {
	t.Parallel()
	job, acts := coordRun()
	p := "USER[ann] GROUP[-] APP[hourly] JOB[" + job.ID + "] ACTION["
	all := []string{
		"2025-01-27 08:00:00,000 INFO  " + p + "-] coordinator job submitted, app path [hdfs://nn/apps/hourly], frequency [60 MINUTE]",
		"2025-01-27 08:00:00,000 INFO  " + p + job.ID + "@1] action [1] materialized for nominal time [2025-01-27T08:00Z]",
		"2025-01-27 08:00:00,000 INFO  " + p + job.ID + "@2] action [2] materialized for nominal time [2025-01-27T09:00Z]",
		"2025-01-27 08:10:00,000 INFO  " + p + job.ID + "@3] action [3] materialized for nominal time [2025-01-27T10:00Z]",
		"2025-01-27 08:15:00,000 INFO  " + p + job.ID + "@3] action [3] is [WAITING] on [hdfs://nn/data/10/_SUCCESS]",
		"2025-01-27 08:20:00,000 INFO  " + p + job.ID + "@1] action [1] is [SUCCEEDED], workflow [0000008-250127091857123-gozie-test-W]",
		"2025-01-27 08:25:00,000 WARN  " + p + job.ID + "@2] action [2] ended with status [FAILED], workflow [0000009-250127091857123-gozie-test-W]",
		"2025-01-27 08:30:00,000 INFO  " + p + "-] coordinator job is [RUNNING]",
	}
	now := job.LastModified.Add(5 * time.Minute) // 08:35
	for _, tc := range []struct {
		name    string
		actions []int // the action numbers the log is narrowed to; nil: the whole job
		filter  string
		errors  bool
		indexes []int
	}{
		{name: "whole", indexes: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{name: "errorlog", errors: true, indexes: []int{6}},
		{name: "one action", filter: "text=@2]", indexes: []int{2, 6}},
		{name: "offset from creation", filter: "start=15m;end=25m", indexes: []int{4, 5, 6}},
		{name: "recent from now while it runs", filter: "recent=15m", indexes: []int{5, 6, 7}},
		{name: "info lines", filter: "loglevel=INFO;limit=2", indexes: []int{0, 1}},
		{name: "scope", actions: []int{2, 3}, indexes: []int{2, 3, 4, 6}},
		{name: "scope offset from the first action", actions: []int{3}, filter: "start=5m", indexes: []int{4}},
		{name: "scope of ended actions ends with them", actions: []int{1, 2}, filter: "recent=5m", indexes: []int{5, 6}},
		{name: "scope errorlog", actions: []int{1, 3}, errors: true},
	} {
		var levels []string
		if tc.errors {
			levels = errorLogLevels
		}
		l := coordinatorLog(&job, acts, oozieapi.GMT)
		if tc.actions != nil {
			var scoped []store.CoordAction
			for _, n := range tc.actions {
				scoped = append(scoped, acts[n-1])
			}
			l = coordActionsLog(&job, scoped, oozieapi.GMT)
		}
		if got, want := render(t, l, tc.filter, levels, now), pick(all, tc.indexes...); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: filter %q\n got %q\nwant %q", tc.name, tc.filter, got, want)
		}
	}
}

func TestBundleLog(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 1, 27, 8, 0, 0, 0, time.UTC)
	job := store.BundleJob{ID: "0000010-250127091857123-gozie-test-B", AppName: "nightly", AppPath: "hdfs://nn/apps/nightly",
		User: "ann", Status: store.JobRunningWithError, KickoffTime: t0, CreatedTime: t0, LastModified: t0.Add(time.Hour)}
	coords := []store.CoordJob{
		{ID: "0000011-250127091857123-gozie-test-C", AppName: "extract", AppPath: "hdfs://nn/apps/extract",
			Status: store.JobRunning, CreatedTime: t0.Add(time.Minute), LastModified: t0.Add(30 * time.Minute)},
		{ID: "0000012-250127091857123-gozie-test-C", AppName: "load", AppPath: "hdfs://nn/apps/load",
			Status: store.JobKilled, CreatedTime: t0.Add(time.Minute), LastModified: t0.Add(40 * time.Minute)},
	}
	p := "USER[ann] GROUP[-] APP[nightly] JOB[" + job.ID + "] ACTION["
	want := []string{
		"2025-01-27 08:00:00,000 INFO  " + p + "-] bundle job submitted, app path [hdfs://nn/apps/nightly], kick-off time [2025-01-27T08:00Z]",
		"2025-01-27 08:01:00,000 INFO  " + p + coords[0].ID + "] coordinator [extract] started, app path [hdfs://nn/apps/extract]",
		"2025-01-27 08:01:00,000 INFO  " + p + coords[1].ID + "] coordinator [load] started, app path [hdfs://nn/apps/load]",
		"2025-01-27 08:30:00,000 INFO  " + p + coords[0].ID + "] coordinator [extract] is [RUNNING]",
		"2025-01-27 08:40:00,000 WARN  " + p + coords[1].ID + "] coordinator [load] is [KILLED]",
		"2025-01-27 09:00:00,000 WARN  " + p + "-] bundle job is [RUNNINGWITHERROR]",
	}
	l := bundleLog(&job, coords, oozieapi.GMT)
	if got := render(t, l, "", nil, job.LastModified); !reflect.DeepEqual(got, want) {
		t.Errorf("log\n got %q\nwant %q", got, want)
	}
	if got := render(t, l, "loglevel=WARN;text=load", nil, job.LastModified); !reflect.DeepEqual(got, want[4:5]) {
		t.Errorf("filtered log\n got %q\nwant %q", got, want[4:5])
	}
}
