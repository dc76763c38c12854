package wfrun_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// scripted is an executor whose runs end when the test says so. It keeps
// one "external application" per tag, as YARN would, so that a repeated
// Start of the same run is visible.
type scripted struct {
	mu       sync.Mutex
	launches map[string]int            // tag → launches
	ended    map[string]actions.Status // external id → final status
	killed   map[string]bool
	started  chan string                     // action ids, as they start
	failOnce map[string]bool                 // nodes whose first Start fails after launching
	panics   map[string]bool                 // nodes whose every Start panics (a bug of the server's own)
	ext      map[string]string               // action id → external id of its latest run
	dirs     map[string]string               // action id → action directory of its latest run
	creds    map[string][]actions.Credential // action id → credentials of its latest run
	newTags  map[string][]bool               // action id → NewTag of each Start
	// onStart, by node, runs inside Start (s.mu held) once the run's
	// external id is known, before Start returns.
	onStart map[string]func(run *actions.Attempt, ext string)
	// refuse, by node, is returned by Start before anything is launched,
	// until the test clears it; refused counts those Starts.
	refuse  map[string]error
	refused map[string]int
}

func newScripted() *scripted {
	return &scripted{launches: map[string]int{}, ended: map[string]actions.Status{}, killed: map[string]bool{},
		started: make(chan string, 100), failOnce: map[string]bool{}, panics: map[string]bool{}, ext: map[string]string{}, dirs: map[string]string{},
		creds: map[string][]actions.Credential{}, newTags: map[string][]bool{}, onStart: map[string]func(*actions.Attempt, string){},
		refuse: map[string]error{}, refused: map[string]int{}}
}

func (s *scripted) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.panics[run.Node] {
		panic("a bug starting " + run.Node)
	}
	if err := s.refuse[run.Node]; err != nil {
		s.refused[run.Node]++
		return actions.Status{}, err
	}
	s.newTags[run.ActionID] = append(s.newTags[run.ActionID], run.NewTag)
	ext := "application_" + run.Tag
	s.ext[run.ActionID] = ext
	s.dirs[run.ActionID] = run.ActionDir
	s.creds[run.ActionID] = run.Credentials
	if f := s.onStart[run.Node]; f != nil {
		f(run, ext)
	}
	if s.launches[run.Tag] == 0 {
		s.launches[run.Tag]++
		s.started <- run.ActionID
		if s.failOnce[run.Node] {
			delete(s.failOnce, run.Node)
			return actions.Status{}, errors.New("connection reset after submitting")
		}
	}
	return actions.Status{ExternalID: ext, ExternalStatus: "RUNNING"}, nil
}

func (s *scripted) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.ended[run.ExternalID]; ok {
		return st, nil
	}
	return actions.Status{ExternalStatus: "RUNNING"}, nil
}

func (s *scripted) Kill(ctx context.Context, run *actions.Attempt) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.killed[run.Tag] = true
	s.ended["application_"+run.Tag] = actions.Status{Done: true, Outcome: workflow.OutcomeError, ExternalStatus: "KILLED"}
	return nil
}

// complete ends the external work of the action's latest run.
func (s *scripted) complete(actionID string, st actions.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st.Done = true
	s.ended[s.ext[actionID]] = st
}

// batchScripted adds the batched poll to scripted.
type batchScripted struct{ *scripted }

func (b batchScripted) CheckAll(ctx context.Context, runs []*actions.Attempt) (map[string]actions.Status, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]actions.Status{}
	for _, r := range runs {
		if st, ok := b.ended["application_"+r.Tag]; ok {
			out[r.ActionID] = st
		}
	}
	return out, nil
}

type world struct {
	store  store.Store
	runner *wfrun.Runner
	exec   *scripted
	apps   string
}

func setup(t *testing.T, batch bool) *world {
	t.Helper()
	return setupFS(t, batch, nil)
}

