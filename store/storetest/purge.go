package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

// fate says when a purge must remove a fixture row.
type fate int

const (
	stays          fate = iota // never
	goes                       // in every purge
	goesOldActions             // only when old coordinator actions are purged
)

// purgeWorld is the purge fixture: jobs of every kind, each named for the
// case it stands for, and which of them a purge must remove.
type purgeWorld struct {
	workflows, coordActions, coords, bundles []string
	fates                                    map[string]fate
}

// gone reports whether id must be gone after a purge.
func (w *purgeWorld) gone(id string, oldActions bool) bool {
	f := w.fates[id]
	return f == goes || (f == goesOldActions && oldActions)
}

// left returns the ids of list that must stay.
func (w *purgeWorld) left(list []string, oldActions bool) []string {
	var out []string
	for _, id := range list {
		if !w.gone(id, oldActions) {
			out = append(out, id)
		}
	}
	return out
}

// seedPurgeWorld stores the fixture. Every workflow has one action "a"
// (W-old has "b" as well); every job and action has its triggers, SLA
// registrations and events, and every coordinator action a dataset wait.
func seedPurgeWorld(t *testing.T, st store.Store) *purgeWorld {
	t.Helper()
	w := &purgeWorld{fates: map[string]fate{}}
	seed(t, st, func(s *seeder) {
		wf := func(id, parent string, status store.WorkflowStatus, lm time.Time, f fate) {
			acts := []string{"a"}
			if id == "W-old" {
				acts = append(acts, "b")
			}
			s.wf(id, parent, status, lm, acts...)
			w.workflows = append(w.workflows, id)
			w.fates[id] = f
		}
		coord := func(id, bundle string, status store.JobStatus, lm time.Time, f fate) {
			s.coord(id, bundle, status, lm)
			w.coords = append(w.coords, id)
			w.fates[id] = f
		}
		action := func(job string, n int, status store.CoordActionStatus, lm time.Time, f fate) string {
			id := s.action(job, n, status, lm)
			w.coordActions = append(w.coordActions, id)
			w.fates[id] = f
			return id
		}
		bundle := func(id string, status store.JobStatus, lm time.Time, f fate, coords ...string) {
			s.bundle(id, status, lm, coords...)
			w.bundles = append(w.bundles, id)
			w.fates[id] = f
		}
		ok, killed, failed, running := store.WorkflowSucceeded, store.WorkflowKilled, store.WorkflowFailed, store.WorkflowRunning

		// Workflows without a coordinator.
		wf("W-old", "", ok, ageOld, goes) // old, with an old sub-workflow: both go
		wf("W-old-sub", "W-old", killed, ageOld, goes)
		wf("W-young", "", ok, ageYoung, stays)
		wf("W-mid", "", failed, ageMid, stays)  // old for coordinators, not for workflows
		wf("W-run", "", running, ageOld, stays) // not finished
		wf("W-pb", "", ok, ageOld, stays)       // old, but its sub-workflow runs
		wf("W-pb-sub", "W-pb", running, ageOld, stays)
		wf("W-yp", "", ok, ageYoung, stays) // young parent: its old sub-workflow stays with it
		wf("W-yp-sub", "W-yp", ok, ageOld, stays)
		wf("W-orphan", "W-gone", failed, ageOld, goes) // its parent workflow is gone
		wf("W-orphan-c", "C-gone@1", ok, ageOld, goes) // its coordinator action is gone

		// Coordinators without a bundle.
		coord("C-old", "", store.JobSucceeded, ageOld, goes)
		wf("W-c1", action("C-old", 1, store.CoordActionSucceeded, ageOld, goes), ok, ageOld, goes)
		wf("W-c1-sub", "W-c1", ok, ageOld, goes)
		action("C-old", 2, store.CoordActionTimedOut, ageOld, goes) // ran no workflow
		coord("C-young", "", store.JobSucceeded, ageYoung, stays)
		wf("W-cy1", action("C-young", 1, store.CoordActionSucceeded, ageYoung, stays), ok, ageYoung, stays)
		coord("C-midwf", "", store.JobKilled, ageMid, stays) // old itself, its workflow is not
		wf("W-cm1", action("C-midwf", 1, store.CoordActionKilled, ageMid, stays), killed, ageMid, stays)
		coord("C-ra", "", store.JobSucceeded, ageOld, stays) // old, with a running action
		wf("W-ra1", action("C-ra", 1, store.CoordActionRunning, ageOld, stays), running, ageOld, stays)
		wf("W-ra2", action("C-ra", 2, store.CoordActionSucceeded, ageOld, goesOldActions), ok, ageOld, goesOldActions)
		coord("C-orphan", "B-gone", store.JobSucceeded, ageOld, goes) // its bundle is gone

		// A long-running coordinator: its old finished actions go when old
		// coordinator actions are purged; young or running ones stay.
		coord("C-run", "", store.JobRunning, ageOld, stays)
		wf("W-r1", action("C-run", 1, store.CoordActionSucceeded, ageOld, goesOldActions), ok, ageOld, goesOldActions)
		wf("W-r2", action("C-run", 2, store.CoordActionSucceeded, ageYoung, stays), ok, ageYoung, stays)
		wf("W-r3", action("C-run", 3, store.CoordActionRunning, ageOld, stays), running, ageOld, stays)
		// Finished long ago, but its workflow is being rerun.
		wf("W-r4", action("C-run", 4, store.CoordActionSucceeded, ageOld, stays), running, ageYoung, stays)
		action("C-run", 5, store.CoordActionSkipped, ageOld, goesOldActions)
		action("C-run", 6, store.CoordActionWaiting, ageOld, stays)

		// Bundles.
		coord("C-b1", "B-old", store.JobSucceeded, ageOld, goes)
		for n := 1; n <= 3; n++ {
			wf(fmt.Sprintf("W-b1-%d", n), action("C-b1", n, store.CoordActionSucceeded, ageOld, goes), ok, ageOld, goes)
		}
		coord("C-b2", "B-old", store.JobKilled, ageMid, goes)
		bundle("B-old", store.JobSucceeded, ageOld, goes, "C-b1", "C-b2")
		coord("C-by", "B-young", store.JobSucceeded, ageOld, stays)
		bundle("B-young", store.JobSucceeded, ageYoung, stays, "C-by")
		coord("C-bcy", "B-cy", store.JobSucceeded, ageYoung, stays) // old bundle, young coordinator
		bundle("B-cy", store.JobSucceeded, ageOld, stays, "C-bcy")
		coord("C-inb", "B-run", store.JobSucceeded, ageOld, stays) // old, but in a running bundle
		wf("W-ib1", action("C-inb", 1, store.CoordActionSucceeded, ageOld, goesOldActions), ok, ageOld, goesOldActions)
		bundle("B-run", store.JobRunning, ageOld, stays, "C-inb")
		coord("C-bw", "B-wf", store.JobSucceeded, ageOld, stays) // old bundle and coordinator, young workflow
		wf("W-bw1", action("C-bw", 1, store.CoordActionSucceeded, ageMid, stays), ok, ageMid, stays)
		bundle("B-wf", store.JobSucceeded, ageOld, stays, "C-bw")
	})
	return w
}

