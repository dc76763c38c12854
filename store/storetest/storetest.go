// Package storetest is the behavioural suite every store backend runs. A
// backend's test calls Run with a function that creates an empty database
// and returns an opener for it; the opener may be called more than once to
// get several handles on the same database, as several servers would.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// Opener opens one more handle on the same test database.
type Opener func(t *testing.T) store.Store

// NewDB creates an empty test database and returns its opener.
type NewDB func(t *testing.T) Opener

// Run runs the whole suite.
func Run(t *testing.T, newDB NewDB) {
	tests := []struct {
		name string
		fn   func(t *testing.T, open Opener)
	}{
		{"StatusesAccepted", testStatusesAccepted},
		{"WorkflowJobs", testWorkflowJobs},
		{"WorkflowActions", testWorkflowActions},
		{"CompareAndSet", testCompareAndSet},
		{"ListJobsFilters", testListJobsFilters},
		{"CoordJobsAndActions", testCoordJobsAndActions},
		{"ListCoordActionsOmitXML", testListCoordActionsOmitXML},
		{"CoordActionConfsReadWhereTheyDiffer", testCoordActionConfsReadWhereTheyDiffer},
		{"CoordJobInfo", testCoordJobInfo},
		{"CoordJobAsStored", testCoordJobAsStored},
		{"ListJobsOmitDocuments", testListJobsOmitDocuments},
		{"CoordEngineColumns", testCoordEngineColumns},
		{"TimeRange", testTimeRange},
		{"CoordJobsByFrequency", testCoordJobsByFrequency},
		{"CoordWaits", testCoordWaits},
		{"InsertCoordActions", testInsertCoordActions},
		{"Bundles", testBundles},
		{"SLAs", testSLAs},
		{"SLAFilters", testSLAFilters},
		{"SLAEventHistory", testSLAEventHistory},
		{"SLADeadlineDeleted", testSLADeadlineDeleted},
		{"ServersAndLeases", testServersAndLeases},
		{"RollbackOnError", testRollbackOnError},
		{"View", testView},
		{"TriggerSchedule", testTriggerSchedule},
		{"TriggerClaimRelease", testTriggerClaimRelease},
		{"TriggerScheduleDuringLease", testTriggerScheduleDuringLease},
		{"TriggerUnscheduleDuringLease", testTriggerUnscheduleDuringLease},
		{"TriggerFail", testTriggerFail},
		{"TriggerLeaseTakeover", testTriggerLeaseTakeover},
		{"TriggerKinds", testTriggerKinds},
		{"TriggerNextDue", testTriggerNextDue},
		{"ListTriggers", testListTriggers},
		{"BusyTriggers", testBusyTriggers},
		{"EndLeases", testEndLeases},
		{"FailedTriggers", testFailedTriggers},
		{"Wakeups", testWakeups},
		{"ConcurrentClaimsNeverOverlap", testConcurrentClaims},
		{"BatchReleaseTriggers", testBatchReleaseTriggers},
		{"BatchScheduleTriggers", testBatchScheduleTriggers},
		{"BatchCoordJobs", testBatchCoordJobs},
		{"BatchUpdateCoordJobsProgress", testBatchUpdateCoordJobsProgress},
		{"BatchUpdateCheckedCoordActions", testBatchUpdateCheckedCoordActions},
		{"StreamPositions", testStreamPositions},
		{"ListWaitedURIs", testListWaitedURIs},
	}
	tests = append(tests, purgeTests...)
	tests = append(tests, attemptTests...)
	tests = append(tests, auditTests...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newDB(t))
		})
	}
}

var (
	ctx = context.Background()
	t0  = time.Date(2026, 3, 8, 9, 30, 0, 0, time.UTC)
)

func tx(t *testing.T, s store.Store, fn func(store.Tx) error) {
	t.Helper()
	if err := s.Tx(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("got error %v, want %v", err, target)
	}
}

func wfJob(id string, status store.WorkflowStatus, created time.Time) store.WorkflowJob {
	return store.WorkflowJob{ID: id, AppName: "app-" + id, AppPath: "hdfs://nn/apps/" + id, User: "alice",
		Group: "users", Status: status, Conf: "<configuration/>", Definition: "<workflow-app/>",
		CreatedTime: created, LastModified: created}
}

