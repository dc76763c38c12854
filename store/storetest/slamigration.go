package storetest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/internal/sqlstore"
)

// slaEventsBefore is the last schema version whose SLA events kept no status
// of their own (migration 0002_sla_event_judged adds it).
const slaEventsBefore = 1

// SLAEventsMigration checks what migration 0002 gives the SLA events judged
// before it. db is an empty database of the backend, ms its migrations, tv
// encodes a time as the backend's columns hold it (Unix milliseconds for
// SQLite, the time itself for PostgreSQL), and open opens the backend's
// store on the same database, applying the remaining migrations.
func SLAEventsMigration(t *testing.T, db *sql.DB, ms []sqlstore.Migration, tv func(time.Time) any, open func() store.Store) {
	t.Helper()
	ctx := context.Background()
	d := &sqlstore.Dialect{BeginTx: func(ctx context.Context, db *sql.DB) (*sql.Tx, error) { return db.BeginTx(ctx, nil) }}
	if _, err := sqlstore.Migrate(ctx, db, d, ms[:slaEventsBefore]); err != nil {
		t.Fatal(err)
	}
	m := time.Minute
	null := func(at time.Duration) any {
		if at < 0 {
			return nil
		}
		return tv(t0.Add(at))
	}
	// A job that never started (both misses judged, MISS now); one that
	// started late, missed its end while running, then ended (MISS); one
	// judged wholly at its end (MET).
	regs := []struct {
		id, jobStatus, slaStatus string
		start, end               time.Duration // -1: not happened
		duration                 int64
	}{
		{"W-never", "PREP", "MISS", -1, -1, -1},
		{"W-late", "SUCCEEDED", "MISS", 10 * m, 40 * m, (30 * m).Milliseconds()},
		{"W-met", "SUCCEEDED", "MET", m, 20 * m, (19 * m).Milliseconds()},
	}
	for _, r := range regs {
		_, err := db.ExecContext(ctx, `INSERT INTO sla_registrations (id, app_name, app_type, nominal_time, expected_start,
expected_end, expected_duration, actual_start, actual_end, actual_duration, job_status, sla_status, created_time, version)
VALUES ($1, 'app', 'WORKFLOW_JOB', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1)`,
			r.id, null(0), null(5*m), null(30*m), (25 * m).Milliseconds(), null(r.start), null(r.end), r.duration,
			r.jobStatus, r.slaStatus, null(0))
		if err != nil {
			t.Fatalf("seeding registration %s: %v", r.id, err)
		}
	}
	events := []struct {
		id, event string
		at        time.Duration
	}{
		{"W-never", "START_MISS", 5 * m}, {"W-never", "END_MISS", 30 * m},
		{"W-late", "START_MISS", 10 * m}, {"W-late", "END_MISS", 30 * m}, {"W-late", "DURATION_MISS", 40 * m},
		{"W-met", "START_MET", 20 * m}, {"W-met", "DURATION_MET", 20 * m}, {"W-met", "END_MET", 20 * m},
	}
	for _, e := range events {
		if _, err := db.ExecContext(ctx, `INSERT INTO sla_events (sla_id, app_name, event_status, lateness_ms, event_time)
VALUES ($1, 'app', $2, 0, $3)`, e.id, e.event, null(e.at)); err != nil {
			t.Fatalf("seeding event %s of %s: %v", e.event, e.id, err)
		}
	}

	s := open()
	at := func(d time.Duration) time.Time {
		if d < 0 {
			return time.Time{}
		}
		return t0.Add(d)
	}
	want := []struct {
		sla        store.SLAStatus
		job        string
		start, end time.Duration // -1: not happened by the event
		duration   int64
	}{
		{store.SLANotStarted, "PREP", -1, -1, -1},
		{store.SLAMiss, "PREP", -1, -1, -1},
		{store.SLAInProcess, "SUCCEEDED", 10 * m, -1, -1},
		{store.SLAMiss, "SUCCEEDED", 10 * m, -1, -1},
		{store.SLAMiss, "SUCCEEDED", 10 * m, 40 * m, (30 * m).Milliseconds()},
		{store.SLAMet, "SUCCEEDED", m, 20 * m, (19 * m).Milliseconds()},
		{store.SLAMet, "SUCCEEDED", m, 20 * m, (19 * m).Milliseconds()},
		{store.SLAMet, "SUCCEEDED", m, 20 * m, (19 * m).Milliseconds()},
	}
	var got []store.SLAEvent
	tx(t, s, func(x store.Tx) (err error) { got, err = x.QuerySLAEvents(ctx, store.SLAEventFilter{}); return })
	if len(got) != len(want) {
		t.Fatalf("%d events after the migration, want %d", len(got), len(want))
	}
	for i, w := range want {
		e := got[i]
		if e.SLAID != events[i].id || string(e.EventStatus) != events[i].event || e.SLAStatus != w.sla ||
			e.JobStatus != w.job || !e.ActualStart.Equal(at(w.start)) || !e.ActualEnd.Equal(at(w.end)) ||
			e.ActualDuration != w.duration || !e.ExpectedStart.Equal(t0.Add(5*m)) || !e.ExpectedEnd.Equal(t0.Add(30*m)) ||
			e.ExpectedDuration != (25*m).Milliseconds() {
			t.Errorf("event %d (%s of %s) after the migration: %+v, want %+v", i, events[i].event, events[i].id, e, w)
		}
	}
}
