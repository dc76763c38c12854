package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gozie/gozie/store"
)

var slas = &table[store.SLA]{
	name: "sla_registrations", noun: "SLA registration",
	cols: []string{"id", "parent_id", "bundle_id", "app_name", "app_type", "user_name", "nominal_time",
		"expected_start", "expected_end", "expected_duration", "actual_start", "actual_end", "actual_duration",
		"job_status", "sla_status", "event_status", "alert_events", "alert_contact", "notification_msg",
		"upstream_apps", "alerts_enabled", "created_time", "last_modified", "version"},
	fields: func(d *Dialect, r *store.SLA) []any {
		return []any{&r.ID, &r.ParentID, &r.BundleID, &r.AppName, (*string)(&r.AppType), &r.User,
			d.tm(&r.NominalTime), d.tm(&r.ExpectedStart), d.tm(&r.ExpectedEnd), &r.ExpectedDuration,
			d.tm(&r.ActualStart), d.tm(&r.ActualEnd), &r.ActualDuration, &r.JobStatus, (*string)(&r.SLAStatus),
			&r.EventStatus, &r.AlertEvents, &r.AlertContact, &r.NotificationMsg, &r.UpstreamApps,
			&r.AlertsEnabled, d.tm(&r.CreatedTime), d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.SLA) *store.Version { return &r.Version },
}

// slaSortColumns maps Oozie's sort keys to columns. eventProcessed has no
// column of its own: the judged events are the event_status text.
var slaSortColumns = map[string]string{
	"actualDuration": "actual_duration", "actualEndTS": "actual_end", "actualStartTS": "actual_start",
	"appName": "app_name", "appType": "app_type", "createdTimeTS": "created_time",
	"eventProcessed": "event_status", "eventStatus": "event_status", "expectedDuration": "expected_duration",
	"expectedEndTS": "expected_end", "expectedStartTS": "expected_start", "jobId": "id",
	"jobStatus": "job_status", "lastModifiedTS": "last_modified", "nominalTimeTS": "nominal_time",
	"parentId": "parent_id", "slaStatus": "sla_status", "user": "user_name",
}

func (x *txn) InsertSLA(ctx context.Context, s *store.SLA) error {
	return slas.insert(ctx, x, s)
}

func (x *txn) GetSLA(ctx context.Context, id string) (store.SLA, error) {
	return slas.get(ctx, x, id)
}

func (x *txn) UpdateSLA(ctx context.Context, s *store.SLA) error { return slas.update(ctx, x, s, nil) }

func (x *txn) DeleteSLA(ctx context.Context, id string) error {
	if _, err := x.tx.ExecContext(ctx, `DELETE FROM sla_events WHERE sla_id = $1`, id); err != nil {
		return x.mapErr(err, "deleting events of SLA %s", id)
	}
	if err := x.Unschedule(ctx, store.KindSLADeadline, id); err != nil {
		return err
	}
	return slas.delete(ctx, x, id)
}

// timeRange adds inclusive bounds on a time column.
func (x *txn) timeRange(w *where, col string, from, to time.Time) {
	if !from.IsZero() {
		w.add(col+" >= %s", x.d.tv(from))
	}
	if !to.IsZero() {
		w.add(col+" <= %s", x.d.tv(to))
	}
}

// intRange adds inclusive bounds on an integer column.
func intRange(w *where, col string, lo, hi *int64) {
	if lo != nil {
		w.add(col+" >= %s", *lo)
	}
	if hi != nil {
		w.add(col+" <= %s", *hi)
	}
}

// anyOf adds (c1 OR c2 ...) built by one format per value.
func anyOf[S ~string](w *where, format string, vals []S) {
	if len(vals) == 0 {
		return
	}
	conds := make([]string, len(vals))
	for i, v := range vals {
		conds[i] = fmt.Sprintf(format, w.arg(string(v)))
	}
	c := conds[0]
	for _, o := range conds[1:] {
		c += " OR " + o
	}
	w.conds = append(w.conds, "("+c+")")
}

func (x *txn) ListSLAs(ctx context.Context, f store.SLAFilter) ([]store.SLA, error) {
	w := &where{}
	w.in("id", f.IDs, false)
	w.in("parent_id", f.ParentIDs, false)
	w.in("app_name", f.AppNames, false)
	w.in("app_type", strs(f.AppTypes), false)
	w.in("user_name", f.Users, false)
	w.in("sla_status", strs(f.SLAStatuses), false)
	anyOf(w, "job_status LIKE %s", f.JobStatuses)
	// event_status is a comma-joined list; wrapping it in commas makes the
	// match exact (END_MISS never matches inside another name).
	events := make([]string, len(f.EventStatuses))
	for i, e := range f.EventStatuses {
		events[i] = "%," + string(e) + ",%"
	}
	anyOf(w, "(',' || event_status || ',') LIKE %s", events)
	if f.BundleID != "" {
		b := w.arg(f.BundleID)
		w.conds = append(w.conds, fmt.Sprintf(`(bundle_id = %[1]s OR parent_id IN (SELECT a.coord_id FROM bundle_actions a
WHERE a.coord_id <> '' AND (a.bundle_id = %[1]s OR a.bundle_id IN (SELECT j.id FROM bundle_jobs j WHERE j.app_name = %[1]s))))`, b))
	}
	if len(f.EventsExist) > 0 {
		sub := &where{args: w.args}
		sub.in("e.event_status", strs(f.EventsExist), false)
		w.args = sub.args
		w.conds = append(w.conds, fmt.Sprintf("EXISTS (SELECT 1 FROM sla_events e WHERE e.sla_id = sla_registrations.id AND %s)", sub.conds[0]))
	}
	x.timeRange(w, "nominal_time", f.NominalFrom, f.NominalTo)
	x.timeRange(w, "created_time", f.CreatedFrom, f.CreatedTo)
	x.timeRange(w, "expected_start", f.ExpectedStartFrom, f.ExpectedStartTo)
	x.timeRange(w, "expected_end", f.ExpectedEndFrom, f.ExpectedEndTo)
	x.timeRange(w, "actual_start", f.ActualStartFrom, f.ActualStartTo)
	x.timeRange(w, "actual_end", f.ActualEndFrom, f.ActualEndTo)
	intRange(w, "actual_duration", f.ActualDurationMin, f.ActualDurationMax)
	intRange(w, "expected_duration", f.ExpectedDurationMin, f.ExpectedDurationMax)

	col := "nominal_time"
	if f.SortBy != "" {
		c, ok := slaSortColumns[f.SortBy]
		if !ok {
			return nil, fmt.Errorf("listing SLA registrations: unknown sort key %q", f.SortBy)
		}
		col = c
	}
	dir := ""
	if f.Desc {
		dir = " DESC"
	}
	order := fmt.Sprintf(" ORDER BY %s%s, id%s", col, dir, dir)
	return slas.query(ctx, x, w.String()+order+page(f.Offset, f.Limit), w.args...)
}

func (x *txn) InsertSLAEvent(ctx context.Context, e *store.SLAEvent) error {
	err := x.tx.QueryRowContext(ctx, `INSERT INTO sla_events (`+slaEventInsertCols+`)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING seq`,
		e.SLAID, e.AppName, string(e.EventStatus), e.Lateness.Milliseconds(), x.d.tv(e.EventTime),
		string(e.SLAStatus), e.JobStatus, x.d.tv(e.ExpectedStart), x.d.tv(e.ExpectedEnd), e.ExpectedDuration,
		x.d.tv(e.ActualStart), x.d.tv(e.ActualEnd), e.ActualDuration).Scan(&e.Seq)
	return x.wrap(err, "inserting SLA event for %s", e.SLAID)
}

// slaEventInsertCols are the columns an insert gives, in the order of
// InsertSLAEvent's arguments; slaEventCols adds the sequence number first.
const (
	slaEventInsertCols = `sla_id, app_name, event_status, lateness_ms, event_time, sla_status, job_status,
expected_start, expected_end, expected_duration, actual_start, actual_end, actual_duration`
	slaEventCols = `seq, ` + slaEventInsertCols
)

func (x *txn) GetSLAEvent(ctx context.Context, seq int64) (store.SLAEvent, error) {
	evs, err := x.slaEvents(ctx, `WHERE seq = $1`, seq)
	if err != nil {
		return store.SLAEvent{}, err
	}
	if len(evs) == 0 {
		return store.SLAEvent{}, fmt.Errorf("getting SLA event %d: %w", seq, store.ErrNotFound)
	}
	return evs[0], nil
}

func (x *txn) ListSLAEvents(ctx context.Context, slaID string) ([]store.SLAEvent, error) {
	return x.slaEvents(ctx, `WHERE sla_id = $1 ORDER BY seq`, slaID)
}

func (x *txn) QuerySLAEvents(ctx context.Context, f store.SLAEventFilter) ([]store.SLAEvent, error) {
	w := &where{}
	w.in("sla_id", f.SLAIDs, false)
	w.in("app_name", f.AppNames, false)
	w.in("event_status", strs(f.Statuses), false)
	x.timeRange(w, "event_time", f.From, f.To)
	if f.AfterSeq > 0 {
		w.add("seq > %s", f.AfterSeq)
	}
	order := " ORDER BY seq"
	if f.Desc {
		order = " ORDER BY seq DESC"
	}
	return x.slaEvents(ctx, w.String()+order+page(0, f.Limit), w.args...)
}

// slaEvents runs a select of events with the given tail.
func (x *txn) slaEvents(ctx context.Context, tail string, args ...any) ([]store.SLAEvent, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT `+slaEventCols+` FROM sla_events `+tail, args...)
	if err != nil {
		return nil, x.mapErr(err, "listing SLA events")
	}
	defer rows.Close()
	var out []store.SLAEvent
	for rows.Next() {
		e, err := x.scanSLAEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing SLA events: %w", err)
	}
	return out, nil
}

func (x *txn) scanSLAEvent(rows *sql.Rows) (store.SLAEvent, error) {
	var e store.SLAEvent
	var ms int64
	if err := rows.Scan(&e.Seq, &e.SLAID, &e.AppName, (*string)(&e.EventStatus), &ms, x.d.tm(&e.EventTime),
		(*string)(&e.SLAStatus), &e.JobStatus, x.d.tm(&e.ExpectedStart), x.d.tm(&e.ExpectedEnd), &e.ExpectedDuration,
		x.d.tm(&e.ActualStart), x.d.tm(&e.ActualEnd), &e.ActualDuration); err != nil {
		return e, fmt.Errorf("listing SLA events: %w", err)
	}
	e.Lateness = time.Duration(ms) * time.Millisecond
	return e, nil
}
