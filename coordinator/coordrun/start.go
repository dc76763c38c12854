package coordrun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

// keyRerunConf is the run-configuration property that holds a rerun's
// configuration (as configuration XML); the coordinator core leaves it out
// of the workflow's configuration and takes it as the rerun configuration.
const keyRerunConf = "rerunConf"

// keyRerunFailNodes makes a workflow rerun only its failed nodes.
const keyRerunFailNodes = "oozie.wf.rerun.failnodes"

// handleStart runs the ready/start step of a job (coord-start, one trigger
// per job): the coordinator core picks the READY actions to start within the
// job's concurrency, in its execution order, and those to skip (LAST_ONLY,
// NONE). Each workflow is prepared (its app read and validated) outside the
// transaction; then one transaction moves the actions to SUBMITTED, inserts
// and starts their workflows (whose start moves them on to RUNNING through
// OnWorkflowChange) and releases the trigger. That transaction holds the
// job's lock and checks that the job's version is the one decided on, so a
// suspend or kill that committed meanwhile makes the step decide again, and
// one that comes later finds the started workflows.
func (r *Runner) handleStart(ctx context.Context, run *engine.Claim) error {
	jobID := run.Trigger.EntityID
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if err = r.startStep(ctx, run, jobID); !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// launch is one action to start: its prepared workflow, or why it cannot
// start.
type launch struct {
	action   store.CoordAction
	prepared *wfrun.Prepared
	failure  *Error
}

func (r *Runner) startStep(ctx context.Context, run *engine.Claim, jobID string) error {
	var job store.CoordJob
	var ready, waiting []store.CoordAction
	var active int
	now := r.now()
	// Reads only: the decision is checked against the job's version in
	// Finish's transaction.
	err := r.cfg.Store.View(ctx, func(x store.Tx) (err error) {
		if job, err = x.GetCoordJob(ctx, jobID); err != nil {
			return err
		}
		if active, err = x.CountCoordActionsWhere(ctx, store.CoordActionFilter{JobID: jobID,
			Statuses: []store.CoordActionStatus{store.CoordActionSubmitted, store.CoordActionRunning}}); err != nil {
			return err
		}
		limit, desc, none := readyWindow(job, active)
		if none {
			return nil
		}
		if ready, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: jobID,
			Statuses: []store.CoordActionStatus{store.CoordActionReady}, Desc: desc, Limit: limit}); err != nil {
			return err
		}
		if len(ready) == 0 {
			return nil
		}
		waiting, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: jobID,
			Statuses: []store.CoordActionStatus{store.CoordActionWaiting}, NominalTo: now.Add(time.Millisecond), Desc: desc, Limit: limit})
		return err
	})
	if errors.Is(err, store.ErrNotFound) || (err == nil && len(ready) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	def, jobConf, err := r.definition(&job)
	if err != nil {
		return err
	}
	candidates, imminent := withImminent(ready, waiting)
	d := coordinator.StartReady(coordinator.StartRequest{Job: def, Row: job, Ready: candidates,
		Active: active, Now: now, Settings: r.set})
	if d.Reason != "" {
		r.log.Debug("coordinator ready actions not started", "coord_job_id", jobID, "reason", d.Reason)
		return nil // a resume, unpause or status change schedules the step again
	}
	d.Submit, d.Skip = withoutImminent(d.Submit, imminent), withoutImminent(d.Skip, imminent)
	launches := make([]launch, 0, len(d.Submit))
	for _, a := range d.Submit {
		l, err := r.prepareLaunch(ctx, def, jobConf, a)
		if err != nil {
			return err // transient (the filesystem): the engine retries the step
		}
		launches = append(launches, l)
	}
	return run.Finish(ctx, time.Time{}, func(x store.Tx) error {
		j, err := x.LockCoordJob(ctx, jobID)
		if err != nil {
			return err
		}
		if j.Version != job.Version {
			return store.ErrConflict // the job changed since the decision: decide again
		}
		for _, a := range d.Skip {
			skipped := a
			skipped.Status, skipped.LastModified = store.CoordActionSkipped, now
			if err := r.updateAction(ctx, x, &j, store.CoordActionReady, &skipped); err != nil {
				return err
			}
		}
		for _, l := range launches {
			if err := r.applyLaunch(ctx, x, &j, l, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// readyWindow says which READY actions the step needs to read: with FIFO or
// LIFO and a concurrency limit, only the first free-slots ones in that order
// (none at all when every slot is taken, so a job that piles up READY
// actions costs nothing per step); with LAST_ONLY and NONE, all of them,
// since they may be skipped.
func readyWindow(job store.CoordJob, active int) (limit int, desc, none bool) {
	exec := coordinator.Execution(job.ExecutionOrder)
	desc = exec != coordinator.FIFO && exec != ""
	if (exec == coordinator.FIFO || exec == coordinator.LIFO || exec == "") && job.Concurrency >= 0 {
		slots := job.Concurrency - active
		if slots <= 0 {
			return 0, desc, true
		}
		return slots, desc, false
	}
	return 0, desc, false
}

// withImminent adds to the READY actions those about to become READY: due
// WAITING actions with no dependency, whose first input check has not run
// yet. They take their place in the execution order (and a concurrency
// slot) without being started, so that actions materialized together start
// in FIFO or LIFO order even though their input checks run concurrently; the
// step runs again when they leave WAITING.
func withImminent(ready, waiting []store.CoordAction) (candidates []store.CoordAction, imminent map[string]bool) {
	candidates = append([]store.CoordAction(nil), ready...)
	imminent = map[string]bool{}
	for _, a := range waiting {
		if a.MissingDependencies == "" {
			a.Status = store.CoordActionReady
			candidates = append(candidates, a)
			imminent[a.ID] = true
		}
	}
	return candidates, imminent
}

// withoutImminent drops the imminent actions from a decision's list.
func withoutImminent(acts []store.CoordAction, imminent map[string]bool) []store.CoordAction {
	out := acts[:0:0]
	for _, a := range acts {
		if !imminent[a.ID] {
			out = append(out, a)
		}
	}
	return out
}

// prepareLaunch builds the workflow of a READY action: its configuration
// (§1.7) and the validated submission. A submission the user must fix (a
// missing app, an invalid workflow) is a failure of the action; an I/O error
// is returned, to be retried.
func (r *Runner) prepareLaunch(ctx context.Context, def *coordinator.Job, jobConf *conf.Properties, a store.CoordAction) (launch, error) {
	l := launch{action: a}
	if a.ExternalID != "" {
		return l, nil // a -failed rerun: the same workflow is rerun (see handleWorkflowCommand)
	}
	runConf, rerunConf, err := splitRunConf(a.RunConf)
	if err != nil {
		l.failure = oozieerr.Wrap(oozieerr.E1019, err, "reading the run configuration of %s", a.ID)
		return l, nil
	}
	if runConf.Len() == 0 {
		runConf = jobConf
	}
	doc, err := coordinator.ParseActionXML(a.ActionXML, runConf, r.cfg.Format)
	if err != nil {
		l.failure = oozieerr.Wrap(oozieerr.E1019, err, "reading the action document of %s", a.ID)
		return l, nil
	}
	wfConf, err := coordinator.WorkflowConf(doc, runConf, rerunConf)
	if err != nil {
		l.failure = &Error{Code: ErrorCode(err), Msg: err.Error(), Err: err}
		return l, nil
	}
	p, err := r.cfg.Workflows.Prepare(ctx, wfConf, wfrun.SubmitOptions{Start: true, ParentID: a.ID})
	if err != nil {
		code := ErrorCode(err)
		if code == "" || code == oozieerr.E0803 { // an uncoded or IO failure is retried
			return l, err
		}
		l.failure = &Error{Code: code, Msg: oozieerr.TextOf(err), Err: err}
		return l, nil
	}
	l.prepared = p
	return l, nil
}

// applyLaunch moves one action to SUBMITTED and starts its workflow, or
// fails it.
func (r *Runner) applyLaunch(ctx context.Context, x store.Tx, job *store.CoordJob, l launch, now time.Time) error {
	a := l.action
	a.LastModified = now
	switch {
	case l.failure != nil:
		a.Status = store.CoordActionFailed
		a.ErrorCode, a.ErrorMessage = string(l.failure.Code), l.failure.Msg
		r.log.Warn("coordinator action's workflow cannot be submitted", "action_id", a.ID, "err", l.failure)
		return r.updateAction(ctx, x, job, store.CoordActionReady, &a)
	case l.prepared == nil:
		// A -failed rerun: the workflow command reruns the same workflow.
		a.Status, a.Pending = store.CoordActionSubmitted, true
		if err := r.updateAction(ctx, x, job, store.CoordActionReady, &a); err != nil {
			return err
		}
		return x.Schedule(ctx, KindWorkflow, a.ID, now, "")
	}
	a.Status = store.CoordActionSubmitted
	a.ExternalID = l.prepared.ID()
	a.ErrorCode, a.ErrorMessage = "", ""
	if err := r.updateAction(ctx, x, job, store.CoordActionReady, &a); err != nil {
		return err
	}
	// The workflow's start calls OnWorkflowChange in this transaction,
	// which moves the action to RUNNING (or further, for a workflow that
	// ends at once).
	return l.prepared.Insert(ctx, x)
}

// splitRunConf reads an action's run configuration and the rerun
// configuration kept inside it.
func splitRunConf(xml string) (run, rerun *conf.Properties, err error) {
	run, err = conf.ParseConfigurationXML(xml, "run configuration")
	if err != nil {
		return nil, nil, err
	}
	if v, ok := run.Get(keyRerunConf); ok && v != "" {
		if rerun, err = conf.ParseConfigurationXML(v, "rerun configuration"); err != nil {
			return nil, nil, err
		}
	}
	return run, rerun, nil
}
