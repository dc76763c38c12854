package wfrun_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// waitAction polls until the action's row satisfies ok.
func (w *world) waitAction(t *testing.T, jobID, node string, ok func(store.WorkflowAction) bool) store.WorkflowAction {
	t.Helper()
	var a store.WorkflowAction
	testwait.WaitForLast(t, 20*time.Second, node+" to reach the awaited state", func() (bool, string) {
		_, acts := w.job(t, jobID)
		a = acts[node]
		return ok(a), fmt.Sprintf("%+v", a)
	})
	return a
}

// refusals returns how many Starts of node were refused so far.
func (w *world) refusals(node string) int {
	w.exec.mu.Lock()
	defer w.exec.mu.Unlock()
	return w.exec.refused[node]
}

// A start that keeps failing transiently is retried as configured (3 times,
// so 4 tries), then waits for a person: the action in START_MANUAL with the
// failure's code and message, the job SUSPENDED. Resuming once the cause is
// gone starts the action again and the job goes on to succeed.
func TestTransientStartFailuresEndInStartManualAndSuspend(t *testing.T) {
	w := setup(t, false)
	w.exec.mu.Lock()
	w.exec.refuse["extract"] = actions.Errorf(actions.Transient, "JA006", "connection refused by the server")
	w.exec.mu.Unlock()
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	job := w.waitStatus(t, id, store.WorkflowSuspended)
	_, acts := w.job(t, id)
	a := acts["extract"]
	if a.Status != store.ActionStartManual || a.ErrorCode != "JA006" || a.ErrorMessage != "connection refused by the server" ||
		a.Retries != 0 || !a.StartTime.IsZero() {
		t.Fatalf("extract after its retries: %s code %q msg %q retries %d start %v", a.Status, a.ErrorCode, a.ErrorMessage,
			a.Retries, a.StartTime)
	}
	if n := w.refusals("extract"); n != 4 {
		t.Fatalf("Start called %d times, want 4 (the first try and 3 retries)", n)
	}
	if job.Status != store.WorkflowSuspended {
		t.Fatalf("job %s", job.Status)
	}

	w.exec.mu.Lock()
	delete(w.exec.refuse, "extract")
	w.exec.mu.Unlock()
	if err := w.runner.Resume(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	a = w.waitAction(t, id, "extract", func(a store.WorkflowAction) bool { return a.Status == store.ActionRunning })
	if a.ErrorCode != "" || a.StartTime.IsZero() {
		t.Fatalf("extract after the resume: code %q start %v", a.ErrorCode, a.StartTime)
	}
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED", Data: "rows=0\n"})
	if err := w.runner.Callback(context.Background(), id+"@extract", "SUCCEEDED"); err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowSucceeded)
}

// A non-transient start failure needs a person at once: no retry.
func TestNonTransientStartFailureSuspendsAtOnce(t *testing.T) {
	w := setup(t, false)
	w.exec.mu.Lock()
	w.exec.refuse["extract"] = actions.Errorf(actions.NonTransient, "JA002", "Permission denied: user=alice")
	w.exec.mu.Unlock()
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowSuspended)
	_, acts := w.job(t, id)
	if a := acts["extract"]; a.Status != store.ActionStartManual || a.ErrorCode != "JA002" {
		t.Fatalf("extract: %s %s", a.Status, a.ErrorCode)
	}
	if n := w.refusals("extract"); n != 1 {
		t.Fatalf("Start called %d times, want 1", n)
	}
}

// A transient retry that is due while a person has suspended the job is
// not lost: resuming starts it.
func TestStartRetryResumedAfterASuspend(t *testing.T) {
	w := setup(t, false)
	w.exec.mu.Lock()
	w.exec.refuse["extract"] = errors.New("connection reset") // unclassified: transient
	w.exec.mu.Unlock()
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitAction(t, id, "extract", func(a store.WorkflowAction) bool { return a.Status == store.ActionStartRetry })
	ctx := context.Background()
	if err := w.runner.Suspend(ctx, id); err != nil {
		t.Fatal(err)
	}
	w.exec.mu.Lock()
	delete(w.exec.refuse, "extract")
	w.exec.mu.Unlock()
	// The retry falls due while suspended, does nothing, and its trigger
	// is gone: only the resume can start the action now.
	testwait.WaitForLast(t, 20*time.Second, "the start trigger to be gone", func() (bool, string) {
		var terr error
		_ = w.store.Tx(ctx, func(x store.Tx) error {
			_, terr = x.GetTrigger(ctx, wfrun.KindActionStart, id+"@extract")
			return nil
		})
		return errors.Is(terr, store.ErrNotFound), fmt.Sprint(terr)
	})
	if _, acts := w.job(t, id); acts["extract"].Status != store.ActionStartRetry {
		t.Fatalf("extract while suspended: %s", acts["extract"].Status)
	}
	if err := w.runner.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	w.waitAction(t, id, "extract", func(a store.WorkflowAction) bool { return a.Status == store.ActionRunning })
}
