package miniyarn_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

func TestLenientSuccessWalksTheStatePath(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	id := c.submit(t, "echo hello-from-am 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", nil)
	r := c.waitDone(t, id)
	if r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		t.Fatalf("got %s/%s (diag %q), want FINISHED/SUCCEEDED", r.State, r.FinalStatus, r.Diagnostics)
	}
	want := []yarn.AppState{yarn.StateNew, yarn.StateNewSaving, yarn.StateSubmitted, yarn.StateAccepted, yarn.StateRunning, yarn.StateFinished}
	if got := c.states(id); !slices.Equal(got, want) {
		t.Errorf("transitions = %v, want %v", got, want)
	}
	if r.User != testUser || r.Queue != "default" || r.ApplicationType != "GOZIE" || r.Progress != 100 {
		t.Errorf("report fields: user=%q queue=%q type=%q progress=%v", r.User, r.Queue, r.ApplicationType, r.Progress)
	}
	if r.StartedTime.IsZero() || r.FinishedTime.Before(r.StartedTime) || r.TrackingUI != yarn.TrackingHistory {
		t.Errorf("times/tracking: started=%v finished=%v ui=%q", r.StartedTime, r.FinishedTime, r.TrackingUI)
	}
	status, _, body := httpDo(t, "GET", r.AMContainerLogs+"/stdout/?start=-4096", "", "")
	if status != 200 || strings.TrimSpace(body) != "hello-from-am" {
		t.Errorf("stdout log: %d %q", status, body)
	}
	status, _, body = httpDo(t, "GET", r.AMContainerLogs, "", "")
	if status != 200 || !strings.Contains(body, "stdout") || !strings.Contains(body, "prelaunch.out") {
		t.Errorf("log listing: %d %q", status, body)
	}
}

func TestAMExitWithoutUnregisterFailsInStrictMode(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{})
	id := c.submit(t, "exit 0", func(sc *yarn.ApplicationSubmissionContext) { sc.MaxAppAttempts = 2 })
	r := c.waitDone(t, id)
	if r.State != yarn.StateFailed || r.FinalStatus != yarn.FinalFailed {
		t.Fatalf("got %s/%s, want FAILED/FAILED", r.State, r.FinalStatus)
	}
	for _, want := range []string{
		"Application " + id.String() + " failed 2 times due to AM Container for appattempt_",
		"_000002 exited with  exitCode: 0\nFailing this attempt.",
		"Failing the application.",
	} {
		if !strings.Contains(r.Diagnostics, want) {
			t.Errorf("diagnostics %q lack %q", r.Diagnostics, want)
		}
	}
	attempts, err := c.client.Attempts(ctxT(t), id)
	if err != nil {
		t.Fatalf("Attempts: %v", err)
	}
	if len(attempts) != 2 {
		t.Fatalf("got %d attempts, want 2", len(attempts))
	}
	for i, a := range attempts {
		want := yarn.ContainerID{Attempt: yarn.AttemptID{App: id, Attempt: int64(i + 1)}, Container: 1}.String()
		if a.ContainerID != want || a.AppAttemptState != "FAILED" {
			t.Errorf("attempt %d: container %q state %q, want %q FAILED", i+1, a.ContainerID, a.AppAttemptState, want)
		}
	}
	// Without registering, the application never ran as far as YARN knows.
	if slices.Contains(c.states(id), yarn.StateRunning) {
		t.Errorf("strict mode reported RUNNING without a registered AM: %v", c.states(id))
	}
}

func TestFailedCommandInLenientMode(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	id := c.submit(t, "exit 3", nil)
	r := c.waitDone(t, id)
	if r.State != yarn.StateFailed || r.FinalStatus != yarn.FinalFailed {
		t.Fatalf("got %s/%s, want FAILED/FAILED", r.State, r.FinalStatus)
	}
	if !strings.Contains(r.Diagnostics, "failed 1 times") || !strings.Contains(r.Diagnostics, "exitCode: 3") {
		t.Errorf("diagnostics %q", r.Diagnostics)
	}
}

func TestMaxAppAttemptsIsCappedByTheCluster(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true, MaxAMAttempts: 3})
	id := c.submit(t, "exit 1", func(sc *yarn.ApplicationSubmissionContext) { sc.MaxAppAttempts = 50 })
	r := c.waitDone(t, id)
	if !strings.Contains(r.Diagnostics, "failed 3 times") {
		t.Errorf("diagnostics %q, want 3 attempts", r.Diagnostics)
	}
	attempts, err := c.client.Attempts(ctxT(t), id)
	if err != nil || len(attempts) != 3 {
		t.Fatalf("Attempts = %d, %v; want 3", len(attempts), err)
	}
}

func TestHoldAccepted(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.HoldAccepted(true)
	id := c.submit(t, "true", nil)
	r, err := c.client.App(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if r.State != yarn.StateAccepted || r.FinalStatus != yarn.FinalUndefined || r.TrackingUI != yarn.TrackingUnassigned {
		t.Fatalf("held app: %s/%s ui=%s", r.State, r.FinalStatus, r.TrackingUI)
	}
	list, err := c.client.Apps(ctxT(t), yarn.AppsFilter{States: []yarn.AppState{yarn.StateAccepted}})
	if err != nil || len(list) != 1 || list[0].ID != id {
		t.Fatalf("Apps(ACCEPTED) = %v, %v", list, err)
	}
	c.rm.HoldAccepted(false)
	if r := c.waitDone(t, id); !r.Succeeded() {
		t.Fatalf("released app ended %s/%s", r.State, r.FinalStatus)
	}
}

func TestUnknownQueueFails(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	id := c.submit(t, "true", func(sc *yarn.ApplicationSubmissionContext) { sc.Queue = "nightly" })
	r := c.waitDone(t, id)
	if r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, "unknown queue: nightly") {
		t.Fatalf("got %s diag %q", r.State, r.Diagnostics)
	}
}

