package miniyarn_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/hadoop/ipc"
	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
	"google.golang.org/protobuf/proto"
)

// TestSchedulerProtocolRules drives the ApplicationMasterProtocol from the test
// process with the token a container received, checking the RM's rules.
func TestSchedulerProtocolRules(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{FinishingGrace: 200 * time.Millisecond})
	id, out := submitWaitingAM(t, c)
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
	// The AM's container kept sleeping; the NodeManager ends it after the
	// grace, which ends the attempt (FINISHING until then).
	testproc.WaitGroupGone(t, waitTimeout, pgid)
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitForLast(t, "the attempt to be FINISHED", func() (bool, string) {
		attempts, err := c.client.Attempts(ctx, id)
		if err == nil && len(attempts) == 1 && attempts[0].AppAttemptState == "FINISHED" {
			return true, ""
		}
		if err != nil || len(attempts) != 1 || attempts[0].AppAttemptState != "FINISHING" {
			t.Fatalf("attempts %+v, %v; want one FINISHING, then FINISHED", attempts, err)
		}
		return false, "FINISHING"
	})
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

// submitWaitingAM submits an application whose container copies its token
// file out and sleeps; it returns once the copy exists.
func submitWaitingAM(t *testing.T, c *cluster) (yarn.ApplicationID, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tokens")
	id := c.submit(t, `cp "$HADOOP_TOKEN_FILE_LOCATION" "$TOKENS_COPY.tmp" && mv "$TOKENS_COPY.tmp" "$TOKENS_COPY"; exec sleep 300`, func(sc *yarn.ApplicationSubmissionContext) {
		sc.AMContainerSpec.Environment = yarn.EntryMap[string]{"TOKENS_COPY": out}
	})
	testwait.Poll{Timeout: waitTimeout, Every: 10 * time.Millisecond}.WaitFor(t, "the container to copy its token file",
		func() bool { _, err := os.Stat(out); return err == nil })
	return id, out
}

// TestSchedulerResponseIDAndUnregistration drives allocate and
// finishApplicationMaster with raw calls: the RM expects responseId 0 after
// registering and then each response's id echoed; a call one step old gets
// the last response again without effect; any other id is refused with
// InvalidApplicationMasterRequestException. The call that unregisters gets
// isUnregistered=false (the state store has not yet stored the final state),
// a later one true.
func TestSchedulerResponseIDAndUnregistration(t *testing.T) {
	t.Parallel()
	c := setup(t, miniyarn.Options{FinishingGrace: 200 * time.Millisecond})
	id, out := submitWaitingAM(t, c)
	tok, err := yarn.AMRMToken(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	conn, err := ipc.Dial(ctx, ipc.ClientOptions{Addr: c.rm.SchedulerAddr(), Protocol: ipc.ApplicationMasterProtocol, Token: tok.IPC()})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Call(ctx, "registerApplicationMaster", &yarnpb.RegisterApplicationMasterRequestProto{Host: proto.String("h"), RpcPort: proto.Int32(-1)},
		&yarnpb.RegisterApplicationMasterResponseProto{}); err != nil {
		t.Fatal(err)
	}
	allocate := func(responseID int32, progress float32) (int32, error) {
		var resp yarnpb.AllocateResponseProto
		err := conn.Call(ctx, "allocate", &yarnpb.AllocateRequestProto{ResponseId: proto.Int32(responseID), Progress: proto.Float32(progress)}, &resp)
		return resp.GetResponseId(), err
	}
	var remote *ipc.RemoteError
	if _, err := allocate(5, 0.1); !errors.As(err, &remote) || remote.Class != ipc.InvalidApplicationMasterRequestException ||
		!strings.Contains(remote.Message, "expect responseId to be 0, but get 5") {
		t.Fatalf("allocate with a wrong first responseId: %v", err)
	}
	if got, err := allocate(0, 0.2); err != nil || got != 1 {
		t.Fatalf("allocate 0: %d, %v; want 1", got, err)
	}
	if got, err := allocate(1, 0.25); err != nil || got != 2 {
		t.Fatalf("allocate 1: %d, %v; want 2", got, err)
	}
	// A retried call (one step old) gets the last response, and is not
	// counted: the progress stays 25%.
	if got, err := allocate(1, 0.9); err != nil || got != 2 {
		t.Fatalf("allocate 1 again: %d, %v; want the last response, 2", got, err)
	}
	if r, _ := c.rm.App(id); r.Progress != 25 {
		t.Errorf("a duplicate heartbeat changed the progress to %v", r.Progress)
	}
	// Two steps old is stale.
	if _, err := allocate(0, 0.4); !errors.As(err, &remote) || remote.Class != ipc.InvalidApplicationMasterRequestException {
		t.Fatalf("allocate with a stale responseId: %v", err)
	}

	finish := func() (bool, error) {
		var resp yarnpb.FinishApplicationMasterResponseProto
		err := conn.Call(ctx, "finishApplicationMaster", &yarnpb.FinishApplicationMasterRequestProto{
			FinalApplicationStatus: yarnpb.FinalApplicationStatusProto_APP_SUCCEEDED.Enum()}, &resp)
		return resp.GetIsUnregistered(), err
	}
	if done, err := finish(); err != nil || done {
		t.Fatalf("first finishApplicationMaster: isUnregistered=%v, %v; want false", done, err)
	}
	if done, err := finish(); err != nil || !done {
		t.Fatalf("second finishApplicationMaster: isUnregistered=%v, %v; want true", done, err)
	}
	if r := c.waitDone(t, id); r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalSucceeded {
		t.Errorf("after unregistering: %s/%s", r.State, r.FinalStatus)
	}
}
