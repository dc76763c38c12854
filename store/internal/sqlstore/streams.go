package sqlstore

import (
	"context"
	"fmt"
	"slices"
)

// GetStreamPosition returns the position recorded under name.
func (x *txn) GetStreamPosition(ctx context.Context, name string) (int64, error) {
	var pos int64
	err := x.tx.QueryRowContext(ctx, `SELECT position FROM stream_positions WHERE name = $1`, name).Scan(&pos)
	if err != nil {
		return 0, x.mapErr(err, "reading the position of stream %s", name)
	}
	return pos, nil
}

// SetStreamPosition records pos under name, replacing what was there.
func (x *txn) SetStreamPosition(ctx context.Context, name string, pos int64) error {
	_, err := x.tx.ExecContext(ctx, `INSERT INTO stream_positions (name, position) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET position = excluded.position`, name, pos)
	if err != nil {
		return x.mapErr(err, "recording the position of stream %s", name)
	}
	return nil
}

// waitedURIsChunk bounds the URIs of one ListWaitedURIs statement (SQLite
// takes at most 32,766 parameters).
const waitedURIsChunk = 500

// ListWaitedURIs returns those of uris that coord_waits holds, each once.
func (x *txn) ListWaitedURIs(ctx context.Context, uris []string) ([]string, error) {
	uris = slices.Compact(slices.Sorted(slices.Values(uris)))
	var out []string
	for part := range slices.Chunk(uris, waitedURIsChunk) {
		var args []any
		rows, err := x.tx.QueryContext(ctx, `SELECT DISTINCT uri FROM coord_waits WHERE uri IN (`+inList(&args, part)+`)`, args...)
		if err != nil {
			return nil, x.mapErr(err, "finding waited dataset URIs")
		}
		for rows.Next() {
			var u string
			if err := rows.Scan(&u); err != nil {
				rows.Close()
				return nil, fmt.Errorf("finding waited dataset URIs: %w", err)
			}
			out = append(out, u)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("finding waited dataset URIs: %w", err)
		}
	}
	return out, nil
}
