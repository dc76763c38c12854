package coordrun

import (
	"context"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// handleStatus rolls a job's status up from its actions (coord-status, one
// trigger per job). Every change that the roll-up depends on schedules it in
// its own transaction, so a job's status follows its actions at once, not
// after Oozie's 60-second status pass. It also applies the pause time: a job
// pauses when its pause time is reached (the trigger is due then) and runs
// again when the pause time goes away.
func (r *Runner) handleStatus(ctx context.Context, run *engine.Claim) error {
	jobID := run.Trigger.EntityID
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		job, err := lockJob(ctx, x, jobID)
		if ErrorCode(err) == oozieerr.E0604 {
			return nil
		}
		if err != nil {
			return err
		}
		present, err := x.PresentCoordActionStatuses(ctx, jobID)
		if err != nil {
			return err
		}
		pendingCount, err := x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: jobID, PendingOnly: true})
		if err != nil {
			return err
		}
		now := r.now()
		next := rollup(job, present, pendingCount > 0, now, r.set.HideErrorStates)
		if next.Status == job.Status && next.Pending == job.Pending {
			return r.afterRollup(ctx, x, run, job, job, now)
		}
		updated := job
		updated.Status, updated.Pending, updated.LastModified = next.Status, next.Pending, now
		if err := x.UpdateCoordJob(ctx, &updated); err != nil {
			return err
		}
		if updated.Status != job.Status {
			r.log.Info("coordinator job status changed", "coord_job_id", jobID, "from", job.Status, "to", updated.Status)
		}
		if err := r.jobChanged(ctx, x, job.Status, updated); err != nil {
			return err
		}
		return r.afterRollup(ctx, x, run, job, updated, now)
	})
}

// rolled is the outcome of a roll-up.
type rolled struct {
	Status  store.JobStatus
	Pending bool
}

// rollup computes a job's status from the statuses its actions have: first
// the pause time (pause, unpause), then the coordinator core's roll-up
// (§1.9). Every rule of that roll-up only asks which statuses are present
// (IGNORED left out), so one entry per present status decides like the list
// of all actions and keeps a job with a million actions cheap. A terminal
// job without actions keeps its status (a job that failed before
// materializing anything stays FAILED).
func rollup(job store.CoordJob, statuses []store.CoordActionStatus, pending bool, now time.Time, hideErrors bool) rolled {
	status := hide(job.Status.WithPause(job.PauseTime, now), hideErrors)
	var present []store.CoordActionStatus
	for _, s := range statuses {
		if s != store.CoordActionIgnored {
			present = append(present, s)
		}
	}
	if len(present) == 0 && job.Status.Terminal() {
		return rolled{Status: job.Status, Pending: pending}
	}
	status = coordinator.RollupCoordinator(coordinator.JobRollup{Status: status, DoneMaterialization: job.DoneMaterialization,
		Pending: pending, Actions: present}, hideErrors)
	return rolled{Status: status, Pending: pending}
}

// afterRollup schedules what the new status makes due: the pause time, and
// materialization and starts of a job that runs again after a pause; a
// finished job's remaining triggers go.
func (r *Runner) afterRollup(ctx context.Context, x store.Tx, run *engine.Claim, before, job store.CoordJob, now time.Time) error {
	if job.Status.Terminal() {
		r.jobs.forget(job.ID)
		for _, kind := range []store.TriggerKind{KindMaterialize, KindTimeout} {
			if err := x.Unschedule(ctx, kind, job.ID); err != nil {
				return err
			}
		}
		return nil
	}
	unpaused := (before.Status == store.JobPaused || before.Status == store.JobPausedWithError || before.Status == store.JobPrepPaused) &&
		(job.Status == store.JobRunning || job.Status == store.JobRunningWithError || job.Status == store.JobPrep)
	if unpaused {
		for _, kind := range []store.TriggerKind{KindMaterialize, KindStart} {
			if err := x.Schedule(ctx, kind, job.ID, now, ""); err != nil {
				return err
			}
		}
	}
	if !job.PauseTime.IsZero() && job.PauseTime.After(now) {
		return reschedule(ctx, x, run, job.PauseTime)
	}
	return nil
}
