package purge_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/purge"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/backends"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 3, 8, 9, 0, 0, 0, time.UTC)
	day = 24 * time.Hour
)

// eachBackend runs fn on a fresh SQLite database and, when one is
// available, a fresh PostgreSQL database.
func eachBackend(t *testing.T, fn func(t *testing.T, st store.Store)) {
	open := func(t *testing.T, url string) store.Store {
		st, err := backends.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, open(t, "sqlite:"+filepath.Join(t.TempDir(), "gozie.db")))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, open(t, pgtest.NewDatabase(t)))
	})
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func mustTx(t *testing.T, st store.Store, fn func(store.Tx) error) {
	t.Helper()
	if err := st.Tx(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

// world is what a test stored, by whether a purge at its time must remove it.
type world struct {
	old, young []string // workflow ids
	coordOld   string   // a finished coordinator with old actions and workflows
	coordRun   string   // a running coordinator
	oldActs    []string // finished, old actions of coordRun
	youngActs  []string // actions of coordRun that must stay
}

// seedWorld stores n old and 3 young standalone workflows, an old running
// one, an old finished coordinator with 5 actions, and a running coordinator
// with 4 old finished and 2 young actions, each action with its workflow.
func seedWorld(t *testing.T, st store.Store, n int) world {
	t.Helper()
	w := world{coordOld: "C-old", coordRun: "C-run"}
	old, young := t0.Add(-40*day), t0.Add(-day)
	mustTx(t, st, func(x store.Tx) error {
		wf := func(id, parent string, s store.WorkflowStatus, lm time.Time) error {
			j := store.WorkflowJob{ID: id, ParentID: parent, AppName: "app", Status: s, CreatedTime: lm, EndTime: lm, LastModified: lm}
			if err := x.InsertWorkflowJob(ctx, &j); err != nil {
				return err
			}
			a := store.WorkflowAction{ID: id + "@a", JobID: id, Name: "a", Type: "shell", Status: store.ActionOK, CreatedTime: lm}
			return x.InsertWorkflowAction(ctx, &a)
		}
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("W-old-%03d", i)
			w.old = append(w.old, id)
			if err := wf(id, "", store.WorkflowSucceeded, old); err != nil {
				return err
			}
		}
		for i := 0; i < 3; i++ {
			id := fmt.Sprintf("W-young-%d", i)
			w.young = append(w.young, id)
			if err := wf(id, "", store.WorkflowKilled, young); err != nil {
				return err
			}
		}
		w.young = append(w.young, "W-running")
		if err := wf("W-running", "", store.WorkflowRunning, old); err != nil {
			return err
		}
		for _, c := range []struct {
			id     string
			status store.JobStatus
		}{{w.coordOld, store.JobSucceeded}, {w.coordRun, store.JobRunning}} {
			if err := x.InsertCoordJob(ctx, &store.CoordJob{ID: c.id, Status: c.status, ExecutionOrder: "FIFO",
				CreatedTime: old, LastModified: old}); err != nil {
				return err
			}
		}
		action := func(job string, n int, lm time.Time, status store.CoordActionStatus) (string, error) {
			id := fmt.Sprintf("%s@%d", job, n)
			if err := x.InsertCoordAction(ctx, &store.CoordAction{ID: id, JobID: job, ActionNumber: n, Status: status,
				NominalTime: lm, CreatedTime: lm, LastModified: lm}); err != nil {
				return "", err
			}
			wfStatus := store.WorkflowSucceeded
			if !status.Terminal() {
				wfStatus = store.WorkflowRunning
			}
			return id, wf("W-"+id, id, wfStatus, lm)
		}
		for i := 1; i <= 5; i++ {
			if _, err := action(w.coordOld, i, old, store.CoordActionSucceeded); err != nil {
				return err
			}
		}
		for i := 1; i <= 6; i++ {
			lm, status := old, store.CoordActionSucceeded
			switch i {
			case 5:
				lm = young
			case 6:
				status = store.CoordActionRunning
			}
			id, err := action(w.coordRun, i, lm, status)
			if err != nil {
				return err
			}
			if lm == old && status.Terminal() {
				w.oldActs = append(w.oldActs, id)
			} else {
				w.youngActs = append(w.youngActs, id)
			}
		}
		return nil
	})
	return w
}

// exists reports which of the workflows and coordinator actions exist.
func exists(t *testing.T, st store.Store, wfs, actions []string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	mustTx(t, st, func(x store.Tx) error {
		for _, id := range wfs {
			_, err := x.GetWorkflowJob(ctx, id)
			out[id] = err == nil
		}
		for _, id := range actions {
			_, err := x.GetCoordAction(ctx, id)
			out[id] = err == nil
		}
		return nil
	})
	return out
}

// checkWorld checks that everything old is gone and everything else is
// there.
func checkWorld(t *testing.T, st store.Store, w world) {
	t.Helper()
	var wfs []string
	wfs = append(wfs, w.old...)
	wfs = append(wfs, w.young...)
	acts := append(append([]string{}, w.oldActs...), w.youngActs...)
	for i := 1; i <= 5; i++ {
		acts = append(acts, fmt.Sprintf("%s@%d", w.coordOld, i))
	}
	for _, a := range acts {
		wfs = append(wfs, "W-"+a)
	}
	got := exists(t, st, wfs, acts)
	keep := map[string]bool{}
	for _, id := range w.young {
		keep[id] = true
	}
	for _, a := range w.youngActs {
		keep[a], keep["W-"+a] = true, true
	}
	for id, there := range got {
		if there != keep[id] {
			t.Errorf("%s exists: %v, want %v", id, there, keep[id])
		}
	}
	var coords []string
	mustTx(t, st, func(x store.Tx) error {
		list, _, err := x.ListCoordJobs(ctx, store.JobFilter{})
		for _, c := range list {
			coords = append(coords, c.ID)
		}
		return err
	})
	if len(coords) != 1 || coords[0] != w.coordRun {
		t.Errorf("coordinators left: %v, want only %s", coords, w.coordRun)
	}
}

// metricValue sums the samples of one metric family in reg, optionally only
// those with label kind.
func metricValue(t *testing.T, reg *prometheus.Registry, name, kind string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			match := kind == ""
			for _, l := range m.GetLabel() {
				if l.GetName() == "kind" && l.GetValue() == kind {
					match = true
				}
			}
			if !match {
				continue
			}
			switch {
			case m.GetCounter() != nil:
				sum += m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				sum += m.GetGauge().GetValue()
			}
		}
	}
	return sum
}