// setupFS is setup with the runner's filesystem wrapped by wrap, when set.
func setupFS(t *testing.T, batch bool, wrap func(store.Store, hadoop.FileSystem) hadoop.FileSystem) *world {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st := enginetest.Backend{}.Open(t)
	res := enginetest.LocalFS(t)
	var fs hadoop.FileSystem = res
	if wrap != nil {
		fs = wrap(st, res)
	}
	exec := newScripted()
	var e actions.Executor = exec
	if batch {
		e = batchScripted{exec}
	}
	log := slog.New(slog.NewTextHandler(enginetest.LogOut(), nil))
	r, err := wfrun.New(wfrun.Config{Store: st, FS: fs, Logger: log, IDs: ids.NewGenerator("gozie-test", time.Now()),
		Executors: actions.Registry{"shell": e, "fs": e}, CallbackBaseURL: "http://localhost/oozie/callback",
		PollInterval: 20 * time.Millisecond, CheckInterval: time.Hour, StartRetry: wfrun.StartRetry{Max: 3, Interval: 10 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: st, Logger: log, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	r.Register(eng)
	if err := eng.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Stop)
	return &world{store: st, runner: r, exec: exec, apps: filepath.Join(dir, "apps")}
}

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

func (w *world) submit(t *testing.T, appPath string, start bool, kv ...string) (string, error) {
	props := conf.NewProperties(append([]string{"user.name", "alice", "oozie.wf.application.path", appPath,
		"nameNode", "hdfs://nn:8020", "resourceManager", "rm:8032"}, kv...)...)
	return w.runner.Submit(context.Background(), props, wfrun.SubmitOptions{Start: start})
}

func (w *world) job(t *testing.T, id string) (store.WorkflowJob, map[string]store.WorkflowAction) {
	t.Helper()
	return enginetest.WorkflowJob(t, w.store, id)
}

func (w *world) waitStatus(t *testing.T, id string, want store.WorkflowStatus) store.WorkflowJob {
	t.Helper()
	return enginetest.WaitWorkflowStatus(t, w.store, id, want)
}

func (w *world) waitStarted(t *testing.T, actionID string) {
	t.Helper()
	select {
	case got := <-w.exec.started:
		if got != actionID {
			t.Fatalf("started %s, want %s", got, actionID)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s never started", actionID)
	}
}

const chainApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="chain">
  <start to="extract"/>
  <action name="extract">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>extract.sh</exec><capture-output/>
    </shell>
    <ok to="check"/><error to="fail"/>
  </action>
  <decision name="check">
    <switch>
      <case to="load">${wf:actionData('extract')['rows'] gt 0}</case>
      <default to="end"/>
    </switch>
  </decision>
  <action name="load">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>load.sh</exec><argument>${wf:actionData('extract')['rows']}</argument>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>failed at ${wf:lastErrorNode()}: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

func TestChainWithDecisionSucceeds(t *testing.T) {
	w := setup(t, false)
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED", Data: "rows=42\n"})
	if err := w.runner.Callback(context.Background(), id+"@extract", "SUCCEEDED"); err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@load")
	_, acts := w.job(t, id)
	if !strings.Contains(acts["load"].Conf, "<argument>42</argument>") {
		t.Fatalf("capture-output did not reach the next action: %s", acts["load"].Conf)
	}
	if acts["check"].Transition != "load" || acts["extract"].Status != store.ActionOK {
		t.Fatalf("decision: %+v / %+v", acts["check"], acts["extract"])
	}
	w.exec.complete(id+"@load", actions.Status{Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED"})
	_ = w.runner.Callback(context.Background(), id+"@load", "SUCCEEDED")
	job := w.waitStatus(t, id, store.WorkflowSucceeded)
	if job.EndTime.IsZero() {
		t.Fatal("no end time")
	}
}

func TestErrorTransitionKillsWithMessage(t *testing.T) {
	w := setup(t, false)
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeError, ErrorCode: "1", ErrorMessage: "exit code [1]", ExternalStatus: "FAILED"})
	_ = w.runner.Callback(context.Background(), id+"@extract", "FAILED")
	job := w.waitStatus(t, id, store.WorkflowKilled)
	_, acts := w.job(t, id)
	if acts["extract"].Status != store.ActionError || acts["extract"].ErrorCode != "1" {
		t.Fatalf("extract: %+v", acts["extract"])
	}
	if job.ErrorMessage != "failed at extract: exit code [1]" && acts["fail"].ErrorMessage != "failed at extract: exit code [1]" {
		t.Fatalf("kill message: job %q, node %q", job.ErrorMessage, acts["fail"].ErrorMessage)
	}
}

func TestLostCallbackIsFoundByTheBatchedPoll(t *testing.T) {
	w := setup(t, true)
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	// No callback at all: the batched poll must notice the end.
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeOK, Data: "rows=0\n"})
	w.waitStatus(t, id, store.WorkflowSucceeded)
}

func TestKillKillsRunningActions(t *testing.T) {
	w := setup(t, false)
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	if err := w.runner.Kill(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowKilled)
	testwait.WaitFor(t, 20*time.Second, "the running action's external work to be killed", func() bool {
		w.exec.mu.Lock()
		defer w.exec.mu.Unlock()
		return len(w.exec.killed) == 1
	})
	// Killing again is a no-op, as in Oozie.
	if err := w.runner.Kill(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

func TestLaunchRetriedAfterFailureNeverLaunchesTwice(t *testing.T) {
	w := setup(t, false)
	w.exec.failOnce["extract"] = true
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	// The first Start launched and then failed; the retry must find the
	// launched application by its tag instead of launching again.
	testwait.WaitForLast(t, 20*time.Second, "extract to run", func() (bool, string) {
		_, acts := w.job(t, id)
		if acts["extract"].Status == store.ActionRunning && (acts["extract"].Retries != 1 || acts["extract"].LaunchTag == "") {
			t.Fatalf("after retry: %+v", acts["extract"])
		}
		return acts["extract"].Status == store.ActionRunning, fmt.Sprintf("%+v", acts["extract"])
	})
	w.exec.mu.Lock()
	defer w.exec.mu.Unlock()
	for tag, n := range w.exec.launches {
		if n != 1 {
			t.Fatalf("tag %s launched %d times", tag, n)
		}
	}
	// The first start recorded the tag; the retry found it recorded, so
	// its executor looks for the first launch.
	if got := w.exec.newTags[id+"@extract"]; !slices.Equal(got, []bool{true, false}) {
		t.Errorf("NewTag of the starts of extract: %v, want [true false]", got)
	}
}

// An action whose start keeps failing for the server's own reasons (here a panic) is given
// up after the engine's bounded attempts: it ends in ERROR with the cause, and the workflow
// follows its error transition instead of staying RUNNING forever.
func TestStartThatKeepsFailingIsGivenUp(t *testing.T) {
	w := setup(t, false)
	w.exec.panics["extract"] = true
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	job := w.waitStatus(t, id, store.WorkflowKilled)
	_, acts := w.job(t, id)
	a := acts["extract"]
	if a.Status != store.ActionError || a.ErrorCode != oozieerr.E0902 || !strings.Contains(a.ErrorMessage, "gave up") ||
		!strings.Contains(a.ErrorMessage, "a bug starting extract") {
		t.Fatalf("extract: %s %s %q", a.Status, a.ErrorCode, a.ErrorMessage)
	}
	if acts["fail"].Status == "" || job.Status != store.WorkflowKilled {
		t.Fatalf("the workflow did not take the error transition to fail: %+v", acts)
	}
}

func TestSuspendResume(t *testing.T) {
	w := setup(t, false)
	id, err := w.submit(t, w.app(t, "chain", chainApp), true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	ctx := context.Background()
	if err := w.runner.Suspend(ctx, id); err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowSuspended)
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeOK, Data: "rows=0\n"})
	_ = w.runner.Callback(ctx, id+"@extract", "SUCCEEDED")
	if err := w.runner.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowSucceeded)
}

