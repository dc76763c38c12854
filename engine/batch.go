package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/gozie/gozie/store"
)

// BatchHandler does the work of several claimed triggers of one kind at
// once (see HandleBatch), typically finishing them all in one transaction
// with FinishBatch. When it returns, each run it left unfinished is
// settled on its own: a run that FinishBatch could not finish is failed
// with its own error (Claim.Err), or let go if its lease was lost; the
// others are deleted when the handler returned nil, and failed with its
// error otherwise, as a Handler's trigger would be.
type BatchHandler func(ctx context.Context, runs []*Claim) error

// batchKind is a kind registered with HandleBatch.
type batchKind struct {
	kind store.TriggerKind
	max  int
	h    BatchHandler
}

// HandleBatch registers h for triggers of kind. The engine claims up to max
// due triggers of the kind in one statement and hands them to one call of
// h, which takes a single worker slot. Every trigger keeps its own lease
// (renewed while h runs, by one goroutine for the whole batch), its own
// outcome and its own metrics; SAFEMODE's Hold applies to the kind as to
// any other, and opts as to Handle. It must be called before Start.
func (e *Engine) HandleBatch(kind store.TriggerKind, max int, h BatchHandler, opts ...Option) {
	e.checkNewKind(kind)
	if max < 1 {
		max = 1
	}
	e.batches[kind] = &batchKind{kind: kind, max: max, h: h}
	e.apply(kind, opts)
}

// runBatch runs one batch of claimed triggers and settles what the handler
// left unfinished.
func (e *Engine) runBatch(ctx context.Context, b *batchKind, ts []store.Trigger, claimedAt time.Time) {
	defer e.running.Done()
	defer e.release()
	log := e.cfg.Logger.With("trigger", b.kind, "batch", len(ts))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runs := make([]*Claim, len(ts))
	for i, t := range ts {
		runs[i] = &Claim{Trigger: t, Now: claimedAt, e: e}
	}
	e.cfg.Metrics.batch(b.kind, len(runs))

	renewDone := make(chan struct{})
	go func() {
		defer close(renewDone)
		e.renewBatch(ctx, runs, cancel, log)
	}()
	err := e.callBatch(ctx, b, runs, log)
	cancel()
	<-renewDone
	took := e.cfg.Clock.Now().Sub(claimedAt)
	for _, r := range runs {
		rerr := r.err
		if rerr == nil && !r.finished.Load() {
			rerr = err
		}
		e.cfg.Metrics.handled(b.kind, rerr, took)
	}
	e.settleBatch(context.WithoutCancel(ctx), runs, err, log)
}

// callBatch runs the batch handler, turning a panic into an error.
func (e *Engine) callBatch(ctx context.Context, b *batchKind, runs []*Claim, log *slog.Logger) (err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("batch trigger handler panicked", "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("handler panicked: %v", p)
		}
	}()
	return b.h(ctx, runs)
}

// renewBatch extends the leases of the batch's unfinished runs every
// Lease/3 until ctx ends. Each renewal is its own short transaction, so
// that it never holds one trigger's row while waiting for another's (the
// batch's own transaction locks them all). A run whose lease is lost is
// marked so; the handler's context is cancelled once every unfinished run
// has lost its lease.
func (e *Engine) renewBatch(ctx context.Context, runs []*Claim, cancel context.CancelFunc, log *slog.Logger) {
	for {
		timer := e.cfg.Clock.NewTimer(e.cfg.Lease / 3)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
		}
		until := e.cfg.Clock.Now().Add(e.cfg.Lease)
		alive, lost := 0, 0
		for _, r := range runs {
			if r.finished.Load() || r.lost.Load() {
				continue
			}
			err := e.cfg.Store.Tx(ctx, func(x store.Tx) error { return x.RenewLease(ctx, r.Trigger, until) })
			switch {
			case err == nil:
				alive++
			case errors.Is(err, store.ErrLeaseLost):
				if !r.finished.Load() {
					log.Warn("lease lost", "entity_id", r.Trigger.EntityID)
					r.lost.Store(true)
					lost++
				}
			case ctx.Err() != nil:
				return
			default:
				alive++
				log.Warn("renewing lease", "entity_id", r.Trigger.EntityID, "err", err)
			}
		}
		if alive == 0 && lost > 0 {
			log.Warn("every lease of the batch lost; cancelling handler")
			cancel()
			return
		}
	}
}

