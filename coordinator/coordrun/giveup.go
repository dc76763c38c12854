package coordrun

import (
	"context"
	"errors"

	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// giveUps returns what ends the job or action of each trigger kind when
// the engine gives up on it (engine.Config.MaxAttempts): its handler kept
// failing, or kept taking the server down, on the same entity. The job or
// action becomes FAILED with the Oozie code of the work that failed and the
// engine's cause as its error, readable in the job's info and log, so that
// no coordinator is left waiting on work that will never happen.
func (r *Runner) giveUps() map[store.TriggerKind]engine.GiveUp {
	job := func(code string) engine.GiveUp {
		return func(ctx context.Context, x store.Tx, t store.Trigger, cause string) error {
			return r.giveUpJob(ctx, x, t.EntityID, code, cause)
		}
	}
	action := func(code string) engine.GiveUp {
		return func(ctx context.Context, x store.Tx, t store.Trigger, cause string) error {
			return r.giveUpAction(ctx, x, t.EntityID, code, cause)
		}
	}
	return map[store.TriggerKind]engine.GiveUp{
		KindMaterialize: job(oozieerr.E1012),
		KindTimeout:     job(oozieerr.E1021),
		KindStart:       job(oozieerr.E1019),
		KindStatus:      job(oozieerr.E1025),
		KindKill:        job(oozieerr.E1020),
		KindInputCheck:  action(oozieerr.E1021),
		KindWorkflow:    action(oozieerr.E1019),
	}
}

// giveUpJob fails a job that has not finished with the given error, as a
// materialization error does (failJob); a finished job only gets the error
// recorded, if it has none.
func (r *Runner) giveUpJob(ctx context.Context, x store.Tx, jobID, code, cause string) error {
	job, err := lockJob(ctx, x, jobID)
	if ErrorCode(err) == oozieerr.E0604 {
		return nil
	}
	if err != nil {
		return err
	}
	r.log.Error("coordinator job failed: the engine gave up on its work", "coord_job_id", jobID, "code", code,
		"cause", cause)
	if !job.Status.Terminal() {
		return r.failJobWith(ctx, x, job, code, cause)
	}
	if job.ErrorCode != "" {
		return nil
	}
	job.ErrorCode, job.ErrorMessage = code, rowMessage(cause)
	job.LastModified = r.now()
	return x.UpdateCoordJob(ctx, &job)
}

// giveUpAction fails an action that has not finished with the given error
// (what its move makes due is scheduled as for any move); a finished one
// only loses its pending flag, so that its job's roll-up can end.
func (r *Runner) giveUpAction(ctx context.Context, x store.Tx, actionID, code, cause string) error {
	a, job, err := lockAction(ctx, x, actionID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	r.log.Error("coordinator action failed: the engine gave up on its work", "action_id", actionID, "code", code,
		"cause", cause)
	from := a.Status
	a.Pending, a.LastModified = false, r.now()
	if from.Terminal() {
		if err := x.UpdateCoordAction(ctx, &a, from); err != nil {
			return err
		}
		return r.scheduleStatus(ctx, x, job.ID)
	}
	a.Status = store.CoordActionFailed
	a.ErrorCode, a.ErrorMessage = code, rowMessage(cause)
	return r.updateAction(ctx, x, &job, from, &a)
}
