package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/gozie/gozie/store"
)

// BusyTriggers implements store.Triggers in one statement, so that no
// claim can slip between two looks; each part uses its partial index on
// the triggers table (leased, and unleased by due time).
func (x *txn) BusyTriggers(ctx context.Context, now time.Time, except []store.TriggerKind) (bool, error) {
	w := &where{}
	w.add("lease_owner = ''")
	w.add("due_at <= %s", x.d.tv(now))
	w.in("kind", strs(except), true)
	q := `SELECT EXISTS (SELECT 1 FROM triggers WHERE lease_owner <> '') OR EXISTS (SELECT 1 FROM triggers ` + w.String() + `)`
	var busy bool
	if err := x.tx.QueryRowContext(ctx, q, w.args...).Scan(&busy); err != nil {
		return false, x.mapErr(err, "looking for busy triggers")
	}
	return busy, nil
}

// FailedTriggers implements store.Triggers.
func (x *txn) FailedTriggers(ctx context.Context, limit int) ([]store.Trigger, error) {
	q := fmt.Sprintf(`SELECT %s FROM triggers WHERE last_error <> '' ORDER BY due_at, id LIMIT $1`, triggerCols)
	rows, err := x.tx.QueryContext(ctx, q, limit)
	if err != nil {
		return nil, x.mapErr(err, "listing failed triggers")
	}
	defer rows.Close()
	var out []store.Trigger
	for rows.Next() {
		var t store.Trigger
		if err := rows.Scan(x.d.triggerFields(&t)...); err != nil {
			return nil, x.mapErr(err, "listing failed triggers")
		}
		out = append(out, t)
	}
	return out, x.wrap(rows.Err(), "listing failed triggers")
}
