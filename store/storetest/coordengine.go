package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// testCoordEngineColumns checks what the coordinator engine keeps beyond
// Oozie's rows: the original definition, pending flags, per-action timeouts,
// the deletion of look-ahead actions and SLA registrations.
func testCoordEngineColumns(t *testing.T, open Opener) {
	s := open(t)
	c := store.CoordJob{ID: "C2", AppName: "hourly", Status: store.JobRunning, ExecutionOrder: "FIFO",
		Definition: "<coordinator-app resolved/>", OrigDefinition: "<coordinator-app ${x}/>", Pending: true, CreatedTime: t0}
	tx(t, s, func(x store.Tx) error {
		if err := x.InsertCoordJob(ctx, &c); err != nil {
			return err
		}
		for n := 1; n <= 4; n++ {
			a := store.CoordAction{ID: fmt.Sprintf("C2@%d", n), JobID: "C2", ActionNumber: n, Status: store.CoordActionWaiting,
				NominalTime: t0.Add(time.Duration(n) * time.Hour), Timeout: 10 * n, Pending: n%2 == 0, CreatedTime: t0}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		return x.InsertSLA(ctx, &store.SLA{ID: "C2@4", ParentID: "C2", AppType: store.AppCoordinatorAction,
			SLAStatus: store.SLANotStarted, CreatedTime: t0})
	})
	var got store.CoordJob
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordJob(ctx, "C2"); return })
	if got.OrigDefinition != c.OrigDefinition || got.Definition != c.Definition || !got.Pending {
		t.Fatalf("coordinator job round trip: %+v", got)
	}
	var locked store.CoordJob
	tx(t, s, func(x store.Tx) (err error) { locked, err = x.LockCoordJob(ctx, "C2"); return })
	if locked.ID != "C2" || locked.OrigDefinition != c.OrigDefinition || locked.Version != got.Version {
		t.Fatalf("locked job: %+v", locked)
	}
	err := s.Tx(ctx, func(x store.Tx) error { _, err := x.LockCoordJob(ctx, "C404"); return err })
	wantErr(t, err, store.ErrNotFound)
	var a3 store.CoordAction
	tx(t, s, func(x store.Tx) (err error) { a3, err = x.GetCoordAction(ctx, "C2@3"); return })
	if a3.Timeout != 30 || a3.Pending {
		t.Fatalf("action round trip: timeout %d pending %v", a3.Timeout, a3.Pending)
	}
	var pending []store.CoordAction
	var total int
	tx(t, s, func(x store.Tx) (err error) {
		pending, total, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: "C2", PendingOnly: true})
		return
	})
	if total != 2 || len(pending) != 2 || pending[0].ID != "C2@2" || pending[1].ID != "C2@4" {
		t.Fatalf("pending actions: %d %+v", total, pending)
	}
	var n int
	tx(t, s, func(x store.Tx) (err error) {
		n, err = x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: "C2", PendingOnly: true,
			Statuses: []store.CoordActionStatus{store.CoordActionWaiting}, NominalFrom: t0.Add(3 * time.Hour), Limit: 1})
		return
	})
	if n != 1 {
		t.Fatalf("counted %d pending WAITING actions from 03:00, want 1 (paging ignored)", n)
	}

	var present []store.CoordActionStatus
	tx(t, s, func(x store.Tx) (err error) { present, err = x.PresentCoordActionStatuses(ctx, "C2"); return })
	if !slices.Equal(present, []store.CoordActionStatus{store.CoordActionWaiting}) {
		t.Fatalf("present statuses %v", present)
	}
	tx(t, s, func(x store.Tx) error {
		for n, st := range map[int]store.CoordActionStatus{1: store.CoordActionSkipped, 3: store.CoordActionReady} {
			a, err := x.GetCoordAction(ctx, fmt.Sprintf("C2@%d", n))
			if err != nil {
				return err
			}
			a.Status = st
			if err := x.UpdateCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	tx(t, s, func(x store.Tx) (err error) { present, err = x.PresentCoordActionStatuses(ctx, "C2"); return })
	if want := []store.CoordActionStatus{store.CoordActionWaiting, store.CoordActionReady, store.CoordActionSkipped}; !slices.Equal(present, want) {
		t.Fatalf("present statuses %v, want %v", present, want)
	}
	tx(t, s, func(x store.Tx) (err error) { present, err = x.PresentCoordActionStatuses(ctx, "C404"); return })
	if len(present) != 0 {
		t.Fatalf("present statuses of a job without actions: %v", present)
	}

	tx(t, s, func(x store.Tx) error {
		if err := x.DeleteCoordAction(ctx, "C2@4"); err != nil {
			return err
		}
		return x.DeleteSLA(ctx, "C2@4")
	})
	err = s.Tx(ctx, func(x store.Tx) error { _, err := x.GetCoordAction(ctx, "C2@4"); return err })
	wantErr(t, err, store.ErrNotFound)
	err = s.Tx(ctx, func(x store.Tx) error { _, err := x.GetSLA(ctx, "C2@4"); return err })
	wantErr(t, err, store.ErrNotFound)
	err = s.Tx(ctx, func(x store.Tx) error { return x.DeleteCoordAction(ctx, "C2@4") })
	wantErr(t, err, store.ErrNotFound)
}

// testInsertCoordActions checks the batched insert: many rows, every field
// kept, and a duplicate failing the whole batch.
func testInsertCoordActions(t *testing.T, open Opener) {
	s := open(t)
	const n = 250 // more than one statement's worth
	tx(t, s, func(x store.Tx) error {
		j := store.CoordJob{ID: "C5", Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
		if err := x.InsertCoordJob(ctx, &j); err != nil {
			return err
		}
		as := make([]*store.CoordAction, n)
		for i := range as {
			as[i] = &store.CoordAction{ID: fmt.Sprintf("C5@%d", i+1), JobID: "C5", ActionNumber: i + 1,
				Status: store.CoordActionReady, NominalTime: t0.Add(time.Duration(i) * time.Minute), ActionXML: "<x/>",
				MissingDependencies: "", Timeout: i, CreatedTime: t0, LastModified: t0}
		}
		if err := x.InsertCoordActions(ctx, as); err != nil {
			return err
		}
		if as[n-1].Version != 1 {
			return fmt.Errorf("version %d after insert", as[n-1].Version)
		}
		return nil
	})
	var a store.CoordAction
	tx(t, s, func(x store.Tx) (err error) { a, err = x.GetCoordAction(ctx, "C5@200"); return })
	if a.Timeout != 199 || !a.NominalTime.Equal(t0.Add(199*time.Minute)) || a.ActionXML != "<x/>" || a.Status != store.CoordActionReady {
		t.Fatalf("batch-inserted action: %+v", a)
	}
	err := s.Tx(ctx, func(x store.Tx) error {
		return x.InsertCoordActions(ctx, []*store.CoordAction{
			{ID: "C5@900", JobID: "C5", ActionNumber: 900, Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0},
			{ID: "C5@901", JobID: "C5", ActionNumber: 5, Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0},
		})
	})
	wantErr(t, err, store.ErrConflict)
	var count int
	tx(t, s, func(x store.Tx) (err error) {
		count, err = x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: "C5"})
		return
	})
	if count != n {
		t.Fatalf("%d actions after a failed batch, want %d", count, n)
	}
}

// testCoordWaits checks the index from dataset URIs to the actions waiting
// on them: replacement, duplicates, several actions per URI, and removal
// with the action, the job and the purge.
func testCoordWaits(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		for _, id := range []string{"C3", "C4"} {
			j := store.CoordJob{ID: id, Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
			if err := x.InsertCoordJob(ctx, &j); err != nil {
				return err
			}
			for n := 1; n <= 2; n++ {
				a := store.CoordAction{ID: fmt.Sprintf("%s@%d", id, n), JobID: id, ActionNumber: n,
					Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0, LastModified: t0}
				if err := x.InsertCoordAction(ctx, &a); err != nil {
					return err
				}
			}
		}
		return nil
	})
	waiters := func(uri string) []string {
		t.Helper()
		var ids []string
		tx(t, s, func(x store.Tx) (err error) { ids, err = x.ListCoordWaiters(ctx, uri); return })
		return ids
	}
	set := func(id string, uris ...string) {
		t.Helper()
		tx(t, s, func(x store.Tx) error { return x.SetCoordWaits(ctx, id, uris) })
	}
	const a, b, c = "hdfs://nn/data/a/_SUCCESS", "hdfs://nn/data/b", "file:///data/c/_DONE"
	set("C3@1", a, b, a) // a duplicate is kept once
	set("C3@2", b)
	set("C4@1", a, c)
	set("C4@2", c)
	for _, tc := range []struct {
		uri  string
		want []string
	}{{a, []string{"C3@1", "C4@1"}}, {b, []string{"C3@1", "C3@2"}}, {c, []string{"C4@1", "C4@2"}}, {"hdfs://nn/none", nil}} {
		if got := waiters(tc.uri); !slices.Equal(got, tc.want) {
			t.Errorf("waiters of %s: %v, want %v", tc.uri, got, tc.want)
		}
	}
	set("C3@1", c) // replaces a and b
	if got := waiters(b); !slices.Equal(got, []string{"C3@2"}) {
		t.Errorf("after replace, waiters of %s: %v", b, got)
	}
	set("C3@2") // no URIs: none left
	if got := waiters(b); len(got) != 0 {
		t.Errorf("after clearing, waiters of %s: %v", b, got)
	}
	// Waits go with their action: deleted, purged, or with the job.
	tx(t, s, func(x store.Tx) error { return x.DeleteCoordAction(ctx, "C4@2") })
	if got := waiters(c); !slices.Equal(got, []string{"C3@1", "C4@1"}) {
		t.Errorf("after deleting C4@2, waiters of %s: %v", c, got)
	}
	tx(t, s, func(x store.Tx) error {
		a, err := x.GetCoordAction(ctx, "C4@1")
		if err != nil {
			return err
		}
		a.Status = store.CoordActionKilled
		if err := x.UpdateCoordAction(ctx, &a); err != nil {
			return err
		}
		_, err = x.DeleteCoordActions(ctx, "C4", t0.Add(time.Hour), 10)
		return err
	})
	if got := waiters(a); len(got) != 0 {
		t.Errorf("after purging C4@1, waiters of %s: %v", a, got)
	}
	tx(t, s, func(x store.Tx) error { return x.DeleteCoordJob(ctx, "C3") })
	if got := waiters(c); len(got) != 0 {
		t.Errorf("after deleting job C3, waiters of %s: %v", c, got)
	}
}

