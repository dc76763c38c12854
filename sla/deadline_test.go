package sla_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

func TestFirstDeadline(t *testing.T) {
	t.Parallel()
	start, end := t0.Add(10*time.Minute), t0.Add(5*time.Minute)
	for _, c := range []struct {
		name string
		reg  store.SLA
		want time.Time
	}{
		{"earlier of start and end, plus 1 ms", store.SLA{ExpectedStart: start, ExpectedEnd: end}, end.Add(time.Millisecond)},
		{"start only", store.SLA{ExpectedStart: start}, start.Add(time.Millisecond)},
		{"no expectations", store.SLA{}, time.Time{}},
		{"judged to its end", store.SLA{ExpectedStart: start, ExpectedEnd: end, ActualEnd: end,
			EventStatus: "START_MET,END_MISS"}, time.Time{}},
		{"ended, end not judged", store.SLA{ExpectedEnd: end, ActualEnd: end, EventStatus: "START_MET"},
			end.Add(time.Millisecond)},
		{"end judged, not ended", store.SLA{ExpectedEnd: end, EventStatus: "END_MET"}, end.Add(time.Millisecond)},
		// Statuses are matched as values, not by substring: no such event as XEND_.
		{"unknown status", store.SLA{ExpectedEnd: end, ActualEnd: end, EventStatus: "XEND_"}, end.Add(time.Millisecond)},
	} {
		if got := sla.FirstDeadline(c.reg); !got.Equal(c.want) {
			t.Errorf("%s: FirstDeadline = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestInsertArmsFirstDeadline: Insert stores the registration and arms its
// first deadline in the transaction; a registration without expectations
// gets none.
func TestInsertArmsFirstDeadline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	late := store.SLA{ID: "W1", AppType: store.AppWorkflowJob, NominalTime: t0, ExpectedStart: t0.Add(10 * time.Minute),
		ExpectedEnd: t0.Add(5 * time.Minute), ExpectedDuration: -1, ActualDuration: -1, SLAStatus: store.SLANotStarted, CreatedTime: t0}
	none := store.SLA{ID: "W2", AppType: store.AppWorkflowJob, NominalTime: t0, ExpectedDuration: -1, ActualDuration: -1,
		SLAStatus: store.SLANotStarted, CreatedTime: t0}
	err = st.Tx(ctx, func(x store.Tx) error {
		if err := sla.Insert(ctx, x, &late); err != nil {
			return err
		}
		return sla.Insert(ctx, x, &none)
	})
	if err != nil {
		t.Fatal(err)
	}
	var trig store.Trigger
	err = st.Tx(ctx, func(x store.Tx) (err error) { trig, err = x.GetTrigger(ctx, sla.KindDeadline, "W1"); return })
	if err != nil || !trig.DueAt.Equal(t0.Add(5*time.Minute+time.Millisecond)) {
		t.Fatalf("deadline of W1: %v at %v, want just after the expected end", err, trig.DueAt)
	}
	if err := st.Tx(ctx, func(x store.Tx) error { _, err := x.GetSLA(ctx, "W1"); return err }); err != nil {
		t.Fatalf("registration W1 not stored: %v", err)
	}
	err = st.Tx(ctx, func(x store.Tx) error { _, err := x.GetTrigger(ctx, sla.KindDeadline, "W2"); return err })
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deadline of W2 (no expectations): %v, want none", err)
	}
}
