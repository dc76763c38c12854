package storetest

import (
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// testCountBusyTriggers checks the engine's work at a time: leased
// triggers count whenever they are due, unleased ones only once due, and
// the kinds left out never while unleased.
func testCountBusyTriggers(t *testing.T, open Opener) {
	s := open(t)
	busy := func(now time.Time, except ...store.TriggerKind) int {
		t.Helper()
		var n int
		tx(t, s, func(x store.Tx) (err error) { n, err = x.CountBusyTriggers(ctx, now, except); return })
		return n
	}
	if n := busy(t0); n != 0 {
		t.Fatalf("an empty queue has %d busy triggers", n)
	}
	schedule(t, s, "k", "a", t0)
	schedule(t, s, "k", "b", t0.Add(time.Hour))
	schedule(t, s, "other", "c", t0)
	if n := busy(t0); n != 2 {
		t.Errorf("at t0: %d busy, want 2 (a and c are due, b is not)", n)
	}
	if n := busy(t0, "other"); n != 1 {
		t.Errorf("at t0 leaving out other: %d busy, want 1", n)
	}
	if n := busy(t0.Add(time.Hour)); n != 3 {
		t.Errorf("an hour later: %d busy, want 3", n)
	}
	claimed := claim(t, s, "owner-1", t0, 1, "other")
	if len(claimed) != 1 {
		t.Fatalf("claimed %+v", claimed)
	}
	if n := busy(t0, "other"); n != 2 {
		t.Errorf("with c leased: %d busy leaving out other, want 2 (a due, c leased)", n)
	}
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, claimed[0], t0.Add(2*time.Hour)) })
	if n := busy(t0); n != 1 {
		t.Errorf("with c released to later: %d busy, want 1", n)
	}
}

// testFailedTriggers checks that only triggers whose last attempt failed
// are listed.
func testFailedTriggers(t *testing.T, open Opener) {
	s := open(t)
	schedule(t, s, "k", "ok", t0)
	schedule(t, s, "k", "bad", t0)
	failed := func() []store.Trigger {
		t.Helper()
		var ts []store.Trigger
		tx(t, s, func(x store.Tx) (err error) { ts, err = x.FailedTriggers(ctx, 10); return })
		return ts
	}
	if ts := failed(); len(ts) != 0 {
		t.Fatalf("failed triggers before any failure: %+v", ts)
	}
	for _, tr := range claim(t, s, "owner-1", t0, 2, "k") {
		tx(t, s, func(x store.Tx) error {
			if tr.EntityID == "bad" {
				return x.Fail(ctx, tr, t0.Add(time.Minute), "boom")
			}
			return x.Release(ctx, tr, t0.Add(time.Hour))
		})
	}
	ts := failed()
	if len(ts) != 1 || ts[0].EntityID != "bad" || ts[0].LastError != "boom" {
		t.Fatalf("failed triggers %+v, want bad with its error", ts)
	}
}