// testTimeRange checks the range of times a row may hold (store.MinTime to
// store.MaxTime): its ends round-trip, a time outside it is refused when
// written (never stored as NULL, "not set"), and a query bound outside it
// still compares. It also round-trips a failed job's error.
func testTimeRange(t *testing.T, open Opener) {
	s := open(t)
	job := func(id string, start time.Time) store.CoordJob {
		return store.CoordJob{ID: id, Status: store.JobFailed, ExecutionOrder: "FIFO", StartTime: start,
			EndTime: store.MaxTime, ErrorCode: oozieerr.E1012, ErrorMessage: "gave up", CreatedTime: t0}
	}
	tx(t, s, func(x store.Tx) error {
		c := job("C-min", store.MinTime)
		return x.InsertCoordJob(ctx, &c)
	})
	var got store.CoordJob
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordJob(ctx, "C-min"); return })
	if !got.StartTime.Equal(store.MinTime) || !got.EndTime.Equal(store.MaxTime) || got.ErrorCode != oozieerr.E1012 ||
		got.ErrorMessage != "gave up" {
		t.Fatalf("round trip of the range's ends and the job's error: %+v", got)
	}
	for _, bad := range []time.Time{
		time.Date(1, 1, 1, 0, 1, 0, 0, time.UTC), // a user's 0001-01-01T00:01Z
		store.MinTime.Add(-time.Millisecond),
		store.MaxTime.Add(time.Millisecond),
	} {
		err := s.Tx(ctx, func(x store.Tx) error {
			c := job("C-bad", bad)
			return x.InsertCoordJob(ctx, &c)
		})
		if err == nil || store.TimeInRange(bad) {
			t.Fatalf("a start of %v was stored", bad)
		}
	}
	var total int
	tx(t, s, func(x store.Tx) (err error) {
		_, total, err = x.ListCoordJobs(ctx, store.JobFilter{CreatedFrom: time.Date(1, 1, 1, 0, 1, 0, 0, time.UTC),
			CreatedTo: time.Date(20000, 1, 1, 0, 0, 0, 0, time.UTC)})
		return
	})
	if total != 1 {
		t.Fatalf("a listing bounded outside the range found %d jobs, want 1", total)
	}
}
