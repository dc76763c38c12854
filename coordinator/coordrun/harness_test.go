package coordrun

import (
	"context"
	"log/slog"
	"os"
	"os/user"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/stacktest"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

var bg = context.Background()

// world is one in-process gozie: a real store, the real engine and workflow
// runner, the coordinator engine under test, a fake clock and file://
// datasets under root.
type world struct {
	t      testing.TB
	stack  *stacktest.Stack
	store  store.Store
	clock  *clock.Fake
	fs     *hadoop.Resolver
	wf     *wfrun.Runner
	coords *Runner
	eng    *engine.Engine
	exec   *enginetest.Scripted
	root   string // a local directory, the "cluster"
	nn     string // the URI of root on the cluster (file:// or hdfs://), the apps' nameNode
	dsn    string // the PostgreSQL database given to setup, if any
	logs   *logRecorder
	// allowErrors lets settle pass over failed triggers (tests of failures).
	allowErrors bool
	// only lists the coordinator trigger kinds handled, when not all are.
	only []store.TriggerKind
	// patience bounds waits (default 30s); pollEvery spaces the looks at
	// the condition (default 5ms).
	patience, pollEvery time.Duration
}

// unhandled lists the trigger kinds this world has no handler for: SLA
// deadlines (the SLA service is not part of it) and the coordinator kinds a
// benchmark leaves out.
func (w *world) unhandled() []store.TriggerKind {
	out := []store.TriggerKind{store.KindSLADeadline}
	for k := range w.coords.handlers() {
		if w.only != nil && !slices.Contains(w.only, k) {
			out = append(out, k)
		}
	}
	return out
}

// logRecorder keeps the messages logged at warning level and above, and
// passes every record on to the test log output.
type logRecorder struct {
	slog.Handler
	mu   *sync.Mutex
	msgs *[]string
}

func newLogRecorder() *logRecorder {
	level := slog.LevelWarn
	if os.Getenv("GOZIE_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	return &logRecorder{Handler: slog.NewTextHandler(enginetest.LogOut(), &slog.HandlerOptions{Level: level}),
		mu: &sync.Mutex{}, msgs: &[]string{}}
}

func (l *logRecorder) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		l.mu.Lock()
		*l.msgs = append(*l.msgs, r.Message)
		l.mu.Unlock()
	}
	return l.Handler.Handle(ctx, r)
}

func (l *logRecorder) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logRecorder{Handler: l.Handler.WithAttrs(attrs), mu: l.mu, msgs: l.msgs}
}

func (l *logRecorder) WithGroup(name string) slog.Handler {
	return &logRecorder{Handler: l.Handler.WithGroup(name), mu: l.mu, msgs: l.msgs}
}

// logged reports whether a warning or error containing s was logged.
func (l *logRecorder) logged(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range *l.msgs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// options of setup.
type options struct {
	now        time.Time
	auto       bool
	postgres   bool
	dsn        string // an existing PostgreSQL database (a second server)
	sqlitePath string // an existing SQLite file (a second server)
	owner      string
	lease      time.Duration
	clock      *clock.Fake
	testHook   func(point string)
	only       []store.TriggerKind // register only these coordinator trigger kinds (benchmarks)
	hdfs       bool                // the cluster is a MiniDFS (hdfs://) instead of file://
	schemes    []string            // when set, the filesystems are seen through this gozie.filesystems.supported
	settings   func(*coordinator.Settings)
	root       string
	noStart    bool
	// maxAttempts is the engine's MaxAttempts (default the engine's).
	maxAttempts int
	// hcat checks hcat:// datasets (hcat_test.go).
	hcat HCatDatasets
}

func setup(t testing.TB, o options) *world {
	t.Helper()
	if o.root == "" {
		o.root = t.TempDir()
	}
	w := &world{t: t, dsn: o.dsn, logs: newLogRecorder()}
	nn := ""
	if o.hdfs {
		// The server (this process's user) acts for the jobs' users.
		dfs, err := minidfs.Start(bg, minidfs.Options{Root: o.root, Conf: minidfs.ProxyUserConf(currentUser(t))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { dfs.Close() })
		nn = dfs.URI()
	}
	log := slog.New(w.logs)
	w.stack = stacktest.New(t, stacktest.Options{Now: o.now, Clock: o.clock, Auto: o.auto, Root: o.root,
		Backend:   enginetest.Backend{Postgres: o.postgres, DSN: o.dsn, SQLitePath: o.sqlitePath},
		DefaultFS: nn, NameNode: nn, Schemes: o.schemes, Owner: o.owner, Lease: o.lease,
		MaxAttempts: o.maxAttempts, Logger: log,
		OnWorkflowChange: func(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
			return w.coords.OnWorkflowChange(ctx, x, job)
		}})
	s := w.stack
	w.store, w.clock, w.fs, w.wf, w.eng, w.exec, w.root, w.nn = s.Store, s.Clock, s.FS, s.Workflows, s.Engine, s.Exec, s.Root, s.NameNode
	set := coordinator.DefaultSettings()
	if o.settings != nil {
		o.settings(&set)
	}
	var err error
	w.coords, err = New(Config{Store: w.store, Clock: w.clock, Logger: log, FS: s.UserFS,
		IDs: s.IDs(), Workflows: w.wf, Settings: set, testHook: o.testHook, HCat: o.hcat})
	if err != nil {
		t.Fatal(err)
	}
	w.only = o.only
	if o.only == nil {
		w.coords.Register(w.eng)
	} else {
		hs := w.coords.handlers()
		for _, k := range o.only {
			w.eng.Handle(k, hs[k])
		}
	}
	if !o.noStart {
		w.start()
	}
	return w
}

func (w *world) start() {
	w.t.Helper()
	w.stack.Start(w.t)
}

// installExample copies the example app name of the folder apps (gozie's or Oozie's, see
// testapps), unchanged, to where its job.properties puts it on the "cluster":
// <nameNode>/user/alice/examples/apps/<name>.
func (w *world) installExample(apps, name string) {
	w.t.Helper()
	w.stack.InstallExample(w.t, apps, name)
}

// exampleProps reads a properties file of the example app name of the folder apps
// unchanged and points it at the test cluster (nameNode) as a user would, with user.name
// and overrides.
func (w *world) exampleProps(apps, name, file string, kv ...string) *conf.Properties {
	w.t.Helper()
	return w.stack.ExampleProps(w.t, apps, name, file, kv...)
}

// app writes a coordinator app (and a one-action workflow) under the
// cluster and returns its directory URI.
func (w *world) app(name, coordXML string) string {
	w.t.Helper()
	w.stack.Write(w.t, "/apps/"+name+"/coordinator.xml", coordXML)
	w.stack.Write(w.t, "/apps/"+name+"/workflow.xml", stacktest.OneActionWorkflow(name+"-wf"))
	return w.nn + "/apps/" + name
}

// props is a job configuration for an app written by app.
func (w *world) props(appPath string, kv ...string) *conf.Properties {
	p := conf.NewProperties("user.name", "alice", PropAppPath, appPath, "nameNode", w.nn, "wfApp", appPath)
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1])
	}
	return p
}

