package subwf_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/fsaction"
	"github.com/gozie/gozie/actions/subwf"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// held stands in for actions that run on the cluster: a run stays RUNNING
// until the test releases it or it is killed.
type held struct {
	mu       sync.Mutex
	running  map[string]bool // action id → running
	killed   map[string]bool
	released map[string]bool
}

func newHeld() *held {
	return &held{running: map[string]bool{}, killed: map[string]bool{}, released: map[string]bool{}}
}

func (h *held) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running[run.ActionID] = true
	return actions.Status{ExternalID: "held-" + run.Tag, ExternalStatus: "RUNNING"}, nil
}

func (h *held) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released[run.ActionID] {
		return actions.Status{Done: true, Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED"}, nil
	}
	return actions.Status{ExternalStatus: "RUNNING"}, nil
}

func (h *held) Kill(ctx context.Context, run *actions.Attempt) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.killed[run.ActionID] = true
	return nil
}

func (h *held) isRunning(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.running[id]
}

type world struct {
	store  store.Store
	runner *wfrun.Runner
	sub    *subwf.Executor
	held   *held
	apps   string
}

func setup(t *testing.T, maxDepth int) *world {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st := enginetest.Backend{}.Open(t)
	fs := enginetest.LocalFS(t)
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	fsx, err := fsaction.New(fsaction.Config{FS: fs, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{store: st, held: newHeld(), apps: filepath.Join(dir, "apps")}
	reg := actions.Registry{"fs": fsx, "shell": w.held}
	w.runner, err = wfrun.New(wfrun.Config{Store: st, FS: fs, Logger: log, IDs: ids.NewGenerator("gozie-test", time.Now()),
		Executors: reg, CallbackBaseURL: "http://localhost/oozie/callback", CheckInterval: 20 * time.Millisecond,
		StartRetry: wfrun.StartRetry{Max: 3, Interval: 10 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	w.sub, err = subwf.New(subwf.Config{Workflows: w.runner, Store: st, MaxDepth: maxDepth, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	reg[wfrun.SubWorkflowType] = w.sub
	eng := engine.New(engine.Config{Store: st, Logger: log, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	w.runner.Register(eng)
	if err := eng.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Stop)
	return w
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// app writes a workflow app and returns its path.
func (w *world) app(t *testing.T, name, xml string) string {
	t.Helper()
	d := filepath.Join(w.apps, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "workflow.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + d
}

func (w *world) submit(t *testing.T, appPath string, kv ...string) string {
	t.Helper()
	props := conf.NewProperties(append([]string{"user.name", "alice", "oozie.wf.application.path", appPath,
		"nameNode", "file:///", "resourceManager", "rm:8032", "apps", w.apps}, kv...)...)
	id, err := w.runner.Submit(context.Background(), props, wfrun.SubmitOptions{Start: true})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (w *world) job(t *testing.T, id string) (store.WorkflowJob, map[string]store.WorkflowAction) {
	t.Helper()
	return enginetest.WorkflowJob(t, w.store, id)
}

func (w *world) waitStatus(t *testing.T, id string, want store.WorkflowStatus) store.WorkflowJob {
	t.Helper()
	return enginetest.WaitWorkflowStatus(t, w.store, id, want)
}

// childOf returns the child job of a parent's sub-workflow action.
func (w *world) childOf(t *testing.T, parentID, node string) store.WorkflowJob {
	t.Helper()
	var childID string
	testwait.WaitFor(t, testwait.Timeout, "the child of "+node, func() bool {
		_, acts := w.job(t, parentID)
		childID = acts[node].ExternalID
		return childID != ""
	})
	job, _ := w.job(t, childID)
	return job
}

const parentApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="parent">
  <start to="sub"/>
  <action name="sub">
    <sub-workflow>
      <app-path>${apps}/%CHILD%</app-path>
      %PROPAGATE%
      <configuration><property><name>outputDir</name><value>${apps}/out-%CHILD%</value></property></configuration>
    </sub-workflow>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>child failed [${wf:errorCode('sub')}] ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

func parent(child string, propagate bool) string {
	p := ""
	if propagate {
		p = "<propagate-configuration/>"
	}
	return strings.NewReplacer("%CHILD%", child, "%PROPAGATE%", p).Replace(parentApp)
}

const mkdirChild = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="child">
  <start to="mk"/>
  <action name="mk"><fs><mkdir path="file://${outputDir}"/></fs><ok to="end"/><error to="fail"/></action>
  <kill name="fail"><message>mkdir failed</message></kill>
  <end name="end"/>
</workflow-app>`

func TestSubWorkflowSucceedsWithChildListedUnderParent(t *testing.T) {
	t.Parallel()
	w := setup(t, 0)
	w.app(t, "child", mkdirChild)
	id := w.submit(t, w.app(t, "parent", parent("child", true)), "fromParent", "yes")
	w.waitStatus(t, id, store.WorkflowSucceeded)
	_, acts := w.job(t, id)
	child, _ := w.job(t, acts["sub"].ExternalID)
	if child.Status != store.WorkflowSucceeded || child.ParentID != id || child.AppName != "child" || child.User != "alice" {
		t.Fatalf("child %+v", child)
	}
	if acts["sub"].ExternalStatus != "SUCCEEDED" || acts["sub"].TrackerURI != "local" || acts["sub"].Status != store.ActionOK {
		t.Errorf("parent's action %+v", acts["sub"])
	}
	if !strings.HasPrefix(child.ExternalID, id+"@sub#") {
		t.Errorf("child external id %q, want the parent action's run key", child.ExternalID)
	}
	if got := wfrun.ParentActionOf(child); got != id+"@sub" {
		t.Errorf("ParentActionOf = %q", got)
	}
	if _, err := os.Stat(filepath.Join(w.apps, "out-child")); err != nil {
		t.Errorf("the child's action did not run: %v", err)
	}
	cp, err := conf.ReadConfigurationXML(strings.NewReader(child.Conf), "child")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"fromParent": "yes", "oozie.wf.parent.id": id, subwf.PropSuperParentID: id,
		subwf.PropDepth: "1", "user.name": "alice", "oozie.wf.application.path": "file://" + filepath.Join(w.apps, "child")} {
		if got, _ := cp.Get(k); got != want {
			t.Errorf("child conf %s = %q, want %q", k, got, want)
		}
	}
}

func TestSubWorkflowWithoutPropagation(t *testing.T) {
	t.Parallel()
	w := setup(t, 0)
	w.app(t, "child", mkdirChild)
	id := w.submit(t, w.app(t, "parent", parent("child", false)), "fromParent", "yes")
	w.waitStatus(t, id, store.WorkflowSucceeded)
	child := w.childOf(t, id, "sub")
	cp, err := conf.ReadConfigurationXML(strings.NewReader(child.Conf), "child")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cp.Get("fromParent"); ok {
		t.Error("the parent's configuration reached the child without propagate-configuration")
	}
	if v, _ := cp.Get("outputDir"); v != filepath.Join(w.apps, "out-child") {
		t.Errorf("outputDir = %q", v)
	}
}

const killingChild = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="child">
  <start to="die"/>
  <kill name="die"><message>child gave up on ${outputDir}</message></kill>
  <end name="end"/>
</workflow-app>`

func TestKilledChildTakesParentsErrorTransition(t *testing.T) {
	t.Parallel()
	w := setup(t, 0)
	w.app(t, "child", killingChild)
	id := w.submit(t, w.app(t, "parent", parent("child", false)))
	w.waitStatus(t, id, store.WorkflowKilled)
	_, acts := w.job(t, id)
	if acts["sub"].Status != store.ActionError || acts["sub"].ExternalStatus != "KILLED" || acts["sub"].ErrorCode != "E0729" {
		t.Errorf("parent's action %+v, want ERROR from the KILLED child with its code", acts["sub"])
	}
	if msg := acts["fail"].ErrorMessage; !strings.Contains(msg, "child failed [E0729]") || !strings.Contains(msg, "child gave up") {
		t.Errorf("kill message %q", msg)
	}
}

const heldChild = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="child">
  <start to="long"/>
  <action name="long">
    <shell xmlns="uri:oozie:shell-action:1.0"><resource-manager>rm:8032</resource-manager><name-node>file:///</name-node>
      <exec>sleep</exec></shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>long failed</message></kill>
  <end name="end"/>
</workflow-app>`

func TestSuspendResumeAndKillCascade(t *testing.T) {
	t.Parallel()
	w := setup(t, 0)
	w.app(t, "child", heldChild)
	ctx := context.Background()
	id := w.submit(t, w.app(t, "parent", parent("child", false)))
	child := w.childOf(t, id, "sub")
	testwait.WaitFor(t, testwait.Timeout, "the child's action to run", func() bool { return w.held.isRunning(child.ID + "@long") })

	if err := w.runner.Suspend(ctx, id); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.job(t, child.ID); c.Status != store.WorkflowSuspended {
		t.Fatalf("after suspending the parent the child is %s", c.Status)
	}
	if err := w.runner.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.job(t, child.ID); c.Status != store.WorkflowRunning {
		t.Fatalf("after resuming the parent the child is %s", c.Status)
	}
	if err := w.runner.Kill(ctx, id); err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowKilled)
	w.waitStatus(t, child.ID, store.WorkflowKilled)
	testwait.WaitFor(t, testwait.Timeout, "the child's action to be killed", func() bool {
		w.held.mu.Lock()
		defer w.held.mu.Unlock()
		return w.held.killed[child.ID+"@long"]
	})
}

func TestChildSuspendedAloneLeavesParentRunning(t *testing.T) {
	t.Parallel()
	w := setup(t, 0)
	w.app(t, "child", heldChild)
	id := w.submit(t, w.app(t, "parent", parent("child", false)))
	child := w.childOf(t, id, "sub")
	if err := w.runner.Suspend(context.Background(), child.ID); err != nil {
		t.Fatal(err)
	}
	if p, _ := w.job(t, id); p.Status != store.WorkflowRunning {
		t.Errorf("parent %s after suspending only the child", p.Status)
	}
	// Releasing the child's action lets child and parent finish.
	if err := w.runner.Resume(context.Background(), child.ID); err != nil {
		t.Fatal(err)
	}
	testwait.WaitFor(t, testwait.Timeout, "the child's action to run", func() bool { return w.held.isRunning(child.ID + "@long") })
	w.held.mu.Lock()
	w.held.released[child.ID+"@long"] = true
	w.held.mu.Unlock()
	w.waitStatus(t, id, store.WorkflowSucceeded)
}

func TestStartIsExactlyOnce(t *testing.T) {
	t.Parallel()
	w := setup(t, 0)
	w.app(t, "child", heldChild)
	id := w.submit(t, w.app(t, "parent", parent("child", false)))
	child := w.childOf(t, id, "sub")
	_, acts := w.job(t, id)
	pj, _ := w.job(t, id)
	run := &actions.Attempt{ActionID: id + "@sub", JobID: id, Node: "sub", Type: wfrun.SubWorkflowType, Key: child.ExternalID,
		User: "alice", AppPath: pj.AppPath, Body: acts["sub"].Conf, JobConf: conf.NewProperties("apps", w.apps)}
	st, err := w.sub.Start(context.Background(), run)
	if err != nil || st.ExternalID != child.ID || st.Done {
		t.Fatalf("a repeated Start: %+v, %v; want the child %s again", st, err, child.ID)
	}
	var n int
	if err := w.store.Tx(context.Background(), func(x store.Tx) (err error) {
		_, n, err = x.ListWorkflowJobs(context.Background(), store.JobFilter{ParentID: id})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d children, want 1", n)
	}
}

func TestSubmissionFailures(t *testing.T) {
	t.Parallel()
	w := setup(t, 1)
	nested := strings.NewReplacer("%CHILD%", "child", "%PROPAGATE%", "<propagate-configuration/>").Replace(parentApp)
	w.app(t, "middle", strings.Replace(nested, `name="parent"`, `name="middle"`, 1))
	w.app(t, "child", mkdirChild)
	for _, tc := range []struct {
		name, child, code string
	}{
		{"missing app", "nowhere", oozieerr.E0504},
		// middle is depth 1, its own sub-workflow would be depth 2 > 1.
		{"too deep", "middle", "SUBWF001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := w.submit(t, w.app(t, "parent-"+tc.name, parent(tc.child, true)))
			w.waitStatus(t, id, store.WorkflowKilled)
			_, acts := w.job(t, id)
			a := acts["sub"]
			if tc.child == "middle" {
				// The middle job is the one whose action failed.
				middle, _ := w.job(t, a.ExternalID)
				_, macts := w.job(t, middle.ID)
				a = macts["sub"]
			}
			if a.Status != store.ActionError || a.ErrorCode != tc.code {
				t.Errorf("action %+v, want ERROR %s", a, tc.code)
			}
		})
	}
}

// TestChildOnTheServerDiskIsRefused: with the server's default filesystems
// (hdfs only), a sub-workflow whose app-path is on the server's own disk, in
// any spelling, ends its action in ERROR with E0904, whether the path exists
// or not.
func TestChildOnTheServerDiskIsRefused(t *testing.T) {
	t.Parallel()
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user: %v", err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: t.TempDir(), CreateHomes: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	policy, err := hadoop.NewSchemePolicy([]string{"hdfs"}, res.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	reg := actions.Registry{}
	r, err := wfrun.New(wfrun.Config{Store: st, FS: policy.Restrict(res), Logger: log, IDs: ids.NewGenerator("gozie-test", time.Now()),
		Executors: reg, CallbackBaseURL: "http://localhost/oozie/callback", CheckInterval: 20 * time.Millisecond,
		StartRetry: wfrun.StartRetry{Max: 3, Interval: 10 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := subwf.New(subwf.Config{Workflows: r, Store: st, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	reg[wfrun.SubWorkflowType] = sub
	eng := engine.New(engine.Config{Store: st, Logger: log, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	r.Register(eng)
	if err := eng.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Stop)
	w := &world{store: st, runner: r}

	local := filepath.Join(t.TempDir(), "child")
	if err := os.MkdirAll(local, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(local, "workflow.xml"), []byte(mkdirChild), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, child := range []string{"file://" + local, "FILE://" + local, "file:///does/not/exist"} {
		name := fmt.Sprintf("parent-%d", i)
		app := filepath.Join(dfs.Root(), "user", me.Username, name)
		if err := os.MkdirAll(app, 0o755); err != nil {
			t.Fatal(err)
		}
		xml := strings.Replace(parent("x", false), "${apps}/x", child, 1)
		if err := os.WriteFile(filepath.Join(app, "workflow.xml"), []byte(xml), 0o644); err != nil {
			t.Fatal(err)
		}
		id, err := r.Submit(ctx, conf.NewProperties("user.name", me.Username, "oozie.wf.application.path",
			dfs.URI()+"/user/"+me.Username+"/"+name, "apps", "unused"), wfrun.SubmitOptions{Start: true})
		if err != nil {
			t.Fatal(err)
		}
		w.waitStatus(t, id, store.WorkflowKilled)
		_, acts := w.job(t, id)
		a := acts["sub"]
		want := "Scheme [file] not supported in uri [" + child + "]"
		if a.Status != store.ActionError || a.ErrorCode != "E0904" || !strings.Contains(a.ErrorMessage, want) {
			t.Errorf("child at %s: action %s %s %q, want ERROR E0904 %q", child, a.Status, a.ErrorCode, a.ErrorMessage, want)
		}
	}
}
