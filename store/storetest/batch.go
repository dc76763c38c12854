package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// testBatchReleaseTriggers checks that ReleaseTriggers applies Release's rule
// to every claim at once (next time, a Schedule during the lease, a
// cancellation), and that one lost lease among them changes nothing.
func testBatchReleaseTriggers(t *testing.T, open Opener) {
	s := open(t)
	for _, id := range []string{"keep", "drop", "requeued", "requeued-later", "cancelled", "cancelled-then-scheduled"} {
		schedule(t, s, "k", id, t0)
	}
	got := claim(t, s, "a", t0, 10)
	if len(got) != 6 {
		t.Fatalf("claimed %d triggers, want 6", len(got))
	}
	byID := map[string]store.Trigger{}
	for _, tr := range got {
		byID[tr.EntityID] = tr
	}
	// Work that arrives while the triggers are leased.
	tx(t, s, func(x store.Tx) error {
		if err := x.Schedule(ctx, "k", "requeued", t0.Add(time.Minute), ""); err != nil {
			return err
		}
		if err := x.Schedule(ctx, "k", "requeued-later", t0.Add(2*time.Hour), ""); err != nil {
			return err
		}
		if err := x.Unschedule(ctx, "k", "cancelled"); err != nil {
			return err
		}
		if err := x.Unschedule(ctx, "k", "cancelled-then-scheduled"); err != nil {
			return err
		}
		return x.Schedule(ctx, "k", "cancelled-then-scheduled", t0.Add(3*time.Minute), "")
	})

	// A stale claim in the batch: nothing of the batch is released.
	stale := byID["drop"]
	stale.LeaseSeq--
	err := s.Tx(ctx, func(x store.Tx) error {
		return x.ReleaseTriggers(ctx, []store.TriggerRelease{{Trigger: byID["keep"], Next: t0.Add(time.Hour)},
			{Trigger: stale}})
	})
	wantErr(t, err, store.ErrLeaseLost)
	if tr, err := getTrigger(t, s, "k", "keep"); err != nil || tr.LeaseOwner != "a" {
		t.Fatalf("a batch with a lost lease released another trigger: %+v %v", tr, err)
	}

	next := t0.Add(time.Hour)
	tx(t, s, func(x store.Tx) error {
		var rs []store.TriggerRelease
		for _, id := range []string{"keep", "drop", "requeued", "requeued-later", "cancelled", "cancelled-then-scheduled"} {
			r := store.TriggerRelease{Trigger: byID[id], Next: next}
			if id == "drop" || id == "requeued" {
				r.Next = time.Time{}
			}
			rs = append(rs, r)
		}
		return x.ReleaseTriggers(ctx, rs)
	})
	for _, tc := range []struct {
		id   string
		want time.Time // zero: deleted
	}{
		{"keep", next},
		{"drop", time.Time{}},
		{"requeued", t0.Add(time.Minute)},
		{"requeued-later", next},
		{"cancelled", time.Time{}},
		{"cancelled-then-scheduled", t0.Add(3 * time.Minute)},
	} {
		tr, err := getTrigger(t, s, "k", tc.id)
		if tc.want.IsZero() {
			if err == nil {
				t.Errorf("%s: still there after release: %+v", tc.id, tr)
			}
			continue
		}
		if err != nil || !tr.DueAt.Equal(tc.want) || tr.LeaseOwner != "" || !tr.LeaseExpires.IsZero() || tr.Attempts != 0 {
			t.Errorf("%s: after release %+v %v, want due %v and no lease", tc.id, tr, err, tc.want)
		}
	}
	// Releasing again is a lost lease.
	err = s.Tx(ctx, func(x store.Tx) error {
		return x.ReleaseTriggers(ctx, []store.TriggerRelease{{Trigger: byID["keep"]}})
	})
	wantErr(t, err, store.ErrLeaseLost)
	// The released triggers are claimable again.
	again := claim(t, s, "b", next, 10)
	if len(again) != 4 {
		t.Fatalf("claimed %d released triggers, want 4", len(again))
	}
}

