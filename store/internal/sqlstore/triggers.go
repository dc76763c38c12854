package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gozie/gozie/store"
)

const triggerCols = "id, kind, entity_id, payload, due_at, attempts, last_error, lease_owner, lease_expires, lease_seq, created_time"

func (d *Dialect) triggerFields(t *store.Trigger) []any {
	return []any{&t.ID, &t.Kind, &t.EntityID, &t.Payload, d.tm(&t.DueAt), &t.Attempts, &t.LastError,
		&t.LeaseOwner, d.tm(&t.LeaseExpires), &t.LeaseSeq, d.tm(&t.CreatedTime)}
}

// Scheduling an existing trigger moves it earlier; while it is leased the
// request waits in requeue_at for the release.
const scheduleTrigger = `INSERT INTO triggers (kind, entity_id, payload, due_at, created_time)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (kind, entity_id) DO UPDATE SET
  payload = CASE WHEN excluded.payload <> '' THEN excluded.payload ELSE triggers.payload END,
  due_at = CASE WHEN triggers.lease_owner = '' AND excluded.due_at < triggers.due_at
                THEN excluded.due_at ELSE triggers.due_at END,
  requeue_at = CASE WHEN triggers.lease_owner = '' THEN triggers.requeue_at
                    WHEN triggers.requeue_at IS NULL OR excluded.due_at < triggers.requeue_at
                    THEN excluded.due_at ELSE triggers.requeue_at END,
  cancelled = CASE WHEN triggers.lease_owner = '' THEN triggers.cancelled ELSE FALSE END`

func (x *txn) Schedule(ctx context.Context, kind store.TriggerKind, entityID string, due time.Time, payload string) error {
	if kind == "" || entityID == "" {
		return fmt.Errorf("scheduling trigger: empty kind or entity id")
	}
	if due.IsZero() {
		return fmt.Errorf("scheduling trigger %s/%s: zero due time", kind, entityID)
	}
	now := time.Now()
	if _, err := x.tx.ExecContext(ctx, scheduleTrigger, string(kind), entityID, payload, x.d.tv(due), x.d.tv(now)); err != nil {
		return x.mapErr(err, "scheduling trigger %s/%s", kind, entityID)
	}
	x.markScheduled()
	return nil
}

func (x *txn) Unschedule(ctx context.Context, kind store.TriggerKind, entityID string) error {
	if _, err := x.tx.ExecContext(ctx, `DELETE FROM triggers WHERE kind = $1 AND entity_id = $2 AND lease_owner = ''`, string(kind), entityID); err != nil {
		return x.mapErr(err, "unscheduling trigger %s/%s", kind, entityID)
	}
	if _, err := x.tx.ExecContext(ctx, `UPDATE triggers SET cancelled = TRUE, requeue_at = NULL WHERE kind = $1 AND entity_id = $2`, string(kind), entityID); err != nil {
		return x.mapErr(err, "cancelling trigger %s/%s", kind, entityID)
	}
	return nil
}

// lockClaim reads the claim state of t's row, locking it, and checks that t
// still holds the lease.
func (x *txn) lockClaim(ctx context.Context, t store.Trigger) (requeue time.Time, cancelled bool, err error) {
	var seq int64
	var owner string
	q := `SELECT lease_seq, lease_owner, requeue_at, cancelled FROM triggers WHERE id = $1` + x.d.LockRow
	err = x.tx.QueryRowContext(ctx, q, t.ID).Scan(&seq, &owner, x.d.tm(&requeue), &cancelled)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (seq != t.LeaseSeq || owner != t.LeaseOwner)) {
		return time.Time{}, false, fmt.Errorf("trigger %s/%s: %w", t.Kind, t.EntityID, store.ErrLeaseLost)
	}
	if err != nil {
		return time.Time{}, false, x.mapErr(err, "locking trigger %s/%s", t.Kind, t.EntityID)
	}
	return requeue, cancelled, nil
}

func earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero():
		return a
	case b.Before(a):
		return b
	}
	return a
}

