// Package jobstest starts gozie's REST server with the job endpoints (package server/jobs)
// on a real SQLite store and a real workflow runner, for the tests of clients of the API
// (server/client, cli). No engine runs unless a test starts one (StartEngine): submitted
// jobs get their rows, but nothing is launched or materialized, so tests see jobs exactly
// in the state their commands left them.
package jobstest

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/user"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Epoch is where the fake clock starts, and the start time in job ids: the first job is
// 0000000-250127091857123-gozie-test-W.
var Epoch = time.Date(2025, 1, 27, 9, 18, 57, 123e6, time.UTC)

// SystemID is the system id in job ids.
const SystemID = "gozie-test"

// Env is a running server and what it runs on.
type Env struct {
	// URL is the server's base URL with the context path, as OOZIE_URL holds it.
	URL    string
	Server *server.Server
	Store  store.Store
	Runner *wfrun.Runner
	// Coordinators is the coordinator engine the endpoints use.
	Coordinators *coordrun.Runner
	// Bundles is the bundle engine the endpoints use.
	Bundles *bundlerun.Runner
	// SLA is the SLA service behind the sla-enable, sla-disable and sla-change commands.
	SLA   *sla.Service
	Clock *clock.Fake
	// Apps is a directory for test apps (see WriteApp).
	Apps string
}

// New starts a server on a random loopback port; everything is stopped and removed when
// the test ends.
func New(t testing.TB) *Env {
	t.Helper()
	return NewWith(t, nil)
}

// NewWith is New with the endpoints' dependencies adjusted by adjust (nil: none).
func NewWith(t testing.TB, adjust func(*jobs.Deps)) *Env {
	t.Helper()
	return NewOpts(t, Options{Adjust: adjust})
}

// Options of NewOpts; the zero value is New's server.
type Options struct {
	// Adjust adjusts the endpoints' dependencies (nil: none).
	Adjust func(*jobs.Deps)
	// Now is where the fake clock starts (zero: Epoch); job ids carry
	// Epoch whatever Now is.
	Now time.Time
	// Authenticator and Authorization, when set, guard the server as
	// server.Config's fields of the same names do (nil: anyone is anyone).
	Authenticator *auth.Authenticator
	Authorization *auth.Policy
	// Seed stores the rows of a test's world before the server starts.
	Seed func(t testing.TB, st store.Store)
	// WrapStore, when set, wraps the store every part of the server uses:
	// a test's faults injected at the store seam.
	WrapStore func(store.Store) store.Store
}