// testBatchScheduleTriggers checks that ScheduleTriggers follows Schedule's
// rules for new, existing and leased triggers, merges duplicates, and
// handles more triggers than one statement takes.
func testBatchScheduleTriggers(t *testing.T, open Opener) {
	s := open(t)
	schedule(t, s, "k", "existing", t0)
	schedule(t, s, "k", "leased", t0)
	leased := claim(t, s, "a", t0, 10)
	if len(leased) != 2 {
		t.Fatalf("claimed %d, want 2", len(leased))
	}
	var held store.Trigger
	for _, tr := range leased {
		if tr.EntityID == "leased" {
			held = tr
		} else {
			tx(t, s, func(x store.Tx) error { return x.Release(ctx, tr, t0.Add(time.Hour)) })
		}
	}
	reqs := []store.ScheduleRequest{
		{Kind: "k", EntityID: "new", Due: t0.Add(2 * time.Minute), Payload: "p1"},
		{Kind: "k", EntityID: "new", Due: t0.Add(time.Minute)},                    // earlier: wins
		{Kind: "k", EntityID: "new", Due: t0.Add(5 * time.Minute), Payload: "p2"}, // later: its payload
		{Kind: "k", EntityID: "existing", Due: t0.Add(30 * time.Minute)},          // earlier than its hour
		{Kind: "k", EntityID: "leased", Due: t0.Add(10 * time.Minute)},            // kept for the release
		{Kind: "other", EntityID: "new", Due: t0},                                 // another kind
	}
	for i := 0; i < 450; i++ { // more than one statement's worth
		reqs = append(reqs, store.ScheduleRequest{Kind: "many", EntityID: fmt.Sprintf("e%03d", i), Due: t0.Add(time.Duration(i) * time.Second)})
	}
	tx(t, s, func(x store.Tx) error { return x.ScheduleTriggers(ctx, reqs) })
	for _, tc := range []struct {
		kind    store.TriggerKind
		id      string
		due     time.Time
		payload string
		owner   string
	}{
		{"k", "new", t0.Add(time.Minute), "p2", ""},
		{"k", "existing", t0.Add(30 * time.Minute), "", ""},
		{"k", "leased", t0, "", "a"},
		{"other", "new", t0, "", ""},
		{"many", "e449", t0.Add(449 * time.Second), "", ""},
	} {
		tr, err := getTrigger(t, s, tc.kind, tc.id)
		if err != nil || !tr.DueAt.Equal(tc.due) || tr.Payload != tc.payload || tr.LeaseOwner != tc.owner {
			t.Errorf("%s/%s: %+v %v, want due %v payload %q owner %q", tc.kind, tc.id, tr, err, tc.due, tc.payload, tc.owner)
		}
	}
	var n int
	tx(t, s, func(x store.Tx) (err error) { n, err = x.CountTriggers(ctx); return })
	if n != 4+450 {
		t.Fatalf("%d triggers, want %d", n, 4+450)
	}
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, held, time.Time{}) })
	if tr, err := getTrigger(t, s, "k", "leased"); err != nil || !tr.DueAt.Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("a batch schedule during the lease was lost: %+v %v", tr, err)
	}
	err := s.Tx(ctx, func(x store.Tx) error {
		return x.ScheduleTriggers(ctx, []store.ScheduleRequest{{Kind: "k", EntityID: "zero"}})
	})
	if err == nil {
		t.Fatal("a zero due time was accepted")
	}
	tx(t, s, func(x store.Tx) error { return x.ScheduleTriggers(ctx, nil) })
}

