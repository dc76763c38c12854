package coordrun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Commands on a coordinator job. Each is one transaction (retried when a
// concurrent change wins the compare-and-set); the work it makes due — the
// actions' workflow commands, input checks, materialization, the roll-up —
// is scheduled as triggers in that same transaction, so a crash right after
// the commit loses none of it. As in Oozie, suspend, resume and kill of a job
// in the wrong state do nothing and are not errors.

// Suspend suspends a job: PREP becomes PREPSUSPENDED, RUNNING and PAUSED
// become SUSPENDED (or SUSPENDEDWITHERROR), and the workflows of its running
// actions are suspended, their actions with them. Nothing is materialized,
// checked or started until Resume.
func (r *Runner) Suspend(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error { return r.SuspendTx(ctx, x, id) })
}

// SuspendTx is Suspend inside the caller's transaction x, for a bundle that suspends its
// coordinators together with itself. A conflict (store.ErrConflict) fails x; the caller
// retries its whole transaction.
func (r *Runner) SuspendTx(ctx context.Context, x store.Tx, id string) error {
	job, err := lockJob(ctx, x, id)
	if err != nil {
		return err
	}
	next, ok := job.Status.OnSuspend()
	if !ok {
		r.log.Info("coordinator suspend had no effect", "coord_job_id", id, "status", job.Status)
		return nil
	}
	before := job.Status
	now := r.now()
	job.Status, job.SuspendedTime, job.LastModified = hide(next, r.set.HideErrorStates), now, now
	if err := x.UpdateCoordJob(ctx, &job, before); err != nil {
		return err
	}
	if err := r.commandWorkflows(ctx, x, id, store.CoordActionRunning, store.CoordActionSubmitted); err != nil {
		return err
	}
	if err := r.scheduleStatus(ctx, x, id); err != nil {
		return err
	}
	return r.jobChanged(ctx, x, before, job)
}

// Resume resumes a suspended job: SUSPENDED becomes RUNNING, PREPSUSPENDED
// PREP; suspended workflows are resumed, waiting actions are checked at once,
// and materialization catches up with what the suspension held back.
func (r *Runner) Resume(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error { return r.ResumeTx(ctx, x, id) })
}

// ResumeTx is Resume inside the caller's transaction x (see SuspendTx).
func (r *Runner) ResumeTx(ctx context.Context, x store.Tx, id string) error {
	job, err := lockJob(ctx, x, id)
	if err != nil {
		return err
	}
	next, ok := job.Status.OnResume()
	if !ok {
		r.log.Info("coordinator resume had no effect", "coord_job_id", id, "status", job.Status)
		return nil
	}
	before := job.Status
	now := r.now()
	job.Status, job.LastModified = hide(next, r.set.HideErrorStates), now
	job.SuspendedTime = time.Time{}
	if err := x.UpdateCoordJob(ctx, &job, before); err != nil {
		return err
	}
	if err := r.commandWorkflows(ctx, x, id, store.CoordActionSuspended, store.CoordActionSubmitted); err != nil {
		return err
	}
	waiting, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: id,
		Statuses: []store.CoordActionStatus{store.CoordActionWaiting}})
	if err != nil {
		return err
	}
	for _, a := range waiting {
		if err := x.Schedule(ctx, KindInputCheck, a.ID, now, ""); err != nil {
			return err
		}
	}
	if err := scheduleTimeout(ctx, x, id, waiting); err != nil {
		return err
	}
	for _, kind := range []store.TriggerKind{KindMaterialize, KindStart, KindStatus} {
		if err := x.Schedule(ctx, kind, id, now, ""); err != nil {
			return err
		}
	}
	return r.jobChanged(ctx, x, before, job)
}

// Kill kills a job: it becomes KILLED and materializes nothing more, every
// action that has not finished is KILLED, and the workflows of those that
// run are killed. Killing a finished job does nothing (Oozie's E1020 is only
// logged). The command's transaction kills the first killBatchSize actions; a
// job with more has the rest killed by coord-kill (see handleKill), a batch
// per transaction, so that neither the command nor any one transaction
// grows with the job.
func (r *Runner) Kill(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error { return r.KillTx(ctx, x, id) })
}