func (x *txn) Release(ctx context.Context, t store.Trigger, next time.Time) error {
	// Two guarded single-row statements instead of a locked read: the row's
	// own lock makes each see any Schedule that committed before it.
	res, err := x.tx.ExecContext(ctx, `DELETE FROM triggers WHERE id = $1 AND lease_seq = $2 AND lease_owner = $3
AND requeue_at IS NULL AND ($4 OR cancelled)`, t.ID, t.LeaseSeq, t.LeaseOwner, next.IsZero())
	if err != nil {
		return x.mapErr(err, "releasing trigger %s/%s", t.Kind, t.EntityID)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	res, err = x.tx.ExecContext(ctx, `UPDATE triggers SET
  due_at = CASE WHEN requeue_at IS NULL THEN $4 WHEN $5 OR requeue_at < $4 THEN requeue_at ELSE $4 END,
  attempts = 0, last_error = '', lease_owner = '', lease_expires = NULL, requeue_at = NULL, cancelled = FALSE
WHERE id = $1 AND lease_seq = $2 AND lease_owner = $3`, t.ID, t.LeaseSeq, t.LeaseOwner, x.d.tv(next), next.IsZero())
	if err != nil {
		return x.mapErr(err, "releasing trigger %s/%s", t.Kind, t.EntityID)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("trigger %s/%s: %w", t.Kind, t.EntityID, store.ErrLeaseLost)
	}
	x.markScheduled()
	return nil
}

func (x *txn) Fail(ctx context.Context, t store.Trigger, retryAt time.Time, reason string) error {
	requeue, cancelled, err := x.lockClaim(ctx, t)
	if err != nil {
		return err
	}
	if cancelled && requeue.IsZero() {
		_, err = x.tx.ExecContext(ctx, `DELETE FROM triggers WHERE id = $1`, t.ID)
		return x.wrap(err, "deleting trigger %s/%s", t.Kind, t.EntityID)
	}
	if len(reason) > 4000 {
		reason = reason[:4000]
	}
	due := earliest(retryAt, requeue)
	_, err = x.tx.ExecContext(ctx, `UPDATE triggers SET due_at = $2, last_error = $3,
lease_owner = '', lease_expires = NULL, requeue_at = NULL, cancelled = FALSE WHERE id = $1`, t.ID, x.d.tv(due), reason)
	if err != nil {
		return x.mapErr(err, "failing trigger %s/%s", t.Kind, t.EntityID)
	}
	x.markScheduled()
	return nil
}

func (x *txn) RenewLease(ctx context.Context, t store.Trigger, until time.Time) error {
	res, err := x.tx.ExecContext(ctx, `UPDATE triggers SET lease_expires = $3 WHERE id = $1 AND lease_seq = $2 AND lease_owner = $4`,
		t.ID, t.LeaseSeq, x.d.tv(until), t.LeaseOwner)
	if err != nil {
		return x.mapErr(err, "renewing lease of trigger %s/%s", t.Kind, t.EntityID)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("trigger %s/%s: %w", t.Kind, t.EntityID, store.ErrLeaseLost)
	}
	return nil
}

func (x *txn) GetTrigger(ctx context.Context, kind store.TriggerKind, entityID string) (store.Trigger, error) {
	var t store.Trigger
	err := x.tx.QueryRowContext(ctx, `SELECT `+triggerCols+` FROM triggers WHERE kind = $1 AND entity_id = $2`, string(kind), entityID).
		Scan(x.d.triggerFields(&t)...)
	if err != nil {
		return t, x.mapErr(err, "getting trigger %s/%s", kind, entityID)
	}
	return t, nil
}

func (x *txn) NextDue(ctx context.Context) (time.Time, bool, error) {
	var due, lease time.Time
	err := x.tx.QueryRowContext(ctx, `SELECT
  (SELECT MIN(due_at) FROM triggers WHERE lease_owner = ''),
  (SELECT MIN(lease_expires) FROM triggers WHERE lease_owner <> '')`).Scan(x.d.tm(&due), x.d.tm(&lease))
	if err != nil {
		return time.Time{}, false, x.mapErr(err, "finding next due trigger")
	}
	next := earliest(due, lease)
	return next, !next.IsZero(), nil
}

func (x *txn) ListTriggers(ctx context.Context, leased bool, limit int) ([]store.Trigger, error) {
	q := `SELECT ` + triggerCols + ` FROM triggers WHERE lease_owner = '' ORDER BY due_at, id LIMIT $1`
	if leased {
		q = `SELECT ` + triggerCols + ` FROM triggers WHERE lease_owner <> '' ORDER BY lease_expires, id LIMIT $1`
	}
	rows, err := x.tx.QueryContext(ctx, q, limit)
	if err != nil {
		return nil, x.mapErr(err, "listing triggers")
	}
	defer rows.Close()
	var out []store.Trigger
	for rows.Next() {
		var t store.Trigger
		if err := rows.Scan(x.d.triggerFields(&t)...); err != nil {
			return nil, x.mapErr(err, "listing triggers")
		}
		out = append(out, t)
	}
	return out, x.wrap(rows.Err(), "listing triggers")
}

func (x *txn) CountTriggers(ctx context.Context) (int, error) {
	return x.count(ctx, "triggers", &where{})
}

func (x *txn) wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return x.mapErr(err, format, args...)
}