func testStatusesAccepted(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		for i, st := range store.WorkflowStatuses {
			j := wfJob(fmt.Sprintf("w%d", i), st, t0)
			if err := x.InsertWorkflowJob(ctx, &j); err != nil {
				return err
			}
			for k, as := range store.ActionStatuses {
				a := store.WorkflowAction{ID: fmt.Sprintf("w%d@a%d", i, k), JobID: j.ID, Name: fmt.Sprintf("a%d", k),
					Type: "shell", Status: as, CreatedTime: t0}
				if err := x.InsertWorkflowAction(ctx, &a); err != nil {
					return err
				}
			}
		}
		for i, st := range store.JobStatuses {
			c := store.CoordJob{ID: fmt.Sprintf("c%d", i), Status: st, ExecutionOrder: "FIFO", CreatedTime: t0}
			if err := x.InsertCoordJob(ctx, &c); err != nil {
				return err
			}
			if st != store.JobIgnored {
				b := store.BundleJob{ID: fmt.Sprintf("b%d", i), Status: st, CreatedTime: t0}
				if err := x.InsertBundleJob(ctx, &b); err != nil {
					return err
				}
			}
		}
		for i, st := range store.CoordActionStatuses {
			a := store.CoordAction{ID: fmt.Sprintf("c0@%d", i+1), JobID: "c0", ActionNumber: i + 1, Status: st,
				NominalTime: t0, CreatedTime: t0}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		for i, st := range store.SLAStatuses {
			r := store.SLA{ID: fmt.Sprintf("s%d", i), AppType: store.AppTypes[i%len(store.AppTypes)], SLAStatus: st, CreatedTime: t0}
			if err := x.InsertSLA(ctx, &r); err != nil {
				return err
			}
		}
		for i, ev := range store.SLAEventStatuses {
			e := store.SLAEvent{SLAID: "s0", EventStatus: ev, EventTime: t0, SLAStatus: store.SLAStatuses[i%len(store.SLAStatuses)]}
			if err := x.InsertSLAEvent(ctx, &e); err != nil {
				return err
			}
		}
		return nil
	})
	// The CHECK constraints reject what is not a status.
	bad := []func(x store.Tx) error{
		func(x store.Tx) error { j := wfJob("bad", "DONE", t0); return x.InsertWorkflowJob(ctx, &j) },
		func(x store.Tx) error {
			c := store.CoordJob{ID: "badc", Status: "SKIPPED", ExecutionOrder: "FIFO", CreatedTime: t0}
			return x.InsertCoordJob(ctx, &c)
		},
		func(x store.Tx) error {
			b := store.BundleJob{ID: "badb", Status: store.JobIgnored, CreatedTime: t0}
			return x.InsertBundleJob(ctx, &b)
		},
		func(x store.Tx) error {
			c := store.CoordJob{ID: "bado", Status: store.JobPrep, ExecutionOrder: "RANDOM", CreatedTime: t0}
			return x.InsertCoordJob(ctx, &c)
		},
		func(x store.Tx) error {
			// An event keeps the SLA status it was judged with; none is not one.
			return x.InsertSLAEvent(ctx, &store.SLAEvent{SLAID: "s0", EventStatus: store.SLAEndMet, EventTime: t0})
		},
	}
	for i, fn := range bad {
		if err := s.Tx(ctx, fn); err == nil {
			t.Errorf("bad row %d was accepted", i)
		}
	}
}

func testWorkflowJobs(t *testing.T, open Opener) {
	s := open(t)
	j := wfJob("0000001-260308093000000-gozie-W", store.WorkflowPrep, t0)
	j.Instance = []byte(`{"v":1}`)
	j.StartTime = t0.Add(1500 * time.Microsecond) // truncated to the millisecond
	tx(t, s, func(x store.Tx) error { return x.InsertWorkflowJob(ctx, &j) })
	if j.Version != 1 {
		t.Fatalf("version after insert = %d, want 1", j.Version)
	}
	var got store.WorkflowJob
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetWorkflowJob(ctx, j.ID); return })
	want := j
	want.StartTime = t0.Add(time.Millisecond)
	if got.ID != want.ID || got.AppName != want.AppName || got.Status != want.Status || got.Conf != want.Conf ||
		string(got.Instance) != string(want.Instance) || !got.CreatedTime.Equal(want.CreatedTime) ||
		!got.StartTime.Equal(want.StartTime) || !got.EndTime.IsZero() || got.Version != 1 || got.User != "alice" {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
	}
	if got.CreatedTime.Location() != time.UTC {
		t.Errorf("times come back in %v, want UTC", got.CreatedTime.Location())
	}
	err := s.Tx(ctx, func(x store.Tx) error {
		dup := wfJob(j.ID, store.WorkflowPrep, t0)
		return x.InsertWorkflowJob(ctx, &dup)
	})
	wantErr(t, err, store.ErrConflict)
	err = s.Tx(ctx, func(x store.Tx) error { _, err := x.GetWorkflowJob(ctx, "nope"); return err })
	wantErr(t, err, store.ErrNotFound)
	tx(t, s, func(x store.Tx) error { return x.DeleteWorkflowJob(ctx, j.ID) })
	err = s.Tx(ctx, func(x store.Tx) error { return x.DeleteWorkflowJob(ctx, j.ID) })
	wantErr(t, err, store.ErrNotFound)
}

