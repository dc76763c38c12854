package bundlerun

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/internal/enginetest"
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
	if o.now.IsZero() {
		o.now = time.Date(2010, 1, 1, 5, 0, 0, 0, time.UTC)
	}
	root := t.TempDir()
	w := &world{t: t, root: root, nn: "file://" + root, clock: clock.NewFake(o.now),
		exec: enginetest.NewScripted(o.auto)}
	w.store = enginetest.Backend{Postgres: o.postgres}.Open(t)
	log := slog.New(slog.NewTextHandler(enginetest.LogOut(), &slog.HandlerOptions{Level: slog.LevelDebug}))
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///", Now: w.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	w.fs = fs
	w.wf, err = wfrun.New(wfrun.Config{Store: w.store, Clock: w.clock, Logger: log, FS: fs,
		IDs:             ids.NewGenerator("gozie-test", o.now),
		Executors:       actions.Registry{"fs": w.exec, "map-reduce": w.exec},
		CallbackBaseURL: "http://127.0.0.1/oozie/callback", CheckInterval: time.Hour, PollInterval: time.Hour,
		OnJobChange: func(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
			return w.coords.OnWorkflowChange(ctx, x, job)
		}})
	if err != nil {
		t.Fatal(err)
	}
	set := coordinator.DefaultSettings()
	w.coords, err = coordrun.New(coordrun.Config{Store: w.store, Clock: w.clock, Logger: log, FS: fs,
		IDs: ids.NewGenerator("gozie-test", o.now), Workflows: w.wf, Settings: set,
		OnJobChange: func(ctx context.Context, x store.Tx, job store.CoordJob) error {
			return w.bundles.OnCoordinatorChange(ctx, x, job)
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.bundles, err = New(Config{Store: w.store, Clock: w.clock, Logger: log, FS: fs,
		IDs: ids.NewGenerator("gozie-test", o.now), Coordinators: w.coords})
	if err != nil {
		t.Fatal(err)
	}
	w.eng = engine.New(engine.Config{Store: w.store, Clock: w.clock, Logger: log, Lease: 30 * time.Second,
		MaxSleep: time.Hour, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	w.wf.Register(w.eng)
	w.coords.Register(w.eng)
	w.bundles.Register(w.eng)
	if err := w.eng.Start(bg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.eng.Stop)
	return w
}

// installExample copies the example app name of the folder apps (gozie's or Oozie's, see
// testapps), unchanged, to where its job.properties puts it on the "cluster":
// <nameNode>/user/alice/examples/apps/<name>.
func (w *world) installExample(apps, name string) {
	w.t.Helper()
	src := filepath.Join(apps, name)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		w.write("/user/alice/examples/apps/"+name+"/"+filepath.ToSlash(rel), string(readFile(w.t, path)))
		return nil
	})
	if err != nil {
		w.t.Fatalf("installing the example app %s: %v", src, err)
	}
}

// exampleProps reads the job.properties of the example app name of the folder apps
// unchanged and points it at the test cluster (nameNode) as a user would, with user.name
// and overrides.
func (w *world) exampleProps(apps, name string, kv ...string) *conf.Properties {
	w.t.Helper()
	f, err := os.Open(filepath.Join(apps, name, "job.properties"))
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, "job.properties")
	if err != nil {
		w.t.Fatal(err)
	}
	p.Set("nameNode", w.nn)
	p.Set("user.name", "alice")
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1])
	}
	return p
}

// write creates a file (and its parents) on the test cluster at path (below root).
func (w *world) write(path, content string) {
	w.t.Helper()
	p := filepath.Join(w.root, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
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
	w.write("/apps/"+name+"/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="`+name+`-wf">
  <start to="work"/>
  <action name="work"><fs/><ok to="end"/><error to="fail"/></action>
  <kill name="fail"><message>failed</message></kill>
  <end name="end"/>
</workflow-app>`)
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
	var acts []store.CoordAction
	if err := w.store.Tx(bg, func(x store.Tx) (err error) {
		acts, _, err = x.ListCoordActions(bg, store.CoordActionFilter{JobID: jobID})
		return
	}); err != nil {
		w.t.Fatal(err)
	}
	return acts
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
	return enginetest.Settler{Store: w.store, Now: w.clock.Now, AllowErrors: w.allowErrors,
		Unhandled: func() []store.TriggerKind { return []store.TriggerKind{store.KindSLADeadline} }}
}

// advance moves the fake clock and lets the engine catch up.
func (w *world) advance(d time.Duration) {
	w.t.Helper()
	w.clock.Advance(d)
	w.settle()
}

// triggerDue returns when a trigger is due, and false when there is none.
func (w *world) triggerDue(kind store.TriggerKind, entity string) (time.Time, bool) {
	w.t.Helper()
	var tr store.Trigger
	err := w.store.Tx(bg, func(x store.Tx) (err error) { tr, err = x.GetTrigger(bg, kind, entity); return })
	if err != nil {
		return time.Time{}, false
	}
	return tr.DueAt, true
}

// complete ends the workflow of a running coordinator action with outcome, as a launcher's
// callback would.
func (w *world) complete(a store.CoordAction, outcome workflow.Outcome) {
	w.t.Helper()
	var run actions.Attempt
	w.waitFor("a run of workflow "+a.ExternalID, func() bool {
		var ok bool
		run, ok = w.exec.RunOf(a.ExternalID)
		return ok
	})
	st := actions.Status{Done: true, Outcome: outcome, ExternalStatus: "SUCCEEDED"}
	if outcome != workflow.OutcomeOK {
		st.ExternalStatus, st.ErrorCode, st.ErrorMessage = "FAILED", "1", "exit code 1"
	}
	w.exec.End(run.Tag, st)
	if err := w.wf.Callback(bg, run.ActionID, string(outcome)); err != nil {
		w.t.Fatal(err)
	}
}

// readFile reads a local file, failing the test on error.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// count counts rows of a table, for tests that nothing was stored.
func (w *world) count(table string) int {
	w.t.Helper()
	db := w.store.(interface{ SQL() *sql.DB }).SQL()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}