func TestSubmitErrorsPersistNothing(t *testing.T) {
	w := setup(t, false)
	cases := []struct {
		name, xml, code string
		props           []string
	}{
		{"bad transition", strings.Replace(chainApp, `<ok to="check"/>`, `<ok to="nowhere"/>`, 1), "E0708", nil},
		{"not xml", "<workflow-app", "E0700", nil},
		{"missing parameter", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="p"><parameters><property><name>inputDir</name></property></parameters><start to="end"/><end name="end"/></workflow-app>`, "E0738", nil},
	}
	for _, c := range cases {
		_, err := w.submit(t, w.app(t, c.name, c.xml), true, c.props...)
		var coded interface{ ErrorCode() string }
		if !errors.As(err, &coded) || coded.ErrorCode() != c.code {
			t.Errorf("%s: got %v, want code %s", c.name, err, c.code)
		}
	}
	if _, err := w.submit(t, "file:///nonexistent/app", true); err == nil || !strings.Contains(err.Error(), "E0504") {
		t.Errorf("missing app dir: %v", err)
	}
	_, err := w.runner.Submit(context.Background(), conf.NewProperties("oozie.wf.application.path", w.app(t, "ok", chainApp)), wfrun.SubmitOptions{})
	if err == nil || !strings.Contains(err.Error(), "E0401") {
		t.Errorf("missing user.name: %v", err)
	}
	var jobs []store.WorkflowJob
	_ = w.store.Tx(context.Background(), func(x store.Tx) (err error) {
		jobs, _, err = x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		return
	})
	if len(jobs) != 0 {
		t.Fatalf("%d jobs persisted by failed submissions", len(jobs))
	}
}

func TestRerunFailNodesSkipsWhatSucceeded(t *testing.T) {
	w := setup(t, false)
	app := w.app(t, "chain", chainApp)
	id, err := w.submit(t, app, true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@extract")
	w.exec.complete(id+"@extract", actions.Status{Outcome: workflow.OutcomeOK, Data: "rows=5\n"})
	_ = w.runner.Callback(context.Background(), id+"@extract", "")
	w.waitStarted(t, id+"@load")
	w.exec.complete(id+"@load", actions.Status{Outcome: workflow.OutcomeError, ErrorCode: "1", ErrorMessage: "exit code [1]"})
	_ = w.runner.Callback(context.Background(), id+"@load", "")
	w.waitStatus(t, id, store.WorkflowKilled)

	props := conf.NewProperties("oozie.wf.application.path", app, "oozie.wf.rerun.failnodes", "true")
	if err := w.runner.Rerun(context.Background(), id, props); err != nil {
		t.Fatal(err)
	}
	// extract ended OK and is skipped (its old transition replayed); load runs again.
	w.waitStarted(t, id+"@load")
	job, acts := w.job(t, id)
	if job.Run != 1 || job.Status != store.WorkflowRunning {
		t.Fatalf("after rerun: run %d status %s", job.Run, job.Status)
	}
	if acts["extract"].Status != store.ActionOK || !strings.Contains(acts["load"].Conf, "<argument>5</argument>") {
		t.Fatalf("extract %s, load conf %s", acts["extract"].Status, acts["load"].Conf)
	}
	w.exec.complete(id+"@load", actions.Status{Outcome: workflow.OutcomeOK})
	_ = w.runner.Callback(context.Background(), id+"@load", "")
	w.waitStatus(t, id, store.WorkflowSucceeded)
	w.exec.mu.Lock()
	defer w.exec.mu.Unlock()
	if len(w.exec.launches) != 3 {
		t.Fatalf("%d launches, want 3 (extract once, load twice with distinct tags)", len(w.exec.launches))
	}
	// A rerun of a job that has not ended is refused with Oozie's code.
	running, err := w.submit(t, app, true)
	if err != nil {
		t.Fatal(err)
	}
	err = w.runner.Rerun(context.Background(), running, props)
	var coded interface{ ErrorCode() string }
	if !errors.As(err, &coded) || coded.ErrorCode() != "E0805" {
		t.Fatalf("rerun of a running job: %v", err)
	}
}

const retryApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="retry">
  <start to="flaky"/>
  <action name="flaky" retry-max="2" retry-interval="1">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>flaky.sh</exec>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>flaky failed</message></kill>
  <end name="end"/>
</workflow-app>`

func TestUserRetryRelaunchesWithANewTag(t *testing.T) {
	w := setup(t, false)
	id, err := w.submit(t, w.app(t, "retry", retryApp), true, "oozie.wf.action.user.retry.error.code.ext", "ALL")
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@flaky")
	w.exec.complete(id+"@flaky", actions.Status{Outcome: workflow.OutcomeError, ErrorCode: "JA018", ErrorMessage: "boom"})
	_ = w.runner.Callback(context.Background(), id+"@flaky", "")
	// JA018 is retryable: USER_RETRY with a trigger a minute out.
	testwait.WaitForLast(t, 20*time.Second, "flaky to be USER_RETRY", func() (bool, string) {
		_, acts := w.job(t, id)
		return acts["flaky"].Status == store.ActionUserRetry, string(acts["flaky"].Status)
	})
	var tr store.Trigger
	if err := w.store.Tx(context.Background(), func(x store.Tx) (err error) {
		tr, err = x.GetTrigger(context.Background(), wfrun.KindActionRetry, id+"@flaky")
		return
	}); err != nil {
		t.Fatal(err)
	}
	if d := time.Until(tr.DueAt); d < 50*time.Second || d > 61*time.Second {
		t.Fatalf("retry due in %v, want about one minute (retry-interval 1)", d)
	}
}

// TestActionDirOnTheApplicationsFilesystem: an action that names no name node,
// on a server with no default one, has its action directory on the
// application's filesystem (as Oozie puts it), not on a bare path the server
// would read against its own default.
func TestActionDirOnTheApplicationsFilesystem(t *testing.T) {
	w := setup(t, false)
	app := w.app(t, "no-nn", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="no-nn">
  <start to="mk"/>
  <action name="mk"><fs><mkdir path="hdfs://nn:8020/out"/></fs><ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>`)
	id, err := w.submit(t, app, true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@mk")
	w.exec.mu.Lock()
	dir := w.exec.dirs[id+"@mk"]
	w.exec.mu.Unlock()
	if want := "file:///user/alice/gozie-sys/" + id + "/mk--fs/"; !strings.HasPrefix(dir, want) {
		t.Errorf("action directory %q, want it under %q", dir, want)
	}
}

// TestActionCarriesItsCredentials: an action's cred attribute names
// credentials of the workflow's <credentials>, whose properties are
// resolved against the job configuration; a name the workflow does not
// define reaches the executor without a type, for the launch to refuse.
func TestActionCarriesItsCredentials(t *testing.T) {
	w := setup(t, false)
	app := w.app(t, "creds", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="creds">
  <credentials>
    <credential name="hs" type="hive2">
      <property><name>hive2.jdbc.url</name><value>jdbc:hive2://hs2:10000/default</value></property>
      <property><name>hive2.server.principal</name><value>hive/_HOST@R-${user.name}</value></property>
    </credential>
    <credential name="unused" type="hcat"/>
  </credentials>
  <start to="mk"/>
  <action name="mk" cred="hs, missing"><fs><mkdir path="hdfs://nn:8020/out"/></fs><ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>`)
	id, err := w.submit(t, app, true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStarted(t, id+"@mk")
	w.exec.mu.Lock()
	got := w.exec.creds[id+"@mk"]
	w.exec.mu.Unlock()
	if len(got) != 2 || got[0].Name != "hs" || got[0].Type != "hive2" || got[1].Name != "missing" || got[1].Type != "" {
		t.Fatalf("credentials %+v", got)
	}
	if p := got[0].Properties; p.Value("hive2.jdbc.url") != "jdbc:hive2://hs2:10000/default" || p.Value("hive2.server.principal") != "hive/_HOST@R-alice" {
		t.Errorf("properties %v", p.Map())
	}
}

// TestCallbackDuringTheStartIsNotLost: a run that ends, and calls back,
// while its start is still being recorded (a launcher faster than the
// submission's answer) is seen at once: the callback's check finds the
// action not yet RUNNING and is dropped, and the first check after the
// start is recorded, due right away, finds the end. The executor's own
// checks are an hour apart here: without that first check the job would
// wait an hour.
func TestCallbackDuringTheStartIsNotLost(t *testing.T) {
	w := setup(t, false)
	ctx := context.Background()
	w.exec.onStart["fast"] = func(run *actions.Attempt, ext string) {
		w.exec.ended[ext] = actions.Status{Done: true, Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED"}
		if err := w.runner.Callback(ctx, run.ActionID, "SUCCEEDED"); err != nil {
			t.Error(err)
			return
		}
		// Wait until the callback's check has run (and found the action
		// still starting).
		// Until, not WaitFor: this runs on the engine's goroutine.
		ran := testwait.Until(10*time.Second, func() bool {
			pending := false
			err := w.store.Tx(ctx, func(x store.Tx) error {
				for _, leased := range []bool{false, true} {
					trs, err := x.ListTriggers(ctx, leased, 100)
					if err != nil {
						return err
					}
					for _, tr := range trs {
						pending = pending || tr.Kind == wfrun.KindActionCheck && tr.EntityID == run.ActionID
					}
				}
				return nil
			})
			if err != nil {
				t.Error(err)
				return true
			}
			return !pending
		})
		if !ran {
			t.Error("the callback's check never ran")
		}
	}
	app := w.app(t, "fast", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="fast">
  <start to="fast"/>
  <action name="fast"><shell xmlns="uri:oozie:shell-action:0.3"><job-tracker>rm:8032</job-tracker><name-node>hdfs://nn:8020</name-node><exec>true</exec></shell><ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>`)
	id, err := w.submit(t, app, true)
	if err != nil {
		t.Fatal(err)
	}
	w.waitStatus(t, id, store.WorkflowSucceeded)
}