// ClaimTriggers implements store.Store: one statement leases the oldest due
// triggers that nobody holds, or whose holder's lease has expired, and
// counts the attempt.
func (s *DB) ClaimTriggers(ctx context.Context, req store.ClaimRequest) ([]store.Trigger, error) {
	if req.Limit <= 0 {
		req.Limit = 1
	}
	w := &where{}
	owner := w.arg(req.Owner)
	until := w.arg(s.d.tv(req.LeaseUntil))
	now := w.arg(s.d.tv(req.Now))
	kinds := ""
	if len(req.Kinds) > 0 {
		kw := &where{args: w.args}
		col := s.d.ClaimKindColumn
		if col == "" {
			col = "kind"
		}
		names := make([]string, len(req.Kinds))
		for i, k := range req.Kinds {
			names[i] = string(k)
		}
		kw.in(col, names, false)
		w.args = kw.args
		kinds = " AND " + kw.conds[0]
	}
	// Two index-friendly candidate sets, each matching one partial index:
	// triggers whose holder's lease expired (taken first, so a busy system
	// never starves them) and unleased due triggers.
	q := fmt.Sprintf(`WITH expired AS (
  SELECT id FROM triggers WHERE lease_owner <> '' AND lease_expires < %[3]s AND due_at <= %[3]s%[4]s
  ORDER BY lease_expires, id LIMIT %[5]d%[6]s),
due AS (
  SELECT id FROM triggers WHERE lease_owner = '' AND due_at <= %[3]s%[4]s
  ORDER BY due_at, id LIMIT %[5]d%[6]s)
UPDATE triggers SET lease_owner = %[1]s, lease_expires = %[2]s, lease_seq = lease_seq + 1, attempts = attempts + 1
WHERE %[8]s
RETURNING %[7]s`, owner, until, now, kinds, req.Limit, s.d.SkipLocked, triggerCols,
		fmt.Sprintf(cmp.Or(s.d.IDAmong, "id IN (%s)"), fmt.Sprintf(
			"SELECT id FROM (SELECT id FROM expired UNION ALL SELECT id FROM due) AS c LIMIT %d", req.Limit)))
	// One statement, committed on its own: no BEGIN/COMMIT round trips.
	rows, err := s.stmts.QueryContext(ctx, q, w.args...)
	if err != nil {
		return nil, fmt.Errorf("claiming triggers: %w", err)
	}
	defer rows.Close()
	var out []store.Trigger
	for rows.Next() {
		var t store.Trigger
		if err := rows.Scan(s.d.triggerFields(&t)...); err != nil {
			return nil, fmt.Errorf("claiming triggers: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claiming triggers: %w", err)
	}
	sortTriggers(out)
	return out, nil
}

// sortTriggers orders claimed triggers by due time (RETURNING has no order).
func sortTriggers(ts []store.Trigger) {
	slices.SortFunc(ts, func(a, b store.Trigger) int {
		if c := a.DueAt.Compare(b.DueAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
