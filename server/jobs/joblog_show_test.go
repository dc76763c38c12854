package jobs_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// logRows are jobs written straight into the store, as the engines would
// have left them: a killed workflow, a running coordinator with three actions
// and a bundle with one coordinator.
type logRows struct {
	wf, coord, bundle, bundleCoord string
}

// Minutes after jobstest.Epoch of the rows' events.
func at(minutes int) time.Time { return jobstest.Epoch.Add(time.Duration(minutes) * time.Minute) }

func insertLogRows(t *testing.T, f *fixture) logRows {
	t.Helper()
	rows := logRows{
		wf:          "0000901-250127091857123-gozie-test-W",
		coord:       "0000902-250127091857123-gozie-test-C",
		bundle:      "0000903-250127091857123-gozie-test-B",
		bundleCoord: "0000904-250127091857123-gozie-test-C",
	}
	ctx := context.Background()
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		wf := store.WorkflowJob{ID: rows.wf, AppName: "etl", AppPath: "file:///apps/etl", User: "joe", Status: store.WorkflowKilled,
			ErrorCode: "E0729", ErrorMessage: "load failed", CreatedTime: at(0), StartTime: at(0), EndTime: at(4), LastModified: at(4)}
		if err := x.InsertWorkflowJob(ctx, &wf); err != nil {
			return err
		}
		act := store.WorkflowAction{ID: rows.wf + "@load", JobID: rows.wf, Name: "load", Type: "hive2", Status: store.ActionError,
			Transition: "fail", ErrorCode: "JA018", ErrorMessage: "table not found",
			CreatedTime: at(1), StartTime: at(1), EndTime: at(3), LastModified: at(3)}
		if err := x.InsertWorkflowAction(ctx, &act); err != nil {
			return err
		}
		coord := store.CoordJob{ID: rows.coord, AppName: "hourly", AppPath: "file:///apps/hourly", User: "ann", Status: store.JobRunning,
			Frequency: "60", TimeUnit: "MINUTE", ExecutionOrder: "FIFO", StartTime: at(0), EndTime: at(600),
			CreatedTime: at(0), LastModified: at(30)}
		if err := x.InsertCoordJob(ctx, &coord); err != nil {
			return err
		}
		for _, a := range []store.CoordAction{
			{ActionNumber: 1, Status: store.CoordActionSucceeded, ExternalID: "0000905-250127091857123-gozie-test-W", LastModified: at(20)},
			{ActionNumber: 2, Status: store.CoordActionFailed, ExternalID: "0000906-250127091857123-gozie-test-W", LastModified: at(25)},
			{ActionNumber: 3, Status: store.CoordActionWaiting, MissingDependencies: "file:///data/3/_SUCCESS", LastModified: at(15)},
		} {
			a.ID, a.JobID = fmt.Sprintf("%s@%d", rows.coord, a.ActionNumber), rows.coord
			a.NominalTime = time.Date(2025, 1, 27, a.ActionNumber, 0, 0, 0, time.UTC)
			a.CreatedTime = at(5 * (a.ActionNumber - 1))
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		bundle := store.BundleJob{ID: rows.bundle, AppName: "nightly", AppPath: "file:///apps/nightly", User: "ann",
			Status: store.JobKilled, KickoffTime: at(0), CreatedTime: at(0), LastModified: at(9)}
		if err := x.InsertBundleJob(ctx, &bundle); err != nil {
			return err
		}
		bc := store.CoordJob{ID: rows.bundleCoord, AppName: "extract", AppPath: "file:///apps/extract", User: "ann", BundleID: rows.bundle,
			Status: store.JobKilled, Frequency: "1440", TimeUnit: "MINUTE", ExecutionOrder: "FIFO", CreatedTime: at(1), LastModified: at(8)}
		return x.InsertCoordJob(ctx, &bc)
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// logLine is a line of a job log as the server must write it, in GMT.
func logLine(minutes int, level, user, app, job, action, msg string) string {
	if action == "" {
		action = "-"
	}
	return fmt.Sprintf("%s %-5s USER[%s] GROUP[-] APP[%s] JOB[%s] ACTION[%s] %s",
		at(minutes).Format("2006-01-02 15:04:05,000"), level, user, app, job, action, msg)
}

// TestLogShowsWithFilters: show=log and show=errorlog of a workflow, a
// coordinator (whole, or narrowed to actions by type and scope) and a bundle
// take Oozie's logfilter.
func TestLogShowsWithFilters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rows := insertLogRows(t, f)
	wf := func(minutes int, level, action, msg string) string {
		if action != "" {
			action = rows.wf + "@" + action
		}
		return logLine(minutes, level, "joe", "etl", rows.wf, action, msg)
	}
	wfLog := []string{
		wf(0, "INFO", "", "workflow job submitted, app path [file:///apps/etl]"),
		wf(0, "INFO", "", "workflow job started"),
		wf(1, "INFO", "load", "node [load] type [hive2] started"),
		wf(3, "WARN", "load", "node [load] ended with status [ERROR], transition [fail], error [JA018]: table not found"),
		wf(4, "WARN", "", "workflow job ended with status [KILLED], error [E0729]: load failed"),
	}
	co := func(minutes int, level string, action int, msg string) string {
		a := ""
		if action > 0 {
			a = fmt.Sprintf("%s@%d", rows.coord, action)
		}
		return logLine(minutes, level, "ann", "hourly", rows.coord, a, msg)
	}
	coordLog := []string{
		co(0, "INFO", 0, "coordinator job submitted, app path [file:///apps/hourly], frequency [60 MINUTE]"),
		co(0, "INFO", 1, "action [1] materialized for nominal time [2025-01-27T01:00Z]"),
		co(5, "INFO", 2, "action [2] materialized for nominal time [2025-01-27T02:00Z]"),
		co(10, "INFO", 3, "action [3] materialized for nominal time [2025-01-27T03:00Z]"),
		co(15, "INFO", 3, "action [3] is [WAITING] on [file:///data/3/_SUCCESS]"),
		co(20, "INFO", 1, "action [1] is [SUCCEEDED], workflow [0000905-250127091857123-gozie-test-W]"),
		co(25, "WARN", 2, "action [2] ended with status [FAILED], workflow [0000906-250127091857123-gozie-test-W]"),
		co(30, "INFO", 0, "coordinator job is [RUNNING]"),
	}
	bu := func(minutes int, level, action, msg string) string {
		return logLine(minutes, level, "ann", "nightly", rows.bundle, action, msg)
	}
	bundleLog := []string{
		bu(0, "INFO", "", "bundle job submitted, app path [file:///apps/nightly], kick-off time ["+at(0).Format("2006-01-02T15:04Z")+"]"),
		bu(1, "INFO", rows.bundleCoord, "coordinator [extract] started, app path [file:///apps/extract]"),
		bu(8, "WARN", rows.bundleCoord, "coordinator [extract] is [KILLED]"),
		bu(9, "WARN", "", "bundle job is [KILLED]"),
	}
	pick := func(all []string, indexes ...int) []string {
		out := []string{}
		for _, i := range indexes {
			out = append(out, all[i])
		}
		return out
	}
	lf := func(filter string) string { return "&logfilter=" + url.QueryEscape(filter) }
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"workflow log", rows.wf + "?show=log", wfLog},
		{"workflow log, v1", rows.wf + "?show=log", wfLog},
		{"workflow warnings", rows.wf + "?show=log" + lf("loglevel=WARN"), pick(wfLog, 3, 4)},
		{"workflow text and limit", rows.wf + "?show=log" + lf("text=node [load];limit=1"), pick(wfLog, 2)},
		{"workflow window from the job's start", rows.wf + "?show=log" + lf("start=1m;end=3m"), pick(wfLog, 2, 3)},
		{"workflow recent from the job's end", rows.wf + "?show=log" + lf("recent=2m"), pick(wfLog, 3, 4)},
		{"workflow start time", rows.wf + "?show=log" + lf("start="+at(4).Format("2006-01-02T15:04Z")), pick(wfLog, 4)},
		{"workflow errorlog", rows.wf + "?show=errorlog", pick(wfLog, 3, 4)},
		{"workflow errorlog with text", rows.wf + "?show=errorlog" + lf("text=KILLED"), pick(wfLog, 4)},
		{"workflow errorlog of INFO lines", rows.wf + "?show=errorlog" + lf("loglevel=INFO"), []string{}},
		{"coordinator log", rows.coord + "?show=log", coordLog},
		{"coordinator info lines", rows.coord + "?show=log" + lf("loglevel=INFO;limit=3"), pick(coordLog, 0, 1, 2)},
		{"coordinator offsets from its creation", rows.coord + "?show=log" + lf("start=15m;end=25m"), pick(coordLog, 4, 5, 6)},
		{"coordinator errorlog", rows.coord + "?show=errorlog", pick(coordLog, 6)},
		{"coordinator actions", rows.coord + "?show=log&type=action&scope=2-3", pick(coordLog, 2, 3, 4, 6)},
		{"coordinator actions filtered", rows.coord + "?show=log&type=action&scope=2-3" + lf("text=[3]"), pick(coordLog, 3, 4)},
		{"coordinator action offsets from its creation", rows.coord + "?show=log&type=action&scope=3" + lf("start=5m"), pick(coordLog, 4)},
		{"coordinator action by date", rows.coord + "?show=log&type=date&scope=2025-01-27T01:00Z", pick(coordLog, 1, 5)},
		{"coordinator actions errorlog", rows.coord + "?show=errorlog&type=action&scope=1,2", pick(coordLog, 6)},
		{"coordinator scope without actions", rows.coord + "?show=log&type=action&scope=9", []string{}},
		{"bundle log", rows.bundle + "?show=log", bundleLog},
		{"bundle errorlog", rows.bundle + "?show=errorlog", pick(bundleLog, 2, 3)},
		{"bundle log of a coordinator", rows.bundle + "?show=log" + lf("text=extract;loglevel=INFO"), pick(bundleLog, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version := "v2"
			if strings.HasSuffix(tc.name, "v1") {
				version = "v1"
			}
			r := f.call(t, http.MethodGet, "/oozie/"+version+"/job/"+tc.path, "", "")
			if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/plain;charset=UTF-8" {
				t.Fatalf("%d %q %s", r.status, r.header.Get("Content-Type"), r.header.Get(server.HeaderErrorMessage))
			}
			got := []string{}
			if r.body != "" {
				got = strings.Split(strings.TrimSuffix(r.body, "\n"), "\n")
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}

	// Times of lines and of the filter are in the request's time zone; debug
	// first tells what the filter selects.
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	start := at(3).In(la).Format("2006-01-02 15:04:05,000")
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+rows.wf+"?show=log&timezone=America/Los_Angeles"+lf("debug;start="+start), "", "")
	want := "Log filter: start [" + start + "], end [-], loglevel [ALL], text [-], limit [-]\n" +
		start + " WARN  USER[joe] GROUP[-] APP[etl] JOB[" + rows.wf + "] ACTION[" + rows.wf + "@load] " +
		"node [load] ended with status [ERROR], transition [fail], error [JA018]: table not found\n" +
		at(4).In(la).Format("2006-01-02 15:04:05,000") + " WARN  USER[joe] GROUP[-] APP[etl] JOB[" + rows.wf + "] ACTION[-] " +
		"workflow job ended with status [KILLED], error [E0729]: load failed\n"
	if r.status != http.StatusOK || r.body != want {
		t.Errorf("log in Los Angeles: %d\n%s\nwant\n%s", r.status, r.body, want)
	}
}