// testBatchCoordJobs checks GetCoordJobs, LockCoordJobVersions, GetCoordJobVersions,
// GetCoordActions, GetCoordActionStates, CountCoordActionsByJob and
// SetCoordWaitsMany.
func testBatchCoordJobs(t *testing.T, open Opener) {
	s := open(t)
	const jobs = 600 // more than one statement's worth
	var ids []string
	tx(t, s, func(x store.Tx) error {
		for i := 0; i < jobs; i++ {
			j := store.CoordJob{ID: fmt.Sprintf("C%04d", i), Status: store.JobRunning, ExecutionOrder: "FIFO",
				CreatedTime: t0, Throttle: i}
			if err := x.InsertCoordJob(ctx, &j); err != nil {
				return err
			}
			ids = append(ids, j.ID)
			for n := 1; n <= i%4; n++ {
				st := store.CoordActionWaiting
				if n == 3 {
					st = store.CoordActionReady
				}
				a := store.CoordAction{ID: fmt.Sprintf("%s@%d", j.ID, n), JobID: j.ID, ActionNumber: n, Status: st,
					NominalTime: t0, CreatedTime: t0, LastModified: t0}
				if err := x.InsertCoordAction(ctx, &a); err != nil {
					return err
				}
			}
		}
		return nil
	})
	// Asked in reverse with a duplicate and a missing id; answered in id order.
	ask := slices.Clone(ids)
	slices.Reverse(ask)
	ask = append(ask, "C0001", "missing")
	var got []store.CoordJob
	tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordJobs(ctx, ask); return })
	if len(got) != jobs {
		t.Fatalf("GetCoordJobs: %d jobs, want %d", len(got), jobs)
	}
	for i, j := range got {
		if j.ID != ids[i] || j.Throttle != i || j.Version != 1 {
			t.Fatalf("GetCoordJobs: job %d is %s (throttle %d, version %d)", i, j.ID, j.Throttle, j.Version)
		}
	}
	// LockCoordJobVersions: the versions of the jobs that exist, one
	// advanced by a write.
	tx(t, s, func(x store.Tx) error {
		j, err := x.GetCoordJob(ctx, "C0002")
		if err != nil {
			return err
		}
		j.Throttle = 1000
		return x.UpdateCoordJob(ctx, &j)
	})
	for name, read := range map[string]func(store.Tx, context.Context, []string) (map[string]store.Version, error){
		"LockCoordJobVersions": store.Tx.LockCoordJobVersions,
		"GetCoordJobVersions":  store.Tx.GetCoordJobVersions,
	} {
		var versions map[string]store.Version
		tx(t, s, func(x store.Tx) (err error) { versions, err = read(x, ctx, ask); return })
		if len(versions) != jobs {
			t.Fatalf("%s: %d versions, want %d", name, len(versions), jobs)
		}
		for _, id := range ids {
			want := store.Version(1)
			if id == "C0002" {
				want = 2
			}
			if versions[id] != want {
				t.Fatalf("%s: %s at version %d, want %d", name, id, versions[id], want)
			}
		}
		if _, ok := versions["missing"]; ok {
			t.Fatalf("%s: a version for a job that does not exist", name)
		}
	}

	// GetCoordActions: every action of the 600 jobs (more than one
	// statement's worth), asked with a duplicate and a missing id.
	var actIDs []string
	for i, id := range ids {
		for n := 1; n <= i%4; n++ {
			actIDs = append(actIDs, fmt.Sprintf("%s@%d", id, n))
		}
	}
	askActs := append(slices.Clone(actIDs), actIDs[0], "missing@1")
	slices.Reverse(askActs)
	var acts []store.CoordAction
	tx(t, s, func(x store.Tx) (err error) { acts, err = x.GetCoordActions(ctx, askActs); return })
	slices.Sort(actIDs)
	if len(acts) != len(actIDs) {
		t.Fatalf("GetCoordActions: %d actions, want %d", len(acts), len(actIDs))
	}
	for i, a := range acts {
		if a.ID != actIDs[i] || a.JobID == "" || a.Version != 1 {
			t.Fatalf("GetCoordActions: action %d is %s of job %q (version %d), want %s", i, a.ID, a.JobID, a.Version, actIDs[i])
		}
	}

	// GetCoordActionStates: status and version of the actions that exist.
	var states map[string]store.CoordActionState
	tx(t, s, func(x store.Tx) (err error) { states, err = x.GetCoordActionStates(ctx, askActs); return })
	if len(states) != len(actIDs) {
		t.Fatalf("GetCoordActionStates: %d states, want %d", len(states), len(actIDs))
	}
	for _, id := range actIDs {
		want := store.CoordActionWaiting
		if strings.HasSuffix(id, "@3") {
			want = store.CoordActionReady
		}
		if st := states[id]; st.Status != want || st.Version != 1 {
			t.Fatalf("GetCoordActionStates: %s is %+v, want %s at version 1", id, st, want)
		}
	}

	var waiting, all map[string]int
	tx(t, s, func(x store.Tx) (err error) {
		if waiting, err = x.CountCoordActionsByJob(ctx, ids, []store.CoordActionStatus{store.CoordActionWaiting}); err != nil {
			return err
		}
		all, err = x.CountCoordActionsByJob(ctx, ids, nil)
		return err
	})
	for i, id := range ids {
		wantAll, wantWaiting := i%4, min(i%4, 2)
		if all[id] != wantAll || waiting[id] != wantWaiting {
			t.Fatalf("%s: %d actions (%d waiting), want %d (%d)", id, all[id], waiting[id], wantAll, wantWaiting)
		}
	}
	if _, ok := all[ids[0]]; ok {
		t.Fatalf("a job without actions is in the counts: %v", all[ids[0]])
	}

	const a, b = "hdfs://nn/data/a/_SUCCESS", "hdfs://nn/data/b"
	tx(t, s, func(x store.Tx) error { return x.SetCoordWaits(ctx, "C0001@1", []string{b}) })
	tx(t, s, func(x store.Tx) error {
		return x.SetCoordWaitsMany(ctx, map[string][]string{
			"C0001@1": {a, a}, // replaces b; the duplicate is kept once
			"C0002@1": {a, b},
			"C0002@2": nil,
		})
	})
	waiters := func(uri string) []string {
		var ids []string
		tx(t, s, func(x store.Tx) (err error) { ids, err = x.ListCoordWaiters(ctx, uri); return })
		return ids
	}
	if got := waiters(a); !slices.Equal(got, []string{"C0001@1", "C0002@1"}) {
		t.Errorf("waiters of %s: %v", a, got)
	}
	if got := waiters(b); !slices.Equal(got, []string{"C0002@1"}) {
		t.Errorf("waiters of %s: %v", b, got)
	}
	tx(t, s, func(x store.Tx) error { return x.SetCoordWaitsMany(ctx, map[string][]string{"C0002@1": nil}) })
	if got := waiters(b); len(got) != 0 {
		t.Errorf("after clearing, waiters of %s: %v", b, got)
	}
}

