package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// Ages of the purge fixture, relative to purgeNow: the cutoffs are 30 days
// for workflows and 7 for coordinators and bundles (Oozie's defaults).
var (
	purgeNow  = t0
	purgeCuts = store.PurgeCutoffs{
		Workflow: purgeNow.Add(-30 * 24 * time.Hour),
		Coord:    purgeNow.Add(-7 * 24 * time.Hour),
		Bundle:   purgeNow.Add(-7 * 24 * time.Hour),
	}
	ageOld   = purgeNow.Add(-40 * 24 * time.Hour) // older than every cutoff
	ageMid   = purgeNow.Add(-10 * 24 * time.Hour) // old for coordinators and bundles only
	ageYoung = purgeNow.Add(-24 * time.Hour)      // old for nothing
)

// seeder writes purge fixtures in one transaction, remembering the first
// error.
type seeder struct {
	ctx context.Context
	x   store.Tx
	err error
}

func (s *seeder) do(err error) {
	if s.err == nil && err != nil {
		s.err = err
	}
}

// wf stores a workflow job with one action per name, each with a
// wf-action-check trigger, and an SLA registration (with one event) for the
// job and for its first action.
func (s *seeder) wf(id, parent string, st store.WorkflowStatus, lm time.Time, actions ...string) {
	j := store.WorkflowJob{ID: id, AppName: "app", User: "joe", Status: st, ParentID: parent, CreatedTime: lm.Add(-time.Hour),
		EndTime: lm, LastModified: lm}
	s.do(s.x.InsertWorkflowJob(s.ctx, &j))
	for i, n := range actions {
		a := store.WorkflowAction{ID: id + "@" + n, JobID: id, Name: n, Type: "shell", Status: store.ActionOK, CreatedTime: lm,
			LastModified: lm}
		s.do(s.x.InsertWorkflowAction(s.ctx, &a))
		s.do(s.x.Schedule(s.ctx, "wf-action-check", a.ID, lm, ""))
		if i == 0 {
			s.sla(a.ID, id, store.AppWorkflowAction, lm)
		}
	}
	s.sla(id, parent, store.AppWorkflowJob, lm)
}

// sla stores a registration whose deadline trigger is armed, and one event.
func (s *seeder) sla(id, parent string, typ store.AppType, at time.Time) {
	r := store.SLA{ID: id, ParentID: parent, AppName: "app", AppType: typ, User: "joe", NominalTime: at,
		ExpectedEnd: purgeNow.Add(time.Hour), ExpectedDuration: -1, ActualDuration: -1, SLAStatus: store.SLAInProcess,
		CreatedTime: at, LastModified: at}
	s.do(s.x.InsertSLA(s.ctx, &r))
	s.do(s.x.Schedule(s.ctx, store.KindSLADeadline, id, r.ExpectedEnd.Add(time.Millisecond), ""))
	s.do(s.x.InsertSLAEvent(s.ctx, &store.SLAEvent{SLAID: id, AppName: "app", EventStatus: store.SLAStartMet, EventTime: at,
		SLAStatus: store.SLAInProcess}))
}

// coord stores a coordinator job (in bundle, if given) with a coord-status
// trigger.
func (s *seeder) coord(id, bundle string, st store.JobStatus, lm time.Time) {
	c := store.CoordJob{ID: id, AppName: "coord", User: "joe", Status: st, BundleID: bundle, ExecutionOrder: "FIFO",
		CreatedTime: lm.Add(-time.Hour), LastModified: lm}
	s.do(s.x.InsertCoordJob(s.ctx, &c))
	s.do(s.x.Schedule(s.ctx, "coord-status", id, lm, ""))
}

// action stores coordinator action job@n (nominal time and last
// modification lm), with an SLA registration, a coord-input-check trigger
// and a dataset wait.
func (s *seeder) action(job string, n int, st store.CoordActionStatus, lm time.Time) string {
	id := fmt.Sprintf("%s@%d", job, n)
	a := store.CoordAction{ID: id, JobID: job, ActionNumber: n, Status: st, NominalTime: lm, CreatedTime: lm, LastModified: lm}
	s.do(s.x.InsertCoordAction(s.ctx, &a))
	s.do(s.x.Schedule(s.ctx, "coord-input-check", id, lm, ""))
	s.do(s.x.SetCoordWaits(s.ctx, id, []string{"hdfs://nn/data/" + id}))
	s.sla(id, job, store.AppCoordinatorAction, lm)
	return id
}

// bundle stores a bundle job with a link to each of coords and a kick-off
// trigger.
func (s *seeder) bundle(id string, st store.JobStatus, lm time.Time, coords ...string) {
	b := store.BundleJob{ID: id, AppName: "bundle", User: "joe", Status: st, CreatedTime: lm.Add(-time.Hour), LastModified: lm}
	s.do(s.x.InsertBundleJob(s.ctx, &b))
	for _, c := range coords {
		s.do(s.x.InsertBundleAction(s.ctx, &store.BundleAction{ID: id + "_" + c, BundleID: id, CoordName: c, CoordID: c,
			Status: store.JobSucceeded, LastModified: lm}))
	}
	s.do(s.x.Schedule(s.ctx, "bundle-kickoff", id, lm, ""))
}

// seed runs fn in one transaction with a seeder.
func seed(t *testing.T, st store.Store, fn func(s *seeder)) {
	t.Helper()
	tx(t, st, func(x store.Tx) error {
		s := &seeder{ctx: ctx, x: x}
		fn(s)
		return s.err
	})
}

