package coordrun

import (
	"context"
	"fmt"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Notify is the push path for datasets (PUT /oozie/v2/dataset?action=notify&uri=…,
// gozie's addition to Oozie's API): every action waiting on uri is checked
// at once instead of at its next poll. uri may name the done-flag file
// itself or the instance directory; a trailing slash does not matter. It
// returns how many actions were woken; an unknown URI wakes none and is not
// an error. The waits are looked up in one index (the store's coord_waits),
// never by scanning actions.
func (r *Runner) Notify(ctx context.Context, uri string) (int, error) {
	u := normalizeURI(uri)
	if u == "" {
		return 0, oozieerr.New(oozieerr.E0302, "Invalid parameter [uri]: empty")
	}
	var n int
	err := r.tx(ctx, func(x store.Tx) error {
		ids, err := x.ListCoordWaiters(ctx, u)
		if err != nil {
			return err
		}
		now := r.now()
		for _, id := range ids {
			if err := x.Schedule(ctx, KindInputCheck, id, now, ""); err != nil {
				return err
			}
		}
		n = len(ids)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("notifying dataset %s: %w", uri, err)
	}
	r.log.Info("dataset notification", "uri", u, "actions", n)
	return n, nil
}
