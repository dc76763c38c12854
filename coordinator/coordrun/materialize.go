package coordrun

import (
	"context"
	"fmt"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/store"
)

// handleMaterialize creates a job's next actions (coord-materialize, one
// trigger per job). The decision and its writes are one transaction with the
// trigger's release: the job row moves by compare-and-set on its version and
// the actions are inserted under UNIQUE(job_id, action_number), so an engine
// that took the trigger over from a dead or stalled one never creates an
// action twice, and the stalled one's commit fails.
//
// The trigger stays due at the job's next materialization time minus the
// look-ahead. A job held back by its throttle (too many WAITING actions) has
// no due time: an action leaving WAITING schedules it again.
func (r *Runner) handleMaterialize(ctx context.Context, run *engine.Run) error {
	jobID := run.Trigger.EntityID
	var created int
	err := r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		created = 0
		job, err := lockJob(ctx, x, jobID)
		if ErrorCode(err) == CodeJobNotFound {
			return nil
		}
		if err != nil {
			return err
		}
		if !materializable(job.Status) || job.DoneMaterialization {
			return nil // a resume, a change or a status change schedules it again
		}
		now := r.now()
		def, jobConf, err := r.definition(&job)
		if err != nil {
			return r.failJob(ctx, x, job, err)
		}
		waiting, err := x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: jobID,
			Statuses: []store.CoordActionStatus{store.CoordActionWaiting}})
		if err != nil {
			return err
		}
		res, err := coordinator.Materialize(coordinator.MaterializeRequest{Job: def, JobID: jobID, Row: job,
			Waiting: waiting, Now: now, Settings: r.set})
		if err != nil {
			return r.failJob(ctx, x, job, err)
		}
		if !res.Ran {
			r.log.Debug("coordinator not materialized", "coord_job_id", jobID, "reason", res.Reason)
			if res.NextAt.After(now) {
				return reschedule(ctx, x, run, res.NextAt)
			}
			return nil // held by its pause time or status: a command schedules it again
		}
		updated := res.Job
		updated.LastModified = now
		if err := x.UpdateCoordJob(ctx, &updated, store.JobPrep, store.JobRunning, store.JobRunningWithError); err != nil {
			return err
		}
		stillWaiting, err := r.insertActions(ctx, x, def, jobConf, &updated, res.Actions, now)
		if err != nil {
			return err
		}
		created = len(res.Actions)
		r.hook(hookMaterialized)
		progressed := created > 0 || !updated.NextMaterializedTime.Equal(job.NextMaterializedTime)
		if updated.DoneMaterialization || updated.Status != job.Status {
			if err := r.scheduleStatus(ctx, x, jobID); err != nil {
				return err
			}
		}
		if err := r.jobChanged(ctx, x, job.Status, updated); err != nil {
			return err
		}
		switch {
		case res.Throttled && waiting+stillWaiting >= updated.Throttle:
			return nil // woken when an action leaves WAITING
		case res.NextAt.After(now) || (progressed && !res.NextAt.IsZero()):
			return reschedule(ctx, x, run, res.NextAt)
		}
		return nil
	})
	if err == nil && created > 0 {
		r.log.Debug("coordinator actions materialized", "coord_job_id", jobID, "actions", created)
	}
	return err
}

// hookMaterialized is the test hook's point in the middle of a
// materialization: the job row updated and the actions inserted, nothing
// committed yet.
const hookMaterialized = "materialize:inserted"

// insertActions stores new actions with their SLA registrations, waits and
// first input checks, and the job's timeout check, and returns how many of
// them wait. An action that depends on no dataset and whose nominal time has
// come gets its first input check here and now (see checkAtOnce), and does
// not count against the throttle.
func (r *Runner) insertActions(ctx context.Context, x store.Tx, def *coordinator.Job, jobConf coordinator.Props,
	job *store.CoordJob, actions []coordinator.NewAction, now time.Time) (int, error) {
	rows := make([]*store.CoordAction, len(actions))
	for i, na := range actions {
		a := na.Row
		a.Timeout = na.Timeout
		if checked, ok := r.checkAtOnce(def, *job, jobConf, a, now); ok {
			a = checked
		}
		rows[i] = &a
	}
	if err := x.InsertCoordActions(ctx, rows); err != nil {
		return 0, err
	}
	var waiting []store.CoordAction
	var ready, finished bool
	for i, na := range actions {
		a := *rows[i]
		if na.SLA != nil {
			sla := *na.SLA
			if err := x.InsertSLA(ctx, &sla); err != nil {
				return 0, err
			}
		}
		switch {
		case a.Status == store.CoordActionReady:
			ready = true
			continue
		case a.Status != store.CoordActionWaiting:
			finished = true
			continue
		}
		if uris := waitURIs(na.Doc, a.MissingDependencies); len(uris) > 0 {
			if err := x.SetCoordWaits(ctx, a.ID, uris); err != nil {
				return 0, err
			}
		}
		if err := x.Schedule(ctx, KindInputCheck, a.ID, na.CheckAt, ""); err != nil {
			return 0, err
		}
		waiting = append(waiting, a)
	}
	if ready {
		start, err := mayStart(ctx, x, job)
		if err != nil {
			return 0, err
		}
		if start {
			if err := x.Schedule(ctx, KindStart, job.ID, now, ""); err != nil {
				return 0, err
			}
		}
	}
	if finished {
		if err := r.scheduleStatus(ctx, x, job.ID); err != nil {
			return 0, err
		}
	}
	return len(waiting), scheduleTimeout(ctx, x, job.ID, waiting)
}

// checkAtOnce runs the first input check of a new action that depends on no
// dataset and whose nominal time has come: it needs no filesystem, so it
// runs inside the materialization, and the action is stored READY (or
// SKIPPED by LAST_ONLY/NONE) without ever waiting for a check of its own.
// That is what the check would decide a moment later; a cron-style job's
// actions then cost one transaction less each, and catching up is not held
// by the throttle. It returns false when the check must run as usual.
func (r *Runner) checkAtOnce(def *coordinator.Job, job store.CoordJob, jobConf coordinator.Props, a store.CoordAction,
	now time.Time) (store.CoordAction, bool) {
	if def.InputLogic != nil || a.MissingDependencies != "" || a.NominalTime.After(now) {
		return a, false
	}
	res := coordinator.CheckInputs(coordinator.InputCheckRequest{Job: def, JobID: job.ID, Row: job, Action: a,
		RunConf: jobConf, Timeout: a.Timeout, Exists: noFilesystem, Now: now, Settings: r.set})
	switch res.Status {
	case store.CoordActionReady, store.CoordActionSkipped:
		a.Status, a.ActionXML, a.MissingDependencies = res.Status, res.ActionXML, res.MissingDependencies
		return a, true
	}
	return a, false
}

// noFilesystem is the existence check of checkAtOnce, which never needs one.
func noFilesystem(uri string) (bool, error) {
	return false, fmt.Errorf("checking %s needs the filesystem", uri)
}

// failJob marks a job FAILED after a materialization error, keeping no
// action of the failed pass. Its earlier actions go on; their roll-up then
// applies Oozie's rules for a FAILED job.
func (r *Runner) failJob(ctx context.Context, x store.Tx, job store.CoordJob, cause error) error {
	r.log.Error("coordinator materialization failed; the job fails", "coord_job_id", job.ID, "err", cause)
	before := job.Status
	job.Status = store.JobFailed
	job.LastModified = r.now()
	if err := x.UpdateCoordJob(ctx, &job, before); err != nil {
		return err
	}
	return r.jobChanged(ctx, x, before, job)
}
