package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// auditTests are the cases of the audit trail.
var auditTests = []struct {
	name string
	fn   func(t *testing.T, open Opener)
}{
	{"AuditAppendList", testAuditAppendList},
	{"AuditRefusesBadRecords", testAuditRefusesBadRecords},
	{"AuditSurvivesRollback", testAuditSurvivesRollback},
	{"AuditPurgedWithJobs", auditPurgeCase(1000)},
	{"AuditPurgedWithJobsSmallBatches", auditPurgeCase(2)},
}

// auditRec is a record of job (target is the id the request named) at t0
// plus offset.
func auditRec(job, target, op string, offset time.Duration) store.AuditRecord {
	return store.AuditRecord{JobID: job, Target: target, At: t0.Add(offset), IP: "127.0.0.1", User: "joe",
		Group: "users", App: "app-" + job, Operation: op, Parameter: target, Status: store.AuditSuccess, HTTPCode: 200}
}

// appendAudit appends records and returns them with their Seq set.
func appendAudit(t *testing.T, s store.Store, recs ...store.AuditRecord) []store.AuditRecord {
	t.Helper()
	for i := range recs {
		if err := s.AppendAudit(ctx, &recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return recs
}

// listAudit lists the records f selects.
func listAudit(t *testing.T, s store.Store, f store.AuditFilter) []store.AuditRecord {
	t.Helper()
	got, err := s.ListAudit(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// seqs returns the Seq of each record.
func seqs(recs []store.AuditRecord) []int64 {
	out := make([]int64, len(recs))
	for i, r := range recs {
		out[i] = r.Seq
	}
	return out
}

func testAuditAppendList(t *testing.T, open Opener) {
	s := open(t)
	failed := auditRec("W2", "W2", "kill", 3*time.Second)
	failed.Status, failed.HTTPCode, failed.ErrorCode = store.AuditFailed, 404, oozieerr.E0604
	failed.ErrorMessage = "E0604: Job does not exist [W2]\nsecond line, ünïcode"
	failed.At = failed.At.Add(456*time.Microsecond + 789) // the store keeps milliseconds
	// Appended out of time order, with ties: the listing is by time, then
	// by append order.
	recs := appendAudit(t, s,
		auditRec("W1", "W1", "start", 2*time.Second),
		auditRec("W1", "W1", "submit", time.Second),
		auditRec("W1", "W1@a", "kill", 2*time.Second),
		failed,
		auditRec("", "", "submit", time.Second),
		auditRec("C1", "C1@3", "kill", 4*time.Second),
		auditRec("W1", "W1", "resume", 5*time.Second),
	)
	for i := 1; i < len(recs); i++ {
		if recs[i].Seq <= recs[i-1].Seq {
			t.Fatalf("Seq does not increase: %v", seqs(recs))
		}
	}
	w1 := listAudit(t, s, store.AuditFilter{JobID: "W1"})
	if want := []int64{recs[1].Seq, recs[0].Seq, recs[2].Seq, recs[6].Seq}; !slices.Equal(seqs(w1), want) {
		t.Fatalf("W1's trail is %v, want %v", seqs(w1), want)
	}
	if w1[1] != recs[0] {
		t.Errorf("record read back as\n%+v\nwant\n%+v", w1[1], recs[0])
	}
	got := listAudit(t, s, store.AuditFilter{JobID: "W2"})
	want := failed
	want.Seq, want.At = recs[3].Seq, failed.At.UTC().Truncate(time.Millisecond)
	if len(got) != 1 || got[0] != want {
		t.Errorf("failed record read back as\n%+v\nwant\n%+v", got, want)
	}
	if got := listAudit(t, s, store.AuditFilter{JobID: ""}); len(got) != 1 || got[0].Seq != recs[4].Seq {
		t.Errorf("records of no job: %+v", got)
	}
	if got := listAudit(t, s, store.AuditFilter{JobID: "C1"}); len(got) != 1 || got[0].Target != "C1@3" {
		t.Errorf("coordinator's trail: %+v", got)
	}
	if got := listAudit(t, s, store.AuditFilter{JobID: "W9"}); len(got) != 0 {
		t.Errorf("trail of a job without records: %+v", got)
	}
	// Bounds are inclusive; Limit keeps the oldest.
	for _, tc := range []struct {
		f    store.AuditFilter
		want []int64
	}{
		{store.AuditFilter{JobID: "W1", From: t0.Add(2 * time.Second)}, []int64{recs[0].Seq, recs[2].Seq, recs[6].Seq}},
		{store.AuditFilter{JobID: "W1", To: t0.Add(2 * time.Second)}, []int64{recs[1].Seq, recs[0].Seq, recs[2].Seq}},
		{store.AuditFilter{JobID: "W1", From: t0.Add(2 * time.Second), To: t0.Add(4 * time.Second)}, []int64{recs[0].Seq, recs[2].Seq}},
		{store.AuditFilter{JobID: "W1", From: t0.Add(6 * time.Second)}, nil},
		{store.AuditFilter{JobID: "W1", Limit: 2}, []int64{recs[1].Seq, recs[0].Seq}},
		{store.AuditFilter{JobID: "W1", From: t0.Add(2 * time.Second), Limit: 1}, []int64{recs[0].Seq}},
	} {
		if got := seqs(listAudit(t, s, tc.f)); !slices.Equal(got, tc.want) {
			t.Errorf("ListAudit(%+v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}

func testAuditRefusesBadRecords(t *testing.T, open Opener) {
	s := open(t)
	noStatus := auditRec("W1", "W1", "kill", 0)
	noStatus.Status = ""
	badStatus := auditRec("W1", "W1", "kill", 0)
	badStatus.Status = "MAYBE"
	noTime := auditRec("W1", "W1", "kill", 0)
	noTime.At = time.Time{}
	for _, r := range []store.AuditRecord{noStatus, badStatus, noTime} {
		if err := s.AppendAudit(ctx, &r); err == nil {
			t.Errorf("record %+v was accepted", r)
		}
	}
	if got := listAudit(t, s, store.AuditFilter{JobID: "W1"}); len(got) != 0 {
		t.Errorf("refused records were stored: %+v", got)
	}
}

// testAuditSurvivesRollback: a record appended after a command whose
// transaction rolled back is kept, and the job the command wrote is not.
func testAuditSurvivesRollback(t *testing.T, open Opener) {
	s := open(t)
	err := s.Tx(ctx, func(x store.Tx) error {
		j := wfJob("W1", store.WorkflowRunning, t0)
		if err := x.InsertWorkflowJob(ctx, &j); err != nil {
			return err
		}
		return fmt.Errorf("the command fails")
	})
	if err == nil {
		t.Fatal("the failing transaction committed")
	}
	failed := auditRec("", "W1", "kill", 0)
	failed.Status, failed.HTTPCode, failed.ErrorCode = store.AuditFailed, 500, oozieerr.E0307
	appendAudit(t, s, failed)
	if got := listAudit(t, s, store.AuditFilter{}); len(got) != 1 || got[0].Target != "W1" {
		t.Errorf("records after a rollback: %+v", got)
	}
	tx(t, s, func(x store.Tx) error {
		_, err := x.GetWorkflowJob(ctx, "W1")
		wantErr(t, err, store.ErrNotFound)
		return nil
	})
}

// auditPurgeCase gives every job of the purge fixture an audit record (the
// coordinators' actions theirs, under their coordinator), adds records of no
// job, old and young, purges in batches of limit, and checks that exactly
// the records of the purged jobs and the old records of no job are gone.
func auditPurgeCase(limit int) func(t *testing.T, open Opener) {
	return func(t *testing.T, open Opener) {
		st := open(t)
		w := seedPurgeWorld(t, st)
		jobs := slices.Concat(w.workflows, w.coords, w.bundles)
		want := map[string]int{}
		for _, id := range jobs {
			appendAudit(t, st, auditRec(id, id, "kill", 0))
			want[id]++
		}
		for _, id := range w.coordActions {
			job, _, _ := strings.Cut(id, "@")
			appendAudit(t, st, auditRec(job, id, "rerun", 0))
			want[job]++
		}
		old := auditRec("", "", "submit", 0)
		old.At = ageOld
		young := auditRec("", "", "submit", 0)
		young.At = ageYoung
		appendAudit(t, st, old, old, young)

		purgeAll(t, st, purgeCuts, limit, true)
		for _, id := range jobs {
			if w.gone(id, true) {
				want[id] = 0
			}
			if got := listAudit(t, st, store.AuditFilter{JobID: id}); len(got) != want[id] {
				t.Errorf("job %s has %d audit records after the purge, want %d", id, len(got), want[id])
			}
		}
		if got := listAudit(t, st, store.AuditFilter{}); len(got) != 1 || !got[0].At.Equal(ageYoung) {
			t.Errorf("records of no job after the purge: %+v, want the young one", got)
		}
	}
}