// KillTx is Kill inside the caller's transaction x (see SuspendTx).
func (r *Runner) KillTx(ctx context.Context, x store.Tx, id string) error {
	job, err := lockJob(ctx, x, id)
	if err != nil {
		return err
	}
	if job.Status.Terminal() {
		r.log.Info("coordinator kill had no effect: the job has finished", "coord_job_id", id, "status", job.Status)
		return nil
	}
	before := job.Status
	now := r.now()
	job.Status, job.DoneMaterialization, job.LastModified = store.JobKilled, true, now
	if err := x.UpdateCoordJob(ctx, &job, before); err != nil {
		return err
	}
	more, err := r.killBatch(ctx, x, &job)
	if err != nil {
		return err
	}
	if more {
		if err := x.Schedule(ctx, KindKill, id, now, ""); err != nil {
			return err
		}
	}
	for _, kind := range []store.TriggerKind{KindMaterialize, KindTimeout, KindStart} {
		if err := x.Unschedule(ctx, kind, id); err != nil {
			return err
		}
	}
	if err := r.scheduleStatus(ctx, x, id); err != nil {
		return err
	}
	return r.jobChanged(ctx, x, before, job)
}

// killBatchSize is how many actions one transaction of a kill kills: it bounds
// the rows (action XML included) a kill holds in memory and the length of
// its transactions, whatever the size of the job.
const killBatchSize = 100

// hookKillBatch is the test hook's point after each batch of a kill, inside
// its transaction.
const hookKillBatch = "kill:batch"

// killBatch kills up to killBatchSize of the job's unfinished actions, oldest
// first, and reports whether some may be left. The caller holds the job's
// lock.
func (r *Runner) killBatch(ctx context.Context, x store.Tx, job *store.CoordJob) (more bool, err error) {
	live, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: job.ID, Statuses: liveStatuses,
		Limit: killBatchSize})
	if err != nil {
		return false, err
	}
	if _, err := r.killActions(ctx, x, job, live); err != nil {
		return false, err
	}
	r.hook(hookKillBatch)
	return len(live) == killBatchSize, nil
}

// handleKill kills the next batch of a KILLED job's unfinished actions
// (coord-kill, scheduled by Kill for a job with more than killBatchSize of
// them), and stays due until none is left. A job that is no longer KILLED
// (a status change to RUNNING) keeps the actions it has.
func (r *Runner) handleKill(ctx context.Context, run *engine.Claim) error {
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		job, err := lockJob(ctx, x, run.Trigger.EntityID)
		if ErrorCode(err) == oozieerr.E0604 {
			return nil
		}
		if err != nil || job.Status != store.JobKilled {
			return err
		}
		more, err := r.killBatch(ctx, x, &job)
		if err != nil || !more {
			return err
		}
		return reschedule(ctx, x, run, r.now())
	})
}

// liveStatuses are the statuses of actions that have not finished.
var liveStatuses = []store.CoordActionStatus{store.CoordActionWaiting, store.CoordActionReady,
	store.CoordActionSubmitted, store.CoordActionRunning, store.CoordActionSuspended}

// killActions kills actions that have not finished; those with a workflow
// get it killed. It returns the killed actions.
func (r *Runner) killActions(ctx context.Context, x store.Tx, job *store.CoordJob, actions []store.CoordAction) ([]store.CoordAction, error) {
	now := r.now()
	var killed []store.CoordAction
	for _, a := range actions {
		if a.Status.Terminal() {
			continue
		}
		from := a.Status
		a.Status, a.LastModified = store.CoordActionKilled, now
		hasWorkflow := a.ExternalID != "" && (from == store.CoordActionSubmitted || from == store.CoordActionRunning ||
			from == store.CoordActionSuspended)
		a.Pending = a.Pending || hasWorkflow
		if err := r.updateAction(ctx, x, job, from, &a); err != nil {
			return nil, err
		}
		if hasWorkflow {
			if err := x.Schedule(ctx, KindWorkflow, a.ID, now, ""); err != nil {
				return nil, err
			}
		}
		killed = append(killed, a)
	}
	return killed, nil
}

// commandWorkflows marks the job's actions in the given statuses that have a
// workflow as pending and schedules their workflow commands.
func (r *Runner) commandWorkflows(ctx context.Context, x store.Tx, jobID string, statuses ...store.CoordActionStatus) error {
	acts, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: jobID, Statuses: statuses})
	if err != nil {
		return err
	}
	now := r.now()
	for _, a := range acts {
		if a.ExternalID == "" {
			continue
		}
		if !a.Pending {
			a.Pending = true
			if err := x.UpdateCoordAction(ctx, &a); err != nil {
				return err
			}
		}
		if err := x.Schedule(ctx, KindWorkflow, a.ID, now, ""); err != nil {
			return err
		}
	}
	return nil
}

