package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/workflow/wfrun"
	"github.com/gozie/gozie/yarn"
)

// lostCallbackApp waits, in its first action, until flag (a local file)
// exists, then runs a second action.
func lostCallbackApp(flag string) string {
	return fmt.Sprintf(`<workflow-app xmlns="uri:oozie:workflow:1.0" name="lost-callback"><start to="wait"/>
<action name="wait"><shell xmlns="uri:oozie:shell-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<exec>sh</exec><argument>-c</argument><argument>until [ -e '%s' ]; do sleep 0.1; done</argument>
</shell><ok to="next"/><error to="fail"/></action>
<action name="next"><shell xmlns="uri:oozie:shell-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<exec>true</exec></shell><ok to="end"/><error to="fail"/></action>
<kill name="fail"><message>failed</message></kill><end name="end"/></workflow-app>`, flag)
}

// pollServer is one in-process server on the shared database.
type pollServer struct {
	d    *daemon.Daemon
	base string
	stop func()
}

// startPollServer opens a server on dir's database, on a new port, with
// the batched poll every poll and the engine on clk.
func startPollServer(t *testing.T, dir string, c *localcluster.Cluster, poll time.Duration, clk clock.Clock) *pollServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/oozie"
	// No Hadoop configuration: the actions' resourceManager (the RM's web
	// address) is the only way to the cluster, so the poll must ask the
	// cluster each run was sent to.
	cfg := inProcessConfig(t, dir, base, c, map[string]string{"gozie.purge.enabled": "false",
		"gozie.action.poll.interval": poll.String()})
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Listener: ln, LauncherBinary: binary, Clock: clk,
		Logger: slog.New(slog.NewTextHandler(testLog{t}, nil))})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(stop)
	return &pollServer{d: d, base: base, stop: stop}
}

// actions returns the workflow's actions by name, read from the store.
func (s *pollServer) actions(t *testing.T, jobID string) map[string]store.WorkflowAction {
	t.Helper()
	var acts []store.WorkflowAction
	ctx := context.Background()
	if err := s.d.Store.Tx(ctx, func(x store.Tx) (err error) {
		acts, err = x.ListWorkflowActions(ctx, jobID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	out := map[string]store.WorkflowAction{}
	for _, a := range acts {
		out[a.Name] = a
	}
	return out
}

// TestLostCallbackFoundByTheFirstPollsAfterARestart: a server launches an
// action and stops; the action ends while no server listens, so its
// callback is lost; a new server on the same database and another port,
// whose clock the test moves, must see the end through the batched poll
// within two poll intervals of fake time. The per-action fallback check,
// five minutes after the launch, is never due (the fake clock does not get
// there), and the new server has built no executor yet when its poll runs:
// the poll must build the one of the cluster the run was sent to.
func TestLostCallbackFoundByTheFirstPollsAfterARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, ToolsBinary: binary,
		Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	const poll = 10 * time.Second
	first := startPollServer(t, dir, c, poll, nil)

	user := currentUser(t)
	flag := filepath.Join(t.TempDir(), "flag")
	appDir := filepath.Join(dir, "dfs", "user", user, "lost-callback")
	if err := os.MkdirAll(appDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(appDir, "workflow.xml"), []byte(lostCallbackApp(flag)), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := client.NewAuthTransport(client.Auth{User: user})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.New(first.base, &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Properties()
	id, err := cl.Submit(ctx, conf.NewProperties("user.name", user,
		"oozie.wf.application.path", p["nameNode"]+"/user/"+user+"/lost-callback",
		"nameNode", p["nameNode"], "resourceManager", p["resourceManager"]), true)
	if err != nil {
		t.Fatal(err)
	}
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{c.YARN.WebURL()}, Auth: yarn.PseudoAuth{User: user}})
	if err != nil {
		t.Fatal(err)
	}
	apps := func() []yarn.AppReport {
		reps, err := yc.Apps(ctx, yarn.AppsFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return reps
	}
	testwait.WaitFor(t, time.Minute, "the first action to run", func() bool {
		a := first.actions(t, id)["wait"]
		return a.Status == store.ActionRunning && a.ExternalID != ""
	})
	first.stop()

	// The action ends with no server to call back.
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	testwait.WaitFor(t, time.Minute, "the launcher to finish", func() bool {
		reps := apps()
		return len(reps) == 1 && reps[0].State.Final()
	})

	clk := clock.NewFake(time.Now())
	second := startPollServer(t, dir, c, poll, clk)
	clk.Advance(2 * poll)
	testwait.WaitFor(t, time.Minute, "the workflow to end", func() bool {
		var job store.WorkflowJob
		if err := second.d.Store.Tx(ctx, func(x store.Tx) (err error) { job, err = x.GetWorkflowJob(ctx, id); return err }); err != nil {
			t.Fatal(err)
		}
		return job.Status.Terminal()
	})
	acts := second.actions(t, id)
	if w, n := acts["wait"], acts["next"]; w.Status != store.ActionOK || n.Status != store.ActionOK {
		t.Fatalf("wait %s, next %s: want both OK", w.Status, n.Status)
	}
	if got := triggersHandled(t, second.d, wfrun.KindPoll); got < 1 {
		t.Errorf("the second server handled %v polls, want the one that found the end", got)
	}
	if len(apps()) != 2 {
		t.Errorf("%d YARN applications for 2 actions", len(apps()))
	}
}

// triggersHandled is gozie_triggers_total{kind, outcome="ok"} of d.
func triggersHandled(t *testing.T, d *daemon.Daemon, kind store.TriggerKind) float64 {
	t.Helper()
	mfs, err := d.Metrics.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "gozie_triggers_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == string(kind) && labels["outcome"] == "ok" {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
