package migrate

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/stacktest"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
)

// After the import the engine goes on where Oozie stopped: over a
// simulated day (a fake clock, the data of each hour arriving on time)
// the hourly coordinator materializes every next nominal time exactly
// once, no action number or nominal time repeated or skipped, and the
// imported WAITING action starts when its done-flag appears.
func TestEngineContinuesImportedCoordinator(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		st := engineStack(t, true)
		o := newOozie(t, src, st.NameNode)
		for _, app := range []string{"hourly", "daily", "paused", "bundled"} {
			st.Write(t, "/apps/"+app+"/workflow.xml", stacktest.OneActionWorkflow(app+"-wf"))
		}
		for _, r := range (&Importer{Store: st.Store, Now: st.Clock.Now}).Import(bg, o.plan(t, since30d)) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
		st.Start(t)
		// Every imported trigger has its handler here: a failed one fails the test.
		settler := enginetest.Settler{Store: st.Store, Now: st.Clock.Now}
		settler.Settle(t)

		f := o.fx.Hourly
		n := f.LastActionNumber
		waiting := fmt.Sprintf("%s@%d", f.ID, n)
		if a := action(t, st.Store, waiting); a.Status != store.CoordActionWaiting {
			t.Fatalf("the imported WAITING action is %s before its done-flag exists", a.Status)
		}
		st.Write(t, o.fx.WaitingFlag, "")
		// The clock moves only while the engine is idle: a step taken while a
		// handler runs would outlast its lease and hand its trigger to a
		// second worker.
		for minutes := 0; ; minutes++ {
			st.Clock.Advance(time.Minute)
			settler.Settle(t)
			s := action(t, st.Store, waiting).Status
			if s == store.CoordActionRunning || s == store.CoordActionSucceeded {
				break
			}
			if minutes == 60 {
				t.Fatalf("the imported WAITING action is %s an hour after its done-flag appeared", s)
			}
		}

		// A simulated day in five-minute steps; each hour's data arrives at its
		// nominal time.
		end := cutover.Add(24 * time.Hour)
		for st.Clock.Now().Before(end) {
			h := st.Clock.Now().Truncate(time.Hour)
			st.Write(t, fmt.Sprintf("%s/data/hourly/%s/_SUCCESS", st.NameNode, h.Format("2006/01/02/15")), "")
			st.Clock.Advance(5 * time.Minute)
			settler.Settle(t)
			// The action of the current hour exists by its nominal time.
			k := int(st.Clock.Now().Truncate(time.Hour).Sub(f.Start)/time.Hour) + 1
			if !actionExists(t, st.Store, fmt.Sprintf("%s@%d", f.ID, k)) {
				t.Fatalf("at %v the action of the hour (number %d) is not materialized", st.Clock.Now(), k)
			}
		}

		acts := coordActions(t, st.Store, f.ID)
		seen := map[int]bool{}
		nominals := map[time.Time]bool{}
		last := 0
		for _, a := range acts {
			if seen[a.ActionNumber] || nominals[a.NominalTime] {
				t.Errorf("action number %d or nominal time %v repeated", a.ActionNumber, a.NominalTime)
			}
			seen[a.ActionNumber], nominals[a.NominalTime] = true, true
			if want := f.Start.Add(time.Duration(a.ActionNumber-1) * time.Hour); !a.NominalTime.Equal(want) {
				t.Errorf("action %d: nominal time %v, want %v", a.ActionNumber, a.NominalTime, want)
			}
			last = max(last, a.ActionNumber)
		}
		for k := n - 3; k <= last; k++ {
			if !seen[k] {
				t.Errorf("action number %d skipped", k)
			}
		}
		if last < n+24 {
			t.Errorf("last action %d after a day, want at least %d", last, n+24)
		}
		for _, a := range acts {
			if a.ActionNumber > n-2 && a.ActionNumber < n+23 && a.Status != store.CoordActionSucceeded {
				t.Errorf("action %d is %s, want SUCCEEDED (its data arrived)", a.ActionNumber, a.Status)
			}
		}
		// The paused coordinator never materializes at or after its pause time,
		// and the suspended one not at all.
		p := coordJob(t, st.Store, o.fx.Paused.ID)
		for _, a := range coordActions(t, st.Store, p.ID) {
			if !a.NominalTime.Before(p.PauseTime) {
				t.Errorf("paused coordinator materialized %v, at or after its pause time %v", a.NominalTime, p.PauseTime)
			}
		}
		if j := coordJob(t, st.Store, o.fx.Suspended.ID); j.LastActionNumber != o.fx.Suspended.LastActionNumber {
			t.Errorf("the suspended coordinator materialized: last action %d", j.LastActionNumber)
		}
		// The bundle's coordinator goes on too, and the bundle stays RUNNING.
		if j := coordJob(t, st.Store, o.fx.InBundle.ID); j.LastActionNumber <= o.fx.InBundle.LastActionNumber {
			t.Errorf("the bundle's coordinator did not go on: last action %d", j.LastActionNumber)
		}
		var b store.BundleJob
		if err := st.Store.Tx(bg, func(x store.Tx) (err error) { b, err = x.GetBundleJob(bg, o.fx.Bundle); return }); err != nil ||
			b.Status != store.JobRunning {
			t.Errorf("bundle: %s (%v)", b.Status, err)
		}
	})
}

func actionExists(t *testing.T, s store.Store, id string) bool {
	t.Helper()
	err := s.Tx(bg, func(x store.Tx) error { _, err := x.GetCoordAction(bg, id); return err })
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

func action(t *testing.T, s store.Store, id string) store.CoordAction {
	t.Helper()
	var a store.CoordAction
	if err := s.Tx(bg, func(x store.Tx) (err error) { a, err = x.GetCoordAction(bg, id); return }); err != nil {
		t.Fatal(err)
	}
	return a
}

// engineStack is a test stack with the coordinator, bundle and SLA runners
// registered, at the cutover; auto makes every action end OK at its start.
func engineStack(t *testing.T, auto bool) *stacktest.Stack {
	t.Helper()
	var coords *coordrun.Runner
	var bundles *bundlerun.Runner
	st := stacktest.New(t, stacktest.Options{Now: cutover, Auto: auto,
		OnWorkflowChange: func(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
			return coords.OnWorkflowChange(ctx, x, job)
		}})
	var err error
	coords, err = coordrun.New(coordrun.Config{Store: st.Store, Clock: st.Clock, Logger: st.Logger, FS: st.UserFS,
		IDs: st.IDs(), Workflows: st.Workflows, Settings: coordinator.DefaultSettings(),
		OnJobChange: func(ctx context.Context, x store.Tx, job store.CoordJob) error {
			return bundles.OnCoordinatorChange(ctx, x, job)
		}})
	if err != nil {
		t.Fatal(err)
	}
	bundles, err = bundlerun.New(bundlerun.Config{Store: st.Store, Clock: st.Clock, Logger: st.Logger, FS: st.UserFS,
		IDs: st.IDs(), Coordinators: coords})
	if err != nil {
		t.Fatal(err)
	}
	slas, err := sla.New(sla.Config{Store: st.Store, Clock: st.Clock, Logger: st.Logger})
	if err != nil {
		t.Fatal(err)
	}
	coords.Register(st.Engine)
	bundles.Register(st.Engine)
	slas.Register(st.Engine)
	return st
}
