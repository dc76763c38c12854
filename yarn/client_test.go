package yarn_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

const testUser = "alice"

const waitTimeout = 30 * time.Second

var fastRetry = yarn.RetryPolicy{Rounds: 4, InitialBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond}

func startRM(t *testing.T, opts miniyarn.Options) *miniyarn.RM {
	t.Helper()
	if opts.WorkDir == "" {
		opts.WorkDir = t.TempDir()
	}
	if opts.KillGrace == 0 {
		opts.KillGrace = 100 * time.Millisecond
	}
	rm, err := miniyarn.Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("miniyarn.Start: %v", err)
	}
	t.Cleanup(func() {
		if err := rm.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return rm
}

func newClient(t *testing.T, addrs ...string) *yarn.Client {
	t.Helper()
	c, err := yarn.NewClient(yarn.Config{Addresses: addrs, Auth: yarn.PseudoAuth{User: testUser}, Retry: fastRetry})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

func submit(t *testing.T, c *yarn.Client, command string, adjust func(*yarn.ApplicationSubmissionContext)) yarn.ApplicationID {
	t.Helper()
	na, err := c.NewApplication(ctxT(t))
	if err != nil {
		t.Fatalf("NewApplication: %v", err)
	}
	sc := yarn.ApplicationSubmissionContext{
		ApplicationID:   na.ApplicationID,
		ApplicationName: "gozie:T=shell:" + t.Name(),
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{command}},
		MaxAppAttempts:  1,
		Resource:        &yarn.Resource{MemoryMB: 512, VCores: 1},
		ApplicationType: "GOZIE",
	}
	if adjust != nil {
		adjust(&sc)
	}
	if err := c.Submit(ctxT(t), sc); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return na.ApplicationID
}

func waitApp(t *testing.T, c *yarn.Client, id yarn.ApplicationID, what string, cond func(yarn.AppReport) bool) yarn.AppReport {
	t.Helper()
	var r yarn.AppReport
	testwait.WaitForLast(t, waitTimeout, id.String()+" to reach "+what, func() (bool, string) {
		var err error
		r, err = c.App(ctxT(t), id)
		if err != nil {
			t.Fatalf("App(%s): %v", id, err)
		}
		return cond(r), fmt.Sprintf("state %s/%s, diag %q", r.State, r.FinalStatus, r.Diagnostics)
	})
	return r
}

func waitDone(t *testing.T, c *yarn.Client, id yarn.ApplicationID) yarn.AppReport {
	t.Helper()
	return waitApp(t, c, id, "a final state", yarn.AppReport.Done)
}

func TestClientAgainstMiniYARN(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Lenient: true})
	c := newClient(t, rm.WebURL())
	ctx := ctxT(t)

	info, err := c.ClusterInfo(ctx)
	if err != nil {
		t.Fatalf("ClusterInfo: %v", err)
	}
	if info.HAState != yarn.HAActive || info.ID != rm.ClusterTimestamp() || info.HadoopVersion == "" {
		t.Errorf("cluster info %+v", info)
	}

	tag := yarn.ActionTag("0000001-200101000000000-gozie-W@load@1")
	before := time.Now().Add(-time.Second)
	id := submit(t, c, "echo out; sleep 300", func(sc *yarn.ApplicationSubmissionContext) {
		sc.ApplicationTags = yarn.Tags{tag, "Gozie-WF-0000001"}
	})
	if id.ClusterTimestamp != rm.ClusterTimestamp() || id.Sequence != 1 || id.String() != "application_"+itoa(rm.ClusterTimestamp())+"_0001" {
		t.Errorf("first application id %s", id)
	}
	r := waitApp(t, c, id, "RUNNING", func(r yarn.AppReport) bool { return r.State == yarn.StateRunning })
	if r.FinalStatus != yarn.FinalUndefined || r.TrackingUI != yarn.TrackingAM || !r.HasTag("gozie-wf-0000001") || r.User != testUser {
		t.Errorf("running report %+v", r)
	}
	if st, err := c.State(ctx, id); err != nil || st != yarn.StateRunning {
		t.Errorf("State = %s, %v", st, err)
	}

	// The engine's batched lookups: by tag, by states, by start time.
	byTag, err := c.Apps(ctx, yarn.AppsFilter{Tags: []string{tag}, StartedTimeBegin: before})
	if err != nil || len(byTag) != 1 || byTag[0].ID != id {
		t.Fatalf("Apps by tag = %v, %v", byTag, err)
	}
	none, err := c.Apps(ctx, yarn.AppsFilter{Tags: []string{yarn.ActionTag("other")}})
	if err != nil || len(none) != 0 {
		t.Fatalf("Apps by unknown tag = %v, %v", none, err)
	}
	running, err := c.Apps(ctx, yarn.AppsFilter{States: []yarn.AppState{yarn.StateRunning, yarn.StateAccepted}, User: testUser})
	if err != nil || len(running) != 1 {
		t.Fatalf("Apps by state = %v, %v", running, err)
	}

	attempts, err := c.Attempts(ctx, id)
	if err != nil || len(attempts) != 1 || attempts[0].AppAttemptID != (yarn.AttemptID{App: id, Attempt: 1}).String() {
		t.Fatalf("Attempts = %+v, %v", attempts, err)
	}

	if err := c.Kill(ctx, id); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	r = waitDone(t, c, id)
	if r.State != yarn.StateKilled || r.FinalStatus != yarn.FinalKilled {
		t.Errorf("after kill: %s/%s", r.State, r.FinalStatus)
	}
	if err := c.Kill(ctx, id); err != nil {
		t.Errorf("killing a finished application: %v", err)
	}

	// Forgotten by the RM: a typed not-found error, so the engine falls back to HDFS.
	if err := rm.Forget(id); err != nil {
		t.Fatal(err)
	}
	_, err = c.App(ctx, id)
	var rerr *yarn.RemoteError
	if !errors.Is(err, yarn.ErrAppNotFound) || !errors.As(err, &rerr) || rerr.StatusCode != 404 || rerr.Exception != "NotFoundException" {
		t.Fatalf("App of a forgotten app: %v", err)
	}
	for name, call := range map[string]func() error{
		"State":    func() error { _, err := c.State(ctx, id); return err },
		"Attempts": func() error { _, err := c.Attempts(ctx, id); return err },
		"Kill":     func() error { return c.Kill(ctx, id) },
	} {
		if err := call(); !errors.Is(err, yarn.ErrAppNotFound) {
			t.Errorf("%s of a forgotten app: %v", name, err)
		}
	}
}

