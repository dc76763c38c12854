package coordrun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
)

// handleInputCheck is handleInputCheckBatch for one trigger, for engines
// that register the kind with Handle.
func (r *Runner) handleInputCheck(ctx context.Context, run *engine.Claim) error {
	return r.handleInputCheckBatch(ctx, []*engine.Claim{run})
}

// The test hook's points of an input check batch: the handler called, its
// read transaction, its decisions taken (outside any transaction), and its
// write transaction (each attempt).
const (
	hookInputCheckBatch   = "input-check:batch"
	hookInputCheckRead    = "input-check:read"
	hookInputCheckDecided = "input-check:decided"
	hookInputCheckTx      = "input-check:tx"
)

// handleInputCheckBatch checks WAITING actions' dependencies
// (coord-input-check, one trigger per action, claimed up to
// inputCheckBatch at a time, of any jobs). The actions and their jobs are
// read in one transaction without locks; the dependencies of them all are
// looked up outside any transaction, each job's as its user, with one
// listing per directory that several of them share (lookUpAll); each
// decision is the coordinator core's CheckInputs, on the action document
// parsed once and kept (docCache). The outcomes are written in one
// transaction with every trigger's release, the jobs of the actions that
// change locked together; an action that did not change (still waiting on
// the same data) is not written at all. An action changed since it was read
// is checked again at once on fresh rows (applyChecks). If the batch's
// transaction fails, engine.FinishBatch writes the checks one by one, so
// one action never holds the others back.
//
// A waiting action is checked again after checkInterval, never after its
// timeout deadline (nextCheck); at once when a notification names one of
// its URIs (Notify).
func (r *Runner) handleInputCheckBatch(ctx context.Context, runs []*engine.Claim) error {
	r.hook(hookInputCheckBatch)
	now := r.now()
	cs, err := r.readChecks(ctx, runs, now)
	if err != nil {
		return err
	}
	r.lookUpChecks(ctx, cs)
	for _, c := range cs {
		if c.checked {
			r.decideCheck(c, now)
		}
	}
	r.hook(hookInputCheckDecided)
	open, byRun, runErr := checksOf(cs)
	err = engine.FinishBatch(ctx, open, func(x store.Tx, part []*engine.Claim) ([]time.Time, error) {
		r.hook(hookInputCheckTx)
		return r.applyChecks(ctx, x, part, byRun, now)
	})
	for _, c := range cs {
		if c.checked && c.run.Finished() && c.res.Status != store.CoordActionWaiting {
			r.log.Info("coordinator action checked", "action_id", c.act.ID, "status", c.res.Status, "reason", c.res.Reason)
		}
	}
	return errors.Join(runErr, err)
}

// refusedScheme reports whether an input check met a dataset on a scheme
// the server's policy refuses (*hadoop.SchemeError, E0904): no time fixes
// that. A scheme the policy allows but no filesystem implements
// (*hadoop.NoFileSystemError, Hadoop's "No FileSystem for scheme") is not
// one: like any filesystem failure it is shown as the reason the dependency
// is missing (E1021 on the waiting action) while the action waits for its
// timeout, as Oozie's input check does.
func refusedScheme(err error) bool {
	var refused *hadoop.SchemeError
	return errors.As(err, &refused)
}
