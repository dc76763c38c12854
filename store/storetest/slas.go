package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// seedSLAFilters stores six registrations that differ in every filtered
// column, plus a bundle with one coordinator, and returns them by id.
func seedSLAFilters(t *testing.T, s store.Store) map[string]store.SLA {
	t.Helper()
	h := time.Hour
	rows := []store.SLA{
		{ID: "C1@1", ParentID: "C1", AppName: "daily", AppType: store.AppCoordinatorAction, User: "ann",
			NominalTime: t0, ExpectedStart: t0.Add(10 * time.Minute), ExpectedEnd: t0.Add(h), ExpectedDuration: 3_000_000,
			ActualStart: t0.Add(20 * time.Minute), ActualEnd: t0.Add(50 * time.Minute), ActualDuration: 1_800_000,
			JobStatus: "SUCCEEDED", SLAStatus: store.SLAMet, EventStatus: "START_MISS,DURATION_MET,END_MET"},
		{ID: "C1@2", ParentID: "C1", AppName: "daily", AppType: store.AppCoordinatorAction, User: "ann",
			NominalTime: t0.Add(h), ExpectedEnd: t0.Add(2 * h), ExpectedDuration: -1, ActualStart: t0.Add(h),
			ActualDuration: -1, JobStatus: "RUNNING", SLAStatus: store.SLAMiss, EventStatus: "END_MISS"},
		{ID: "W1", ParentID: "C1@2", AppName: "wf-daily", AppType: store.AppWorkflowJob, User: "bob",
			NominalTime: t0.Add(h), ExpectedEnd: t0.Add(2 * h), ExpectedDuration: -1, ActualDuration: -1,
			JobStatus: "PREP", SLAStatus: store.SLANotStarted},
		{ID: "W1@a", ParentID: "W1", AppName: "wf-daily", AppType: store.AppWorkflowAction, User: "bob",
			NominalTime: t0.Add(2 * h), ExpectedEnd: t0.Add(3 * h), ExpectedDuration: 600_000, ActualDuration: -1,
			JobStatus: "PREP", SLAStatus: store.SLANotStarted, EventStatus: "DURATION_MISS"},
		{ID: "C2@1", ParentID: "C2", AppName: "hourly", AppType: store.AppCoordinatorAction, User: "cid",
			NominalTime: t0.Add(3 * h), ExpectedEnd: t0.Add(4 * h), ExpectedDuration: -1, ActualDuration: -1,
			JobStatus: "WAITING", SLAStatus: store.SLANotStarted},
		{ID: "C3@1", ParentID: "C3", BundleID: "B9", AppName: "other", AppType: store.AppCoordinatorAction, User: "cid",
			NominalTime: t0.Add(4 * h), ExpectedEnd: t0.Add(5 * h), ExpectedDuration: -1, ActualDuration: -1,
			JobStatus: "KILLED", SLAStatus: store.SLAMiss, EventStatus: "START_MISS,END_MISS"},
	}
	out := map[string]store.SLA{}
	tx(t, s, func(x store.Tx) error {
		if err := x.InsertBundleJob(ctx, &store.BundleJob{ID: "B1", AppName: "nightly", Status: store.JobRunning, CreatedTime: t0}); err != nil {
			return err
		}
		if err := x.InsertBundleAction(ctx, &store.BundleAction{ID: "B1_c", BundleID: "B1", CoordName: "c", CoordID: "C2",
			Status: store.JobRunning}); err != nil {
			return err
		}
		for i := range rows {
			r := rows[i]
			r.AlertsEnabled = true
			r.CreatedTime = t0.Add(time.Duration(i) * time.Minute)
			if err := x.InsertSLA(ctx, &r); err != nil {
				return err
			}
			out[r.ID] = r
		}
		return nil
	})
	return out
}

func ptr(v int64) *int64 { return &v }

