package sqlstore

import (
	"context"
	"time"
)

// LeaseOwners implements store.Triggers.
func (x *txn) LeaseOwners(ctx context.Context) ([]string, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT DISTINCT lease_owner FROM triggers WHERE lease_owner <> '' ORDER BY lease_owner`)
	if err != nil {
		return nil, x.mapErr(err, "listing lease owners")
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			return nil, x.mapErr(err, "listing lease owners")
		}
		out = append(out, o)
	}
	return out, x.wrap(rows.Err(), "listing lease owners")
}

// EndLeases implements store.Triggers: the leases expire a millisecond
// (the store's precision) before now and keep their owner and sequence, so
// a claim at now takes them over as it takes over any expired lease.
func (x *txn) EndLeases(ctx context.Context, owner string, now time.Time) (int, error) {
	res, err := x.tx.ExecContext(ctx, `UPDATE triggers SET lease_expires = $2 WHERE lease_owner = $1 AND lease_owner <> '' AND lease_expires > $2`,
		owner, x.d.tv(now.Add(-time.Millisecond)))
	if err != nil {
		return 0, x.mapErr(err, "ending the leases of %s", owner)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, x.mapErr(err, "ending the leases of %s", owner)
	}
	if n > 0 {
		x.markScheduled()
		return int(n), nil
	}
	return 0, nil
}
