// Package stacktest builds the in-process gozie the coordinator and bundle
// engines' tests run on: a real store, the real engine and workflow runner
// with a scripted executor for its actions, a fake clock and a "cluster"
// that is a local directory (file://, or MiniDFS serving it). The engine
// under test is built on top (its package cannot be imported here) and
// registered before Start.
package stacktest

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Start is the fake clock's time when Options.Now is zero.
var Start = time.Date(2010, 1, 1, 5, 0, 0, 0, time.UTC)

// Options of New; the zero value is a SQLite store, a file:// cluster in a
// temporary directory and a fake clock at Start.
type Options struct {
	Now     time.Time   // the fake clock's start (zero: Start)
	Clock   *clock.Fake // a clock shared with another stack (overrides Now)
	Backend enginetest.Backend
	// Auto makes the scripted executor end every attempt at its start.
	Auto bool
	// Root is the cluster's local directory (empty: a temporary one).
	Root string
	// DefaultFS is the filesystems' default (empty: file:///); NameNode is
	// the URI of Root on the cluster, the apps' nameNode (empty:
	// file://Root). A test on MiniDFS sets both to its URI.
	DefaultFS, NameNode string
	// Schemes, when set, is the gozie.filesystems.supported the jobs'
	// filesystems are seen through.
	Schemes []string
	// Owner names the engine's owner and the ids' system (a second server
	// on the same store); empty: one server.
	Owner string
	// Lease is the engine's trigger lease (zero: 30s); MaxAttempts its
	// retry bound (zero: the engine's).
	Lease       time.Duration
	MaxAttempts int
	// Logger is where the engines log (nil: text to enginetest.LogOut).
	Logger *slog.Logger
	// OnWorkflowChange is the workflow runner's OnJobChange: the engine
	// under test, built after the runner.
	OnWorkflowChange func(ctx context.Context, x store.Tx, job store.WorkflowJob) error
}

// Stack is one in-process gozie below the engine under test.
type Stack struct {
	Store     store.Store
	Clock     *clock.Fake
	FS        *hadoop.Resolver  // every scheme the cluster has
	UserFS    hadoop.FileSystem // FS as the jobs see it (Options.Schemes)
	Workflows *wfrun.Runner
	Engine    *engine.Engine
	Exec      *enginetest.Scripted // runs the fs, map-reduce and shell actions
	Logger    *slog.Logger
	Root      string // the cluster's local directory
	NameNode  string // the URI of Root on the cluster
	systemID  string
}