func (w *world) submit(p *conf.Properties) string {
	w.t.Helper()
	id, err := w.coords.Submit(bg, p, SubmitOptions{})
	if err != nil {
		w.t.Fatalf("submit: %v", err)
	}
	return id
}

func (w *world) job(id string) store.CoordJob {
	w.t.Helper()
	var j store.CoordJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { j, err = x.GetCoordJob(bg, id); return }); err != nil {
		w.t.Fatal(err)
	}
	return j
}

func (w *world) actions(jobID string) []store.CoordAction {
	w.t.Helper()
	return w.stack.CoordActions(w.t, jobID)
}

func (w *world) action(id string) store.CoordAction {
	w.t.Helper()
	var a store.CoordAction
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { a, err = x.GetCoordAction(bg, id); return }); err != nil {
		w.t.Fatal(err)
	}
	return a
}

func (w *world) workflow(id string) store.WorkflowJob {
	w.t.Helper()
	var j store.WorkflowJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { j, err = x.GetWorkflowJob(bg, id); return }); err != nil {
		w.t.Fatal(err)
	}
	return j
}

// statuses returns the job's action statuses in action-number order.
func (w *world) statuses(jobID string) []store.CoordActionStatus {
	var out []store.CoordActionStatus
	for _, a := range w.actions(jobID) {
		out = append(out, a.Status)
	}
	return out
}

// waitFor polls a condition until it holds, failing after a deadline with
// the first triggers.
func (w *world) waitFor(what string, cond func() bool) {
	w.t.Helper()
	w.settler().WaitFor(w.t, what, cond)
}

// settle waits until the engine has nothing to do at the current (fake)
// time: no trigger is leased and none is due (enginetest.Settler).
func (w *world) settle() {
	w.t.Helper()
	w.settler().Settle(w.t)
}

// settler is the world's view of its engines for Settle and waits.
func (w *world) settler() enginetest.Settler {
	return w.stack.Settler(w.allowErrors, testwait.Poll{Timeout: w.patience, Every: w.pollEvery}, w.unhandled)
}

// advance moves the fake clock and lets the engine catch up.
func (w *world) advance(d time.Duration) {
	w.t.Helper()
	w.clock.Advance(d)
	w.settle()
}

// waitJobStatus waits for the job's status.
func (w *world) waitJobStatus(id string, want store.JobStatus) store.CoordJob {
	w.t.Helper()
	var j store.CoordJob
	w.waitFor("job "+id+" to be "+string(want), func() bool { j = w.job(id); return j.Status == want })
	return j
}

// waitActionStatus waits for an action's status.
func (w *world) waitActionStatus(id string, want store.CoordActionStatus) store.CoordAction {
	w.t.Helper()
	var a store.CoordAction
	w.waitFor("action "+id+" to be "+string(want), func() bool { a = w.action(id); return a.Status == want })
	return a
}

// complete ends the running workflow of a coordinator action with outcome
// and tells the runner, as a launcher's callback would.
func (w *world) complete(actionID string, outcome workflow.Outcome) {
	w.t.Helper()
	w.stack.Complete(w.t, w.settler(), w.action(actionID).ExternalID, outcome)
}

// waitRun waits for the first action of a workflow to be started.
func (w *world) waitRun(wfID string) actions.Attempt {
	w.t.Helper()
	return w.stack.WaitRun(w.t, w.settler(), wfID)
}

// local returns the local path of a URI on the test cluster (MiniDFS
// serves the local directory root).
func (w *world) local(uri string) string {
	return w.stack.Local(uri)
}

// touch creates a file (and its parents) on the test cluster.
func (w *world) touch(uri string) {
	w.t.Helper()
	w.stack.Write(w.t, uri, "")
}

// triggerDue returns when a trigger is due, and false when there is none.
func (w *world) triggerDue(kind store.TriggerKind, entity string) (time.Time, bool) {
	return w.stack.TriggerDue(kind, entity)
}

// currentUser is the user the tests run as: the server's user, the real
// user of the jobs' HDFS calls.
func currentUser(t testing.TB) string {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}
