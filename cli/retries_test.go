package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// recordRetries makes action id a twice-retried action running its third
// attempt, as the runner leaves it: attempts 1 and 2 ended, attempt 3 only
// started.
func (f *cliFixture) recordRetries(t *testing.T, id string) {
	t.Helper()
	ctx := context.Background()
	at := func(min int) time.Time { return f.Clock.Now().Add(time.Duration(min) * time.Minute) }
	f.updateAction(t, id, func(a *store.WorkflowAction) {
		a.Status, a.UserRetryCount, a.UserRetryMax, a.StartTime = store.ActionRunning, 2, 3, at(1)
	})
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		job, _, _ := strings.Cut(id, "@")
		for _, r := range []store.ActionAttempt{
			{Attempt: 1, StartTime: at(1), EndTime: at(3), ConsoleURL: "http://rm:8088/proxy/application_1737969537123_0001/",
				ExternalChildIDs: "job_1737969537123_0002", ErrorCode: "JA018"},
			{Attempt: 2, StartTime: at(13), EndTime: at(14), ErrorCode: "JA009"},
			{Attempt: 3, StartTime: at(24)},
		} {
			r.ActionID, r.JobID = id, job
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

func TestJobRetriesGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	out := f.mustRun(t, "job", "-run", "-D", "oozie.wf.application.path="+f.fsApp)
	id := strings.TrimSpace(strings.TrimPrefix(out, "job: "))
	f.recordRetries(t, id+"@mkdir")

	out = f.mustRun(t, "job", "-retries", id+"@mkdir")
	golden(t, "job_retries", out, nil)
	// Like Oozie's, the dates are printed as the server sends them.
	if tz := f.mustRun(t, "job", "-retries", id+"@mkdir", "-timezone", "America/Los_Angeles"); tz != out {
		t.Errorf("-timezone changed the output:\n%s", tz)
	}

	out = f.mustRun(t, "job", "-retries", id+"@:start:")
	golden(t, "job_retries_none", out, nil)

	const notAnAction = "Error: E0303 : E0303: Invalid parameter value, [show] = [retries]: " +
		"retries are a workflow action's, give <workflow id>@<action name>\n"
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"a job id", []string{"job", "-retries", id}, notAnAction},
		{"an unknown action", []string{"job", "-retries", id + "@nope"}, "Error: E0605 : E0605: Action does not exist [" + id + "@nope]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := f.run(t, tt.args...)
			if code == 0 || stdout != "" || stderr != tt.wantErr {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant %q", code, stdout, stderr, tt.wantErr)
			}
		})
	}
}