// checkPurged checks that exactly what w says must go is gone, and with it
// every action, wait, trigger, SLA registration and event of it.
func (w *purgeWorld) checkPurged(t *testing.T, st store.Store, oldActions bool, got purgeTotals) {
	t.Helper()
	snap := takeSnapshot(t, st)
	workflows := w.left(w.workflows, oldActions)
	actions := w.left(w.coordActions, oldActions)
	sameSet(t, "workflows", snap.workflows, workflows)
	sameSet(t, "coordinators", snap.coords, w.left(w.coords, oldActions))
	sameSet(t, "coordinator actions", snap.coordActions, actions)
	sameSet(t, "bundles", snap.bundles, w.left(w.bundles, oldActions))
	var wfActions, slas []string
	for _, id := range workflows {
		wfActions = append(wfActions, id+"@a")
		slas = append(slas, id, id+"@a")
	}
	slas = append(slas, actions...)
	sameSet(t, "workflow actions", snap.wfActions, wfActions)
	sameSet(t, "SLA registrations", snap.slas, slas)
	sameSet(t, "SLA events", snap.slaEvents, slas)
	var bundleActions []string
	for _, c := range w.left(w.coords, oldActions) {
		if b := bundleOf(c); b != "" {
			bundleActions = append(bundleActions, b+"_"+c)
		}
	}
	sameSet(t, "bundle actions", snap.bundleActions, bundleActions)

	// Triggers and waits, of what stays and of what went.
	check := func(kind store.TriggerKind, id string, want bool) {
		if got := hasTrigger(t, st, kind, id); got != want {
			t.Errorf("trigger %s/%s exists: %v, want %v", kind, id, got, want)
		}
	}
	for _, id := range w.workflows {
		left := !w.gone(id, oldActions)
		check("wf-action-check", id+"@a", left)
		check(store.KindSLADeadline, id, left)
		check(store.KindSLADeadline, id+"@a", left)
	}
	check("wf-action-check", "W-old@b", false)
	for _, id := range w.coordActions {
		left := !w.gone(id, oldActions)
		check("coord-input-check", id, left)
		check(store.KindSLADeadline, id, left)
		want := []string(nil)
		if left {
			want = []string{id}
		}
		sameSet(t, "waits on the data of "+id, waiters(t, st, "hdfs://nn/data/"+id), want)
	}
	for _, id := range w.coords {
		check("coord-status", id, !w.gone(id, oldActions))
	}
	for _, id := range w.bundles {
		check("bundle-kickoff", id, !w.gone(id, oldActions))
	}

	// The counts of the batches add up to what went.
	count := func(list []string) int { return len(list) - len(w.left(list, oldActions)) }
	want := store.PurgeResult{Workflows: count(w.workflows), CoordActions: count(w.coordActions),
		Coordinators: count(w.coords), Bundles: count(w.bundles)}
	got.Next = ""
	if got.PurgeResult != want {
		t.Errorf("purge counted %+v, want %+v", got.PurgeResult, want)
	}
}