// armedFor reports whether the purge trigger rests, unleased, due at due
// with a fresh position (its passes done).
func armedFor(t *testing.T, st store.Store, due time.Time) bool {
	t.Helper()
	var tr store.Trigger
	mustTx(t, st, func(x store.Tx) (err error) { tr, err = x.GetTrigger(ctx, purge.Kind, purge.Entity); return })
	return tr.LeaseOwner == "" && tr.DueAt.Equal(due) && tr.Payload == "0 "
}

// TestPeriodicPurge runs the purge as the engine's trigger on a fake clock:
// a backlog larger than one run's budget is worked off over several runs
// that yield in between, old jobs go and young ones stay, and the next run
// an interval later removes what has grown old meanwhile.
func TestPeriodicPurge(t *testing.T) {
	eachBackend(t, func(t *testing.T, st store.Store) {
		w := seedWorld(t, st, 25)
		// Young now, old an hour later.
		borderline := t0.Add(-30*day + 30*time.Minute)
		mustTx(t, st, func(x store.Tx) error {
			return x.InsertWorkflowJob(ctx, &store.WorkflowJob{ID: "W-borderline", Status: store.WorkflowFailed,
				CreatedTime: borderline, EndTime: borderline, LastModified: borderline})
		})
		fake := clock.NewFake(t0)
		reg := prometheus.NewRegistry()
		settings := purge.DefaultSettings()
		settings.Limit = 4
		const runBatches = 3
		p, err := purge.New(purge.Config{Store: st, Clock: fake, Logger: quiet(), Metrics: reg, Settings: settings,
			RunBatches: runBatches})
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(engine.Config{Store: st, Clock: fake, Logger: quiet(), MaxSleep: time.Hour})
		p.Register(e)
		if err := p.Arm(ctx); err != nil {
			t.Fatal(err)
		}
		if err := p.Arm(ctx); err != nil { // a second server arming keeps the schedule
			t.Fatal(err)
		}
		if err := e.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Stop)

		testwait.WaitFor(t, testwait.Timeout, "the first purge to finish", func() bool { return armedFor(t, st, t0.Add(time.Hour)) })
		checkWorld(t, st, w)
		if got := exists(t, st, []string{"W-borderline"}, nil); !got["W-borderline"] {
			t.Error("a workflow younger than 30 days was purged")
		}
		batches := metricValue(t, reg, "gozie_purge_batches_total", "")
		if batches <= runBatches {
			t.Errorf("%v batches for a backlog of %d workflows in batches of %d; the purge cannot have yielded",
				batches, len(w.old), settings.Limit)
		}
		wantWF := float64(len(w.old) + 5 + len(w.oldActs)) // standalone, C-old's, C-run's old ones
		if got := metricValue(t, reg, "gozie_purge_removed_total", "workflow"); got != wantWF {
			t.Errorf("removed workflows metric %v, want %v", got, wantWF)
		}
		if got := metricValue(t, reg, "gozie_purge_removed_total", "coord_action"); got != float64(5+len(w.oldActs)) {
			t.Errorf("removed coordinator actions metric %v, want %d", got, 5+len(w.oldActs))
		}
		if got := metricValue(t, reg, "gozie_purge_removed_total", "coordinator"); got != 1 {
			t.Errorf("removed coordinators metric %v, want 1", got)
		}

		// An interval later the borderline workflow is old too. The engine
		// must be asleep on its timer for the next purge (or its jittered
		// fallback, at most 20% earlier) before the clock moves.
		testwait.WaitFor(t, testwait.Timeout, "the engine to sleep until the next purge", func() bool {
			next, ok := fake.NextDeadline()
			return ok && !next.After(t0.Add(time.Hour)) && !next.Before(t0.Add(45*time.Minute))
		})
		fake.Advance(time.Hour)
		testwait.WaitFor(t, testwait.Timeout, "the second purge to finish", func() bool { return armedFor(t, st, t0.Add(2*time.Hour)) })
		if got := exists(t, st, []string{"W-borderline"}, nil); got["W-borderline"] {
			t.Error("the borderline workflow outlived the second purge")
		}
		checkWorld(t, st, w)
	})
}