// testBatchUpdateCoordJobsProgress checks that UpdateCoordJobsProgress
// writes the progress columns of many jobs by compare-and-set, leaves the
// other columns alone, and changes nothing when one job does not match.
func testBatchUpdateCoordJobsProgress(t *testing.T, open Opener) {
	s := open(t)
	const n = 300 // more than one statement's worth
	jobs := make([]*store.CoordJob, n)
	tx(t, s, func(x store.Tx) error {
		for i := range jobs {
			j := store.CoordJob{ID: fmt.Sprintf("C%03d", i), Status: store.JobPrep, ExecutionOrder: "FIFO",
				Definition: "<coordinator-app/>", Conf: "<configuration/>", Throttle: 7, StartTime: t0,
				EndTime: t0.Add(24 * time.Hour), CreatedTime: t0, LastModified: t0}
			if err := x.InsertCoordJob(ctx, &j); err != nil {
				return err
			}
			jobs[i] = &j
		}
		return nil
	})
	for i, j := range jobs {
		j.Status = store.JobRunning
		j.LastActionNumber = i + 1
		j.LastActionTime = t0.Add(time.Duration(i+1) * time.Hour)
		j.NextMaterializedTime = j.LastActionTime
		j.DoneMaterialization = i%2 == 0
		j.LastModified = t0.Add(time.Minute)
		j.Throttle = 99 // not a progress column: left alone
	}
	jobs[1].LastActionTime = time.Time{} // NULL
	tx(t, s, func(x store.Tx) error { return x.UpdateCoordJobsProgress(ctx, jobs) })
	check := func(want []*store.CoordJob) {
		t.Helper()
		var got []store.CoordJob
		ids := make([]string, len(want))
		for i, j := range want {
			ids[i] = j.ID
		}
		tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordJobs(ctx, ids); return })
		for i, g := range got {
			w := want[i]
			if g.Status != w.Status || g.LastActionNumber != w.LastActionNumber || !g.LastActionTime.Equal(w.LastActionTime) ||
				!g.NextMaterializedTime.Equal(w.NextMaterializedTime) || g.DoneMaterialization != w.DoneMaterialization ||
				!g.LastModified.Equal(w.LastModified) || g.Version != w.Version {
				t.Fatalf("job %s: %+v, want progress of %+v", g.ID, g, *w)
			}
			if g.Throttle != 7 || g.Definition != "<coordinator-app/>" || g.Conf != "<configuration/>" || !g.StartTime.Equal(t0) {
				t.Fatalf("job %s: other columns changed: %+v", g.ID, g)
			}
		}
	}
	if jobs[0].Version != 2 {
		t.Fatalf("version after the update: %d, want 2", jobs[0].Version)
	}
	check(jobs)

	// A stale version or a missing job: nothing is written.
	stale := *jobs[5]
	stale.Version = 1
	for _, tc := range []struct {
		name string
		jobs []*store.CoordJob
	}{
		{"stale version", []*store.CoordJob{ptrTo(*jobs[4]), &stale}},
		{"missing job", []*store.CoordJob{ptrTo(*jobs[4]), {ID: "missing", Version: 1}}},
	} {
		for _, j := range tc.jobs {
			j.LastActionNumber = 1000
		}
		err := s.Tx(ctx, func(x store.Tx) error { return x.UpdateCoordJobsProgress(ctx, tc.jobs) })
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("%s: %v, want a conflict", tc.name, err)
		}
	}
	check(jobs)
}