// bundleOf names the bundle of a fixture coordinator ("C-b1" is in "B-old").
func bundleOf(coord string) string {
	return map[string]string{"C-b1": "B-old", "C-b2": "B-old", "C-by": "B-young", "C-bcy": "B-cy", "C-inb": "B-run",
		"C-bw": "B-wf"}[coord]
}

// purgeTests are the purge cases of the suite, each on its own database.
var purgeTests = []struct {
	name string
	fn   func(t *testing.T, open Opener)
}{
	{"PurgeOneBatch", purgeCase(1000, true)},
	{"PurgeSmallBatches", purgeCase(2, true)},
	{"PurgeSmallBatchesWholeJobsOnly", purgeCase(2, false)},
	{"PurgeOneJobPerBatch", purgeCase(1, true)},
	{"PurgeBadBatches", testPurgeBadBatches},
	{"PurgeDrain", testPurgeDrain},
}

// purgeCase purges the fixture in batches of limit, with or without the
// pass over old coordinator actions, and checks what is left.
func purgeCase(limit int, oldActions bool) func(t *testing.T, open Opener) {
	return func(t *testing.T, open Opener) {
		st := open(t)
		w := seedPurgeWorld(t, st)
		got := purgeAll(t, st, purgeCuts, limit, oldActions)
		w.checkPurged(t, st, oldActions, got)
		if limit < 1000 && got.batches <= 4 {
			t.Errorf("limit %d took %d batches; the passes were not split", limit, got.batches)
		}
		// A second purge finds nothing more.
		again := purgeAll(t, st, purgeCuts, limit, oldActions)
		if again.PurgeResult != (store.PurgeResult{}) {
			t.Errorf("second purge removed %+v", again.PurgeResult)
		}
	}
}