// NewOpts is New with the options o.
func NewOpts(t testing.TB, o Options) *Env {
	t.Helper()
	dir := t.TempDir()
	db, err := sqlite.Open(context.Background(), filepath.Join(dir, "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var st store.Store = db
	if o.WrapStore != nil {
		st = o.WrapStore(db)
	}
	if o.Seed != nil {
		o.Seed(t, st)
	}
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	// As the server does, everything acting on paths users name sees the
	// filesystems through gozie.filesystems.supported: the test apps are on
	// the local disk, so file is allowed besides hdfs.
	policy, err := hadoop.NewSchemePolicy([]string{"hdfs", "file"}, res.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	fsys := policy.Restrict(res)
	now := o.Now
	if now.IsZero() {
		now = Epoch
	}
	fake := clock.NewFake(now)
	log := slog.New(slog.DiscardHandler)
	var coords *coordrun.Runner
	run, err := wfrun.New(wfrun.Config{
		Store: st, Clock: fake, Logger: log, FS: fsys, IDs: ids.NewGenerator(SystemID, Epoch),
		CallbackBaseURL: "http://127.0.0.1:1/oozie/callback",
		OnJobChange: func(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
			return coords.OnWorkflowChange(ctx, x, job)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var bundles *bundlerun.Runner
	coords, err = coordrun.New(coordrun.Config{Store: st, Clock: fake, Logger: log, FS: fsys,
		IDs: ids.NewGenerator(SystemID, Epoch), Workflows: run, Settings: coordinator.DefaultSettings(),
		OnJobChange: func(ctx context.Context, x store.Tx, job store.CoordJob) error {
			return bundles.OnCoordinatorChange(ctx, x, job)
		}})
	if err != nil {
		t.Fatal(err)
	}
	bundles, err = bundlerun.New(bundlerun.Config{Store: st, Clock: fake, Logger: log, FS: fsys,
		IDs: ids.NewGenerator(SystemID, Epoch), Coordinators: coords})
	if err != nil {
		t.Fatal(err)
	}
	slaSvc, err := sla.New(sla.Config{Store: st, Clock: fake, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Logger: log, Registry: prometheus.NewRegistry(), Build: server.BuildInfo{Version: "test"},
		Authenticator: o.Authenticator, Authorization: o.Authorization})
	deps := jobs.Deps{Store: st, Workflows: run, Coordinators: coords, Bundles: bundles, Clock: fake,
		Logger: log, FS: fsys,
		SLA: slaSvc}
	if o.Adjust != nil {
		o.Adjust(&deps)
	}
	if err := jobs.Register(srv, deps); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	apps := filepath.Join(dir, "apps")
	if err := os.MkdirAll(apps, 0o755); err != nil {
		t.Fatal(err)
	}
	return &Env{URL: ts.URL + server.ContextPath, Server: srv, Store: st, Runner: run, Coordinators: coords, Bundles: bundles,
		SLA: slaSvc, Clock: fake, Apps: apps}
}

// StartEngine runs the trigger loop with the workflow, coordinator and bundle handlers
// until the test ends: bundles kick off, coordinators materialize, check inputs and start
// their workflows, and workflows run (no action executors are registered, so only control
// nodes can).
func (e *Env) StartEngine(t testing.TB) {
	t.Helper()
	eng := engine.New(engine.Config{Store: e.Store, Clock: e.Clock, Logger: slog.New(slog.DiscardHandler),
		MaxSleep: time.Hour, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	e.Runner.Register(eng)
	e.Coordinators.Register(eng)
	e.Bundles.Register(eng)
	e.SLA.Register(eng)
	if err := eng.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Stop)
}

// WriteCoordApp writes coordXML as the coordinator.xml of app directory name and returns the
// app path (a file:// URI).
func (e *Env) WriteCoordApp(t testing.TB, name, coordXML string) string {
	t.Helper()
	dir := filepath.Join(e.Apps, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "coordinator.xml"), []byte(coordXML), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + dir
}

// WriteBundleApp writes bundleXML as the bundle.xml of app directory name and returns the
// app path (a file:// URI).
func (e *Env) WriteBundleApp(t testing.TB, name, bundleXML string) string {
	t.Helper()
	dir := filepath.Join(e.Apps, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle.xml"), []byte(bundleXML), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + dir
}

// HourlyCoordApp is a coordinator without datasets that runs the workflow at wfPath every
// hour from start to end (yyyy-MM-ddTHH:mmZ).
func HourlyCoordApp(wfPath, start, end string) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="hourly-coord" frequency="${coord:hours(1)}"
    start="` + start + `" end="` + end + `" timezone="UTC">
    <action>
        <workflow><app-path>` + wfPath + `</app-path></workflow>
    </action>
</coordinator-app>
`
}

// SLACoordApp runs the workflow at wfPath every hour of 2025-01-27 00:00–05:00 with an
// SLA on each action: end within 30 minutes of the nominal time.
func SLACoordApp(wfPath string) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.4" xmlns:sla="uri:oozie:sla:0.2" name="sla-coord"
    frequency="${coord:hours(1)}" start="2025-01-27T00:00Z" end="2025-01-27T05:00Z" timezone="UTC">
    <action>
        <workflow><app-path>` + wfPath + `</app-path></workflow>
        <sla:info>
            <sla:nominal-time>${coord:nominalTime()}</sla:nominal-time>
            <sla:should-end>${30 * MINUTES}</sla:should-end>
            <sla:alert-contact>ops@example.com</sla:alert-contact>
        </sla:info>
    </action>
</coordinator-app>
`
}

// InputsCoordApp runs wfPath for the two hours 2025-01-27T00:00Z and 01:00Z, each
// action waiting for the hour's and the previous hour's directory under data.
func InputsCoordApp(wfPath, data string) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="inputs-coord" frequency="${coord:hours(1)}"
    start="2025-01-27T00:00Z" end="2025-01-27T02:00Z" timezone="UTC">
    <datasets>
        <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2025-01-01T00:00Z" timezone="UTC">
            <uri-template>file://` + data + `/${YEAR}${MONTH}${DAY}${HOUR}</uri-template>
        </dataset>
    </datasets>
    <input-events>
        <data-in name="this-hour" dataset="logs"><instance>${coord:current(0)}</instance></data-in>
        <data-in name="last-hour" dataset="logs"><instance>${coord:current(-1)}</instance></data-in>
    </input-events>
    <action>
        <workflow><app-path>` + wfPath + `</app-path></workflow>
    </action>
</coordinator-app>
`
}

// WriteApp writes def as the workflow.xml of app directory name and returns the app path
// (a file:// URI).
func (e *Env) WriteApp(t testing.TB, name, def string) string {
	t.Helper()
	dir := filepath.Join(e.Apps, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "workflow.xml"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + dir
}

// FSApp is a workflow whose only action is an fs mkdir of the given directory:
// start → mkdir → end, with errors going to the kill node "fail".
func FSApp(mkdir string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="fs-wf">
    <start to="mkdir"/>
    <action name="mkdir">
        <fs><mkdir path="` + mkdir + `"/></fs>
        <ok to="end"/>
        <error to="fail"/>
    </action>
    <kill name="fail">
        <message>mkdir failed [${wf:errorMessage(wf:lastErrorNode())}]</message>
    </kill>
    <end name="end"/>
</workflow-app>
`
}

// NoOpApp is a workflow that goes from start to end.
const NoOpApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op-wf">
    <start to="end"/>
    <end name="end"/>
</workflow-app>
`

// StartDFS starts a MiniDFS for the test (the name node of proxy submissions) with an empty
// library directory /user/<user>/lib for each user given; it stops with the test. The
// test's own user, the server's, may act for every user.
func StartDFS(t *testing.T, users ...string) *minidfs.MiniDFS {
	t.Helper()
	self, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Conf: minidfs.ProxyUserConf(self.Username)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	for _, u := range users {
		if err := os.MkdirAll(filepath.Join(dfs.Root(), "user", u, "lib"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dfs
}
