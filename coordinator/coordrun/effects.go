package coordrun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// updateAction writes an action whose status moved from `from`, guarded by
// its version and that status, and schedules in the same transaction the
// work the move makes due.
func (r *Runner) updateAction(ctx context.Context, x store.Tx, job *store.CoordJob, from store.CoordActionStatus, a *store.CoordAction) error {
	return r.updateActionFrom(ctx, x, job, from, a, move{hadWaits: true})
}

// move says what an action leaving WAITING leaves behind.
type move struct {
	// hadWaits: the action may have URIs in the waits index.
	hadWaits bool
	// byCheck: the action's own input check moves it, and its trigger goes
	// with the check's release.
	byCheck bool
}

// updateActionFrom is updateAction for a move out of WAITING whose leftovers
// are known.
func (r *Runner) updateActionFrom(ctx context.Context, x store.Tx, job *store.CoordJob, from store.CoordActionStatus, a *store.CoordAction, m move) error {
	if err := x.UpdateCoordAction(ctx, a, from); err != nil {
		return err
	}
	return r.actionMoved(ctx, x, job, from, a.Status, a.ID, m)
}

// actionMoved schedules what an action's move from one status to another
// makes due:
//   - leaving WAITING: its waits and input check go;
//   - leaving the queue (WAITING or READY, see coordinator.Queued) for a
//     status out of it: materialization may continue if the throttle held it;
//   - leaving WAITING (an action about to be READY holds its place in the
//     execution order, see withImminent) or becoming READY while a slot may
//     be free (mayStart), or freeing a concurrency slot: the ready/start
//     step, unless the job is KILLED or FAILED (it starts nothing);
//   - any move that the job's status depends on: the roll-up.
//
// The caller holds the job's lock.
func (r *Runner) actionMoved(ctx context.Context, x store.Tx, job *store.CoordJob, from, to store.CoordActionStatus, actionID string, m move) error {
	if from == to {
		return nil
	}
	now := r.now()
	if from == store.CoordActionWaiting {
		if m.hadWaits {
			if err := x.SetCoordWaits(ctx, actionID, nil); err != nil {
				return err
			}
		}
		if !m.byCheck {
			if err := x.Unschedule(ctx, KindInputCheck, actionID); err != nil {
				return err
			}
		}
	}
	if coordinator.Queued(from) && !coordinator.Queued(to) {
		if err := r.wakeThrottled(ctx, x, job); err != nil {
			return err
		}
	}
	freed := occupiesSlot(from) && !occupiesSlot(to)
	stopped := job.Status == store.JobKilled || job.Status == store.JobFailed // starts nothing (StartReady)
	if !stopped && (freed || from == store.CoordActionWaiting || to == store.CoordActionReady) {
		start := freed
		if !start {
			var err error
			if start, err = mayStart(ctx, x, job); err != nil {
				return err
			}
		}
		if start {
			if err := x.Schedule(ctx, KindStart, job.ID, now, ""); err != nil {
				return err
			}
		}
	}
	if to != store.CoordActionReady && to != store.CoordActionSubmitted {
		return r.scheduleStatus(ctx, x, job.ID)
	}
	return nil
}

// mayStart reports whether the ready/start step could start or skip
// something now: not when every concurrency slot of a FIFO or LIFO job is
// taken, since the step then does nothing and the slot's release schedules
// it again (as do a concurrency change, a resume and an unpause). A job that
// queues many READY actions behind a running one so costs no step per
// action. The caller holds the job's lock.
func mayStart(ctx context.Context, x store.Tx, job *store.CoordJob) (bool, error) {
	exec := coordinator.Execution(job.ExecutionOrder)
	if job.Concurrency < 0 || (exec != coordinator.FIFO && exec != coordinator.LIFO && exec != "") {
		return true, nil
	}
	active, err := x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: job.ID,
		Statuses: []store.CoordActionStatus{store.CoordActionSubmitted, store.CoordActionRunning}})
	return active < job.Concurrency, err
}

// wakeThrottled schedules the materialization of a job that its throttle
// held back. Such a job has no materialization trigger (see
// handleMaterialize); since the materialization and this caller both hold
// the job's lock, the check cannot miss one being dropped.
func (r *Runner) wakeThrottled(ctx context.Context, x store.Tx, job *store.CoordJob) error {
	if job.DoneMaterialization || !materializable(job.Status) {
		return nil
	}
	_, err := x.GetTrigger(ctx, KindMaterialize, job.ID)
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return x.Schedule(ctx, KindMaterialize, job.ID, r.now(), "")
}

// scheduleStatus makes the job's roll-up due now.
func (r *Runner) scheduleStatus(ctx context.Context, x store.Tx, jobID string) error {
	return x.Schedule(ctx, KindStatus, jobID, r.now(), "")
}

// scheduleTimeout makes the job's timeout check due at the earliest
// deadline of the given waiting actions.
func scheduleTimeout(ctx context.Context, x store.Tx, jobID string, actions []store.CoordAction) error {
	var first time.Time
	for _, a := range actions {
		if d, ok := timeoutDeadline(a); ok && (first.IsZero() || d.Before(first)) {
			first = d
		}
	}
	if first.IsZero() {
		return nil
	}
	return x.Schedule(ctx, KindTimeout, jobID, first, "")
}