func testPurgeBadBatches(t *testing.T, open Opener) {
	{
		st := open(t)
		err := st.Tx(ctx, func(x store.Tx) error {
			_, err := x.PurgeWorkflows(ctx, store.PurgeBatch{Cutoffs: purgeCuts})
			return err
		})
		if err == nil {
			t.Error("a batch without a limit was accepted")
		}
		for _, after := range []string{"x", "a|notanumber|W", "a|1|", "j|", "a|1|C@1"} {
			err := st.Tx(ctx, func(x store.Tx) error {
				_, e1 := x.PurgeCoordJobs(ctx, store.PurgeBatch{Cutoffs: purgeCuts, Limit: 1, After: after})
				_, e2 := x.PurgeCoordActions(ctx, store.PurgeBatch{Cutoffs: purgeCuts, Limit: 1, After: after})
				if e1 == nil && e2 == nil {
					return fmt.Errorf("cursor %q accepted by both passes", after)
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}
	}
}

// testPurgeDrain removes a coordinator with more actions than the limit
// over several batches, its row last, and leaves it alone once it is rerun
// between two batches.
func testPurgeDrain(t *testing.T, open Opener) {
	st := open(t)
	const actions = 7
	seed(t, st, func(s *seeder) {
		for _, c := range []string{"C-big", "C-rerun"} {
			s.coord(c, "", store.JobSucceeded, ageOld)
			for n := 1; n <= actions; n++ {
				a := s.action(c, n, store.CoordActionSucceeded, ageOld)
				s.wf("W-"+a, a, store.WorkflowSucceeded, ageOld, "a")
			}
		}
	})
	batch := func(after string) store.PurgeResult {
		t.Helper()
		var r store.PurgeResult
		tx(t, st, func(x store.Tx) (err error) {
			r, err = x.PurgeCoordJobs(ctx, store.PurgeBatch{Cutoffs: purgeCuts, Limit: 3, After: after})
			return err
		})
		return r
	}
	left := func(job string) (n int, exists bool) {
		t.Helper()
		tx(t, st, func(x store.Tx) error {
			_, err := x.GetCoordJob(ctx, job)
			if isNotFound(err) {
				return nil
			}
			exists = err == nil
			_, n, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: job})
			return err
		})
		return n, exists
	}

	// C-big sorts first (same age, smaller id): three actions per batch,
	// then its row.
	r := batch("")
	if r.CoordActions != 3 || r.Workflows != 3 || r.Coordinators != 0 || r.Next == "" {
		t.Fatalf("first batch: %+v", r)
	}
	if n, ok := left("C-big"); n != actions-3 || !ok {
		t.Fatalf("after one batch C-big has %d actions (exists %v), want %d", n, ok, actions-3)
	}
	r = batch(r.Next)
	r = batch(r.Next)
	if n, ok := left("C-big"); n != 0 || ok {
		t.Fatalf("after three batches C-big has %d actions (exists %v), want none", n, ok)
	}
	// C-rerun: its drain has begun (the third batch had budget left for
	// it); one more batch, then a rerun brings it back to RUNNING.
	r = batch(r.Next)
	before, _ := left("C-rerun")
	if before == 0 || before >= actions-1 || r.Next == "" {
		t.Fatalf("C-rerun drained to %d actions of %d (next %q)", before, actions, r.Next)
	}
	tx(t, st, func(x store.Tx) error {
		c, err := x.GetCoordJob(ctx, "C-rerun")
		if err != nil {
			return err
		}
		c.Status, c.LastModified = store.JobRunning, purgeNow
		return x.UpdateCoordJob(ctx, &c)
	})
	for after := r.Next; after != ""; {
		r = batch(after)
		if r.CoordActions+r.Workflows+r.Coordinators != 0 {
			t.Fatalf("a rerun coordinator lost %+v", r)
		}
		after = r.Next
	}
	if n, ok := left("C-rerun"); n != before || !ok {
		t.Fatalf("rerun coordinator has %d actions (exists %v), want %d", n, ok, before)
	}
}
