package coordrun

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// TestSuspendResumeKillCascade: suspending a job suspends its running
// workflows and their actions, resuming resumes them, killing kills the
// job, its actions and their workflows (the executor's Kill is called).
// Commands on a job in the wrong state do nothing and are not errors.
func TestSuspendResumeKillCascade(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.app("cascade", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T03:00Z",
		"<concurrency>2</concurrency>", false))
	id := w.submit(w.props(app))
	w.settle()
	if st := w.statuses(id); !slices.Equal(st, []store.CoordActionStatus{"RUNNING", "RUNNING", "READY"}) {
		t.Fatalf("statuses %v", st)
	}
	if err := w.coords.Resume(bg, id); err != nil { // not suspended: a no-op
		t.Fatal(err)
	}
	if err := w.coords.Suspend(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if j := w.job(id); j.Status != store.JobSuspended || j.SuspendedTime.IsZero() {
		t.Fatalf("job %s suspended at %v", j.Status, j.SuspendedTime)
	}
	acts := w.actions(id)
	for _, a := range acts[:2] {
		if a.Status != store.CoordActionSuspended || a.Pending {
			t.Fatalf("%s is %s pending %v, want SUSPENDED and done", a.ID, a.Status, a.Pending)
		}
		if wf := w.workflow(a.ExternalID); wf.Status != store.WorkflowSuspended {
			t.Fatalf("workflow of %s is %s", a.ID, wf.Status)
		}
	}
	if acts[2].Status != store.CoordActionReady {
		t.Fatalf("the ready action started while suspended: %s", acts[2].Status)
	}
	// A workflow ending while suspended still ends its action; the free
	// slot is not used until the job resumes.
	w.complete(acts[0].ID, workflow.OutcomeOK)
	w.settle()
	if st := w.statuses(id); st[0] != store.CoordActionSuspended && st[0] != store.CoordActionSucceeded || st[2] != store.CoordActionReady {
		t.Fatalf("after a completion while suspended: %v", st)
	}
	if err := w.coords.Resume(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if j := w.job(id); j.Status != store.JobRunning {
		t.Fatalf("resumed job is %s", j.Status)
	}
	acts = w.actions(id)
	if acts[0].Status != store.CoordActionSucceeded || acts[1].Status != store.CoordActionRunning || acts[2].Status != store.CoordActionRunning {
		t.Fatalf("after resume: %v", w.statuses(id))
	}
	if wf := w.workflow(acts[1].ExternalID); wf.Status != store.WorkflowRunning {
		t.Fatalf("workflow of %s is %s after resume", acts[1].ID, wf.Status)
	}
	if err := w.coords.Kill(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	job := w.waitJobStatus(id, store.JobKilled)
	if !job.DoneMaterialization || job.Pending {
		t.Fatalf("killed job: done %v pending %v", job.DoneMaterialization, job.Pending)
	}
	acts = w.actions(id)
	for _, a := range acts[1:] {
		if a.Status != store.CoordActionKilled {
			t.Fatalf("%s is %s after kill", a.ID, a.Status)
		}
		if wf := w.workflow(a.ExternalID); wf.Status != store.WorkflowKilled {
			t.Fatalf("workflow of %s is %s after kill", a.ID, wf.Status)
		}
		run, _ := w.exec.RunOf(a.ExternalID)
		w.waitFor("the executor to kill "+a.ID, func() bool { return w.exec.WasKilled(run.Tag) })
	}
	for _, cmd := range []func() error{
		func() error { return w.coords.Kill(bg, id) },
		func() error { return w.coords.Suspend(bg, id) },
		func() error { return w.coords.Resume(bg, id) },
	} {
		if err := cmd(); err != nil {
			t.Fatalf("command on a killed job: %v", err)
		}
	}
	if j := w.job(id); j.Status != store.JobKilled {
		t.Fatalf("a command changed a killed job to %s", j.Status)
	}
	if err := w.coords.Kill(bg, "0000099-000000000000000-none-C"); ErrorCode(err) != oozieerr.E0604 {
		t.Fatalf("kill of an unknown job: %v", err)
	}
}

// TestSuspendPrepJob: a job suspended before it materializes is
// PREPSUSPENDED, materializes nothing, and catches up when resumed.
func TestSuspendPrepJob(t *testing.T) {
	t.Parallel()
	w := setup(t, options{noStart: true, auto: true})
	app := w.app("prep", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T02:00Z", "", false))
	id := w.submit(w.props(app))
	if err := w.coords.Suspend(bg, id); err != nil {
		t.Fatal(err)
	}
	w.start()
	w.settle()
	if j := w.job(id); j.Status != store.JobPrepSuspended || len(w.actions(id)) != 0 {
		t.Fatalf("job %s with %d actions", j.Status, len(w.actions(id)))
	}
	if err := w.coords.Resume(bg, id); err != nil {
		t.Fatal(err)
	}
	w.waitJobStatus(id, store.JobSucceeded)
	if n := len(w.actions(id)); n != 2 {
		t.Fatalf("%d actions after resume, want 2", n)
	}
}

// TestChangeEndTimeAndPauseTime: moving the end time back deletes the
// look-ahead actions that have not started and ends the job; pausetime stops
// materialization at the pause time and pauses the job; clearing it resumes.
func TestChangeEndTimeAndPauseTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: now, auto: true})
	app := w.app("change", coordXML("${coord:minutes(10)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
		"<concurrency>-1</concurrency>", true))
	id := w.submit(w.props(app))
	w.settle()
	if n := len(w.actions(id)); n != 6 {
		t.Fatalf("%d actions in the first window, want 6", n)
	}
	if err := w.coords.Change(bg, id, "endtime=2010-01-01T00:30Z"); err != nil {
		t.Fatal(err)
	}
	w.settle()
	acts := w.actions(id)
	if len(acts) != 3 {
		t.Fatalf("%d actions after moving the end to 00:30, want 3", len(acts))
	}
	job := w.job(id)
	if !job.EndTime.Equal(now.Add(30*time.Minute)) || !job.DoneMaterialization || job.LastActionNumber != 3 ||
		!job.NextMaterializedTime.Equal(now.Add(30*time.Minute)) {
		t.Fatalf("job after endtime change: %+v", job)
	}
	// The deleted actions no longer wait (all six wait on the same hourly
	// instance).
	var waiters []string
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { waiters, err = x.ListCoordWaiters(bg, w.logURI(now)); return }); err != nil {
		t.Fatal(err)
	}
	if want := []string{ActionIDOf(id, 1), ActionIDOf(id, 2), ActionIDOf(id, 3)}; !slices.Equal(waiters, want) {
		t.Fatalf("waiting on %s: %v, want %v", w.logURI(now), waiters, want)
	}
	// Moving the end later again materializes up to it.
	if err := w.coords.Change(bg, id, "endtime=2010-01-01T01:00Z;pausetime=2010-01-01T00:50Z"); err != nil {
		t.Fatal(err)
	}
	w.settle()
	// The next materialization (00:30) is beyond the look-ahead: it waits.
	if due, _ := w.triggerDue(KindMaterialize, id); len(w.actions(id)) != 3 || !due.Equal(now.Add(25*time.Minute)) {
		t.Fatalf("%d actions, materialization due %v, want 3 and 00:25", len(w.actions(id)), due)
	}
	w.advance(25 * time.Minute)
	if n := len(w.actions(id)); n != 5 {
		t.Fatalf("%d actions at 00:25 with end 01:00 and pause 00:50, want 5", n)
	}
	w.advance(25 * time.Minute) // 00:50: the pause time
	w.waitJobStatus(id, store.JobPaused)
	if n := len(w.actions(id)); n != 5 {
		t.Fatalf("%d actions at the pause time, want 5", n)
	}
	if err := w.coords.Change(bg, id, "pausetime="); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if j := w.job(id); j.Status != store.JobRunning {
		t.Fatalf("after clearing the pause time: %s", j.Status)
	}
	if n := len(w.actions(id)); n != 6 {
		t.Fatalf("%d actions after clearing the pause time, want 6", n)
	}
	for _, tc := range []struct {
		value string
		code  oozieerr.Code
	}{
		{"endtime=yesterday", "E1015"},
		{"concurrency=2;concurrency=3", "E1015"},
		{"color=blue", "E1015"},
	} {
		if err := w.coords.Change(bg, id, tc.value); ErrorCode(err) != tc.code {
			t.Errorf("change %q: %v, want %s", tc.value, err, tc.code)
		}
	}
	// An action that started cannot be taken back (E1022).
	w.touch(w.logURI(now) + "/_SUCCESS")
	w.notify(w.logURI(now))
	w.waitActionStatus(ActionIDOf(id, 1), store.CoordActionSucceeded)
	if err := w.coords.Change(bg, id, "endtime=2010-01-01T00:00Z"); ErrorCode(err) != oozieerr.E1022 {
		t.Fatalf("moving the end before a finished action: %v, want E1022", err)
	}
	// A killed job takes no change but of its status (E1016).
	other := w.submit(w.props(app))
	if err := w.coords.Kill(bg, other); err != nil {
		t.Fatal(err)
	}
	if err := w.coords.Change(bg, other, "endtime=2010-01-03T00:00Z"); ErrorCode(err) != oozieerr.E1016 {
		t.Fatalf("changing a killed job: %v, want E1016", err)
	}
}