// settleBatch ends the claims of the runs the handler left unfinished, in
// one transaction, or one by one when that fails (a lost lease among them).
func (e *Engine) settleBatch(ctx context.Context, runs []*Claim, herr error, log *slog.Logger) {
	type outcome struct {
		r     *Claim
		err   error     // nil: released
		retry time.Time // for a failure
	}
	var todo []outcome
	for _, r := range runs {
		if r.finished.Load() {
			continue
		}
		err := r.err
		if err == nil {
			err = herr
		}
		switch {
		case err == nil:
			todo = append(todo, outcome{r: r})
		case errors.Is(err, store.ErrLeaseLost):
			log.Warn("lease lost while running; another engine has the trigger", "entity_id", r.Trigger.EntityID, "err", err)
		default:
			retry := e.cfg.Clock.Now().Add(e.cfg.Backoff(r.Trigger.Attempts))
			log.Warn("trigger handler failed; will retry", "entity_id", r.Trigger.EntityID, "err", err,
				"attempt", r.Trigger.Attempts, "retry_at", retry)
			todo = append(todo, outcome{r: r, err: err, retry: retry})
		}
	}
	end := func(x store.Tx, o outcome) error {
		if o.err == nil {
			return x.Release(ctx, o.r.Trigger, time.Time{})
		}
		return x.Fail(ctx, o.r.Trigger, o.retry, o.err.Error())
	}
	if len(todo) > 1 {
		err := e.cfg.Store.Tx(ctx, func(x store.Tx) error {
			var rel []store.TriggerRelease
			for _, o := range todo {
				if o.err == nil {
					rel = append(rel, store.TriggerRelease{Trigger: o.r.Trigger})
				} else if err := end(x, o); err != nil {
					return err
				}
			}
			return x.ReleaseTriggers(ctx, rel)
		})
		if err == nil {
			return
		}
	}
	for _, o := range todo {
		if err := e.cfg.Store.Tx(ctx, func(x store.Tx) error { return end(x, o) }); err != nil {
			e.logReleaseErr(log.With("entity_id", o.r.Trigger.EntityID), err)
		}
	}
}

// conflictRetries bounds how often FinishBatch runs one run's work again
// after store.ErrConflict.
const conflictRetries = 20

// FinishBatch is Claim.Finish for the runs of one batch: fn writes what the
// runs' work changes, for all of them at once, and every run is released
// in the same transaction, due again at next[i] for runs[i] (a nil slice or
// a zero time: deleted, unless scheduled meanwhile). Runs finished already
// are left out.
//
// If that transaction fails, the runs are finished one by one instead:
// each in its own transaction with fn(x, []*Claim{run}), run again while it
// fails with store.ErrConflict (at most 20 times). So a run whose rows
// conflict, whose lease was lost or whose work fails never sinks the
// others; fn must decide on the rows it reads itself, and work for any
// subset of the runs. A run that still cannot be finished keeps its error
// (Claim.Err) and is settled on its own when the batch handler returns.
// FinishBatch returns nil when every run was finished, and otherwise the
// errors of those that were not.
func FinishBatch(ctx context.Context, runs []*Claim, fn func(x store.Tx, runs []*Claim) (next []time.Time, err error)) error {
	var open []*Claim
	for _, r := range runs {
		if !r.finished.Load() {
			open = append(open, r)
		}
	}
	if len(open) == 0 {
		return nil
	}
	e := open[0].e
	if len(open) > 1 {
		err := finishTogether(ctx, e, open, fn)
		if err == nil {
			return nil
		}
		e.cfg.Logger.Info("finishing a batch in one transaction failed; finishing its triggers one by one",
			"trigger", open[0].Trigger.Kind, "batch", len(open), "err", err)
	}
	var errs []error
	for _, r := range open {
		var err error
		for try := 0; try < conflictRetries; try++ {
			if err = finishTogether(ctx, e, []*Claim{r}, fn); !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			r.err = err
			errs = append(errs, fmt.Errorf("%s/%s: %w", r.Trigger.Kind, r.Trigger.EntityID, err))
		}
	}
	return errors.Join(errs...)
}

// finishTogether runs fn for runs and releases them all in one transaction.
func finishTogether(ctx context.Context, e *Engine, runs []*Claim, fn func(store.Tx, []*Claim) ([]time.Time, error)) error {
	for _, r := range runs {
		if r.e != e {
			return errors.New("engine: a batch holds runs of two engines")
		}
	}
	err := e.cfg.Store.Tx(ctx, func(x store.Tx) error {
		next, err := fn(x, runs)
		if err != nil {
			return err
		}
		if next != nil && len(next) != len(runs) {
			return fmt.Errorf("engine: %d next due times for %d runs", len(next), len(runs))
		}
		rs := make([]store.TriggerRelease, len(runs))
		for i, r := range runs {
			rs[i].Trigger = r.Trigger
			if next != nil {
				rs[i].Next = next[i]
			}
		}
		return x.ReleaseTriggers(ctx, rs)
	})
	if err == nil {
		for _, r := range runs {
			r.finished.Store(true)
			r.err = nil
		}
	}
	return err
}

// Err returns why FinishBatch could not finish the run, or nil.
func (r *Claim) Err() error { return r.err }

// Finished reports whether the run's trigger has been released with its
// writes (Finish or FinishBatch).
func (r *Claim) Finished() bool { return r.finished.Load() }