func testWorkflowActions(t *testing.T, open Opener) {
	s := open(t)
	j := wfJob("W1", store.WorkflowRunning, t0)
	tx(t, s, func(x store.Tx) error {
		if err := x.InsertWorkflowJob(ctx, &j); err != nil {
			return err
		}
		for i, name := range []string{":start:", "b", "a"} {
			a := store.WorkflowAction{ID: "W1@" + name, JobID: "W1", Name: name, Type: "shell",
				Status: store.ActionPrep, CreatedTime: t0.Add(time.Duration(i) * time.Second), Data: "k=v\n",
				UserRetryMax: 3, LaunchTag: "gozie-" + name}
			if err := x.InsertWorkflowAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	var acts []store.WorkflowAction
	tx(t, s, func(x store.Tx) (err error) { acts, err = x.ListWorkflowActions(ctx, "W1"); return })
	if len(acts) != 3 || acts[0].Name != ":start:" || acts[1].Name != "b" || acts[2].Name != "a" {
		t.Fatalf("actions not in creation order: %+v", acts)
	}
	if acts[1].Data != "k=v\n" || acts[1].UserRetryMax != 3 || acts[1].LaunchTag != "gozie-b" {
		t.Fatalf("fields lost: %+v", acts[1])
	}
	a := acts[1]
	a.Status, a.ExternalID, a.StartTime = store.ActionRunning, "application_1_0001", t0.Add(time.Minute)
	tx(t, s, func(x store.Tx) error { return x.UpdateWorkflowAction(ctx, &a, store.ActionPrep) })
	var running []store.WorkflowAction
	tx(t, s, func(x store.Tx) (err error) {
		running, err = x.ListActionsByStatus(ctx, []store.ActionStatus{store.ActionRunning, store.ActionEndRetry}, 10)
		return
	})
	if len(running) != 1 || running[0].ID != "W1@b" {
		t.Fatalf("running actions: %+v", running)
	}
	var got store.WorkflowAction
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetWorkflowAction(ctx, "W1@b"); return })
	if got.Status != store.ActionRunning || got.ExternalID != "application_1_0001" || got.Version != 2 {
		t.Fatalf("after update: %+v", got)
	}
	// The job's deletion takes its actions with it.
	tx(t, s, func(x store.Tx) error { return x.DeleteWorkflowJob(ctx, "W1") })
	tx(t, s, func(x store.Tx) (err error) { acts, err = x.ListWorkflowActions(ctx, "W1"); return })
	if len(acts) != 0 {
		t.Fatalf("actions left after job deletion: %d", len(acts))
	}
}

func testCompareAndSet(t *testing.T, open Opener) {
	s := open(t)
	j := wfJob("W1", store.WorkflowPrep, t0)
	tx(t, s, func(x store.Tx) error { return x.InsertWorkflowJob(ctx, &j) })
	stale := j

	// A transition from the wrong status is refused.
	j.Status = store.WorkflowSucceeded
	err := s.Tx(ctx, func(x store.Tx) error { return x.UpdateWorkflowJob(ctx, &j, store.WorkflowRunning) })
	wantErr(t, err, store.ErrConflict)
	if j.Version != 1 {
		t.Fatalf("a refused update advanced the version to %d", j.Version)
	}
	j.Status = store.WorkflowRunning
	tx(t, s, func(x store.Tx) error { return x.UpdateWorkflowJob(ctx, &j, store.WorkflowPrep) })
	if j.Version != 2 {
		t.Fatalf("version = %d, want 2", j.Version)
	}
	// A writer that read the old version cannot apply its change.
	stale.Status = store.WorkflowKilled
	err = s.Tx(ctx, func(x store.Tx) error { return x.UpdateWorkflowJob(ctx, &stale) })
	wantErr(t, err, store.ErrConflict)
	missing := wfJob("W2", store.WorkflowPrep, t0)
	missing.Version = 1
	err = s.Tx(ctx, func(x store.Tx) error { return x.UpdateWorkflowJob(ctx, &missing) })
	wantErr(t, err, store.ErrNotFound)

	// Two concurrent writers from the same version: exactly one wins.
	var wins, conflicts int
	var mu sync.Mutex
	var wg sync.WaitGroup
	other := open(t)
	for i, st := range []store.Store{s, other, s, other} {
		wg.Add(1)
		go func(i int, st store.Store) {
			defer wg.Done()
			c := j
			c.ErrorMessage = fmt.Sprint(i)
			err := st.Tx(ctx, func(x store.Tx) error { return x.UpdateWorkflowJob(ctx, &c, store.WorkflowRunning) })
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, store.ErrConflict):
				conflicts++
			default:
				t.Errorf("writer %d: %v", i, err)
			}
		}(i, st)
	}
	wg.Wait()
	if wins != 1 || conflicts != 3 {
		t.Fatalf("wins=%d conflicts=%d, want 1 and 3", wins, conflicts)
	}
}

