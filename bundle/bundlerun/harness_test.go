package bundlerun

import (
	"context"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/stacktest"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

var bg = context.Background()

// world is one in-process gozie: a real store, the real engine, workflow runner and
// coordinator engine, the bundle engine under test, a fake clock and file:// apps under
// root.
type world struct {
	t       *testing.T
	stack   *stacktest.Stack
	store   store.Store
	clock   *clock.Fake
	fs      *hadoop.Resolver
	wf      *wfrun.Runner
	coords  *coordrun.Runner
	bundles *Runner
	eng     *engine.Engine
	exec    *enginetest.Scripted
	root    string // a local directory, the "cluster"
	nn      string // file://<root>, the apps' nameNode
	// allowErrors lets settle pass over failed triggers (tests of failures).
	allowErrors bool
}

// options of setup.
type options struct {
	now      time.Time
	auto     bool
	postgres bool
}

func setup(t *testing.T, o options) *world {
	t.Helper()
	w := &world{t: t}
	w.stack = stacktest.New(t, stacktest.Options{Now: o.now, Auto: o.auto,
		Backend: enginetest.Backend{Postgres: o.postgres},
		OnWorkflowChange: func(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
			return w.coords.OnWorkflowChange(ctx, x, job)
		}})
	s := w.stack
	w.store, w.clock, w.fs, w.wf, w.eng, w.exec, w.root, w.nn = s.Store, s.Clock, s.FS, s.Workflows, s.Engine, s.Exec, s.Root, s.NameNode
	var err error
	w.coords, err = coordrun.New(coordrun.Config{Store: w.store, Clock: w.clock, Logger: s.Logger, FS: s.UserFS,
		IDs: s.IDs(), Workflows: w.wf, Settings: coordinator.DefaultSettings(),
		OnJobChange: func(ctx context.Context, x store.Tx, job store.CoordJob) error {
			return w.bundles.OnCoordinatorChange(ctx, x, job)
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.bundles, err = New(Config{Store: w.store, Clock: w.clock, Logger: s.Logger, FS: s.UserFS,
		IDs: s.IDs(), Coordinators: w.coords})
	if err != nil {
		t.Fatal(err)
	}
	w.coords.Register(w.eng)
	w.bundles.Register(w.eng)
	w.stack.Start(t)
	return w
}

// installExample copies the example app name of the folder apps (gozie's or Oozie's, see
// testapps), unchanged, to where its job.properties puts it on the "cluster":
// <nameNode>/user/alice/examples/apps/<name>.
func (w *world) installExample(apps, name string) {
	w.t.Helper()
	w.stack.InstallExample(w.t, apps, name)
}

// exampleProps reads the job.properties of the example app name of the folder apps
// unchanged and points it at the test cluster (nameNode) as a user would, with user.name
// and overrides.
func (w *world) exampleProps(apps, name string, kv ...string) *conf.Properties {
	w.t.Helper()
	return w.stack.ExampleProps(w.t, apps, name, "job.properties", kv...)
}

// write creates a file (and its parents) on the test cluster at path (below root).
func (w *world) write(path, content string) {
	w.t.Helper()
	w.stack.Write(w.t, path, content)
}

// coordApp writes a coordinator app without inputs under /apps/<name> (its workflow runs
// one fs action), hourly from start to end, and returns its directory URI.
func (w *world) coordApp(name, start, end string) string {
	w.t.Helper()
	w.write("/apps/"+name+"/coordinator.xml", `<coordinator-app name="`+name+`-in-xml" frequency="${coord:hours(1)}"
    start="`+start+`" end="`+end+`" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls><concurrency>4</concurrency></controls>
  <action><workflow><app-path>${nameNode}/apps/`+name+`</app-path>
    <configuration><property><name>who</name><value>${who}</value></property></configuration>
  </workflow></action>
</coordinator-app>`)
	w.write("/apps/"+name+"/workflow.xml", stacktest.OneActionWorkflow(name+"-wf"))
	return w.nn + "/apps/" + name
}

// bundleApp writes a bundle.xml under /apps/<name> and returns its directory URI.
func (w *world) bundleApp(name, xml string) string {
	w.t.Helper()
	w.write("/apps/"+name+"/bundle.xml", xml)
	return w.nn + "/apps/" + name
}

// props is a bundle job configuration for an app written by bundleApp.
func (w *world) props(appPath string, kv ...string) *conf.Properties {
	p := conf.NewProperties("user.name", "alice", PropAppPath, appPath, "nameNode", w.nn, "who", "bundle")
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1])
	}
	return p
}

func (w *world) submit(p *conf.Properties) string {
	w.t.Helper()
	id, err := w.bundles.Submit(bg, p)
	if err != nil {
		w.t.Fatalf("submit: %v", err)
	}
	return id
}

func (w *world) bundle(id string) store.BundleJob {
	w.t.Helper()
	var j store.BundleJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { j, err = x.GetBundleJob(bg, id); return }); err != nil {
		w.t.Fatal(err)
	}
	return j
}

// coordinators returns a bundle's coordinator jobs by name.
func (w *world) coordinators(bundleID string) map[string]store.CoordJob {
	w.t.Helper()
	var jobs []store.CoordJob
	if err := w.store.Tx(bg, func(x store.Tx) (err error) {
		jobs, _, err = x.ListCoordJobs(bg, store.JobFilter{BundleID: bundleID})
		return
	}); err != nil {
		w.t.Fatal(err)
	}
	out := map[string]store.CoordJob{}
	for _, j := range jobs {
		out[j.AppName] = j
	}
	return out
}

// links returns a bundle's links to its coordinators by name.
func (w *world) links(bundleID string) map[string]store.BundleAction {
	w.t.Helper()
	var acts []store.BundleAction
	if err := w.store.Tx(bg, func(x store.Tx) (err error) { acts, err = x.ListBundleActions(bg, bundleID); return }); err != nil {
		w.t.Fatal(err)
	}
	out := map[string]store.BundleAction{}
	for _, a := range acts {
		out[a.CoordName] = a
	}
	return out
}

func (w *world) coordActions(jobID string) []store.CoordAction {
	w.t.Helper()
	return w.stack.CoordActions(w.t, jobID)
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
	return w.stack.Settler(w.allowErrors, testwait.Poll{},
		func() []store.TriggerKind { return []store.TriggerKind{store.KindSLADeadline} })
}

// advance moves the fake clock and lets the engine catch up.
func (w *world) advance(d time.Duration) {
	w.t.Helper()
	w.clock.Advance(d)
	w.settle()
}

// triggerDue returns when a trigger is due, and false when there is none.
func (w *world) triggerDue(kind store.TriggerKind, entity string) (time.Time, bool) {
	return w.stack.TriggerDue(kind, entity)
}

// complete ends the workflow of a running coordinator action with outcome, as a launcher's
// callback would.
func (w *world) complete(a store.CoordAction, outcome workflow.Outcome) {
	w.t.Helper()
	w.stack.Complete(w.t, w.settler(), a.ExternalID, outcome)
}

// stored counts the bundle jobs and triggers stored, for tests that
// nothing was.
func (w *world) stored() (bundles, triggers int) {
	w.t.Helper()
	err := w.store.Tx(bg, func(x store.Tx) (err error) {
		if _, bundles, err = x.ListBundleJobs(bg, store.JobFilter{Limit: 1}); err != nil {
			return err
		}
		triggers, err = x.CountTriggers(bg)
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return bundles, triggers
}