// purgeTotals sums the results of whole passes.
type purgeTotals struct {
	store.PurgeResult
	batches int
}

func (p *purgeTotals) add(r store.PurgeResult) {
	p.Workflows += r.Workflows
	p.CoordActions += r.CoordActions
	p.Coordinators += r.Coordinators
	p.Bundles += r.Bundles
	p.batches++
}

// purgeAll runs every pass to its end as package purge does, one
// transaction per batch, and checks that no batch removes more coordinator
// actions than its limit.
func purgeAll(t *testing.T, st store.Store, cuts store.PurgeCutoffs, limit int, oldActions bool) purgeTotals {
	t.Helper()
	passes := []func(store.Tx) func(context.Context, store.PurgeBatch) (store.PurgeResult, error){
		func(x store.Tx) func(context.Context, store.PurgeBatch) (store.PurgeResult, error) {
			return x.PurgeWorkflows
		},
		func(x store.Tx) func(context.Context, store.PurgeBatch) (store.PurgeResult, error) {
			return x.PurgeCoordActions
		},
		func(x store.Tx) func(context.Context, store.PurgeBatch) (store.PurgeResult, error) {
			return x.PurgeCoordJobs
		},
		func(x store.Tx) func(context.Context, store.PurgeBatch) (store.PurgeResult, error) {
			return x.PurgeBundleJobs
		},
	}
	var total purgeTotals
	for i, pass := range passes {
		if i == 1 && !oldActions {
			continue
		}
		after := ""
		for n := 0; ; n++ {
			if n > 10_000 {
				t.Fatalf("pass %d does not end; cursor %q", i, after)
			}
			var r store.PurgeResult
			tx(t, st, func(x store.Tx) (err error) {
				r, err = pass(x)(ctx, store.PurgeBatch{Cutoffs: cuts, Limit: limit, After: after})
				return err
			})
			if r.CoordActions > limit {
				t.Fatalf("pass %d: one batch removed %d coordinator actions, limit %d", i, r.CoordActions, limit)
			}
			total.add(r)
			if r.Next == "" {
				break
			}
			if r.Next == after && r.Workflows+r.CoordActions+r.Coordinators+r.Bundles == 0 {
				t.Fatalf("pass %d: cursor %q neither moves nor removes anything", i, after)
			}
			after = r.Next
		}
	}
	return total
}

// snapshot is every id left in the tables purge touches.
type snapshot struct {
	workflows, wfActions, coords, coordActions, bundles, bundleActions []string
	slas, slaEvents                                                    []string
}

// takeSnapshot reads what is left, through the store's own listings.
func takeSnapshot(t *testing.T, st store.Store) snapshot {
	t.Helper()
	var s snapshot
	tx(t, st, func(x store.Tx) error {
		wfs, _, err := x.ListWorkflowJobs(ctx, store.JobFilter{})
		if err != nil {
			return err
		}
		for _, w := range wfs {
			s.workflows = append(s.workflows, w.ID)
			acts, err := x.ListWorkflowActions(ctx, w.ID)
			if err != nil {
				return err
			}
			for _, a := range acts {
				s.wfActions = append(s.wfActions, a.ID)
			}
		}
		coords, _, err := x.ListCoordJobs(ctx, store.JobFilter{})
		if err != nil {
			return err
		}
		for _, c := range coords {
			s.coords = append(s.coords, c.ID)
			acts, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: c.ID})
			if err != nil {
				return err
			}
			for _, a := range acts {
				s.coordActions = append(s.coordActions, a.ID)
			}
		}
		bundles, _, err := x.ListBundleJobs(ctx, store.JobFilter{})
		if err != nil {
			return err
		}
		for _, b := range bundles {
			s.bundles = append(s.bundles, b.ID)
			acts, err := x.ListBundleActions(ctx, b.ID)
			if err != nil {
				return err
			}
			for _, a := range acts {
				s.bundleActions = append(s.bundleActions, a.ID)
			}
		}
		slas, err := x.ListSLAs(ctx, store.SLAFilter{})
		if err != nil {
			return err
		}
		for _, r := range slas {
			s.slas = append(s.slas, r.ID)
		}
		events, err := x.QuerySLAEvents(ctx, store.SLAEventFilter{})
		if err != nil {
			return err
		}
		for _, e := range events {
			s.slaEvents = append(s.slaEvents, e.SLAID)
		}
		return nil
	})
	return s
}

// hasTrigger reports whether trigger (kind, id) exists.
func hasTrigger(t *testing.T, st store.Store, kind store.TriggerKind, id string) bool {
	t.Helper()
	_, err := getTrigger(t, st, kind, id)
	switch {
	case err == nil:
		return true
	case !isNotFound(err):
		t.Fatal(err)
	}
	return false
}

// waiters returns the actions waiting on uri.
func waiters(t *testing.T, st store.Store, uri string) []string {
	t.Helper()
	var out []string
	tx(t, st, func(x store.Tx) (err error) { out, err = x.ListCoordWaiters(ctx, uri); return })
	return out
}

// sameSet compares two id lists as sets.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	g, w = slices.Compact(g), slices.Compact(w)
	if !slices.Equal(g, w) {
		t.Errorf("%s left:\n got  %v\n want %v", what, g, w)
	}
}
