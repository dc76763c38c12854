package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

func claim(t *testing.T, s store.Store, owner string, now time.Time, limit int, kinds ...store.TriggerKind) []store.Trigger {
	t.Helper()
	ts, err := s.ClaimTriggers(ctx, store.ClaimRequest{Owner: owner, Now: now, LeaseUntil: now.Add(time.Minute), Limit: limit, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func schedule(t *testing.T, s store.Store, kind store.TriggerKind, id string, due time.Time) {
	t.Helper()
	tx(t, s, func(x store.Tx) error { return x.Schedule(ctx, kind, id, due, "") })
}

func getTrigger(t *testing.T, s store.Store, kind store.TriggerKind, id string) (store.Trigger, error) {
	var tr store.Trigger
	err := s.Tx(ctx, func(x store.Tx) (err error) { tr, err = x.GetTrigger(ctx, kind, id); return })
	return tr, err
}

func testTriggerSchedule(t *testing.T, open Opener) {
	s := open(t)
	tx(t, s, func(x store.Tx) error { return x.Schedule(ctx, "input-check", "C1@1", t0.Add(time.Hour), "p1") })
	// Later requests never postpone; earlier ones move it up.
	tx(t, s, func(x store.Tx) error { return x.Schedule(ctx, "input-check", "C1@1", t0.Add(2*time.Hour), "") })
	tr, err := getTrigger(t, s, "input-check", "C1@1")
	if err != nil || !tr.DueAt.Equal(t0.Add(time.Hour)) || tr.Payload != "p1" {
		t.Fatalf("after later schedule: %+v %v", tr, err)
	}
	tx(t, s, func(x store.Tx) error { return x.Schedule(ctx, "input-check", "C1@1", t0, "p2") })
	tr, _ = getTrigger(t, s, "input-check", "C1@1")
	if !tr.DueAt.Equal(t0) || tr.Payload != "p2" {
		t.Fatalf("after earlier schedule: %+v", tr)
	}
	var n int
	tx(t, s, func(x store.Tx) (err error) { n, err = x.CountTriggers(ctx); return })
	if n != 1 {
		t.Fatalf("%d triggers for one (kind, entity)", n)
	}
	tx(t, s, func(x store.Tx) error { return x.Unschedule(ctx, "input-check", "C1@1") })
	_, err = getTrigger(t, s, "input-check", "C1@1")
	wantErr(t, err, store.ErrNotFound)
	tx(t, s, func(x store.Tx) error { return x.Unschedule(ctx, "input-check", "C1@1") })
	if err := s.Tx(ctx, func(x store.Tx) error { return x.Schedule(ctx, "k", "e", time.Time{}, "") }); err == nil {
		t.Fatal("a zero due time was accepted")
	}
}

func testTriggerClaimRelease(t *testing.T, open Opener) {
	s := open(t)
	for i := 0; i < 5; i++ {
		schedule(t, s, "k", fmt.Sprintf("e%d", i), t0.Add(time.Duration(4-i)*time.Second))
	}
	schedule(t, s, "k", "future", t0.Add(time.Hour))
	if got := claim(t, s, "a", t0.Add(-time.Second), 10); len(got) != 0 {
		t.Fatalf("claimed %d triggers before they were due", len(got))
	}
	got := claim(t, s, "a", t0.Add(5*time.Second), 3)
	if len(got) != 3 || got[0].EntityID != "e4" || got[1].EntityID != "e3" || got[2].EntityID != "e2" {
		t.Fatalf("claim order: %+v", got)
	}
	for _, tr := range got {
		if tr.LeaseOwner != "a" || tr.LeaseSeq != 1 || !tr.LeaseExpires.Equal(t0.Add(5*time.Second+time.Minute)) {
			t.Fatalf("lease fields: %+v", tr)
		}
	}
	// Leased triggers are not claimed again while the lease holds.
	rest := claim(t, s, "b", t0.Add(5*time.Second), 10)
	if len(rest) != 2 || rest[0].EntityID != "e1" || rest[1].EntityID != "e0" {
		t.Fatalf("second claim: %+v", rest)
	}
	// Release with a next time keeps the trigger; release without deletes it.
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, got[0], t0.Add(time.Minute)) })
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, got[1], time.Time{}) })
	tr, err := getTrigger(t, s, "k", "e4")
	if err != nil || !tr.DueAt.Equal(t0.Add(time.Minute)) || tr.LeaseOwner != "" || !tr.LeaseExpires.IsZero() {
		t.Fatalf("rescheduled trigger: %+v %v", tr, err)
	}
	_, err = getTrigger(t, s, "k", "e3")
	wantErr(t, err, store.ErrNotFound)
	// Releasing twice is a lost lease.
	err = s.Tx(ctx, func(x store.Tx) error { return x.Release(ctx, got[1], time.Time{}) })
	wantErr(t, err, store.ErrLeaseLost)
	// A holder with another's lease cannot renew or release it.
	forged := got[2]
	forged.LeaseOwner = "b"
	err = s.Tx(ctx, func(x store.Tx) error { return x.RenewLease(ctx, forged, t0.Add(time.Hour)) })
	wantErr(t, err, store.ErrLeaseLost)
	tx(t, s, func(x store.Tx) error { return x.RenewLease(ctx, got[2], t0.Add(time.Hour)) })
	for _, c := range claim(t, s, "b", t0.Add(30*time.Minute), 10) {
		if c.EntityID == got[2].EntityID {
			t.Fatalf("renewed lease was taken over: %+v", c)
		}
	}
}

