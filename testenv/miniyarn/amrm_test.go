package miniyarn_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// TestSchedulerProtocolRules drives the ApplicationMasterProtocol from the test
// process with the token a container received, checking the RM's rules.
func TestSchedulerProtocolRules(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{FinishingGrace: 200 * time.Millisecond})
	out := filepath.Join(t.TempDir(), "tokens")
	id := c.submit(t, `cp "$HADOOP_TOKEN_FILE_LOCATION" "$TOKENS_COPY.tmp" && mv "$TOKENS_COPY.tmp" "$TOKENS_COPY"; exec sleep 300`, func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.Environment = yarn.EntryMap[string]{"TOKENS_COPY": out}
	})
	deadline := time.Now().Add(waitTimeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(out); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the container never copied its token file")
		}
		<-tick.C
	}
	tok, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	am, err := yarn.NewAMClient(ctx, c.rm.SchedulerAddr(), tok)
	if err != nil {
		t.Fatalf("NewAMClient: %v", err)
	}
	defer am.Close()

	var remote *ipc.RemoteError
	if err := am.Heartbeat(ctx, 0.1); !errors.As(err, &remote) || remote.Class != ipc.ApplicationMasterNotRegisteredException {
		t.Fatalf("heartbeat before registering: %v", err)
	}
	if err := am.Unregister(ctx, yarn.FinalSucceeded, "", ""); !errors.As(err, &remote) || remote.Class != ipc.ApplicationMasterNotRegisteredException {
		t.Fatalf("unregister before registering: %v", err)
	}
	r, _ := c.rm.App(id)
	if r.State != yarn.StateAccepted {
		t.Fatalf("before registration the app is %s, want ACCEPTED", r.State)
	}
	reg, err := am.Register(ctx, "127.0.0.1", "http://127.0.0.1:1/ui")
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	if reg.Queue != "default" || reg.MaxResource != miniyarn.DefaultMaxResource {
		t.Errorf("registration %+v", reg)
	}
	if _, err := am.Register(ctx, "127.0.0.1", ""); !errors.As(err, &remote) || remote.Class != ipc.InvalidApplicationMasterRequestException {
		t.Errorf("second registration: %v", err)
	}
	if err := am.Heartbeat(ctx, 0.4); err != nil {
		t.Fatalf("Heartbeat: %v", err)
	}
	r, _ = c.rm.App(id)
	if r.State != yarn.StateRunning || r.Progress != 40 {
		t.Errorf("after heartbeat: %s progress %v", r.State, r.Progress)
	}
	pgid := c.rm.ContainerProcessGroup(id)
	if err := am.Unregister(ctx, yarn.FinalKilled, "stopped by the launcher", "http://history/x"); err != nil {
		t.Fatalf("Unregister: %v", err)
	}
	r = c.waitDone(t, id)
	if r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalKilled || r.Diagnostics != "stopped by the launcher" {
		t.Errorf("after unregistering: %s/%s %q", r.State, r.FinalStatus, r.Diagnostics)
	}
	// The AM's container kept sleeping; the NodeManager ends it after the grace.
	waitGroupGone(t, pgid)
	attempts, err := c.client.Attempts(ctx, id)
	if err != nil || len(attempts) != 1 || attempts[0].AppAttemptState != "FINISHED" {
		t.Errorf("attempts %+v, %v", attempts, err)
	}
}

func TestManyConcurrentApplications(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{Lenient: true})
	const n = 20
	ids := make([]yarn.ApplicationID, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ids[i] = c.submit(t, "true", func(sc *yarn.ApplicationSubmissionContext) { sc.ApplicationTags = yarn.Tags{"batch"} })
		})
	}
	wg.Wait()
	seen := map[yarn.ApplicationID]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
		if r := c.waitDone(t, id); !r.Succeeded() {
			t.Errorf("%s ended %s/%s", id, r.State, r.FinalStatus)
		}
	}
	list, err := c.client.Apps(ctxT(t), yarn.AppsFilter{Tags: []string{"batch"}, States: []yarn.AppState{yarn.StateFinished}})
	if err != nil || len(list) != n {
		t.Fatalf("Apps = %d, %v", len(list), err)
	}
}