// TestLogShowErrors: a bad logfilter is 400 E0303 naming the part at fault,
// as for show=auditlog; type and scope are a coordinator's; actions have no
// log of their own.
func TestLogShowErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rows := insertLogRows(t, f)
	const ghost = "0000999-250127091857123-gozie-test-W"
	badFilter := func(filter, reason string) string {
		return "E0303: Invalid parameter value, [logfilter] = [" + filter + "], " + reason
	}
	tests := []struct {
		path      string
		status    int
		code, msg string
	}{
		{rows.wf + "?show=log&logfilter=limit%3D0", 400, "E0303", badFilter("limit=0", "limit [0]: want a positive number of lines")},
		{rows.wf + "?show=errorlog&logfilter=loglevel%3DLOUD", 400, "E0303",
			badFilter("loglevel=LOUD", "loglevel [LOUD]: want levels among ALL, TRACE, DEBUG, INFO, WARN, ERROR, FATAL separated by |")},
		{rows.coord + "?show=log&logfilter=start%3D3h%3Bend%3D1h", 400, "E0303", badFilter("start=3h;end=1h", "end is before start")},
		{rows.coord + "?show=errorlog&logfilter=bogus%3D1", 400, "E0303",
			badFilter("bogus=1", "unknown option [bogus]; options are recent, start, end, loglevel, text, limit and debug")},
		{rows.bundle + "?show=log&logfilter=recent%3Dsoon", 400, "E0303",
			badFilter("recent=soon", "recent [soon]: want a positive number of hours (3h, 3) or minutes (30m)")},
		{rows.wf + "?show=log&type=action&scope=1", 400, "E0302",
			"E0302: Invalid parameter, [type] and [scope] narrow the log of a coordinator job only"},
		{rows.bundle + "?show=errorlog&scope=1", 400, "E0302",
			"E0302: Invalid parameter, [type] and [scope] narrow the log of a coordinator job only"},
		{rows.coord + "?show=log&type=action", 400, "E0305", "E0305: Missing parameter [scope]"},
		{rows.wf + "@load?show=errorlog", 400, "E0303", "E0303: Invalid parameter value, [show] = [errorlog]"},
		{rows.coord + "@1?show=errorlog", 400, "E0303", "E0303: Invalid parameter value, [show] = [errorlog]"},
		{ghost + "?show=errorlog", 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{ghost + "?show=log&logfilter=limit%3D1", 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{strings.Replace(rows.bundle, "0000903", "0000998", 1) + "?show=log", 404, "E0604",
			"E0604: Job does not exist [" + strings.Replace(rows.bundle, "0000903", "0000998", 1) + "]"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+tt.path, "", ""), tt.status, tt.code, tt.msg)
		})
	}
	// A scope type the coordinator engine does not know is its error.
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+rows.coord+"?show=log&type=hour&scope=1", "", "")
	if r.status != http.StatusBadRequest || r.header.Get(server.HeaderErrorCode) != oozieerr.E0302 ||
		!strings.Contains(r.header.Get(server.HeaderErrorMessage), "[type] = [hour]") {
		t.Errorf("type=hour: %d %s %s", r.status, r.header.Get(server.HeaderErrorCode), r.header.Get(server.HeaderErrorMessage))
	}
}