func testTriggerScheduleDuringLease(t *testing.T, open Opener) {
	s := open(t)
	schedule(t, s, "action-check", "W1@a", t0)
	tr := claim(t, s, "a", t0, 1)[0]
	// A callback arrives while the handler runs: it must not be lost, even
	// though the handler then releases without a next time.
	schedule(t, s, "action-check", "W1@a", t0.Add(time.Second))
	got, _ := getTrigger(t, s, "action-check", "W1@a")
	if !got.DueAt.Equal(t0) || got.LeaseOwner != "a" {
		t.Fatalf("scheduling a leased trigger changed it: %+v", got)
	}
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, tr, time.Time{}) })
	got, err := getTrigger(t, s, "action-check", "W1@a")
	if err != nil || !got.DueAt.Equal(t0.Add(time.Second)) {
		t.Fatalf("requeue during lease was lost: %+v %v", got, err)
	}
	// With a next time too, the earlier of the two wins.
	tr = claim(t, s, "a", t0.Add(time.Second), 1)[0]
	schedule(t, s, "action-check", "W1@a", t0.Add(5*time.Second))
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, tr, t0.Add(time.Minute)) })
	got, _ = getTrigger(t, s, "action-check", "W1@a")
	if !got.DueAt.Equal(t0.Add(5 * time.Second)) {
		t.Fatalf("due = %v, want the earlier request", got.DueAt)
	}
}

func testTriggerUnscheduleDuringLease(t *testing.T, open Opener) {
	s := open(t)
	schedule(t, s, "timeout", "C1@1", t0)
	tr := claim(t, s, "a", t0, 1)[0]
	tx(t, s, func(x store.Tx) error { return x.Unschedule(ctx, "timeout", "C1@1") })
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, tr, t0.Add(time.Hour)) })
	_, err := getTrigger(t, s, "timeout", "C1@1")
	wantErr(t, err, store.ErrNotFound)
	// A schedule after the cancellation revives it.
	schedule(t, s, "timeout", "C1@1", t0)
	tr = claim(t, s, "a", t0, 1)[0]
	tx(t, s, func(x store.Tx) error { return x.Unschedule(ctx, "timeout", "C1@1") })
	schedule(t, s, "timeout", "C1@1", t0.Add(time.Minute))
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, tr, time.Time{}) })
	got, err := getTrigger(t, s, "timeout", "C1@1")
	if err != nil || !got.DueAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("schedule after cancel: %+v %v", got, err)
	}
}