func testListJobsFilters(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		for i := 0; i < 12; i++ {
			j := wfJob(fmt.Sprintf("W%02d", i), store.WorkflowStatuses[i%3], t0.Add(time.Duration(i)*time.Minute))
			if i%4 == 0 {
				j.User = "bob"
			}
			if i == 7 {
				j.AppName, j.ParentID = "nightly-hive", "C1@3"
			}
			if err := x.InsertWorkflowJob(ctx, &j); err != nil {
				return err
			}
		}
		return nil
	})
	cases := []struct {
		name  string
		f     store.JobFilter
		ids   []string
		total int
	}{
		{"all newest first", store.JobFilter{Limit: 3}, []string{"W11", "W10", "W09"}, 12},
		{"offset", store.JobFilter{Offset: 10}, []string{"W01", "W00"}, 12},
		{"user", store.JobFilter{Users: []string{"bob"}}, []string{"W08", "W04", "W00"}, 3},
		{"statuses OR", store.JobFilter{Statuses: []string{"PREP", "SUSPENDED"}, Limit: 2}, []string{"W11", "W09"}, 8},
		{"user AND status", store.JobFilter{Users: []string{"bob"}, Statuses: []string{"PREP"}}, []string{"W00"}, 1},
		{"text app name", store.JobFilter{Text: "hive"}, []string{"W07"}, 1},
		{"text id", store.JobFilter{Text: "W03"}, []string{"W03"}, 1},
		{"parent", store.JobFilter{ParentID: "C1@3"}, []string{"W07"}, 1},
		{"created range", store.JobFilter{CreatedFrom: t0.Add(2 * time.Minute), CreatedTo: t0.Add(3 * time.Minute)}, []string{"W03", "W02"}, 2},
		{"none", store.JobFilter{Names: []string{"nothing"}}, nil, 0},
	}
	for _, c := range cases {
		var got []store.WorkflowJob
		var total int
		tx(t, s, func(x store.Tx) (err error) { got, total, err = x.ListWorkflowJobs(ctx, c.f); return })
		var ids []string
		for _, j := range got {
			ids = append(ids, j.ID)
		}
		if fmt.Sprint(ids) != fmt.Sprint(c.ids) || total != c.total {
			t.Errorf("%s: got %v (total %d), want %v (total %d)", c.name, ids, total, c.ids, c.total)
		}
	}
}

