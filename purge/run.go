package purge

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/gozie/gozie/store"
)

// pass is one kind of the purge, run in this order (Oozie's): parentless
// workflows, old actions of coordinators, coordinators, bundles.
type pass int

const (
	passWorkflows pass = iota
	passCoordActions
	passCoords
	passBundles
	passCount
)

func (ps pass) String() string {
	return [...]string{"workflows", "coordinator actions", "coordinators", "bundles"}[ps]
}

// batch runs one batch of the pass in x.
func (ps pass) batch(ctx context.Context, x store.Tx, b store.PurgeBatch) (store.PurgeResult, error) {
	switch ps {
	case passWorkflows:
		return x.PurgeWorkflows(ctx, b)
	case passCoordActions:
		return x.PurgeCoordActions(ctx, b)
	case passCoords:
		return x.PurgeCoordJobs(ctx, b)
	case passBundles:
		return x.PurgeBundleJobs(ctx, b)
	}
	return store.PurgeResult{}, fmt.Errorf("no purge pass %d", ps)
}

// position is where a purge stands: the pass and its store cursor. It is
// kept in the trigger's payload between runs as "<pass> <cursor>".
type position struct {
	pass  pass
	after string
}

func (p position) String() string { return strconv.Itoa(int(p.pass)) + " " + p.after }

// parsePosition reads a payload; anything else than a position a run wrote
// starts a purge from the beginning.
func parsePosition(s string) position {
	n, after, _ := strings.Cut(s, " ")
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 || i >= int(passCount) {
		return position{}
	}
	return position{pass: pass(i), after: after}
}

// conflictRetries bounds the retries of one batch that lost to a
// concurrent writer (a deadlock PostgreSQL broke, say).
const conflictRetries = 5

// run does batches from at until every pass is done, or until maxBatches
// (when positive) are done; it returns what it removed and where it stopped.
// Every batch is its own transaction.
func (p *Purger) run(ctx context.Context, pl plan, at position, maxBatches int) (Counts, position, bool, error) {
	var c Counts
	for batches := 0; at.pass < passCount; {
		if at.pass == passCoordActions && !pl.oldActions {
			at = position{pass: at.pass + 1}
			continue
		}
		if maxBatches > 0 && batches >= maxBatches {
			return c, at, false, nil
		}
		if err := ctx.Err(); err != nil {
			return c, at, false, err
		}
		r, err := p.batch(ctx, pl, at)
		if err != nil {
			return c, at, false, fmt.Errorf("%s: %w", at.pass, err)
		}
		batches++
		c.add(r)
		p.m.removed(r)
		if r.Next == "" {
			at = position{pass: at.pass + 1}
		} else {
			at.after = r.Next
		}
		// Let the goroutines waiting for the database have it first.
		runtime.Gosched()
	}
	return c, position{}, true, nil
}

// batch runs one batch in its own transaction, again when it lost to a
// concurrent writer.
func (p *Purger) batch(ctx context.Context, pl plan, at position) (store.PurgeResult, error) {
	b := store.PurgeBatch{Cutoffs: pl.cuts, Limit: pl.limit, After: at.after}
	var r store.PurgeResult
	var err error
	for try := 0; try < conflictRetries; try++ {
		err = p.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
			r, err = at.pass.batch(ctx, x, b)
			return err
		})
		if !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
			break
		}
	}
	if err == nil {
		p.m.batches.Inc()
	}
	return r, err
}