func testTriggerFail(t *testing.T, open Opener) {
	s := open(t)
	schedule(t, s, "action-start", "W1@a", t0)
	for i := 1; i <= 3; i++ {
		now := t0.Add(time.Duration(i) * time.Minute)
		tr := claim(t, s, "a", now, 1)[0]
		if tr.Attempts != i { // the claim counts the attempt
			t.Fatalf("attempt %d: attempts = %d", i, tr.Attempts)
		}
		tx(t, s, func(x store.Tx) error {
			return x.Fail(ctx, tr, now.Add(10*time.Second), fmt.Sprintf("RM unreachable #%d", i))
		})
	}
	tr, _ := getTrigger(t, s, "action-start", "W1@a")
	if tr.Attempts != 3 || tr.LastError != "RM unreachable #3" || !tr.DueAt.Equal(t0.Add(3*time.Minute+10*time.Second)) {
		t.Fatalf("after failures: %+v", tr)
	}
	got := claim(t, s, "a", t0.Add(time.Hour), 1)[0]
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, got, t0.Add(2*time.Hour)) })
	tr, _ = getTrigger(t, s, "action-start", "W1@a")
	if tr.Attempts != 0 || tr.LastError != "" {
		t.Fatalf("a release must clear the failure record: %+v", tr)
	}
	// A holder that dies records nothing, yet its attempt counts: the next
	// claim, once the lease expired, sees two.
	schedule(t, s, "action-start", "W2@a", t0)
	claim(t, s, "a", t0, 1)
	if got := claim(t, s, "b", t0.Add(time.Hour), 1); len(got) != 1 || got[0].Attempts != 2 || got[0].LastError != "" {
		t.Fatalf("takeover after a dead holder: %+v", got)
	}
}

func testTriggerLeaseTakeover(t *testing.T, open Opener) {
	a, b := open(t), open(t)
	schedule(t, a, "k", "e", t0)
	held := claim(t, a, "a", t0, 1)[0]
	// Server a dies; after the lease expires server b takes the trigger over.
	if got := claim(t, b, "b", t0.Add(30*time.Second), 1); len(got) != 0 {
		t.Fatal("took over a fresh lease")
	}
	taken := claim(t, b, "b", t0.Add(2*time.Minute), 1)
	if len(taken) != 1 || taken[0].LeaseOwner != "b" || taken[0].LeaseSeq != held.LeaseSeq+1 {
		t.Fatalf("takeover: %+v", taken)
	}
	// Server a comes back: its release, and everything in that transaction,
	// is refused.
	err := a.Tx(ctx, func(x store.Tx) error {
		j := wfJob("W1", store.WorkflowPrep, t0)
		if err := x.InsertWorkflowJob(ctx, &j); err != nil {
			return err
		}
		return x.Release(ctx, held, time.Time{})
	})
	wantErr(t, err, store.ErrLeaseLost)
	err = a.Tx(ctx, func(x store.Tx) error { _, err := x.GetWorkflowJob(ctx, "W1"); return err })
	wantErr(t, err, store.ErrNotFound)
	tx(t, b, func(x store.Tx) error { return x.Release(ctx, taken[0], time.Time{}) })
}

func testTriggerKinds(t *testing.T, open Opener) {
	s := open(t)
	schedule(t, s, "sla-deadline", "x", t0)
	schedule(t, s, "materialize", "x", t0)
	got := claim(t, s, "a", t0, 10, "materialize", "purge")
	if len(got) != 1 || got[0].Kind != "materialize" {
		t.Fatalf("kind filter: %+v", got)
	}
}

