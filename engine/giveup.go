package engine

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gozie/gozie/store"
)

// GiveUp ends the entity of a trigger the engine gave up on, in the transaction that
// removes the trigger: it marks the job or action failed with cause, so that the failure is
// visible where the entity is, and schedules what that makes due. It must not do the work
// that kept failing.
type GiveUp func(ctx context.Context, x store.Tx, t store.Trigger, cause string) error

// HandleGiveUp registers g for triggers of kind (see Config.MaxAttempts). It must be called
// before Start. A kind without one is given up only when it keeps taking its server down
// (see exhausted), and then only removed, and logged.
func (e *Engine) HandleGiveUp(kind store.TriggerKind, g GiveUp) {
	if _, ok := e.giveUps[kind]; ok {
		panic(fmt.Sprintf("engine: two give-up handlers for kind %q", kind))
	}
	e.giveUps[kind] = g
}

// exhausted reports whether a claimed trigger has used up its attempts: it was claimed
// MaxAttempts times before without succeeding. A kind with a GiveUp handler is then given up
// whatever made the attempts fail (a poison trigger that crashes the server counts as well
// as one whose handler returns errors). A kind without one is work on the outside world (a
// YARN report, the batched poll, a purge pass) whose errors are outages that it rides out,
// retrying with backoff for as long as they last, as DESIGN's reliability rules ask; it is
// given up only when its last attempt recorded no error, that is when its server died
// holding it, so that a trigger that takes the server down never crash-loops it.
func (e *Engine) exhausted(t store.Trigger) bool {
	if t.Attempts <= e.cfg.MaxAttempts {
		return false
	}
	if _, ok := e.giveUps[t.Kind]; ok {
		return true
	}
	return t.LastError == ""
}

// suspect reports whether a claimed trigger failed before, or was held by a server that
// died: a batch kind runs it alone, so that a trigger that takes its server down never
// makes the others of its batch use up their attempts with it.
func suspect(t store.Trigger) bool { return t.Attempts > 1 }

// giveUp ends a trigger that used up its attempts: the kind's GiveUp handler, if any, ends
// its entity with a visible error, and the trigger is removed, in one transaction. If that
// transaction fails, the trigger is removed alone, so that giving up never loops either.
func (e *Engine) giveUp(ctx context.Context, t store.Trigger, log *slog.Logger) {
	last := t.LastError
	if last == "" {
		last = "the server stopped while running it"
	}
	cause := fmt.Sprintf("gozie gave up on %s after %d attempts; the last one: %s", t.Kind, t.Attempts-1, last)
	log.Error("giving up on a trigger that keeps failing", "attempts", t.Attempts-1, "last_error", t.LastError)
	e.cfg.Metrics.gaveUp(t.Kind)
	remove := func(x store.Tx) error {
		if err := x.Unschedule(ctx, t.Kind, t.EntityID); err != nil {
			return err
		}
		return x.Release(ctx, t, time.Time{})
	}
	g := e.giveUps[t.Kind]
	err := e.cfg.Store.Tx(ctx, func(x store.Tx) error {
		if g != nil {
			if err := g(ctx, x, t, cause); err != nil {
				return err
			}
		}
		return remove(x)
	})
	if err == nil {
		return
	}
	log.Error("ending the entity of a trigger given up on failed; removing the trigger alone", "err", err)
	if err := e.cfg.Store.Tx(ctx, remove); err != nil {
		e.logReleaseErr(log, err)
	}
}
