package coordrun

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// RerunOptions are the choices of a coordinator rerun
// (-rerun -action|-date, -refresh, -nocleanup, -failed).
type RerunOptions struct {
	// Type and Scope select the actions (see ScopeType).
	Type  ScopeType
	Scope string
	// Refresh materializes the actions again: coord:latest/future are
	// resolved anew and every dependency is checked again.
	Refresh bool
	// NoCleanup keeps the actions' output (data-out) directories; without
	// it they are deleted, except those whose data-out says nocleanup.
	NoCleanup bool
	// Failed reruns each action's same workflow, only its failed nodes
	// (oozie.wf.rerun.failnodes=true), and deletes no output.
	Failed bool
	// Conf, if set, is merged into the workflows' configuration.
	Conf *conf.Properties
}

// Rerun reruns finished actions of a job: each goes back to WAITING, its
// inputs are checked again, and a new workflow runs (or, with Failed, the
// same one). The job must not be in PREP or IGNORED and every selected action
// must have finished (E1018). It returns the rerun actions.
func (r *Runner) Rerun(ctx context.Context, id string, opts RerunOptions) ([]store.CoordAction, error) {
	var job store.CoordJob
	var selected []store.CoordAction
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		if job, err = getJob(ctx, x, id); err != nil {
			return err
		}
		if selected, err = r.rerunSelection(ctx, x, job, opts); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	def, jobConf, err := r.definition(&job)
	if err != nil {
		return nil, err
	}
	if !opts.NoCleanup && !opts.Failed {
		if err := r.cleanupOutputs(hadoop.AsUser(ctx, job.User), selected, jobConf); err != nil {
			return nil, err
		}
	}
	now := r.now()
	refreshed := map[string]coordinator.NewAction{}
	if opts.Refresh {
		for _, a := range selected {
			na, err := refreshAction(def, job, a, now, r.set)
			if err != nil {
				return nil, oozieerr.Wrap(oozieerr.E1018, err, "refreshing %s", a.ID)
			}
			refreshed[a.ID] = na
		}
	}
	var rerunConf string
	if opts.Conf != nil && opts.Conf.Len() > 0 {
		if rerunConf, err = opts.Conf.ConfigurationXML(); err != nil {
			return nil, err
		}
	}
	var out []store.CoordAction
	err = r.tx(ctx, func(x store.Tx) error {
		out = nil
		job, err := lockJob(ctx, x, id)
		if err != nil {
			return err
		}
		acts, err := r.rerunSelection(ctx, x, job, opts)
		if err != nil {
			return err
		}
		for _, a := range acts {
			var na *coordinator.NewAction
			if v, ok := refreshed[a.ID]; ok {
				na = &v
			}
			updated, err := rerunAction(a, opts.Failed, na, rerunConf, now)
			if err != nil {
				return err
			}
			if err := r.restartAction(ctx, x, a.Status, &updated, na); err != nil {
				return err
			}
			out = append(out, updated)
		}
		before := job.Status
		job.Status = hide(rerunStatus(job.Status), r.set.HideErrorStates)
		job.LastModified = now
		if err := x.UpdateCoordJob(ctx, &job); err != nil {
			return err
		}
		if err := scheduleTimeout(ctx, x, id, out); err != nil {
			return err
		}
		if err := r.scheduleStatus(ctx, x, id); err != nil {
			return err
		}
		return r.jobChanged(ctx, x, before, job)
	})
	if err == nil {
		r.log.Info("coordinator actions rerun", "coord_job_id", id, "actions", len(out), "refresh", opts.Refresh, "failed", opts.Failed)
	}
	return out, err
}