func testTriggerNextDue(t *testing.T, open Opener) {
	s := open(t)
	next := func() (time.Time, bool) {
		var due time.Time
		var ok bool
		tx(t, s, func(x store.Tx) (err error) { due, ok, err = x.NextDue(ctx); return })
		return due, ok
	}
	if _, ok := next(); ok {
		t.Fatal("next due with no triggers")
	}
	schedule(t, s, "k", "late", t0.Add(time.Hour))
	schedule(t, s, "k", "soon", t0.Add(time.Minute))
	if due, ok := next(); !ok || !due.Equal(t0.Add(time.Minute)) {
		t.Fatalf("next due = %v %v", due, ok)
	}
	// A leased trigger counts by its lease expiry (when it could be taken over).
	claim(t, s, "a", t0.Add(time.Minute), 1) // lease until t0+2m
	if due, _ := next(); !due.Equal(t0.Add(2 * time.Minute)) {
		t.Fatalf("next due with a lease = %v, want the lease expiry", due)
	}
}

func testWakeups(t *testing.T, open Opener) {
	a, b := open(t), open(t)
	drain := func(s store.Store) {
		for {
			select {
			case <-s.Wakeups():
			default:
				return
			}
		}
	}
	drain(a)
	tx(t, a, func(x store.Tx) error {
		j := wfJob("W1", store.WorkflowPrep, t0)
		return x.InsertWorkflowJob(ctx, &j)
	})
	select {
	case <-a.Wakeups():
		t.Fatal("a write that scheduled nothing woke the engine")
	default:
	}
	schedule(t, a, "k", "e", t0)
	select {
	case <-a.Wakeups():
	default:
		t.Fatal("scheduling did not wake this process after commit")
	}
	if a.Backend() == "postgres" {
		// Other servers hear it through NOTIFY.
		drain(b)
		schedule(t, a, "k", "e2", t0)
		select {
		case <-b.Wakeups():
		case <-time.After(10 * time.Second):
			t.Fatal("another server was not woken by NOTIFY")
		}
	}
}

// testConcurrentClaims runs several claimers over two handles on one
// database, as two servers would, and checks every trigger runs exactly once.
func testConcurrentClaims(t *testing.T, open Opener) {
	const n = 2000
	a, b := open(t), open(t)
	tx(t, a, func(x store.Tx) error {
		for i := 0; i < n; i++ {
			if err := x.Schedule(ctx, "k", fmt.Sprintf("e%05d", i), t0.Add(time.Duration(i%50)*time.Millisecond), ""); err != nil {
				return err
			}
		}
		return nil
	})
	var mu sync.Mutex
	seen := map[string]string{}
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for w := 0; w < 8; w++ {
		s := a
		if w%2 == 1 {
			s = b
		}
		owner := fmt.Sprintf("w%d", w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ts, err := s.ClaimTriggers(ctx, store.ClaimRequest{Owner: owner, Now: t0.Add(time.Second), LeaseUntil: t0.Add(time.Hour), Limit: 25})
				if err != nil {
					errc <- err
					return
				}
				if len(ts) == 0 {
					return
				}
				mu.Lock()
				for _, tr := range ts {
					if prev, dup := seen[tr.EntityID]; dup {
						mu.Unlock()
						errc <- fmt.Errorf("%s claimed by %s and %s", tr.EntityID, prev, owner)
						return
					}
					seen[tr.EntityID] = owner
				}
				mu.Unlock()
				err = s.Tx(ctx, func(x store.Tx) error {
					for _, tr := range ts {
						if err := x.Release(ctx, tr, time.Time{}); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil && !errors.Is(err, store.ErrLeaseLost) {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if len(seen) != n {
		t.Fatalf("claimed %d distinct triggers, want %d", len(seen), n)
	}
	var left int
	tx(t, a, func(x store.Tx) (err error) { left, err = x.CountTriggers(ctx); return })
	if left != 0 {
		t.Fatalf("%d triggers left", left)
	}
}