func testSLAFilters(t *testing.T, open Opener) {
	s := open(t)
	seedSLAFilters(t, s)
	cases := []struct {
		name string
		f    store.SLAFilter
		want []string // in order
	}{
		{"all by nominal time", store.SLAFilter{}, []string{"C1@1", "C1@2", "W1", "W1@a", "C2@1", "C3@1"}},
		{"desc with page", store.SLAFilter{Desc: true, Offset: 1, Limit: 2}, []string{"C2@1", "W1@a"}},
		{"app names", store.SLAFilter{AppNames: []string{"daily", "hourly"}}, []string{"C1@1", "C1@2", "C2@1"}},
		{"app type", store.SLAFilter{AppTypes: []store.AppType{store.AppWorkflowJob, store.AppWorkflowAction}}, []string{"W1", "W1@a"}},
		{"user", store.SLAFilter{Users: []string{"cid"}}, []string{"C2@1", "C3@1"}},
		{"job status like", store.SLAFilter{JobStatuses: []string{"SUCC%", "K_LLED"}}, []string{"C1@1", "C3@1"}},
		{"id and parent", store.SLAFilter{IDs: []string{"W1", "C1@1"}, ParentIDs: []string{"C1@2"}}, []string{"W1"}},
		{"sla status", store.SLAFilter{SLAStatuses: []store.SLAStatus{store.SLAMiss}}, []string{"C1@2", "C3@1"}},
		{"event status exact", store.SLAFilter{EventStatuses: []store.SLAEventStatus{store.SLAEndMiss}}, []string{"C1@2", "C3@1"}},
		{"event status or", store.SLAFilter{EventStatuses: []store.SLAEventStatus{store.SLAStartMiss, store.SLADurationMiss}},
			[]string{"C1@1", "W1@a", "C3@1"}},
		{"bundle by name", store.SLAFilter{BundleID: "nightly"}, []string{"C2@1"}},
		{"bundle by id", store.SLAFilter{BundleID: "B1"}, []string{"C2@1"}},
		{"bundle column", store.SLAFilter{BundleID: "B9"}, []string{"C3@1"}},
		{"nominal range inclusive", store.SLAFilter{NominalFrom: t0.Add(time.Hour), NominalTo: t0.Add(2 * time.Hour)},
			[]string{"C1@2", "W1", "W1@a"}},
		{"created range", store.SLAFilter{CreatedFrom: t0.Add(4 * time.Minute)}, []string{"C2@1", "C3@1"}},
		{"expected start", store.SLAFilter{ExpectedStartFrom: t0, ExpectedStartTo: t0.Add(time.Hour)}, []string{"C1@1"}},
		{"expected end", store.SLAFilter{ExpectedEndTo: t0.Add(2 * time.Hour)}, []string{"C1@1", "C1@2", "W1"}},
		{"actual start", store.SLAFilter{ActualStartFrom: t0.Add(30 * time.Minute)}, []string{"C1@2"}},
		{"actual end", store.SLAFilter{ActualEndFrom: t0, ActualEndTo: t0.Add(time.Hour)}, []string{"C1@1"}},
		{"actual duration", store.SLAFilter{ActualDurationMin: ptr(0)}, []string{"C1@1"}},
		{"expected duration", store.SLAFilter{ExpectedDurationMin: ptr(600_000), ExpectedDurationMax: ptr(600_000)}, []string{"W1@a"}},
		{"sort by app name", store.SLAFilter{SortBy: "appName", AppTypes: []store.AppType{store.AppCoordinatorAction}},
			[]string{"C1@1", "C1@2", "C2@1", "C3@1"}},
		{"sort by user desc", store.SLAFilter{SortBy: "user", Desc: true, Limit: 3}, []string{"C3@1", "C2@1", "W1@a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []store.SLA
			tx(t, s, func(x store.Tx) (err error) { got, err = x.ListSLAs(ctx, tc.f); return })
			ids := make([]string, len(got))
			for i, r := range got {
				ids[i] = r.ID
			}
			if !slices.Equal(ids, tc.want) {
				t.Fatalf("got %v, want %v", ids, tc.want)
			}
		})
	}
	err := s.Tx(ctx, func(x store.Tx) error { _, err := x.ListSLAs(ctx, store.SLAFilter{SortBy: "nope"}); return err })
	if err == nil {
		t.Fatal("an unknown sort key was accepted")
	}
	// Every sort key Oozie names is accepted.
	for _, k := range store.SLASortKeys {
		tx(t, s, func(x store.Tx) error { _, err := x.ListSLAs(ctx, store.SLAFilter{SortBy: k}); return err })
	}
}