func TestClientRemoteErrors(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Lenient: true})
	c := newClient(t, rm.WebURL())
	na, err := c.NewApplication(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	err = c.Submit(ctxT(t), yarn.ApplicationSubmissionContext{
		ApplicationID:   na.ApplicationID,
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"true"}},
		Resource:        &yarn.Resource{MemoryMB: na.MaximumResourceCapability.MemoryMB + 1, VCores: 1},
	})
	var rerr *yarn.RemoteError
	if !errors.As(err, &rerr) || rerr.StatusCode != 400 || rerr.Exception != "BadRequestException" || !strings.Contains(rerr.Message, "maximum allowed allocation") {
		t.Fatalf("oversized submission: %v", err)
	}
	// Client-side tag checks stop a submission before it reaches the RM.
	err = c.Submit(ctxT(t), yarn.ApplicationSubmissionContext{
		ApplicationID:   na.ApplicationID,
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"true"}},
		ApplicationTags: yarn.Tags{"a,b"},
	})
	if !errors.Is(err, yarn.ErrInvalidTag) {
		t.Fatalf("tag with a comma: %v", err)
	}
	if len(rm.Apps()) != 0 {
		t.Errorf("rejected submissions created %d apps", len(rm.Apps()))
	}
	// Without authentication the RM answers 401, which is final (no retry).
	anon, err := yarn.NewClient(yarn.Config{Addresses: []string{rm.WebAddr()}, Retry: fastRetry})
	if err != nil {
		t.Fatal(err)
	}
	_, err = anon.NewApplication(ctxT(t))
	if !errors.As(err, &rerr) || rerr.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous new-application: %v", err)
	}
}

// closedAddr returns a loopback address on which nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestClientFailsOverBetweenRMs(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Lenient: true, Standbys: 1})
	addrs := rm.WebAddrs()
	// A dead RM first, then the standby, then the active one.
	c := newClient(t, closedAddr(t), addrs[1], addrs[0])
	info, err := c.ClusterInfo(ctxT(t))
	if err != nil || info.HAState != yarn.HAActive {
		t.Fatalf("ClusterInfo through failover: %+v, %v", info, err)
	}
	id := submit(t, c, "true", nil)
	if got := c.Addresses()[0]; got != "http://"+addrs[0] {
		t.Errorf("client settled on %s, want the active %s", got, addrs[0])
	}
	// The RMs swap roles: the client follows on its next request.
	if err := rm.Failover(1); err != nil {
		t.Fatal(err)
	}
	r := waitDone(t, c, id)
	if !r.Succeeded() {
		t.Errorf("app ended %s/%s", r.State, r.FinalStatus)
	}
	if got := c.Addresses()[0]; got != "http://"+addrs[1] {
		t.Errorf("after failover the client uses %s, want %s", got, addrs[1])
	}
}

