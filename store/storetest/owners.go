package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// testEndLeases checks the lease owners listed and that ending one
// owner's leases lets a claim at the same instant take its triggers over,
// counting the attempt, while another owner's lease holds.
func testEndLeases(t *testing.T, open Opener) {
	s := open(t)
	owners := func() []string {
		t.Helper()
		var o []string
		tx(t, s, func(x store.Tx) (err error) { o, err = x.LeaseOwners(ctx); return })
		return o
	}
	if o := owners(); len(o) != 0 {
		t.Fatalf("owners of an empty queue: %v", o)
	}
	schedule(t, s, "k", "a", t0)
	schedule(t, s, "k", "b", t0)
	schedule(t, s, "k", "c", t0)
	dead := claim(t, s, "dead", t0, 2)
	alive := claim(t, s, "alive", t0, 1)
	if len(dead) != 2 || len(alive) != 1 {
		t.Fatalf("claimed %d and %d", len(dead), len(alive))
	}
	if o := owners(); !slices.Equal(o, []string{"alive", "dead"}) {
		t.Errorf("owners %v, want [alive dead]", o)
	}
	now := t0.Add(time.Second) // both leases run for a minute
	if got := claim(t, s, "new", now, 10); len(got) != 0 {
		t.Fatalf("held leases were claimed: %+v", got)
	}
	var n int
	tx(t, s, func(x store.Tx) (err error) { n, err = x.EndLeases(ctx, "dead", now); return })
	if n != 2 {
		t.Errorf("EndLeases ended %d leases, want 2", n)
	}
	got := claim(t, s, "new", now, 10)
	if len(got) != 2 {
		t.Fatalf("after EndLeases, claimed %+v, want the dead owner's two", got)
	}
	for _, tr := range got {
		if tr.EntityID == alive[0].EntityID || tr.Attempts != 2 {
			t.Errorf("claimed %s with %d attempts, want one of the dead owner's with 2", tr.EntityID, tr.Attempts)
		}
	}
	tx(t, s, func(x store.Tx) (err error) { n, err = x.EndLeases(ctx, "nobody", now); return })
	if n != 0 {
		t.Errorf("EndLeases of an owner without leases ended %d", n)
	}
}