func TestKillEscalatesToSIGKILLAndEmptiesTheGroup(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	// The child ignores SIGTERM, so only the SIGKILL after the grace period ends it.
	id := c.submit(t, `bash -c "trap '' TERM; sleep 300" & echo started > <LOG_DIR>/stdout; wait`, nil)
	r := c.waitApp(t, id, "the container to start", func(r yarn.AppReport) bool {
		if r.State != yarn.StateRunning {
			return false
		}
		_, _, body := httpDo(t, "GET", r.AMContainerLogs+"/stdout", "", "")
		return strings.Contains(body, "started")
	})
	pgid := c.rm.ContainerProcessGroup(id)
	if pgid <= 0 || !testproc.GroupAlive(t, pgid) {
		t.Fatalf("no live process group for the running container (pgid %d)", pgid)
	}
	if err := c.client.Kill(ctxT(t), id); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	r = c.waitDone(t, id)
	if r.State != yarn.StateKilled || r.FinalStatus != yarn.FinalKilled || r.Diagnostics != "Application killed by user." {
		t.Fatalf("got %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	testproc.WaitGroupGone(t, waitTimeout, pgid)
	// Killing again is harmless and answers 200 with the final state.
	status, _, body := httpDo(t, "PUT", c.rm.WebURL()+"/ws/v1/cluster/apps/"+id.String()+"/state?user.name=alice", "application/json", `{"state":"KILLED"}`)
	if status != 200 || !strings.Contains(body, `"KILLED"`) {
		t.Errorf("second kill: %d %s", status, body)
	}
}

func TestKillHeldApplication(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{})
	c.rm.HoldAccepted(true)
	id := c.submit(t, "sleep 300", nil)
	if err := c.client.Kill(ctxT(t), id); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	r, err := c.client.App(ctxT(t), id)
	if err != nil || r.State != yarn.StateKilled {
		t.Fatalf("after kill: %v %v", r.State, err)
	}
	c.rm.HoldAccepted(false) // must not launch the killed application
	if got := c.states(id); got[len(got)-1] != yarn.StateKilled {
		t.Errorf("transitions %v", got)
	}
}

func TestForget(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.HoldAccepted(true)
	id := c.submit(t, "true", nil)
	if err := c.rm.Forget(id); err == nil {
		t.Fatal("Forget of an unfinished application succeeded")
	}
	c.rm.HoldAccepted(false)
	c.waitDone(t, id)
	if err := c.rm.Forget(id); err != nil {
		t.Fatalf("Forget: %v", err)
	}
	status, _, body := httpDo(t, "GET", c.rm.WebURL()+"/ws/v1/cluster/apps/"+id.String()+"?user.name=alice", "", "")
	if status != 404 {
		t.Fatalf("forgotten app answered %d", status)
	}
	re := remoteException(t, body)
	if re.Exception != "NotFoundException" || re.Message != "java.lang.Exception: app with id: "+id.String()+" not found" {
		t.Errorf("404 body %+v", re)
	}
	if len(c.rm.Apps()) != 0 {
		t.Errorf("Apps() still lists %d apps", len(c.rm.Apps()))
	}
}

func TestDuplicateSubmissionIsANoOp(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.HoldAccepted(true)
	id := c.submit(t, "true", nil)
	sc := yarn.ApplicationSubmissionContext{ApplicationID: id, AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"false"}}}
	if err := c.client.Submit(ctxT(t), sc); err != nil {
		t.Fatalf("resubmission: %v", err)
	}
	if n := len(c.rm.Apps()); n != 1 {
		t.Fatalf("%d apps after resubmission", n)
	}
	c.rm.HoldAccepted(false)
	if r := c.waitDone(t, id); !r.Succeeded() {
		t.Fatalf("the first submission's command did not run: %s/%s", r.State, r.FinalStatus)
	}
}

func TestInjectedLaunchFailuresUseUpAttempts(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	c.rm.FailNextLaunches(1)
	retried := c.submit(t, "true", func(sc *yarn.ApplicationSubmissionContext) { sc.MaxAppAttempts = 2 })
	if r := c.waitDone(t, retried); !r.Succeeded() {
		t.Fatalf("one injected failure with two attempts: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	attempts, err := c.client.Attempts(ctxT(t), retried)
	if err != nil || len(attempts) != 2 || attempts[0].AppAttemptState != "FAILED" || !strings.Contains(attempts[0].Diagnostics, "Injected launch failure") {
		t.Fatalf("attempts %+v, %v", attempts, err)
	}
	c.rm.FailNextLaunches(1)
	failed := c.submit(t, "true", nil)
	r := c.waitDone(t, failed)
	if r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, "exitCode: -1") {
		t.Fatalf("one injected failure with one attempt: %s %q", r.State, r.Diagnostics)
	}
}