func ptrTo[T any](v T) *T { return &v }

// testBatchUpdateCheckedCoordActions checks that UpdateCheckedCoordActions
// writes the columns an input check moves by compare-and-set on version and
// status, leaves the other columns alone, and changes nothing when one
// action does not match.
func testBatchUpdateCheckedCoordActions(t *testing.T, open Opener) {
	s := open(t)
	const n = 300 // more than one statement's worth
	acts := make([]*store.CoordAction, n)
	tx(t, s, func(x store.Tx) error {
		j := store.CoordJob{ID: "C1", Status: store.JobRunning, ExecutionOrder: "FIFO", CreatedTime: t0}
		if err := x.InsertCoordJob(ctx, &j); err != nil {
			return err
		}
		for i := range acts {
			a := store.CoordAction{ID: fmt.Sprintf("C1@%03d", i+1), JobID: "C1", ActionNumber: i + 1,
				Status: store.CoordActionWaiting, NominalTime: t0, CreatedTime: t0, LastModified: t0,
				RunConf: "<configuration/>", ActionXML: "<coordinator-app/>", MissingDependencies: "hdfs://nn/a#hdfs://nn/b"}
			if i == n-1 {
				a.Status = store.CoordActionReady
			}
			if err := x.InsertCoordAction(ctx, &a); err != nil {
				return err
			}
			acts[i] = &a
		}
		return nil
	})
	waiting := acts[:n-1]
	for i, a := range waiting {
		switch i % 3 {
		case 0:
			a.Status, a.MissingDependencies, a.ActionXML = store.CoordActionReady, "", fmt.Sprintf("<resolved n='%d'/>", i)
		case 1:
			a.MissingDependencies = "hdfs://nn/b"
		case 2:
			a.Status, a.ErrorCode, a.ErrorMessage = store.CoordActionFailed, "E1021", fmt.Sprintf("input check %d", i)
		}
		a.LastModified = t0.Add(time.Minute)
		a.RunConf = "not a checked column: left alone"
	}
	tx(t, s, func(x store.Tx) error { return x.UpdateCheckedCoordActions(ctx, waiting, store.CoordActionWaiting) })
	check := func(want []*store.CoordAction) {
		t.Helper()
		ids := make([]string, len(want))
		for i, a := range want {
			ids[i] = a.ID
		}
		var got []store.CoordAction
		tx(t, s, func(x store.Tx) (err error) { got, err = x.GetCoordActions(ctx, ids); return })
		if len(got) != len(want) {
			t.Fatalf("%d actions, want %d", len(got), len(want))
		}
		for i, g := range got {
			w := want[i]
			if g.Status != w.Status || g.MissingDependencies != w.MissingDependencies || g.ActionXML != w.ActionXML ||
				g.ErrorCode != w.ErrorCode || g.ErrorMessage != w.ErrorMessage || !g.LastModified.Equal(w.LastModified) ||
				g.Version != w.Version {
				t.Fatalf("action %s: %+v, want the checked columns of %+v", g.ID, g, *w)
			}
			if g.RunConf != "<configuration/>" || !g.CreatedTime.Equal(t0) || g.ActionNumber != i+1 {
				t.Fatalf("action %s: other columns changed: %+v", g.ID, g)
			}
		}
	}
	if acts[0].Version != 2 || acts[n-1].Version != 1 {
		t.Fatalf("versions after the update: %d and %d, want 2 and 1", acts[0].Version, acts[n-1].Version)
	}
	check(waiting)

	// A stale version, a status other than from, or a missing action:
	// nothing is written.
	stale := *acts[1]
	stale.Version = 1
	for _, tc := range []struct {
		name string
		acts []*store.CoordAction
	}{
		{"stale version", []*store.CoordAction{ptrTo(*acts[4]), &stale}},
		{"other status", []*store.CoordAction{ptrTo(*acts[4]), ptrTo(*acts[n-1])}},
		{"missing action", []*store.CoordAction{ptrTo(*acts[4]), {ID: "C1@999", Version: 1}}},
	} {
		for _, a := range tc.acts {
			a.ErrorMessage = "must not be written"
		}
		err := s.Tx(ctx, func(x store.Tx) error { return x.UpdateCheckedCoordActions(ctx, tc.acts, store.CoordActionWaiting) })
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("%s: %v, want a conflict", tc.name, err)
		}
	}
	check(waiting)
}
