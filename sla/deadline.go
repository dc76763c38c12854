package sla

import (
	"context"
	"time"

	"github.com/gozie/gozie/store"
)

// Insert stores a new registration and, in the same transaction, arms its
// first deadline (FirstDeadline), so that no registration, whoever writes
// it, is ever left without one. Every writer of registrations calls it
// rather than store.SLAs.InsertSLA, which only stores the row.
func Insert(ctx context.Context, x store.Tx, reg *store.SLA) error {
	if err := x.InsertSLA(ctx, reg); err != nil {
		return err
	}
	first := FirstDeadline(*reg)
	if first.IsZero() {
		return nil
	}
	return x.Schedule(ctx, KindDeadline, reg.ID, first, "")
}

// FirstDeadline is when a new registration is first judged: one
// millisecond after the earlier of its expected start and end (a job that
// starts or ends exactly on time meets its SLA). It is zero for a
// registration with no expectations, or one judged to its end already (a
// copy, a backfill), for which nothing is due.
func FirstDeadline(reg store.SLA) time.Time {
	if _, ended := eventSet(reg.EventStatus)[kindEnd]; ended && !reg.ActualEnd.IsZero() {
		return time.Time{}
	}
	var first time.Time
	for _, t := range []time.Time{reg.ExpectedStart, reg.ExpectedEnd} {
		if !t.IsZero() && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	if first.IsZero() {
		return first
	}
	return first.Add(time.Millisecond)
}