// rerunSelection checks the rerun preconditions and returns the actions.
func (r *Runner) rerunSelection(ctx context.Context, x store.Tx, job store.CoordJob, opts RerunOptions) ([]store.CoordAction, error) {
	if job.Status == store.JobPrep || job.Status == store.JobIgnored {
		return nil, oozieerr.New(oozieerr.E1018, "Error in rerun of coordinator job [%s]: a job in %s cannot be rerun", job.ID, job.Status)
	}
	acts, err := r.selectActions(ctx, x, job.ID, opts.Type, opts.Scope)
	if err != nil {
		return nil, err
	}
	if len(acts) == 0 {
		return nil, oozieerr.New(oozieerr.E1018, "Error in rerun of coordinator job [%s]: no action in scope [%s]", job.ID, opts.Scope)
	}
	for _, a := range acts {
		if !rerunnable(a.Status) {
			return nil, oozieerr.New(oozieerr.E1018, "Error in rerun of coordinator job [%s]: part or all actions are not eligible to rerun! "+
				"action %s is %s", job.ID, a.ID, a.Status)
		}
	}
	return acts, nil
}

// cleanupOutputs deletes the outputs of actions about to be rerun: every
// data-out URI, unless its data-out says nocleanup.
func (r *Runner) cleanupOutputs(ctx context.Context, acts []store.CoordAction, jobConf *conf.Properties) error {
	for _, a := range acts {
		doc, err := coordinator.ParseActionXML(a.ActionXML, jobConf, r.cfg.Format)
		if err != nil {
			return oozieerr.Wrap(oozieerr.E1018, err, "reading the action document of %s", a.ID)
		}
		for _, ev := range doc.DataOuts {
			if ev.NoCleanup {
				continue
			}
			for _, u := range ev.URIs {
				if err := r.removeOutput(ctx, u); err != nil { // hcat.go
					return oozieerr.Wrap(oozieerr.E1018, err, "deleting the output %s of %s", u, a.ID)
				}
				r.log.Info("coordinator rerun deleted an output", "action_id", a.ID, "uri", u)
			}
		}
	}
	return nil
}

// rerunAction is an action as a rerun leaves it: WAITING, errors cleared,
// its workflow forgotten (kept with failed, to rerun its failed nodes), a
// timed-out action's wait restarted, the refreshed document if any, and the
// rerun configuration kept in its run configuration.
func rerunAction(a store.CoordAction, failed bool, refreshed *coordinator.NewAction, rerunConf string, now time.Time) (store.CoordAction, error) {
	wasTimedOut := a.Status == store.CoordActionTimedOut
	a.Status = store.CoordActionWaiting
	if !failed {
		a.ExternalID = ""
	}
	a.ExternalStatus, a.TrackerURI, a.ConsoleURL = "", "", ""
	a.ErrorCode, a.ErrorMessage = "", ""
	a.Pending = false
	a.LastModified = now
	if wasTimedOut {
		a.CreatedTime = now
	}
	if refreshed != nil {
		a.ActionXML = refreshed.Row.ActionXML
		a.MissingDependencies = refreshed.Row.MissingDependencies
		a.CreatedTime = now
	}
	run, err := conf.ParseConfigurationXML(a.RunConf, "run configuration of "+a.ID)
	if err != nil {
		return a, err
	}
	run.Delete(keyRerunConf)
	if rerunConf != "" {
		run.Set(keyRerunConf, rerunConf)
	}
	if a.RunConf, err = run.ConfigurationXML(); err != nil {
		return a, fmt.Errorf("rerun of %s: %w", a.ID, err)
	}
	return a, nil
}

// restartAction writes a rerun action and makes its first input check due,
// with its waits indexed again.
func (r *Runner) restartAction(ctx context.Context, x store.Tx, from store.CoordActionStatus, a *store.CoordAction,
	refreshed *coordinator.NewAction) error {
	if err := x.UpdateCoordAction(ctx, a, from); err != nil {
		return err
	}
	var doc *coordinator.ActionDoc
	if refreshed != nil {
		doc = refreshed.Doc
	}
	if strings.TrimSpace(a.MissingDependencies) != "" {
		if err := x.SetCoordWaits(ctx, a.ID, waitURIs(doc, a.MissingDependencies)); err != nil {
			return err
		}
	}
	return x.Schedule(ctx, KindInputCheck, a.ID, r.now(), "")
}