func testSLAEventHistory(t *testing.T, open Opener) {
	s := open(t)
	seedSLAFilters(t, s)
	evs := []store.SLAEvent{
		{SLAID: "C1@1", AppName: "daily", EventStatus: store.SLAStartMiss, Lateness: 10 * time.Minute, EventTime: t0.Add(20 * time.Minute),
			SLAStatus: store.SLANotStarted},
		{SLAID: "C1@2", AppName: "daily", EventStatus: store.SLAEndMiss, Lateness: time.Second, EventTime: t0.Add(2 * time.Hour),
			SLAStatus: store.SLAMiss},
		// Everything an event keeps of its judgment, set.
		{SLAID: "C2@1", AppName: "hourly", EventStatus: store.SLAEndMiss, Lateness: -time.Minute, EventTime: t0.Add(5 * time.Hour),
			SLAStatus: store.SLAMiss, JobStatus: "KILLED", ExpectedStart: t0.Add(4 * time.Hour), ExpectedEnd: t0.Add(5*time.Hour + time.Minute),
			ExpectedDuration: 3600000, ActualStart: t0.Add(4*time.Hour + time.Second), ActualEnd: t0.Add(5 * time.Hour), ActualDuration: 3599000},
		{SLAID: "C1@1", AppName: "daily", EventStatus: store.SLAEndMet, Lateness: -10 * time.Minute, EventTime: t0.Add(50 * time.Minute),
			SLAStatus: store.SLAMet, ExpectedDuration: -1, ActualDuration: -1},
	}
	tx(t, s, func(x store.Tx) error {
		for i := range evs {
			if err := x.InsertSLAEvent(ctx, &evs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Fatalf("sequence numbers do not grow: %+v", evs)
		}
	}
	var one store.SLAEvent
	tx(t, s, func(x store.Tx) (err error) { one, err = x.GetSLAEvent(ctx, evs[2].Seq); return })
	if !sameSLAEvent(one, evs[2]) {
		t.Fatalf("GetSLAEvent: %+v, want %+v", one, evs[2])
	}
	var listed []store.SLAEvent
	tx(t, s, func(x store.Tx) (err error) { listed, err = x.ListSLAEvents(ctx, "C1@1"); return })
	if len(listed) != 2 || !sameSLAEvent(listed[0], evs[0]) || !sameSLAEvent(listed[1], evs[3]) {
		t.Fatalf("ListSLAEvents: %+v", listed)
	}
	err := s.Tx(ctx, func(x store.Tx) error { _, err := x.GetSLAEvent(ctx, evs[3].Seq+100); return err })
	wantErr(t, err, store.ErrNotFound)

	cases := []struct {
		name string
		f    store.SLAEventFilter
		want []int // indexes into evs, in order
	}{
		{"all", store.SLAEventFilter{}, []int{0, 1, 2, 3}},
		{"misses of daily", store.SLAEventFilter{AppNames: []string{"daily"}, Statuses: []store.SLAEventStatus{
			store.SLAStartMiss, store.SLAEndMiss, store.SLADurationMiss}}, []int{0, 1}},
		{"time range", store.SLAEventFilter{From: t0.Add(50 * time.Minute), To: t0.Add(2 * time.Hour)}, []int{1, 3}},
		{"newest first, limited", store.SLAEventFilter{Desc: true, Limit: 2}, []int{3, 2}},
		{"after seq", store.SLAEventFilter{AfterSeq: evs[1].Seq}, []int{2, 3}},
		{"by sla", store.SLAEventFilter{SLAIDs: []string{"C1@1"}}, []int{0, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []store.SLAEvent
			tx(t, s, func(x store.Tx) (err error) { got, err = x.QuerySLAEvents(ctx, tc.f); return })
			var seqs, want []int64
			for _, e := range got {
				seqs = append(seqs, e.Seq)
			}
			for _, i := range tc.want {
				want = append(want, evs[i].Seq)
			}
			if !slices.Equal(seqs, want) {
				t.Fatalf("got %v, want %v", seqs, want)
			}
		})
	}
	// Deleting a registration deletes its history.
	tx(t, s, func(x store.Tx) error { return x.DeleteSLA(ctx, "C1@1") })
	var left []store.SLAEvent
	tx(t, s, func(x store.Tx) (err error) { left, err = x.QuerySLAEvents(ctx, store.SLAEventFilter{}); return })
	if len(left) != 2 {
		t.Fatalf("events left after delete: %s", fmt.Sprint(left))
	}
}

// sameSLAEvent compares every field of two events, times as instants.
func sameSLAEvent(a, b store.SLAEvent) bool {
	return a.Seq == b.Seq && a.SLAID == b.SLAID && a.AppName == b.AppName && a.EventStatus == b.EventStatus &&
		a.Lateness == b.Lateness && a.EventTime.Equal(b.EventTime) && a.SLAStatus == b.SLAStatus &&
		a.JobStatus == b.JobStatus && a.ExpectedStart.Equal(b.ExpectedStart) && a.ExpectedEnd.Equal(b.ExpectedEnd) &&
		a.ExpectedDuration == b.ExpectedDuration && a.ActualStart.Equal(b.ActualStart) &&
		a.ActualEnd.Equal(b.ActualEnd) && a.ActualDuration == b.ActualDuration
}

// testSLADeadlineDeleted: the store applies no SLA rule, InsertSLA stores the
// registration as given and arms nothing (package sla's Insert arms the first
// deadline); DeleteSLA removes the registration's deadline with it.
func testSLADeadlineDeleted(t *testing.T, open Opener) {
	s := open(t)
	late := store.SLA{ID: "W1", AppType: store.AppWorkflowJob, NominalTime: t0, ExpectedStart: t0.Add(10 * time.Minute),
		ExpectedEnd: t0.Add(5 * time.Minute), ExpectedDuration: -1, ActualDuration: -1, SLAStatus: store.SLANotStarted, CreatedTime: t0}
	tx(t, s, func(x store.Tx) error { return x.InsertSLA(ctx, &late) })
	err := s.Tx(ctx, func(x store.Tx) error { _, err := x.GetTrigger(ctx, store.KindSLADeadline, "W1"); return err })
	wantErr(t, err, store.ErrNotFound)
	schedule(t, s, store.KindSLADeadline, "W1", t0.Add(5*time.Minute+time.Millisecond))
	tx(t, s, func(x store.Tx) error { return x.DeleteSLA(ctx, "W1") })
	err = s.Tx(ctx, func(x store.Tx) error { _, err := x.GetTrigger(ctx, store.KindSLADeadline, "W1"); return err })
	wantErr(t, err, store.ErrNotFound)
}
