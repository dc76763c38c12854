package miniyarn_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// TestWorkPreservingRestart stops the RM while an AM runs and a second
// container ends, and starts it again: the containers keep running while it
// is down and nothing of the RM listens; back on the same addresses, it
// has recovered the applications: the AM must register again (its token
// still valid), and the container that ended meanwhile is accounted (its
// AM never unregistered: the attempt fails). A failover works after it.
func TestWorkPreservingRestart(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Standbys: 1})
	web, sched := c.rm.WebAddrs(), c.rm.SchedulerAddrs()
	id, out := submitWaitingAM(t, c)
	tok, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	am := mustDialRawAM(t, sched[0], tok)
	if err := am.register(); err != nil {
		t.Fatal(err)
	}
	pgid := c.rm.ContainerProcessGroup(id)

	stopFile := filepath.Join(t.TempDir(), "stop")
	quitter := c.submit(t, `while [ ! -e "$STOP" ]; do sleep 0.02; done`, func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.Environment = yarn.EntryMap[string]{"STOP": stopFile}
	})
	c.waitApp(t, quitter, "its container", func(yarn.AppReport) bool { return c.rm.ContainerProcessGroup(quitter) > 0 })
	quitterPG := c.rm.ContainerProcessGroup(quitter)

	if err := c.rm.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.rm.Stop(); err == nil {
		t.Error("stopping a stopped RM succeeded")
	}
	for _, a := range append(slices.Clone(web), sched[0]) {
		if !refuses(a) {
			t.Errorf("%s listens while the RM is down", a)
		}
	}
	if _, err := am.allocate(0); err == nil {
		t.Error("an AM connection survived the RM going down")
	}
	if !testproc.GroupAlive(t, pgid) {
		t.Fatal("the AM container died with the RM")
	}
	if err := os.WriteFile(stopFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	testproc.WaitGroupGone(t, waitTimeout, quitterPG)
	if r, _ := c.rm.App(quitter); r.State.Final() {
		t.Fatalf("a container's end was accounted while the RM was down: %s", r.State)
	}

	if err := c.rm.StartAgain(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.rm.WebAddrs(), web) || !slices.Equal(c.rm.SchedulerAddrs(), sched) || c.rm.SchedulerAddr() != sched[0] {
		t.Errorf("addresses changed: web %v → %v, scheduler %v → %v", web, c.rm.WebAddrs(), sched, c.rm.SchedulerAddrs())
	}
	if r := c.waitDone(t, quitter); r.State != yarn.StateFailed || !strings.Contains(r.Diagnostics, "exited with  exitCode: 0") {
		t.Errorf("the container that ended while the RM was down: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	r, err := c.client.App(ctxT(t), id)
	if err != nil || r.State != yarn.StateAccepted {
		t.Fatalf("the running application after the restart: %s, %v; want ACCEPTED", r.State, err)
	}
	am = mustDialRawAM(t, sched[0], tok)
	if _, err := am.allocate(0); remoteClass(err) != ipc.ApplicationMasterNotRegisteredException {
		t.Fatalf("allocate after the restart: %v, want ApplicationMasterNotRegisteredException", err)
	}
	if err := am.register(); err != nil {
		t.Fatalf("registering again after the restart: %v", err)
	}
	waitState(t, c.rm, id, yarn.StateRunning)
	attempts, err := c.client.Attempts(ctxT(t), id)
	if err != nil || len(attempts) != 1 || attempts[0].AppAttemptState != "RUNNING" {
		t.Errorf("attempts after the restart: %+v, %v", attempts, err)
	}

	// Restart again, then fail over: the other RM serves the same state.
	if err := c.rm.Restart(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if err := c.rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	am = mustDialRawAM(t, sched[1], tok)
	if err := am.register(); err != nil {
		t.Fatalf("registering with rm2 after a restart and a failover: %v", err)
	}
	if done, err := am.finish(); err != nil || done {
		t.Fatalf("unregistering: %v, %v", done, err)
	}
	// The final state is stored: after another restart the AM's repeated
	// finish is answered true at once, before any registration.
	if err := c.rm.Restart(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	am = mustDialRawAM(t, sched[1], tok)
	if done, err := am.finish(); err != nil || !done {
		t.Fatalf("finish after a restart: isUnregistered=%v, %v; want true", done, err)
	}
	if r, _ := c.rm.App(id); r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		t.Errorf("ended %s/%s", r.State, r.FinalStatus)
	}
	if got := c.states(id); got[len(got)-1] != yarn.StateFinished || !slices.Contains(got, miniyarn.StateFinishing) {
		t.Errorf("transitions %v", got)
	}
}

// TestFinishingUntilTheContainerExits: after the AM unregisters, the
// application is FINISHING until its container exits: reports already say
// FINISHED with the AM's final status, the state endpoint and the attempt
// say FINISHING, a kill is done at once; the container's end makes it
// FINISHED.
func TestFinishingUntilTheContainerExits(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{FinishingGrace: 10 * time.Minute})
	id, out := submitWaitingAM(t, c)
	tok, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	am := mustDialRawAM(t, c.rm.SchedulerAddr(), tok)
	if err := am.register(); err != nil {
		t.Fatal(err)
	}
	if done, err := am.finish(); err != nil || done {
		t.Fatalf("finish: %v, %v", done, err)
	}
	r, _ := c.rm.App(id)
	if r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		t.Errorf("report while FINISHING: %s/%s, want FINISHED/SUCCEEDED", r.State, r.FinalStatus)
	}
	if st, err := c.client.State(ctxT(t), id); err != nil || st != miniyarn.StateFinishing {
		t.Errorf("state endpoint: %q, %v; want FINISHING", st, err)
	}
	if a, err := c.client.Attempts(ctxT(t), id); err != nil || a[0].AppAttemptState != "FINISHING" {
		t.Errorf("attempt: %+v, %v; want FINISHING", a, err)
	}
	status, _, body := httpDo(t, http.MethodPut, c.rm.WebURL()+"/ws/v1/cluster/apps/"+id.String()+"/state?user.name=alice",
		"application/json", `{"state":"KILLED"}`)
	if status != http.StatusOK || !strings.Contains(body, `"FINISHING"`) {
		t.Errorf("kill while FINISHING: %d %s, want 200 FINISHING", status, body)
	}
	if err := c.client.Kill(ctxT(t), id); err != nil {
		t.Errorf("yarn.Client.Kill while FINISHING: %v", err)
	}
	if got := c.states(id); got[len(got)-1] != miniyarn.StateFinishing {
		t.Errorf("transitions %v, want them to end in FINISHING", got)
	}

	pgid := c.rm.ContainerProcessGroup(id)
	if err := syscall.Kill(-pgid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitForLast(t, "the application to finish after the container exited",
		func() (bool, string) {
			st, err := c.client.State(ctxT(t), id)
			return err == nil && st == yarn.StateFinished, fmt.Sprintf("%q (%v)", st, err)
		})
	want := []yarn.AppState{yarn.StateRunning, miniyarn.StateFinishing, yarn.StateFinished}
	if got := c.states(id); !slices.Equal(got[len(got)-3:], want) {
		t.Errorf("transitions %v, want them to end %v", got, want)
	}
	if a, err := c.client.Attempts(ctxT(t), id); err != nil || a[0].AppAttemptState != "FINISHED" {
		t.Errorf("attempt after the container exited: %+v, %v", a, err)
	}
	if r, _ := c.rm.App(id); r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		t.Errorf("killing the container changed the outcome: %s/%s", r.State, r.FinalStatus)
	}
}
