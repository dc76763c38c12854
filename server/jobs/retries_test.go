package jobs_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// retryAction makes action id a twice-retried action now running its third
// attempt, as the runner leaves it: attempts 1 and 2 ended, attempt 3 only
// started.
func (f *fixture) retryAction(t *testing.T, id string) {
	t.Helper()
	ctx := context.Background()
	at := func(min int) time.Time { return jobstest.Epoch.Add(time.Duration(min) * time.Minute) }
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		a, err := x.GetWorkflowAction(ctx, id)
		if err != nil {
			return err
		}
		a.Status, a.UserRetryCount, a.UserRetryMax, a.StartTime = store.ActionRunning, 2, 3, at(1)
		if err := x.UpdateWorkflowAction(ctx, &a); err != nil {
			return err
		}
		for _, r := range []store.ActionAttempt{
			{Attempt: 1, StartTime: at(1), EndTime: at(2), ConsoleURL: "http://rm:8088/proxy/application_1_0001/",
				ExternalID: "application_1_0001", ExternalChildIDs: "job_1_0002", ErrorCode: "JA018"},
			{Attempt: 2, StartTime: at(12), EndTime: at(13), ExternalID: "application_1_0003", ErrorCode: "JA009"},
			{Attempt: 3, StartTime: at(23)},
		} {
			r.ActionID, r.JobID = a.ID, a.JobID
			if err := x.RecordActionAttempt(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGetRetries(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	f.retryAction(t, id+"@mkdir")
	tests := []struct {
		name, path, want string
	}{
		{"retried action", "/oozie/v2/job/" + id + "@mkdir?show=retries",
			`{"retries":[{"attempt":"1","startTime":"Mon, 27 Jan 2025 09:19:57 GMT","endTime":"Mon, 27 Jan 2025 09:20:57 GMT",` +
				`"consoleUrl":"http://rm:8088/proxy/application_1_0001/","externalChildIDs":"job_1_0002"},` +
				`{"attempt":"2","startTime":"Mon, 27 Jan 2025 09:30:57 GMT","endTime":"Mon, 27 Jan 2025 09:31:57 GMT"}]}`},
		{"in another zone", "/oozie/v2/job/" + id + "@mkdir?show=retries&timezone=America/Los_Angeles",
			`{"retries":[{"attempt":"1","startTime":"Mon, 27 Jan 2025 01:19:57 PST","endTime":"Mon, 27 Jan 2025 01:20:57 PST",` +
				`"consoleUrl":"http://rm:8088/proxy/application_1_0001/","externalChildIDs":"job_1_0002"},` +
				`{"attempt":"2","startTime":"Mon, 27 Jan 2025 01:30:57 PST","endTime":"Mon, 27 Jan 2025 01:31:57 PST"}]}`},
		{"never retried", "/oozie/v2/job/" + id + "@:start:?show=retries", `{"retries":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, http.MethodGet, tt.path, "", "")
			if r.status != http.StatusOK || r.body != tt.want+"\n" {
				t.Fatalf("%d %s\nwant %s", r.status, r.body, tt.want)
			}
			if ct := r.header.Get("Content-Type"); ct != server.ContentTypeJSON {
				t.Errorf("content type %q, want %q", ct, server.ContentTypeJSON)
			}
		})
	}
}

func TestGetRetriesErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	const (
		ghostJob = "0000099-250127091857123-gozie-test-W"
		coord    = "0000001-250127091857123-gozie-test-C"
		bundle   = "0000001-250127091857123-gozie-test-B"
		notOfWF  = "E0303: Invalid parameter value, [show] = [retries]: retries are a workflow action's, give <workflow id>@<action name>"
	)
	tests := []struct {
		path      string
		status    int
		code, msg string
	}{
		{"/oozie/v1/job/" + id + "@mkdir?show=retries", 400, "E0302", "E0302: Invalid parameter [Not supported in v1]"},
		{"/oozie/v2/job/" + id + "?show=retries", 400, "E0303", notOfWF},
		{"/oozie/v2/job/" + coord + "?show=retries", 400, "E0303", notOfWF},
		{"/oozie/v2/job/" + coord + "@1?show=retries", 400, "E0303", notOfWF},
		{"/oozie/v2/job/" + bundle + "?show=retries", 400, "E0303", notOfWF},
		{"/oozie/v2/job/not-an-id?show=retries", 400, "E0303", notOfWF},
		{"/oozie/v2/job/" + id + "@nope?show=retries", 404, "E0605", "E0605: Action does not exist [" + id + "@nope]"},
		{"/oozie/v2/job/" + ghostJob + "@mkdir?show=retries", 404, "E0605", "E0605: Action does not exist [" + ghostJob + "@mkdir]"},
		{"/oozie/v2/job/" + id + "@mkdir?show=retries&timezone=Mars/Olympus", 400, "E0303",
			"E0303: Invalid parameter value, [timezone] = [Mars/Olympus]"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodGet, tt.path, "", ""), tt.status, tt.code, tt.msg)
		})
	}
}
