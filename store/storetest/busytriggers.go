package storetest

import (
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// testBusyTriggers checks the engine's work at a time: a leased trigger
// is work whenever it is due and of whatever kind, an unleased one only
// once due, and one of the kinds left out never while unleased.
func testBusyTriggers(t *testing.T, open Opener) {
	s := open(t)
	busy := func(now time.Time, except ...store.TriggerKind) bool {
		t.Helper()
		var b bool
		tx(t, s, func(x store.Tx) (err error) { b, err = x.BusyTriggers(ctx, now, except); return })
		return b
	}
	if busy(t0) {
		t.Fatal("an empty queue is busy")
	}
	schedule(t, s, "k", "a", t0)
	schedule(t, s, "k", "b", t0.Add(time.Hour))
	schedule(t, s, "other", "c", t0)
	for _, tc := range []struct {
		what   string
		now    time.Time
		except []store.TriggerKind
		want   bool
	}{
		{"at t0 (a and c due)", t0, nil, true},
		{"before t0 (nothing due)", t0.Add(-time.Minute), nil, false},
		{"at t0 leaving out other (a due)", t0, []store.TriggerKind{"other"}, true},
		{"at t0 leaving out k and other", t0, []store.TriggerKind{"k", "other"}, false},
		{"an hour later leaving out other (a and b due)", t0.Add(time.Hour), []store.TriggerKind{"other"}, true},
	} {
		if got := busy(tc.now, tc.except...); got != tc.want {
			t.Errorf("%s: busy %v, want %v", tc.what, got, tc.want)
		}
	}
	claimed := claim(t, s, "owner-1", t0, 1, "other")
	if len(claimed) != 1 {
		t.Fatalf("claimed %+v", claimed)
	}
	if !busy(t0.Add(-time.Minute), "k", "other") {
		t.Error("with c leased: not busy leaving out every kind, before t0")
	}
	tx(t, s, func(x store.Tx) error { return x.Release(ctx, claimed[0], t0.Add(2*time.Hour)) })
	if busy(t0, "k") {
		t.Error("with c released to later: busy at t0 leaving out k")
	}
	if !busy(t0, "other") {
		t.Error("with c released to later: not busy at t0 leaving out other (a is due)")
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