func testCoordJobsAndActions(t *testing.T, open Opener) {
	s := open(t)
	c := store.CoordJob{ID: "C1", AppName: "daily", Status: store.JobRunning, Frequency: "1440", TimeUnit: "MINUTE",
		TimeZone: "America/Los_Angeles", Concurrency: 1, Timeout: 120, Throttle: 12, ExecutionOrder: "LAST_ONLY",
		StartTime: t0, EndTime: t0.Add(72 * time.Hour), NextMaterializedTime: t0.Add(time.Hour),
		DoneMaterialization: true, BundleID: "B1", CreatedTime: t0}
	tx(t, s, func(x store.Tx) error {
		if err := x.InsertCoordJob(ctx, &c); err != nil {
			return err
		}
		for n := 1; n <= 6; n++ {
			a := store.CoordAction{ID: fmt.Sprintf("C1@%d", n), JobID: "C1", ActionNumber: n,
				Status: store.CoordActionStatuses[n%4], NominalTime: t0.Add(time.Duration(n) * time.Hour),
				MissingDependencies: "hdfs://nn/a#hdfs://nn/b", CreatedTime: t0, LastModified: t0.Add(time.Duration(n) * time.Minute)}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	var got store.CoordJob
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordJob(ctx, "C1"); return })
	if got.ExecutionOrder != "LAST_ONLY" || !got.DoneMaterialization || got.TimeZone != c.TimeZone ||
		!got.NextMaterializedTime.Equal(c.NextMaterializedTime) || got.BundleID != "B1" {
		t.Fatalf("coordinator round trip: %+v", got)
	}
	err := s.Tx(ctx, func(x store.Tx) error {
		dup := store.CoordAction{ID: "C1@7", JobID: "C1", ActionNumber: 3, Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0}
		return x.InsertCoordAction(ctx, &dup)
	})
	wantErr(t, err, store.ErrConflict)

	var acts []store.CoordAction
	var total int
	tx(t, s, func(x store.Tx) (err error) {
		acts, total, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: "C1", Desc: true, Limit: 2})
		return
	})
	if total != 6 || len(acts) != 2 || acts[0].ActionNumber != 6 || acts[1].ActionNumber != 5 {
		t.Fatalf("desc page: total %d %+v", total, acts)
	}
	tx(t, s, func(x store.Tx) (err error) {
		acts, total, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: "C1",
			Statuses: []store.CoordActionStatus{store.CoordActionReady, store.CoordActionSubmitted}})
		return
	})
	if total != 4 || acts[0].ActionNumber != 1 || acts[1].ActionNumber != 2 || acts[2].ActionNumber != 5 || acts[3].ActionNumber != 6 {
		t.Fatalf("status filter: %d %+v", total, acts)
	}
	tx(t, s, func(x store.Tx) (err error) {
		acts, total, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: "C1",
			NotStatuses: []store.CoordActionStatus{store.CoordActionWaiting}, NominalFrom: t0.Add(2 * time.Hour), NominalTo: t0.Add(5 * time.Hour)})
		return
	})
	if total != 2 || acts[0].ActionNumber != 2 || acts[1].ActionNumber != 3 {
		t.Fatalf("nominal range: %d %+v", total, acts)
	}
	var counts map[store.CoordActionStatus]int
	tx(t, s, func(x store.Tx) (err error) { counts, err = x.CountCoordActions(ctx, "C1"); return })
	if counts[store.CoordActionWaiting] != 1 || counts[store.CoordActionReady] != 2 || counts[store.CoordActionRunning] != 1 {
		t.Fatalf("counts: %v", counts)
	}
	// Purge of old finished actions: only terminal ones older than the cut.
	tx(t, s, func(x store.Tx) error {
		for n := 1; n <= 6; n++ {
			a, err := x.GetCoordAction(ctx, fmt.Sprintf("C1@%d", n))
			if err != nil {
				return err
			}
			if n <= 4 {
				a.Status = store.CoordActionSucceeded
			}
			if err := x.UpdateCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	var purged int
	tx(t, s, func(x store.Tx) (err error) {
		purged, err = x.DeleteCoordActions(ctx, "C1", t0.Add(4*time.Minute), 2)
		return
	})
	if purged != 2 {
		t.Fatalf("purged %d, want 2 (limit)", purged)
	}
	tx(t, s, func(x store.Tx) (err error) {
		purged, err = x.DeleteCoordActions(ctx, "C1", t0.Add(4*time.Minute), 100)
		return
	})
	if purged != 1 {
		t.Fatalf("purged %d more, want 1 (C1@3; C1@4 is too new, C1@5 and C1@6 not terminal)", purged)
	}
}

func testBundles(t *testing.T, open Opener) {
	s := open(t)
	b := store.BundleJob{ID: "B1", AppName: "nightly", Status: store.JobPrep, KickoffTime: t0, CreatedTime: t0,
		Definition: "<bundle-app resolved/>", OrigDefinition: "<bundle-app name='${n}'/>"}
	tx(t, s, func(x store.Tx) error {
		if err := x.InsertBundleJob(ctx, &b); err != nil {
			return err
		}
		for _, n := range []string{"load", "agg"} {
			a := store.BundleAction{ID: "B1_" + n, BundleID: "B1", CoordName: n, Status: store.JobPrep, Critical: n == "load"}
			if err := x.InsertBundleAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	var acts []store.BundleAction
	tx(t, s, func(x store.Tx) (err error) { acts, err = x.ListBundleActions(ctx, "B1"); return })
	if len(acts) != 2 || acts[0].CoordName != "agg" || !acts[1].Critical {
		t.Fatalf("bundle actions: %+v", acts)
	}
	acts[0].CoordID, acts[0].Status = "C9", store.JobRunning
	tx(t, s, func(x store.Tx) error { return x.UpdateBundleAction(ctx, &acts[0]) })
	b.Status = store.JobRunning
	tx(t, s, func(x store.Tx) error { return x.UpdateBundleJob(ctx, &b, store.JobPrep) })
	var list []store.BundleJob
	tx(t, s, func(x store.Tx) (err error) {
		list, _, err = x.ListBundleJobs(ctx, store.JobFilter{Statuses: []string{"RUNNING"}})
		return
	})
	if len(list) != 1 || list[0].Version != 2 {
		t.Fatalf("bundle list: %+v", list)
	}
	if list[0].Definition != b.Definition || list[0].OrigDefinition != b.OrigDefinition {
		t.Fatalf("bundle definitions: %q, %q", list[0].Definition, list[0].OrigDefinition)
	}
	tx(t, s, func(x store.Tx) error { return x.DeleteBundleJob(ctx, "B1") })
	tx(t, s, func(x store.Tx) (err error) { acts, err = x.ListBundleActions(ctx, "B1"); return })
	if len(acts) != 0 {
		t.Fatalf("bundle actions left: %d", len(acts))
	}
}

func testSLAs(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		for i := 0; i < 4; i++ {
			r := store.SLA{ID: fmt.Sprintf("C1@%d", i+1), ParentID: "C1", AppName: "daily", AppType: store.AppCoordinatorAction,
				NominalTime: t0.Add(time.Duration(i) * time.Hour), ExpectedEnd: t0.Add(time.Duration(i)*time.Hour + 30*time.Minute),
				ExpectedDuration: -1, ActualDuration: -1, SLAStatus: store.SLANotStarted, AlertsEnabled: true, CreatedTime: t0}
			if err := x.InsertSLA(ctx, &r); err != nil {
				return err
			}
		}
		return x.InsertSLAEvent(ctx, &store.SLAEvent{SLAID: "C1@2", AppName: "daily", EventStatus: store.SLAEndMiss,
			Lateness: 7 * time.Minute, EventTime: t0.Add(2 * time.Hour), SLAStatus: store.SLAMiss})
	})
	var evs []store.SLAEvent
	tx(t, s, func(x store.Tx) (err error) { evs, err = x.ListSLAEvents(ctx, "C1@2"); return })
	if len(evs) != 1 || evs[0].Seq == 0 || evs[0].Lateness != 7*time.Minute || evs[0].EventStatus != store.SLAEndMiss {
		t.Fatalf("events: %+v", evs)
	}
	var got []store.SLA
	tx(t, s, func(x store.Tx) (err error) {
		got, err = x.ListSLAs(ctx, store.SLAFilter{ParentIDs: []string{"C1"}, EventsExist: []store.SLAEventStatus{store.SLAEndMiss}})
		return
	})
	if len(got) != 1 || got[0].ID != "C1@2" || !got[0].AlertsEnabled {
		t.Fatalf("SLA list by event: %+v", got)
	}
	tx(t, s, func(x store.Tx) (err error) {
		got, err = x.ListSLAs(ctx, store.SLAFilter{AppNames: []string{"daily"}, NominalFrom: t0.Add(time.Hour), Desc: true, Limit: 2})
		return
	})
	if len(got) != 2 || got[0].ID != "C1@4" || got[1].ID != "C1@3" {
		t.Fatalf("SLA list by nominal time: %+v", got)
	}
	r := got[0]
	r.SLAStatus, r.ActualStart = store.SLAInProcess, t0.Add(3*time.Hour)
	tx(t, s, func(x store.Tx) error { return x.UpdateSLA(ctx, &r) })
	stale := got[0]
	err := s.Tx(ctx, func(x store.Tx) error { return x.UpdateSLA(ctx, &stale) })
	wantErr(t, err, store.ErrConflict)
}

func testServersAndLeases(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		if err := x.Heartbeat(ctx, store.ServerInstance{ID: "a", Host: "h1", StartedAt: t0, Heartbeat: t0}); err != nil {
			return err
		}
		if err := x.Heartbeat(ctx, store.ServerInstance{ID: "b", Host: "h2", StartedAt: t0, Heartbeat: t0}); err != nil {
			return err
		}
		return x.Heartbeat(ctx, store.ServerInstance{ID: "a", Host: "h1", StartedAt: t0, Heartbeat: t0.Add(time.Minute)})
	})
	var alive []store.ServerInstance
	tx(t, s, func(x store.Tx) (err error) { alive, err = x.ListServers(ctx, t0.Add(30*time.Second)); return })
	if len(alive) != 1 || alive[0].ID != "a" {
		t.Fatalf("alive servers: %+v", alive)
	}
	acquire := func(owner string, now time.Time) bool {
		var ok bool
		tx(t, s, func(x store.Tx) (err error) {
			ok, err = x.AcquireLease(ctx, "purge", owner, now, now.Add(time.Minute))
			return
		})
		return ok
	}
	if !acquire("a", t0) || acquire("b", t0.Add(30*time.Second)) || !acquire("a", t0.Add(50*time.Second)) {
		t.Fatal("lease must stay with its holder while it is fresh")
	}
	if !acquire("b", t0.Add(2*time.Minute)) || acquire("a", t0.Add(2*time.Minute)) {
		t.Fatal("an expired lease must pass to the next server, and only to it")
	}
}

func testRollbackOnError(t *testing.T, open Opener) {
	s := open(t)
	boom := errors.New("boom")
	err := s.Tx(ctx, func(x store.Tx) error {
		j := wfJob("W1", store.WorkflowPrep, t0)
		if err := x.InsertWorkflowJob(ctx, &j); err != nil {
			return err
		}
		if err := x.Schedule(ctx, "wf-start", "W1", t0, ""); err != nil {
			return err
		}
		return boom
	})
	wantErr(t, err, boom)
	err = s.Tx(ctx, func(x store.Tx) error { _, err := x.GetWorkflowJob(ctx, "W1"); return err })
	wantErr(t, err, store.ErrNotFound)
	var n int
	tx(t, s, func(x store.Tx) (err error) { n, err = x.CountTriggers(ctx); return })
	if n != 0 {
		t.Fatalf("half-persisted: %d triggers after a rolled-back transaction", n)
	}
}

// testView checks that a view reads what transactions committed, sees
// each statement's latest commit (a commit between two of its reads shows
// in the second), and refuses writes without leaving any.
func testView(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error {
		j := wfJob("W1", store.WorkflowRunning, t0)
		return x.InsertWorkflowJob(ctx, &j)
	})
	err := s.View(ctx, func(x store.Tx) error {
		j, err := x.GetWorkflowJob(ctx, "W1")
		if err != nil {
			return err
		}
		if j.Status != store.WorkflowRunning {
			t.Errorf("view read status %s, want RUNNING", j.Status)
		}
		tx(t, s, func(w store.Tx) error {
			j.Status = store.WorkflowSucceeded
			return w.UpdateWorkflowJob(ctx, &j)
		})
		if j, err = x.GetWorkflowJob(ctx, "W1"); err != nil {
			return err
		}
		if j.Status != store.WorkflowSucceeded {
			t.Errorf("view's second read: status %s, want the committed SUCCEEDED", j.Status)
		}
		_, err = x.GetWorkflowJob(ctx, "W2")
		wantErr(t, err, store.ErrNotFound)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(x store.Tx) error {
		j := wfJob("W2", store.WorkflowPrep, t0)
		return x.InsertWorkflowJob(ctx, &j)
	})
	if err == nil {
		t.Fatal("a write in a view succeeded")
	}
	err = s.Tx(ctx, func(x store.Tx) error { _, err := x.GetWorkflowJob(ctx, "W2"); return err })
	wantErr(t, err, store.ErrNotFound)
}