func (w *world) notify(uri string) {
	w.t.Helper()
	if _, err := w.coords.Notify(bg, uri); err != nil {
		w.t.Fatal(err)
	}
}

// TestNotifyWakesAtOnce: a waiting action is checked the moment its input
// is notified, without the clock moving; without a notification it is found
// by its next poll, whose delay grows with how long it has waited.
func TestNotifyWakesAtOnce(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	w := setup(t, options{now: now, auto: true})
	app := w.app("notify", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T02:00Z", "", true))
	id := w.submit(w.props(app))
	w.settle()
	a1 := ActionIDOf(id, 1)
	w.advance(80 * time.Second)
	due, _ := w.triggerDue(KindInputCheck, a1)
	if d := due.Sub(w.clock.Now()); d < 9*time.Second || d > 11*time.Second {
		// a sixteenth of 80 s, plus as much again for a claim 79 s late
		t.Fatalf("next check in %v after 80s of waiting, want 2 × 5s (10s)", d)
	}
	u := w.logURI(now)
	w.touch(u + "/_SUCCESS")
	if n, err := w.coords.Notify(bg, u+"/"); err != nil || n != 1 {
		t.Fatalf("notify woke %d (%v), want 1", n, err)
	}
	w.waitActionStatus(a1, store.CoordActionSucceeded)
	// The second action is found by polling.
	w.advance(time.Hour) // 01:01:20, action 2 due at 01:00
	w.touch(w.logURI(now.Add(time.Hour)) + "/_SUCCESS")
	w.settle()
	if a := w.action(ActionIDOf(id, 2)); a.Status != store.CoordActionWaiting {
		t.Fatalf("action 2 is %s before its next poll", a.Status)
	}
	w.advance(15 * time.Second)
	w.waitActionStatus(ActionIDOf(id, 2), store.CoordActionSucceeded)
	w.waitJobStatus(id, store.JobSucceeded)
}

// TestRerun reruns finished actions: a plain rerun starts a new workflow
// after deleting the outputs, -nocleanup keeps them, -refresh materializes
// again (a new actual time, inputs checked again), -failed reruns the same
// workflow's failed nodes with the rerun configuration.
func TestRerun(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC)
	w := setup(t, options{now: now})
	xml := strings.Replace(coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T02:00Z",
		"<concurrency>-1</concurrency>", true), "<action>", `<output-events>
    <data-out name="out" dataset="logs"><instance>${coord:current(24)}</instance></data-out>
  </output-events>
  <action>`, 1)
	app := w.app("rerun", xml)
	id := w.submit(w.props(app))
	for h := 0; h < 2; h++ {
		w.touch(w.logURI(time.Date(2010, 1, 1, h, 0, 0, 0, time.UTC)) + "/_SUCCESS")
	}
	w.settle()
	w.advance(time.Minute)
	a1, a2 := ActionIDOf(id, 1), ActionIDOf(id, 2)
	w.waitActionStatus(a1, store.CoordActionRunning)
	w.waitActionStatus(a2, store.CoordActionRunning)
	w.complete(a1, workflow.OutcomeOK)
	w.complete(a2, workflow.OutcomeFailed)
	w.waitActionStatus(a1, store.CoordActionSucceeded)
	w.waitActionStatus(a2, store.CoordActionFailed)
	w.waitJobStatus(id, store.JobDoneWithError)

	// Rerun of a running job's unfinished actions is refused.
	out1 := w.logURI(time.Date(2010, 1, 2, 0, 0, 0, 0, time.UTC))
	w.touch(out1 + "/part-0")
	first := w.action(a1)
	got, err := w.coords.Rerun(bg, id, RerunOptions{Type: ScopeAction, Scope: "1", NoCleanup: true})
	if err != nil || len(got) != 1 || got[0].Status != store.CoordActionWaiting {
		t.Fatalf("rerun -nocleanup: %v %+v", err, got)
	}
	if _, err := os.Stat(w.local(out1) + "/part-0"); err != nil {
		t.Fatalf("-nocleanup deleted the output: %v", err)
	}
	a := w.waitActionStatus(a1, store.CoordActionRunning)
	if a.ExternalID == first.ExternalID || a.ExternalID == "" {
		t.Fatalf("rerun kept workflow %s", a.ExternalID)
	}
	if _, err := w.coords.Rerun(bg, id, RerunOptions{Type: ScopeAction, Scope: "1"}); ErrorCode(err) != oozieerr.E1018 {
		t.Fatalf("rerun of a running action: %v, want E1018", err)
	}
	w.complete(a1, workflow.OutcomeOK)
	w.waitActionStatus(a1, store.CoordActionSucceeded)

	// A plain rerun deletes the output, -refresh takes a new actual time.
	w.advance(time.Hour)
	got, err = w.coords.Rerun(bg, id, RerunOptions{Type: ScopeDate, Scope: "2010-01-01T00:00Z", Refresh: true})
	if err != nil || len(got) != 1 || got[0].ID != a1 {
		t.Fatalf("rerun -refresh by date: %v %+v", err, got)
	}
	if _, err := os.Stat(w.local(out1)); !os.IsNotExist(err) {
		t.Fatalf("the output was not deleted: %v", err)
	}
	if !strings.Contains(got[0].ActionXML, `action-actual-time="2010-01-01T04:01Z"`) || !got[0].CreatedTime.Equal(w.clock.Now()) {
		t.Fatalf("refreshed action: created %v\n%s", got[0].CreatedTime, got[0].ActionXML)
	}
	w.waitActionStatus(a1, store.CoordActionRunning)
	w.complete(a1, workflow.OutcomeOK)
	w.waitActionStatus(a1, store.CoordActionSucceeded)

	// -failed reruns the same workflow with the rerun configuration.
	failedWF := w.action(a2).ExternalID
	rc := conf.NewProperties("extra", "42")
	runsBefore := len(w.exec.Started())
	if _, err := w.coords.Rerun(bg, id, RerunOptions{Type: ScopeAction, Scope: "2", Failed: true, Conf: rc}); err != nil {
		t.Fatal(err)
	}
	a = w.waitActionStatus(a2, store.CoordActionRunning)
	w.waitFor("the failed node to run again", func() bool { return len(w.exec.Started()) > runsBefore })
	if a.ExternalID != failedWF {
		t.Fatalf("-failed ran workflow %s, want the same %s", a.ExternalID, failedWF)
	}
	wf := w.workflow(failedWF)
	cp, err := conf.ReadConfigurationXML(strings.NewReader(wf.Conf), "conf")
	if err != nil {
		t.Fatal(err)
	}
	if cp.Value("extra") != "42" || cp.Value("oozie.wf.rerun.failnodes") != "true" || wf.Run != 1 {
		t.Fatalf("rerun workflow: run %d extra %q failnodes %q", wf.Run, cp.Value("extra"), cp.Value("oozie.wf.rerun.failnodes"))
	}
	w.complete(a2, workflow.OutcomeOK)
	w.waitActionStatus(a2, store.CoordActionSucceeded)
	w.waitJobStatus(id, store.JobSucceeded)

	for _, tc := range []struct {
		opts RerunOptions
		code oozieerr.Code
	}{
		{RerunOptions{Type: ScopeAction, Scope: "9"}, oozieerr.E1018},
		{RerunOptions{Type: ScopeAction, Scope: "2-1"}, "E0302"},
		{RerunOptions{Type: "hour", Scope: "1"}, "E0302"},
		{RerunOptions{Type: ScopeDate, Scope: "2010-13-01T00:00Z"}, "E0302"},
	} {
		if _, err := w.coords.Rerun(bg, id, tc.opts); ErrorCode(err) != tc.code {
			t.Errorf("rerun %+v: %v, want %s", tc.opts, err, tc.code)
		}
	}
}