// Change changes a job's end time, concurrency, pause time or status
// ("endtime=…;concurrency=…;pausetime=…;status=…", §1.10). Moving the end or
// pause time back deletes the look-ahead actions at or after it, which must
// all still be WAITING or READY (E1022); a KILLED or IGNORED job only takes a
// status change (E1016); a bad value is E1015.
func (r *Runner) Change(ctx context.Context, id, value string) error {
	c, err := coordinator.ParseChange(value, r.cfg.Format)
	if err != nil {
		return coded(err)
	}
	return r.change(ctx, id, c)
}

func (r *Runner) change(ctx context.Context, id string, c coordinator.Change) error {
	return r.tx(ctx, func(x store.Tx) error { return r.changeTx(ctx, x, id, c) })
}

// ChangeTx is Change inside the caller's transaction x (see SuspendTx); its errors are
// those of Change.
func (r *Runner) ChangeTx(ctx context.Context, x store.Tx, id, value string) error {
	c, err := coordinator.ParseChange(value, r.cfg.Format)
	if err != nil {
		return coded(err)
	}
	return r.changeTx(ctx, x, id, c)
}

// changeTx applies a parsed change in x.
func (r *Runner) changeTx(ctx context.Context, x store.Tx, id string, c coordinator.Change) error {
	job, err := lockJob(ctx, x, id)
	if err != nil {
		return err
	}
	pending, err := x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: id, PendingOnly: true})
	if err != nil {
		return err
	}
	var actions []store.CoordAction
	if from, ok := lookaheadFrom(c); ok {
		if actions, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: id, NominalFrom: from}); err != nil {
			return err
		}
	}
	res, err := coordinator.ApplyChange(job, pending > 0, actions, c, r.set.HideErrorStates)
	if err != nil {
		return coded(err)
	}
	now := r.now()
	updated := res.Job
	updated.LastModified = now
	if err := x.UpdateCoordJob(ctx, &updated); err != nil {
		return err
	}
	for _, a := range res.Delete {
		if err := r.deleteAction(ctx, x, a.ID); err != nil {
			return err
		}
	}
	if res.StartReady {
		if err := x.Schedule(ctx, KindStart, id, now, ""); err != nil {
			return err
		}
	}
	if materializable(updated.Status) && !updated.DoneMaterialization {
		if err := x.Schedule(ctx, KindMaterialize, id, now, ""); err != nil {
			return err
		}
	}
	if err := r.scheduleStatus(ctx, x, id); err != nil {
		return err
	}
	r.log.Info("coordinator job changed", "coord_job_id", id, "deleted_actions", len(res.Delete), "status", updated.Status)
	return r.jobChanged(ctx, x, job.Status, updated)
}

// lookaheadFrom is the earliest nominal time whose actions a change may
// delete.
func lookaheadFrom(c coordinator.Change) (from time.Time, ok bool) {
	if c.HasEndTime {
		from, ok = c.EndTime, true
	}
	if c.HasPauseTime && !c.PauseTime.IsZero() && (!ok || c.PauseTime.Before(from)) {
		from, ok = c.PauseTime, true
	}
	return from, ok
}

// deleteAction removes a look-ahead action with its SLA registration and
// triggers.
func (r *Runner) deleteAction(ctx context.Context, x store.Tx, actionID string) error {
	if err := x.DeleteCoordAction(ctx, actionID); err != nil {
		return err
	}
	if err := x.DeleteSLA(ctx, actionID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return x.Unschedule(ctx, KindInputCheck, actionID)
}

// Ignore ignores a FAILED or KILLED job with nothing pending: it becomes
// IGNORED (and is left out of its bundle's status). Otherwise E1024.
func (r *Runner) Ignore(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error {
		job, err := lockJob(ctx, x, id)
		if err != nil {
			return err
		}
		if job.Status != store.JobFailed && job.Status != store.JobKilled {
			return oozieerr.New(oozieerr.E1024, "Only a FAILED or KILLED coordinator job can be ignored; job [%s] is %s", id, job.Status)
		}
		pending, err := x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: id, PendingOnly: true})
		if err != nil {
			return err
		}
		if pending > 0 {
			return oozieerr.New(oozieerr.E1024, "Coordinator job [%s] still has commands in flight; ignore it when they are done", id)
		}
		res, err := coordinator.ApplyChange(job, false, nil, coordinator.Change{Status: store.JobIgnored}, r.set.HideErrorStates)
		if err != nil {
			return coded(err)
		}
		updated := res.Job
		updated.LastModified = r.now()
		if err := x.UpdateCoordJob(ctx, &updated, job.Status); err != nil {
			return err
		}
		return r.jobChanged(ctx, x, job.Status, updated)
	})
}