func ptr[T any](v T) *T { return &v }

// TestPurgeOnDemand runs whole purges as the admin endpoint does, with the
// settings of the request.
func TestPurgeOnDemand(t *testing.T) {
	eachBackend(t, func(t *testing.T, st store.Store) {
		w := seedWorld(t, st, 7)
		fake := clock.NewFake(t0)
		p, err := purge.New(purge.Config{Store: st, Clock: fake, Logger: quiet()})
		if err != nil {
			t.Fatal(err)
		}
		// Workflows must be 50 days old: nothing qualifies, and the old
		// coordinator stays with its workflows.
		c, err := p.Purge(ctx, purge.Request{WorkflowAge: ptr(50 * day), Limit: ptr(2)})
		if err != nil {
			t.Fatal(err)
		}
		if c != (purge.Counts{}) {
			t.Fatalf("purge with 50-day workflows removed %+v", c)
		}
		// Without old coordinator actions the running coordinator keeps
		// them.
		c, err = p.Purge(ctx, purge.Request{OldCoordActions: ptr(false), Limit: ptr(3)})
		if err != nil {
			t.Fatal(err)
		}
		want := purge.Counts{Workflows: len(w.old) + 5, CoordActions: 5, Coordinators: 1}
		if c != want {
			t.Fatalf("purge removed %+v, want %+v", c, want)
		}
		if got := exists(t, st, nil, w.oldActs); !got[w.oldActs[0]] {
			t.Fatal("old actions of a running coordinator went with oldcoordaction=false")
		}
		// The configured settings take them.
		if c, err = p.Purge(ctx, purge.Request{}); err != nil {
			t.Fatal(err)
		}
		if want := (purge.Counts{Workflows: len(w.oldActs), CoordActions: len(w.oldActs)}); c != want {
			t.Fatalf("purge removed %+v, want %+v", c, want)
		}
		checkWorld(t, st, w)

		// A zero age takes every finished job, however young.
		if c, err = p.Purge(ctx, purge.Request{WorkflowAge: ptr(time.Duration(0))}); err != nil {
			t.Fatal(err)
		}
		if want := 3 + 1; c.Workflows != want || c.CoordActions != 1 { // W-young-*, C-run@5 with its workflow
			t.Fatalf("zero-age purge removed %+v, want %d workflows and 1 action", c, want)
		}
	})
}

func TestInvalidSettings(t *testing.T) {
	st, err := backends.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bad := []purge.Settings{
		{WorkflowAge: -time.Hour, Limit: 1, Interval: time.Hour},
		{Limit: 0, Interval: time.Hour, CoordAge: day},
		{Limit: 1, Interval: 0, BundleAge: day},
	}
	for _, s := range bad {
		if _, err := purge.New(purge.Config{Store: st, Settings: s}); err == nil {
			t.Errorf("settings %+v accepted", s)
		}
	}
	if _, err := purge.New(purge.Config{}); err == nil {
		t.Error("a purger without a store was built")
	}
	p, err := purge.New(purge.Config{Store: st, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	if p.Settings() != purge.DefaultSettings() {
		t.Errorf("zero settings became %+v, want the defaults", p.Settings())
	}
	for _, r := range []purge.Request{{Limit: ptr(0)}, {CoordAge: ptr(-day)}} {
		if _, err := p.Purge(ctx, r); err == nil {
			t.Errorf("request %+v accepted", r)
		}
	}
}

// TestPausedPurge: with the periodic purge off, a run of its trigger
// (armed by another server, say) removes nothing and passes the run on to
// the next interval; an on-demand purge still works.
func TestPausedPurge(t *testing.T) {
	eachBackend(t, func(t *testing.T, st store.Store) {
		w := seedWorld(t, st, 3)
		fake := clock.NewFake(t0)
		p, err := purge.New(purge.Config{Store: st, Clock: fake, Logger: quiet(), Paused: true})
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(engine.Config{Store: st, Clock: fake, Logger: quiet(), MaxSleep: time.Hour})
		p.Register(e)
		if err := p.Arm(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Stop)
		testwait.WaitFor(t, testwait.Timeout, "the paused run to pass", func() bool { return armedFor(t, st, t0.Add(time.Hour)) })
		if got := exists(t, st, w.old, nil); !got[w.old[0]] {
			t.Fatal("a paused purge removed an old workflow")
		}
		if c, err := p.Purge(ctx, purge.Request{}); err != nil || c.Workflows == 0 {
			t.Fatalf("on-demand purge while paused: %+v %v", c, err)
		}
		checkWorld(t, st, w)
	})
}
