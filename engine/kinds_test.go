package engine_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/store"
)

func nop(context.Context, *engine.Claim) error { return nil }

func nopBatch(context.Context, []*engine.Claim) error { return nil }

// TestKindRegistry: the registrations say which kinds start new work, which
// are batched and which have a give-up handler; Kinds and NewWorkKinds list
// them sorted, and KindTable renders one line per kind.
func TestKindRegistry(t *testing.T) {
	t.Parallel()
	e := engine.New(engine.Config{})
	e.Handle("b-check", nop)
	e.Handle("a-start", nop, engine.StartsNewWork())
	e.HandleBatch("c-materialize", 10, nopBatch, engine.StartsNewWork())
	e.HandleGiveUp("a-start", func(context.Context, store.Tx, store.Trigger, string) error { return nil })
	if got, want := e.NewWorkKinds(), []store.TriggerKind{"a-start", "c-materialize"}; !slices.Equal(got, want) {
		t.Errorf("NewWorkKinds = %v, want %v", got, want)
	}
	want := []engine.KindInfo{
		{Kind: "a-start", Package: "engine_test", StartsNewWork: true, GiveUp: true},
		{Kind: "b-check", Package: "engine_test"},
		{Kind: "c-materialize", Package: "engine_test", Batch: true, StartsNewWork: true},
	}
	if got := e.Kinds(); !slices.Equal(got, want) {
		t.Errorf("Kinds = %+v, want %+v", got, want)
	}
	if !e.Registered("b-check") || e.Registered("d-none") {
		t.Error("Registered: wrong answer for b-check or d-none")
	}
	table := engine.KindTable(e.Kinds())
	if n := strings.Count(table, "\n"); n != 4 || !strings.Contains(table, "c-materialize") {
		t.Errorf("KindTable has %d lines:\n%s", n, table)
	}
}

// TestHeldIsWhatHoldSet: Held reports the kinds of the last Hold.
func TestHeldIsWhatHoldSet(t *testing.T) {
	t.Parallel()
	e := engine.New(engine.Config{})
	e.Hold("y", "x")
	if got := e.Held(); !slices.Equal(got, []store.TriggerKind{"x", "y"}) {
		t.Errorf("Held = %v after Hold(y, x)", got)
	}
	e.Hold()
	if got := e.Held(); len(got) != 0 {
		t.Errorf("Held = %v after Hold()", got)
	}
}

// TestRegisteringAKindTwicePanics: a kind has one handler.
func TestRegisteringAKindTwicePanics(t *testing.T) {
	t.Parallel()
	e := engine.New(engine.Config{})
	e.Handle("k", nop)
	defer func() {
		if recover() == nil {
			t.Error("a second handler for k did not panic")
		}
	}()
	e.HandleBatch("k", 2, nopBatch)
}
