package enginetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
)

// Settler waits on one store's engines.
type Settler struct {
	Store store.Store
	// Now is the engines' (fake) clock.
	Now func() time.Time
	// Poll bounds the waits (zero: testwait's defaults).
	Poll testwait.Poll
	// AllowErrors lets Settle pass over failed triggers (tests of
	// failures); otherwise a failed trigger fails the test.
	AllowErrors bool
	// Unhandled lists the kinds nobody handles here (an SLA deadline
	// without the SLA service): their due triggers are nobody's work.
	Unhandled func() []store.TriggerKind
}

// Settle waits until the engines have nothing to do at Now: no trigger is
// leased and none of a handled kind is due. One look is consistent (one
// statement, and every handler commits its writes with its release); two
// in a row are a margin.
func (s Settler) Settle(t testing.TB) {
	t.Helper()
	calm := 0
	s.WaitFor(t, "the engine to settle", func() bool {
		if s.idle(t) {
			calm++
		} else {
			calm = 0
		}
		return calm >= 2
	})
}

// WaitFor is testwait's WaitFor with s's bounds, naming the first
// triggers in its failure.
func (s Settler) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !s.Poll.Until(cond) {
		t.Fatalf("timed out waiting for %s (first triggers: %s)", what, s.Busy())
	}
}

// idle reports whether no work is left at Now, failing t on a failed
// trigger unless AllowErrors.
func (s Settler) idle(t testing.TB) bool {
	t.Helper()
	ctx := context.Background()
	var except []store.TriggerKind
	if s.Unhandled != nil {
		except = s.Unhandled()
	}
	var busy bool
	var failed []store.Trigger
	err := s.Store.Tx(ctx, func(x store.Tx) (err error) {
		if busy, err = x.BusyTriggers(ctx, s.Now(), except); err != nil || busy || s.AllowErrors {
			return err
		}
		// A failed trigger is due again only later, so a look at an
		// engine that is still busy need not scan for failures.
		failed, err = x.FailedTriggers(ctx, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) > 0 {
		t.Fatalf("trigger %s/%s failed: %s", failed[0].Kind, failed[0].EntityID, failed[0].LastError)
	}
	return !busy
}

// Busy describes the first waiting and leased triggers, for failure
// messages.
func (s Settler) Busy() string {
	ctx := context.Background()
	var out []string
	err := s.Store.Tx(ctx, func(x store.Tx) error {
		for _, leased := range []bool{true, false} {
			ts, err := x.ListTriggers(ctx, leased, 5)
			if err != nil {
				return err
			}
			for _, tr := range ts {
				out = append(out, string(tr.Kind)+"/"+tr.EntityID+" leased by "+tr.LeaseOwner+" "+tr.LastError)
			}
		}
		return nil
	})
	if err != nil {
		return err.Error()
	}
	return strings.Join(out, "; ")
}
