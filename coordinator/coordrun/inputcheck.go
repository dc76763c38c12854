package coordrun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
)

// handleInputCheck checks a WAITING action's dependencies
// (coord-input-check, one trigger per action). The existence checks run
// outside any transaction, all of the action's missing dependencies at
// once within the engine's bound; the decision is the coordinator core's
// CheckInputs; the result is written by compare-and-set on the action's
// version, and a conflict (the action was killed meanwhile, say) makes the
// check start again on fresh rows.
//
// A waiting action is checked again after checkInterval, at once when a
// notification names one of its URIs (Notify), and at its timeout deadline
// (coord-timeout), whichever comes first.
func (r *Runner) handleInputCheck(ctx context.Context, run *engine.Claim) error {
	actionID := run.Trigger.EntityID
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if err = r.inputCheck(ctx, run, actionID); !errors.Is(err, store.ErrConflict) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

func (r *Runner) inputCheck(ctx context.Context, run *engine.Claim, actionID string) error {
	var act store.CoordAction
	var job store.CoordJob
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		if act, err = x.GetCoordAction(ctx, actionID); err != nil {
			return err
		}
		job, err = x.GetCoordJob(ctx, act.JobID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if act.Status != store.CoordActionWaiting || !inputCheckable(job.Status) {
		return nil // not waiting any more, or suspended: a resume checks it again
	}
	now := r.now()
	if act.NominalTime.After(now) {
		return run.Finish(ctx, act.NominalTime, nil)
	}
	def, jobConf, err := r.definition(&job)
	if err != nil {
		return err
	}
	runConf, err := conf.ParseConfigurationXML(act.RunConf, "coordinator action "+act.ID+" run configuration")
	if err != nil {
		return err
	}
	if runConf.Len() == 0 {
		runConf = jobConf
	}
	// The dependencies are looked up as the job's user.
	ex := r.prefetch(hadoop.AsUser(ctx, job.User), resolvedDependencies(act.MissingDependencies))
	set := r.set
	set.InputCheckInterval = checkInterval(act, now, r.cfg.InputCheckMinInterval, r.cfg.InputCheckMaxInterval)
	res := coordinator.CheckInputs(coordinator.InputCheckRequest{Job: def, JobID: job.ID, Row: job, Action: act,
		RunConf: runConf, Timeout: act.Timeout, Exists: ex.Exists, Now: now, Settings: set})
	if res.Status == store.CoordActionWaiting && refusedScheme(res.Err) {
		// A dataset on a filesystem the server refuses never appears:
		// the action fails with E0904 rather than wait for its timeout.
		res.Status, res.Reason = store.CoordActionFailed, "input check"
	}
	if res.Err != nil {
		r.log.Warn("coordinator input check could not complete", "action_id", act.ID, "err", res.Err)
	}
	var next time.Time
	if res.Status == store.CoordActionWaiting {
		next = res.NextCheckAt
	}
	err = run.Finish(ctx, next, func(x store.Tx) error {
		return r.applyCheck(ctx, x, &job, def, runConf, act, res, ex)
	})
	if err == nil && res.Status != store.CoordActionWaiting {
		r.log.Info("coordinator action checked", "action_id", act.ID, "status", res.Status, "reason", res.Reason)
	}
	return err
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

// applyCheck writes the outcome of one input check.
func (r *Runner) applyCheck(ctx context.Context, x store.Tx, job *store.CoordJob, def *coordinator.Job,
	runConf *conf.Properties, act store.CoordAction, res coordinator.InputCheckResult, ex *existence) error {
	locked, err := x.LockCoordJob(ctx, job.ID)
	if err != nil {
		return err
	}
	job = &locked
	a := act
	a.LastModified = r.now()
	switch res.Status {
	case store.CoordActionWaiting:
		missing := res.MissingDependencies
		if def.InputLogic == nil {
			missing = pruneAvailable(missing, ex.available())
		}
		code, msg := "", ""
		if res.Err != nil {
			code, msg = CodeInputCheck, "input check: "+res.Err.Error()
		}
		if missing == act.MissingDependencies && res.ActionXML == act.ActionXML && code == act.ErrorCode && msg == act.ErrorMessage {
			return nil
		}
		a.MissingDependencies, a.ActionXML, a.ErrorCode, a.ErrorMessage = missing, res.ActionXML, code, msg
		// Still WAITING: no move (store.CoordActionMachine), only what it waits for.
		if err := x.UpdateCoordAction(ctx, &a, store.CoordActionWaiting); err != nil {
			return err
		}
		if missing == act.MissingDependencies {
			return nil
		}
		doc, err := coordinator.ParseActionXML(a.ActionXML, runConf, r.cfg.Format)
		if err != nil {
			doc = nil // the URIs themselves are still indexed
		}
		return x.SetCoordWaits(ctx, a.ID, waitURIs(doc, missing))
	case store.CoordActionReady:
		a.MissingDependencies, a.ActionXML, a.ErrorCode, a.ErrorMessage = "", res.ActionXML, "", ""
	case store.CoordActionFailed:
		a.ErrorCode = string(ErrorCode(res.Err))
		if a.ErrorCode == "" {
			a.ErrorCode = CodeInputCheck
		}
		a.ErrorMessage = res.Reason
		if res.Err != nil {
			a.ErrorMessage += ": " + res.Err.Error()
		}
	case store.CoordActionTimedOut, store.CoordActionSkipped:
		a.MissingDependencies = res.MissingDependencies
		a.ErrorCode, a.ErrorMessage = "", ""
	}
	a.Status = res.Status
	return r.updateActionFrom(ctx, x, job, store.CoordActionWaiting, &a,
		move{hadWaits: len(resolvedDependencies(act.MissingDependencies)) > 0, byCheck: true})
}