func TestClientGivesUpWithoutAnActiveRM(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Standbys: 1})
	c := newClient(t, closedAddr(t), rm.WebAddrs()[1])
	_, err := c.NewApplication(ctxT(t))
	if !errors.Is(err, yarn.ErrNoActiveRM) {
		t.Fatalf("NewApplication with only a standby and a dead RM: %v", err)
	}
	_, err = c.ClusterInfo(ctxT(t))
	if !errors.Is(err, yarn.ErrNoActiveRM) {
		t.Fatalf("ClusterInfo with only a standby: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.App(ctx, yarn.ApplicationID{ClusterTimestamp: 1, Sequence: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

// flaky is a fault-injecting proxy in front of the RM: it answers the first
// failures requests with 503 and forwards the rest.
func flaky(t *testing.T, target string, failures int32) (string, *atomic.Int32) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	var seen atomic.Int32
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) <= failures {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"RemoteException":{"exception":"WebApplicationException","message":"busy","javaClassName":"javax.ws.rs.WebApplicationException"}}`))
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String(), &seen
}

func TestClientRetriesServerErrors(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Lenient: true})
	addr, seen := flaky(t, rm.WebURL(), 2)
	c := newClient(t, addr)
	if _, err := c.ClusterInfo(ctxT(t)); err != nil {
		t.Fatalf("ClusterInfo after two 503s: %v", err)
	}
	if n := seen.Load(); n != 3 {
		t.Errorf("proxy saw %d requests, want 3", n)
	}
	always, _ := flaky(t, rm.WebURL(), 1000)
	c = newClient(t, always)
	_, err := c.ClusterInfo(ctxT(t))
	var rerr *yarn.RemoteError
	if !errors.As(err, &rerr) || rerr.StatusCode != 503 || rerr.Message != "busy" || errors.Is(err, yarn.ErrNoActiveRM) {
		t.Fatalf("persistent 503: %v", err)
	}
}

func TestAppsSplitsLongTagLists(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Lenient: true})
	c := newClient(t, rm.WebURL())
	rm.HoldAccepted(true)
	first := submit(t, c, "true", func(sc *yarn.ApplicationSubmissionContext) { sc.ApplicationTags = yarn.Tags{yarn.ActionTag("k0")} })
	last := submit(t, c, "true", func(sc *yarn.ApplicationSubmissionContext) { sc.ApplicationTags = yarn.Tags{yarn.ActionTag("k299")} })
	var tags []string
	for i := range 300 {
		tags = append(tags, yarn.ActionTag("k"+itoa(int64(i))))
	}
	tags = append(tags, yarn.ActionTag("k0")) // duplicates across chunks are merged
	list, err := c.Apps(ctxT(t), yarn.AppsFilter{Tags: tags})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != first || list[1].ID != last {
		t.Fatalf("Apps over 300 tags = %v", list)
	}
}

// TestClientRidesOutAFailoverWindow: no RM is active at first; the client keeps
// retrying with backoff and succeeds once one becomes active.
func TestClientRidesOutAFailoverWindow(t *testing.T) {
	t.Parallel()
	rm := startRM(t, miniyarn.Options{Lenient: true, Standbys: 1})
	if err := rm.Failover(-1); err != nil {
		t.Fatal(err)
	}
	addrs := rm.WebAddrs()
	// A proxy in front of the second RM ends the window on the third request it sees.
	u, _ := url.Parse("http://" + addrs[1])
	proxy := httputil.NewSingleHostReverseProxy(u)
	var seen atomic.Int32
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) == 3 {
			if err := rm.Failover(1); err != nil {
				t.Error(err)
			}
		}
		proxy.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	c, err := yarn.NewClient(yarn.Config{
		Addresses: []string{addrs[0], "http://" + l.Addr().String()},
		Auth:      yarn.PseudoAuth{User: testUser},
		Retry:     yarn.RetryPolicy{Rounds: 10, InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	na, err := c.NewApplication(ctxT(t))
	if err != nil {
		t.Fatalf("NewApplication across the failover window: %v", err)
	}
	if n := seen.Load(); n != 3 {
		t.Errorf("the second RM saw %d requests, want 3", n)
	}
	if na.ApplicationID.Sequence != 1 {
		t.Errorf("id %s", na.ApplicationID)
	}
}
