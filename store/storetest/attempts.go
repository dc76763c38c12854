package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// attemptTests are the cases of the action attempt history.
var attemptTests = []struct {
	name string
	fn   func(t *testing.T, open Opener)
}{
	{"ActionAttempts", testActionAttempts},
	{"ActionAttemptsWrittenWithTheirTransaction", testActionAttemptsRollback},
	{"ActionAttemptsGoWithTheirAction", testActionAttemptsGoWithAction},
	{"ActionAttemptsPurged", testActionAttemptsPurged},
}

// seedAttemptJob stores workflow job id with one shell action per name.
func seedAttemptJob(t *testing.T, s store.Store, id string, names ...string) {
	t.Helper()
	tx(t, s, func(x store.Tx) error {
		j := wfJob(id, store.WorkflowRunning, t0)
		if err := x.InsertWorkflowJob(ctx, &j); err != nil {
			return err
		}
		for _, n := range names {
			a := store.WorkflowAction{ID: id + "@" + n, JobID: id, Name: n, Type: "shell", Status: store.ActionUserRetry,
				CreatedTime: t0}
			if err := x.InsertWorkflowAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
}

func listAttempts(t *testing.T, s store.Store, actionID string) []store.ActionAttempt {
	t.Helper()
	var out []store.ActionAttempt
	tx(t, s, func(x store.Tx) (err error) {
		out, err = x.ListActionAttempts(ctx, actionID)
		return err
	})
	return out
}

func record(t *testing.T, s store.Store, as ...store.ActionAttempt) {
	t.Helper()
	tx(t, s, func(x store.Tx) error {
		for _, a := range as {
			if err := x.RecordActionAttempt(ctx, a); err != nil {
				return err
			}
		}
		return nil
	})
}

func testActionAttempts(t *testing.T, open Opener) {
	s := open(t)
	seedAttemptJob(t, s, "W1", "flaky", "other")
	const id = "W1@flaky"
	if got := listAttempts(t, s, id); len(got) != 0 {
		t.Fatalf("a fresh action has attempts: %+v", got)
	}
	first := store.ActionAttempt{ActionID: id, JobID: "W1", Attempt: 1,
		StartTime: t0.Add(123456789 * time.Nanosecond), EndTime: t0.Add(time.Minute),
		ConsoleURL: "http://rm:8088/proxy/application_1_0001/", ExternalID: "application_1_0001",
		ExternalChildIDs: "job_1_0002,job_1_0003", ExternalStatus: "FAILED/KILLED", ErrorCode: "JA018",
		ErrorMessage: "Main Class [Shell], exit code [1]"}
	// The second attempt's start is written when it launches, its end when
	// its own retry is decided; written out of order on purpose.
	second := store.ActionAttempt{ActionID: id, JobID: "W1", Attempt: 2, StartTime: t0.Add(2 * time.Minute)}
	record(t, s, second, first)
	record(t, s, store.ActionAttempt{ActionID: id, JobID: "W1", Attempt: 2, EndTime: t0.Add(3 * time.Minute),
		ExternalID: "application_1_0004", ErrorCode: "JA009", ErrorMessage: "connection reset"})
	first.StartTime = first.StartTime.Truncate(time.Millisecond) // what the store keeps
	wantSecond := store.ActionAttempt{ActionID: id, JobID: "W1", Attempt: 2, StartTime: t0.Add(2 * time.Minute),
		EndTime: t0.Add(3 * time.Minute), ExternalID: "application_1_0004", ErrorCode: "JA009", ErrorMessage: "connection reset"}
	want := []store.ActionAttempt{first, wantSecond}
	if got := listAttempts(t, s, id); !reflect.DeepEqual(got, want) {
		t.Fatalf("attempts\n got %+v\nwant %+v", got, want)
	}

	// Writing an attempt again (a replayed write) never doubles it, and
	// empty fields keep what is stored.
	record(t, s, first, store.ActionAttempt{ActionID: id, JobID: "W1", Attempt: 1})
	if got := listAttempts(t, s, id); !reflect.DeepEqual(got, want) {
		t.Fatalf("after writing attempt 1 again\n got %+v\nwant %+v", got, want)
	}
	// Set fields overwrite.
	record(t, s, store.ActionAttempt{ActionID: id, JobID: "W1", Attempt: 1, ConsoleURL: "http://rm2/proxy/x/"})
	if got := listAttempts(t, s, id); len(got) != 2 || got[0].ConsoleURL != "http://rm2/proxy/x/" || got[0].ErrorCode != "JA018" {
		t.Fatalf("after changing the console URL: %+v", got)
	}
	// Attempts are the action's own.
	if got := listAttempts(t, s, "W1@other"); len(got) != 0 {
		t.Fatalf("another action has attempts: %+v", got)
	}

	bad := []store.ActionAttempt{
		{ActionID: id, JobID: "W1", Attempt: 0},
		{ActionID: id, JobID: "W1", Attempt: -1},
		{ActionID: "", JobID: "W1", Attempt: 1},
		{ActionID: id, JobID: "", Attempt: 3},
		{ActionID: "W1@ghost", JobID: "W1", Attempt: 1}, // no such action
	}
	for _, a := range bad {
		err := s.Tx(ctx, func(x store.Tx) error { return x.RecordActionAttempt(ctx, a) })
		if err == nil {
			t.Errorf("attempt %+v was accepted", a)
		}
	}
	if got := listAttempts(t, s, "W1@ghost"); len(got) != 0 {
		t.Fatalf("an unknown action has attempts: %+v", got)
	}
	if got := listAttempts(t, s, id); len(got) != 2 {
		t.Fatalf("refused attempts changed the history: %+v", got)
	}
}

// testActionAttemptsRollback: an attempt is written in the transaction of
// the retry it belongs to, so it is lost exactly when that is.
func testActionAttemptsRollback(t *testing.T, open Opener) {
	s := open(t)
	seedAttemptJob(t, s, "W2", "flaky")
	boom := errors.New("crash before commit")
	err := s.Tx(ctx, func(x store.Tx) error {
		a, err := x.GetWorkflowAction(ctx, "W2@flaky")
		if err != nil {
			return err
		}
		a.UserRetryCount = 1
		if err := x.UpdateWorkflowAction(ctx, &a); err != nil {
			return err
		}
		if err := x.RecordActionAttempt(ctx, store.ActionAttempt{ActionID: a.ID, JobID: a.JobID, Attempt: 1,
			StartTime: t0, EndTime: t0.Add(time.Second)}); err != nil {
			return err
		}
		return boom
	})
	wantErr(t, err, boom)
	if got := listAttempts(t, s, "W2@flaky"); len(got) != 0 {
		t.Fatalf("a rolled-back attempt was kept: %+v", got)
	}
	var a store.WorkflowAction
	tx(t, s, func(x store.Tx) (err error) {
		a, err = x.GetWorkflowAction(ctx, "W2@flaky")
		return err
	})
	if a.UserRetryCount != 0 {
		t.Fatalf("rolled-back retry count %d", a.UserRetryCount)
	}
}

func testActionAttemptsGoWithAction(t *testing.T, open Opener) {
	s := open(t)
	seedAttemptJob(t, s, "W3", "a", "b")
	seedAttemptJob(t, s, "W4", "a")
	for _, id := range []string{"W3@a", "W3@b", "W4@a"} {
		job := id[:2]
		record(t, s, store.ActionAttempt{ActionID: id, JobID: job, Attempt: 1, StartTime: t0, EndTime: t0.Add(time.Second)},
			store.ActionAttempt{ActionID: id, JobID: job, Attempt: 2, StartTime: t0.Add(time.Minute)})
	}
	// A rerun deletes an action it runs again and inserts it anew: the new
	// action starts without history; the skipped one keeps its own.
	tx(t, s, func(x store.Tx) error {
		if err := x.DeleteWorkflowAction(ctx, "W3@a"); err != nil {
			return err
		}
		a := store.WorkflowAction{ID: "W3@a", JobID: "W3", Name: "a", Type: "shell", Status: store.ActionPrep, CreatedTime: t0}
		return x.InsertWorkflowAction(ctx, &a)
	})
	if got := listAttempts(t, s, "W3@a"); len(got) != 0 {
		t.Fatalf("a re-created action kept the attempts of the old one: %+v", got)
	}
	if got := listAttempts(t, s, "W3@b"); len(got) != 2 {
		t.Fatalf("the other action lost its attempts: %+v", got)
	}
	tx(t, s, func(x store.Tx) error { return x.DeleteWorkflowJob(ctx, "W3") })
	if got := listAttempts(t, s, "W3@b"); len(got) != 0 {
		t.Fatalf("a deleted job's action kept its attempts: %+v", got)
	}
	// The job can come back under its id with a clean history.
	seedAttemptJob(t, s, "W3", "b")
	if got := listAttempts(t, s, "W3@b"); len(got) != 0 {
		t.Fatalf("a new job inherited attempts: %+v", got)
	}
	if got := listAttempts(t, s, "W4@a"); len(got) != 2 {
		t.Fatalf("another job lost its attempts: %+v", got)
	}
}

// testActionAttemptsPurged: a purged workflow's attempts go with it, those
// of the workflows that stay stay, whichever pass removes the workflow.
func testActionAttemptsPurged(t *testing.T, open Opener) {
	s := open(t)
	seed(t, s, func(sd *seeder) {
		sd.wf("W-old", "", store.WorkflowSucceeded, ageOld, "a")
		sd.wf("W-young", "", store.WorkflowSucceeded, ageYoung, "a")
		sd.coord("C-run", "", store.JobRunning, ageOld)
		sd.wf("W-c1", sd.action("C-run", 1, store.CoordActionSucceeded, ageOld), store.WorkflowSucceeded, ageOld, "a")
	})
	for _, job := range []string{"W-old", "W-young", "W-c1"} {
		record(t, s, store.ActionAttempt{ActionID: job + "@a", JobID: job, Attempt: 1, StartTime: ageOld, EndTime: ageOld})
	}
	purgeAll(t, s, purgeCuts, 1, true)
	for job, stays := range map[string]bool{"W-old": false, "W-young": true, "W-c1": false} {
		got := listAttempts(t, s, job+"@a")
		if stays != (len(got) == 1) {
			t.Errorf("%s: attempts after the purge %+v, want them kept: %v", job, got, stays)
		}
	}
	// The purged action ids are free again, with no history left behind.
	seedAttemptJob(t, s, "W-old", "a")
	if got := listAttempts(t, s, "W-old@a"); len(got) != 0 {
		t.Fatalf("a purged action's attempts came back: %+v", got)
	}
}
