package wfrun_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// retryNowApp retries "flaky" at most twice, at once (retry-interval 0).
const retryNowApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="retry-now">
  <start to="flaky"/>
  <action name="flaky" retry-max="2" retry-interval="0">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>flaky.sh</exec>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>flaky failed</message></kill>
  <end name="end"/>
</workflow-app>`

// attempts returns the recorded attempts of an action.
func (w *world) attempts(t *testing.T, actionID string) []store.ActionAttempt {
	t.Helper()
	var out []store.ActionAttempt
	err := w.store.Tx(context.Background(), func(x store.Tx) (err error) {
		out, err = x.ListActionAttempts(context.Background(), actionID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// externalOf returns the external id of the action's latest run.
func (w *world) externalOf(actionID string) string {
	w.exec.mu.Lock()
	defer w.exec.mu.Unlock()
	return w.exec.ext[actionID]
}

// attemptEnd is how one attempt of the flaky action ends.
type attemptEnd struct {
	outcome workflow.Outcome
	code    string
}

func TestUserRetryAttemptsAreRecorded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ends []attemptEnd
		// suspended: the first attempt ends while the job is suspended, so
		// its retry is decided by the resume.
		suspended    bool
		want         store.WorkflowStatus
		wantAttempts int
	}{
		{"fails twice transiently, then succeeds",
			[]attemptEnd{{workflow.OutcomeError, "JA018"}, {workflow.OutcomeError, "JA009"}, {workflow.OutcomeOK, ""}},
			false, store.WorkflowSucceeded, 2},
		{"fails for good", []attemptEnd{{workflow.OutcomeError, "JA018"}, {workflow.OutcomeError, "JA018"}, {workflow.OutcomeError, "JA017"}},
			false, store.WorkflowKilled, 2},
		{"error code not retried", []attemptEnd{{workflow.OutcomeError, "1"}}, false, store.WorkflowKilled, 0},
		{"retry decided on resume", []attemptEnd{{workflow.OutcomeError, "JA018"}, {workflow.OutcomeOK, ""}}, true, store.WorkflowSucceeded, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			w := setup(t, false)
			app := w.app(t, "retry-now", retryNowApp)
			id, err := w.submit(t, app, true)
			if err != nil {
				t.Fatal(err)
			}
			act := id + "@flaky"
			var exts []string
			for n, end := range tt.ends {
				w.waitStarted(t, act)
				ext := w.externalOf(act)
				exts = append(exts, ext)
				if n == 0 && tt.suspended {
					if err := w.runner.Suspend(ctx, id); err != nil {
						t.Fatal(err)
					}
					w.waitStatus(t, id, store.WorkflowSuspended)
				}
				w.exec.complete(act, actions.Status{Outcome: end.outcome, ErrorCode: end.code,
					ErrorMessage: "attempt " + fmt.Sprint(n+1), ExternalStatus: "FAILED",
					ConsoleURL: "http://rm:8088/proxy/" + ext + "/", ExternalChildIDs: []string{"job_" + fmt.Sprint(n+1)}})
				if err := w.runner.Callback(ctx, act, ""); err != nil {
					t.Fatal(err)
				}
				if n == 0 && tt.suspended {
					w.waitActionStatus(t, act, store.ActionDone)
					if got := w.attempts(t, act); len(got) != 0 {
						t.Fatalf("an attempt was recorded before its retry was decided: %+v", got)
					}
					if err := w.runner.Resume(ctx, id); err != nil {
						t.Fatal(err)
					}
				}
			}
			w.waitStatus(t, id, tt.want)
			_, acts := w.job(t, id)
			row := acts["flaky"]
			all := w.attempts(t, act)
			// Every retried attempt, and the start of the last one (a
			// retry itself) written at its launch.
			wantRows := tt.wantAttempts
			if wantRows > 0 {
				wantRows++
			}
			if len(all) != wantRows || row.UserRetryCount != tt.wantAttempts {
				t.Fatalf("%d attempts recorded, retry count %d; want %d retried: %+v", len(all), row.UserRetryCount,
					tt.wantAttempts, all)
			}
			got := all[:tt.wantAttempts]
			if wantRows > 0 {
				last := all[tt.wantAttempts]
				if last.Attempt != tt.wantAttempts+1 || !last.EndTime.IsZero() || last.ExternalID != "" ||
					last.StartTime.Before(got[len(got)-1].EndTime) {
					t.Errorf("the last attempt's row %+v, want only its start, after attempt %d ended", last, tt.wantAttempts)
				}
			}
			for i, a := range got {
				n := i + 1
				if a.Attempt != n || a.ActionID != act || a.JobID != id {
					t.Errorf("attempt %d is %d of %s/%s", n, a.Attempt, a.ActionID, a.JobID)
				}
				if a.ExternalID != exts[i] || a.ConsoleURL != "http://rm:8088/proxy/"+exts[i]+"/" ||
					a.ExternalChildIDs != "job_"+fmt.Sprint(n) {
					t.Errorf("attempt %d: external %q console %q children %q; want the run %s", n, a.ExternalID,
						a.ConsoleURL, a.ExternalChildIDs, exts[i])
				}
				if a.ErrorCode != tt.ends[i].code || a.ErrorMessage != "attempt "+fmt.Sprint(n) {
					t.Errorf("attempt %d ended with %s %q", n, a.ErrorCode, a.ErrorMessage)
				}
				if a.StartTime.IsZero() || a.EndTime.Before(a.StartTime) {
					t.Errorf("attempt %d ran from %v to %v", n, a.StartTime, a.EndTime)
				}
				if i > 0 && a.StartTime.Before(got[i-1].EndTime) {
					t.Errorf("attempt %d started at %v, before attempt %d ended at %v", n, a.StartTime, n-1, got[i-1].EndTime)
				}
			}
			if len(got) > 0 && !got[0].StartTime.Equal(row.StartTime) {
				t.Errorf("attempt 1 started at %v, the action at %v", got[0].StartTime, row.StartTime)
			}
			// A late, repeated callback changes nothing.
			if err := w.runner.Callback(ctx, act, ""); err != nil {
				t.Fatal(err)
			}
			if again := w.attempts(t, act); len(again) != len(all) {
				t.Fatalf("a repeated callback changed the attempts: %+v", again)
			}
			if tt.want != store.WorkflowKilled || tt.wantAttempts == 0 {
				return
			}
			// A rerun runs the failed action again: as in Oozie, its
			// history starts afresh.
			props := conf.NewProperties("oozie.wf.application.path", app, "oozie.wf.rerun.failnodes", "true")
			if err := w.runner.Rerun(ctx, id, props); err != nil {
				t.Fatal(err)
			}
			w.waitStarted(t, act)
			if got := w.attempts(t, act); len(got) != 0 {
				t.Fatalf("the re-run action kept the attempts of the earlier run: %+v", got)
			}
			w.exec.complete(act, actions.Status{Outcome: workflow.OutcomeOK})
			_ = w.runner.Callback(ctx, act, "")
			w.waitStatus(t, id, store.WorkflowSucceeded)
		})
	}
}

// waitActionStatus waits until the action has status want.
func (w *world) waitActionStatus(t *testing.T, actionID string, want store.ActionStatus) {
	t.Helper()
	testwait.WaitForLast(t, 20*time.Second, "action "+actionID+" to be "+string(want), func() (bool, string) {
		var a store.WorkflowAction
		err := w.store.Tx(context.Background(), func(x store.Tx) (err error) {
			a, err = x.GetWorkflowAction(context.Background(), actionID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return a.Status == want, string(a.Status)
	})
}
