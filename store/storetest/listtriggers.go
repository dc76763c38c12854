package storetest

import (
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

func testListTriggers(t *testing.T, open Opener) {
	s := open(t)
	for i, id := range []string{"c", "a", "b", "d"} {
		schedule(t, s, "k", id, t0.Add(time.Duration(i)*time.Minute))
	}
	claimed := claim(t, s, "owner-1", t0, 1, "k") // "c", the earliest
	if len(claimed) != 1 || claimed[0].EntityID != "c" {
		t.Fatalf("claimed %+v", claimed)
	}
	list := func(leased bool, limit int) []string {
		var out []string
		tx(t, s, func(x store.Tx) error {
			ts, err := x.ListTriggers(ctx, leased, limit)
			for _, tr := range ts {
				out = append(out, tr.EntityID+"/"+tr.LeaseOwner)
			}
			return err
		})
		return out
	}
	if got := list(false, 10); len(got) != 3 || got[0] != "a/" || got[1] != "b/" || got[2] != "d/" {
		t.Errorf("waiting triggers %v, want a, b, d by due time", got)
	}
	if got := list(false, 2); len(got) != 2 {
		t.Errorf("limit 2 gave %v", got)
	}
	if got := list(true, 10); len(got) != 1 || got[0] != "c/owner-1" {
		t.Errorf("leased triggers %v, want c held by owner-1", got)
	}
}