// TestKillAndIgnoreActions: killing actions in scope kills the unfinished
// ones only; ignoring takes failed, killed or timed-out actions out of the
// job's status; a FAILED or KILLED job can be ignored.
func TestKillAndIgnoreActions(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.app("ignore", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T03:00Z",
		"<concurrency>-1</concurrency>", false))
	id := w.submit(w.props(app))
	w.settle()
	w.complete(ActionIDOf(id, 1), workflow.OutcomeOK)
	w.waitActionStatus(ActionIDOf(id, 1), store.CoordActionSucceeded)
	killed, err := w.coords.KillActions(bg, id, ScopeAction, "1-2")
	if err != nil || len(killed) != 1 || killed[0].ID != ActionIDOf(id, 2) {
		t.Fatalf("kill actions 1-2: %v %+v", err, killed)
	}
	w.settle()
	if st := w.statuses(id); !slices.Equal(st, []store.CoordActionStatus{"SUCCEEDED", "KILLED", "RUNNING"}) {
		t.Fatalf("after killing 1-2: %v", st)
	}
	if _, err := w.coords.IgnoreActions(bg, id, ScopeAction, "1-2"); ErrorCode(err) != oozieerr.E1024 {
		t.Fatalf("ignoring a succeeded action: %v, want E1024", err)
	}
	if err := w.coords.Ignore(bg, id); ErrorCode(err) != oozieerr.E1024 {
		t.Fatalf("ignoring a running job: %v, want E1024", err)
	}
	w.complete(ActionIDOf(id, 3), workflow.OutcomeOK)
	w.waitJobStatus(id, store.JobDoneWithError)
	ignored, err := w.coords.IgnoreActions(bg, id, ScopeAction, "2")
	if err != nil || len(ignored) != 1 || ignored[0].Status != store.CoordActionIgnored {
		t.Fatalf("ignore action 2: %v %+v", err, ignored)
	}
	// With the killed action ignored, the job succeeded.
	w.waitJobStatus(id, store.JobSucceeded)
}

// TestIgnoreKilledJob: a killed job becomes IGNORED.
func TestIgnoreKilledJob(t *testing.T) {
	t.Parallel()
	w := setup(t, options{})
	app := w.app("ignorejob", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2010-01-01T01:00Z", "", false))
	id := w.submit(w.props(app))
	w.settle()
	if err := w.coords.Kill(bg, id); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if err := w.coords.Ignore(bg, id); err != nil {
		t.Fatal(err)
	}
	if j := w.job(id); j.Status != store.JobIgnored {
		t.Fatalf("job is %s", j.Status)
	}
	if _, err := w.coords.Rerun(bg, id, RerunOptions{Type: ScopeAction, Scope: "1"}); ErrorCode(err) != oozieerr.E1018 {
		t.Fatalf("rerun of an ignored job: %v, want E1018", err)
	}
}