// New builds a stack whose engine runs the workflow runner's triggers; the
// caller registers its own handlers and then calls Start.
func New(t testing.TB, o Options) *Stack {
	t.Helper()
	s := &Stack{Clock: o.Clock, Root: o.Root, NameNode: o.NameNode, Logger: o.Logger,
		Exec: enginetest.NewScripted(o.Auto), systemID: "gozie-test"}
	if s.Clock == nil {
		now := o.Now
		if now.IsZero() {
			now = Start
		}
		s.Clock = clock.NewFake(now)
	}
	if s.Root == "" {
		s.Root = t.TempDir()
	}
	if s.NameNode == "" {
		s.NameNode = "file://" + s.Root
	}
	if s.Logger == nil {
		s.Logger = slog.New(slog.NewTextHandler(enginetest.LogOut(), &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if o.Owner != "" {
		s.systemID = "gozie-" + o.Owner
	}
	s.Store = o.Backend.Open(t)
	s.openFS(t, o)
	var err error
	s.Workflows, err = wfrun.New(wfrun.Config{Store: s.Store, Clock: s.Clock, Logger: s.Logger, FS: s.UserFS,
		IDs:             s.IDs(),
		Executors:       actions.Registry{"fs": s.Exec, "map-reduce": s.Exec, "shell": s.Exec},
		CallbackBaseURL: "http://127.0.0.1/oozie/callback", CheckInterval: time.Hour, PollInterval: time.Hour,
		OnJobChange: o.OnWorkflowChange})
	if err != nil {
		t.Fatal(err)
	}
	lease := o.Lease
	if lease == 0 {
		lease = 30 * time.Second
	}
	s.Engine = engine.New(engine.Config{Store: s.Store, Clock: s.Clock, Logger: s.Logger, Owner: o.Owner,
		Lease: lease, MaxSleep: time.Hour, Backoff: func(int) time.Duration { return 10 * time.Millisecond },
		MaxAttempts: o.MaxAttempts})
	s.Workflows.Register(s.Engine)
	return s
}

// openFS opens the cluster's filesystems, restricted to o.Schemes for the
// jobs when set.
func (s *Stack) openFS(t testing.TB, o Options) {
	t.Helper()
	defaultFS := o.DefaultFS
	if defaultFS == "" {
		defaultFS = "file:///"
	}
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: defaultFS, Now: s.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	s.FS, s.UserFS = res, res
	if o.Schemes != nil {
		policy, err := hadoop.NewSchemePolicy(o.Schemes, res.DefaultFS())
		if err != nil {
			t.Fatal(err)
		}
		s.UserFS = policy.Restrict(res)
	}
}

// IDs returns an id generator of the stack's system, for an engine built
// on it.
func (s *Stack) IDs() *ids.Generator {
	return ids.NewGenerator(s.systemID, time.Now())
}

// Start starts the engine, stopped when the test ends.
func (s *Stack) Start(t testing.TB) {
	t.Helper()
	if err := s.Engine.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Engine.Stop)
}

// Local returns the local path of a URI on the cluster.
func (s *Stack) Local(uri string) string {
	return filepath.Join(s.Root, filepath.FromSlash(strings.TrimPrefix(uri, s.NameNode)))
}

// Write creates a file (and its parents) on the cluster at path, a URI or
// a path below the name node.
func (s *Stack) Write(t testing.TB, path, content string) {
	t.Helper()
	p := s.Local(path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// OneActionWorkflow is a workflow app named name whose one action is an fs
// action, run by the scripted executor.
func OneActionWorkflow(name string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="` + name + `">
  <start to="work"/>
  <action name="work"><fs/><ok to="end"/><error to="fail"/></action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>`
}

// InstallExample copies the example app name of the folder apps (gozie's
// or Oozie's, see testapps), unchanged, to where its job.properties puts
// it on the cluster: <nameNode>/user/alice/examples/apps/<name>.
func (s *Stack) InstallExample(t testing.TB, apps, name string) {
	t.Helper()
	src := filepath.Join(apps, name)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s.Write(t, "/user/alice/examples/apps/"+name+"/"+filepath.ToSlash(rel), string(b))
		return nil
	})
	if err != nil {
		t.Fatalf("installing the example app %s: %v", src, err)
	}
}

// ExampleProps reads the properties file of the example app name of the
// folder apps unchanged and points it at the cluster (nameNode) as a user
// would, with user.name alice and the overrides kv (name, value, ...).
func (s *Stack) ExampleProps(t testing.TB, apps, name, file string, kv ...string) *conf.Properties {
	t.Helper()
	f, err := os.Open(filepath.Join(apps, name, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, file)
	if err != nil {
		t.Fatal(err)
	}
	p.Set("nameNode", s.NameNode)
	p.Set("user.name", "alice")
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1])
	}
	return p
}

// TriggerDue returns when a trigger is due, and false when there is none.
func (s *Stack) TriggerDue(kind store.TriggerKind, entity string) (time.Time, bool) {
	ctx := context.Background()
	var tr store.Trigger
	err := s.Store.Tx(ctx, func(x store.Tx) (err error) { tr, err = x.GetTrigger(ctx, kind, entity); return })
	if err != nil {
		return time.Time{}, false
	}
	return tr.DueAt, true
}

// Settler is the stack's view of its engines for waits (see
// enginetest.Settler): failed triggers pass with allowErrors, waits are
// bounded by poll, and unhandled (nil: none) lists the kinds nobody
// handles here.
func (s *Stack) Settler(allowErrors bool, poll testwait.Poll, unhandled func() []store.TriggerKind) enginetest.Settler {
	return enginetest.Settler{Store: s.Store, Now: s.Clock.Now, AllowErrors: allowErrors, Poll: poll, Unhandled: unhandled}
}

// WaitRun waits for the first action of workflow wfID to be started by
// the scripted executor and returns its attempt.
func (s *Stack) WaitRun(t testing.TB, settler enginetest.Settler, wfID string) actions.Attempt {
	t.Helper()
	var run actions.Attempt
	settler.WaitFor(t, "a run of workflow "+wfID, func() bool {
		var ok bool
		run, ok = s.Exec.RunOf(wfID)
		return ok
	})
	return run
}

// Complete ends the running first action of workflow wfID with outcome
// and tells the runner, as a launcher's callback would.
func (s *Stack) Complete(t testing.TB, settler enginetest.Settler, wfID string, outcome workflow.Outcome) {
	t.Helper()
	run := s.WaitRun(t, settler, wfID)
	st := actions.Status{Done: true, Outcome: outcome, ExternalStatus: "SUCCEEDED"}
	if outcome != workflow.OutcomeOK {
		st.ExternalStatus, st.ErrorCode, st.ErrorMessage = "FAILED", "1", "exit code 1"
	}
	s.Exec.End(run.Tag, st)
	if err := s.Workflows.Callback(context.Background(), run.ActionID, string(outcome)); err != nil {
		t.Fatal(err)
	}
}

// CoordActions returns the actions of coordinator job jobID in action
// number order.
func (s *Stack) CoordActions(t testing.TB, jobID string) []store.CoordAction {
	t.Helper()
	ctx := context.Background()
	var acts []store.CoordAction
	if err := s.Store.Tx(ctx, func(x store.Tx) (err error) {
		acts, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: jobID})
		return
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(acts, func(a, b store.CoordAction) int { return a.ActionNumber - b.ActionNumber })
	return acts
}
