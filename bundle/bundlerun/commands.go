package bundlerun

import (
	"context"
	"fmt"
	"time"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Commands on a bundle. Each is one transaction (retried when a concurrent change wins the
// compare-and-set) that moves the bundle and, through the coordinator engine's
// transactional commands, its coordinators: a bundle and its coordinators never disagree
// about a command, and a crash loses none of it. As in Oozie, a command that does not apply
// to the bundle's status does nothing and is not an error; it is logged with Oozie's code.

// Start kicks off a PREP bundle now, whatever its kick-off time (-start). Other bundles are
// left alone (E1100, logged).
func (r *Runner) Start(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error {
		job, err := getJob(ctx, x, id)
		if err != nil {
			return err
		}
		if job.Status != store.JobPrep {
			r.log.Info("bundle start had no effect: E1100: the bundle is not in PREP", "bundle_job_id", id, "status", job.Status)
			return nil
		}
		return x.Schedule(ctx, KindKickoff, id, r.now(), "")
	})
}

// Suspend suspends a bundle that has not finished: PREP becomes PREPSUSPENDED (its
// kick-off waits for Resume), RUNNING and PAUSED become SUSPENDED, and its PREP, RUNNING and
// PAUSED coordinators are suspended with it.
func (r *Runner) Suspend(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error {
		job, err := getJob(ctx, x, id)
		if err != nil {
			return err
		}
		next, ok := job.Status.OnSuspend()
		if !ok {
			r.log.Info("bundle suspend had no effect: E1312: the bundle is finished or suspended", "bundle_job_id", id, "status", job.Status)
			return nil
		}
		coords, err := r.move(ctx, x, &job, next, func(j *store.BundleJob, now time.Time) { j.SuspendedTime = now })
		if err != nil {
			return err
		}
		for _, c := range coords {
			if bundle.SuspendsCoordinator(c.Status) {
				if err := r.cfg.Coordinators.SuspendTx(ctx, x, c.ID); err != nil {
					return err
				}
			}
		}
		return r.scheduleStatus(ctx, x, id)
	})
}

// Resume resumes a suspended bundle: SUSPENDED becomes RUNNING, PREPSUSPENDED PREP (its
// kick-off due again, at once if its time has passed), and its suspended coordinators are
// resumed. Other bundles are left alone (E1100, logged).
func (r *Runner) Resume(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error {
		job, err := getJob(ctx, x, id)
		if err != nil {
			return err
		}
		next, ok := job.Status.OnResume()
		if !ok {
			r.log.Info("bundle resume had no effect: E1100: the bundle is not suspended", "bundle_job_id", id, "status", job.Status)
			return nil
		}
		coords, err := r.move(ctx, x, &job, next, func(j *store.BundleJob, _ time.Time) { j.SuspendedTime = time.Time{} })
		if err != nil {
			return err
		}
		for _, c := range coords {
			if c.Status.Suspended() {
				if err := r.cfg.Coordinators.ResumeTx(ctx, x, c.ID); err != nil {
					return err
				}
			}
		}
		if job.Status == store.JobPrep {
			if err := x.Schedule(ctx, KindKickoff, id, later(job.KickoffTime, r.now()), ""); err != nil {
				return err
			}
		}
		return r.scheduleStatus(ctx, x, id)
	})
}

// Kill kills a bundle that has not finished: it becomes KILLED for good, a PREP bundle
// never kicks off, and every coordinator is killed with it. Killing a finished bundle does
// nothing (E1020, logged).
func (r *Runner) Kill(ctx context.Context, id string) error {
	return r.tx(ctx, func(x store.Tx) error {
		job, err := getJob(ctx, x, id)
		if err != nil {
			return err
		}
		if !bundle.Killable(job.Status) {
			r.log.Info("bundle kill had no effect: E1020: the bundle has finished", "bundle_job_id", id, "status", job.Status)
			return nil
		}
		coords, err := r.move(ctx, x, &job, store.JobKilled, nil)
		if err != nil {
			return err
		}
		for _, c := range coords {
			if err := r.cfg.Coordinators.KillTx(ctx, x, c.ID); err != nil {
				return err
			}
		}
		if err := x.Unschedule(ctx, KindKickoff, id); err != nil {
			return err
		}
		return r.scheduleStatus(ctx, x, id)
	})
}

// Change changes a bundle's pause time or end time ("pausetime=…;endtime=…") and the same
// of each of its coordinators that was not killed, in one transaction: when a coordinator
// refuses (E1022, a running action after the new time), nothing changes. A bad value is
// E1015/E1317; a pause time change of a finished bundle, or an end time change of a
// KILLED one, does nothing (E1312, logged).
func (r *Runner) Change(ctx context.Context, id, value string) error {
	c, err := bundle.ParseChange(value, r.cfg.Format)
	if err != nil {
		return err
	}
	coordValue := c.String(r.cfg.Format)
	return r.tx(ctx, func(x store.Tx) error {
		job, err := getJob(ctx, x, id)
		if err != nil {
			return err
		}
		d, err := bundle.DecideChange(job, c, r.now())
		if err != nil {
			return err
		}
		if !d.Apply {
			r.log.Info("bundle change had no effect: "+d.Reason, "bundle_job_id", id, "status", job.Status)
			return nil
		}
		updated := d.Job
		updated.LastModified = r.now()
		if err := x.UpdateBundleJob(ctx, &updated, job.Status); err != nil {
			return err
		}
		coords, err := coordinators(ctx, x, id)
		if err != nil {
			return err
		}
		for _, cj := range coords {
			if !bundle.ChangesCoordinator(cj.Status) {
				continue
			}
			if err := r.cfg.Coordinators.ChangeTx(ctx, x, cj.ID, coordValue); err != nil {
				if code := ErrorCode(err); code != "" {
					return wrapf(code, err, "change of coordinator %s (%s) of bundle %s", cj.AppName, cj.ID, id)
				}
				return fmt.Errorf("change of coordinator %s of bundle %s: %w", cj.ID, id, err)
			}
		}
		r.log.Info("bundle job changed", "bundle_job_id", id, "value", coordValue, "coordinators", len(coords))
		return r.scheduleStatus(ctx, x, id)
	})
}

// move sets a bundle's status (with its other changes in set) by compare-and-set on the
// status read, and returns its coordinators.
func (r *Runner) move(ctx context.Context, x store.Tx, job *store.BundleJob, next store.JobStatus,
	set func(*store.BundleJob, time.Time)) ([]store.CoordJob, error) {
	before := job.Status
	now := r.now()
	job.Status, job.LastModified = coordinator.HideErrors(next, r.hide), now
	if set != nil {
		set(job, now)
	}
	if err := x.UpdateBundleJob(ctx, job, before); err != nil {
		return nil, err
	}
	r.log.Info("bundle job status changed", "bundle_job_id", job.ID, "from", before, "to", job.Status)
	return coordinators(ctx, x, job.ID)
}

// RerunOptions are the choices of a bundle rerun (-rerun <bundle id> -coordinator … -date
// … [-refresh] [-nocleanup]).
type RerunOptions struct {
	// Coordinators names the coordinators to rerun (comma-separated); empty means all of
	// them. Names that are not in the bundle are skipped.
	Coordinators string
	// Dates is the coordinator date scope (d1::d2,d3); empty means each coordinator's
	// whole span. One of Coordinators and Dates must be given.
	Dates string
	// Refresh and NoCleanup are passed to each coordinator's rerun.
	Refresh, NoCleanup bool
}

// Rerun reruns actions of a bundle's coordinators: for each coordinator in scope, its
// finished actions in the date scope, as a coordinator rerun (coordrun.Runner.Rerun) does.
// A bundle that was KILLED or FAILED, or has not started, is left alone (E1100, logged).
// Coordinators that cannot rerun (no action in the scope, actions still running) are
// skipped and logged; when none could, the first one's error is returned. The bundle then
// runs again (a PAUSED one stays PAUSED). It returns the rerun actions.
func (r *Runner) Rerun(ctx context.Context, id string, opts RerunOptions) ([]store.CoordAction, error) {
	if opts.Coordinators == "" && opts.Dates == "" {
		return nil, oozieerr.New(oozieerr.E1018, "Error in rerun of bundle job [%s]: give coordinator names, dates or both", id)
	}
	var (
		job    store.BundleJob
		coords []store.CoordJob
	)
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		if job, err = getJob(ctx, x, id); err != nil {
			return err
		}
		coords, err = coordinators(ctx, x, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !bundle.RerunAllowed(job.Status) {
		r.log.Info("bundle rerun had no effect: E1100: the bundle is in the wrong state", "bundle_job_id", id, "status", job.Status)
		return nil, nil
	}
	byName := map[string]store.CoordJob{}
	var names []string
	for _, c := range coords {
		byName[c.AppName] = c
		names = append(names, c.AppName)
	}
	var (
		out      []store.CoordAction
		firstErr error
		reran    bool
	)
	for _, name := range bundle.RerunScope(opts.Coordinators, names) {
		c := byName[name]
		scope := bundle.RerunDateScope(opts.Dates, c.StartTime, c.EndTime, r.cfg.Format)
		acts, err := r.cfg.Coordinators.Rerun(ctx, c.ID, coordrun.RerunOptions{Type: coordrun.ScopeDate, Scope: scope,
			Refresh: opts.Refresh, NoCleanup: opts.NoCleanup})
		if err != nil {
			r.log.Warn("bundle rerun: a coordinator did not rerun", "bundle_job_id", id, "coord_job_id", c.ID,
				"coordinator", name, "error", err)
			if firstErr == nil {
				firstErr = wrapf(orCode(ErrorCode(err), oozieerr.E1018), err, "rerun of coordinator %s (%s) of bundle %s", name, c.ID, id)
			}
			continue
		}
		reran = true
		out = append(out, acts...)
	}
	if !reran {
		if firstErr == nil {
			firstErr = oozieerr.New(oozieerr.E1018, "Error in rerun of bundle job [%s]: no coordinator in scope [%s]", id, opts.Coordinators)
		}
		return nil, firstErr
	}
	err = r.tx(ctx, func(x store.Tx) error {
		job, err := getJob(ctx, x, id)
		if err != nil {
			return err
		}
		if next := bundle.RerunStatus(job.Status, r.hide); next != job.Status && bundle.RerunAllowed(job.Status) {
			before := job.Status
			job.Status, job.LastModified = next, r.now()
			if err := x.UpdateBundleJob(ctx, &job, before); err != nil {
				return err
			}
		}
		return r.scheduleStatus(ctx, x, id)
	})
	if err != nil {
		return nil, err
	}
	r.log.Info("bundle coordinators rerun", "bundle_job_id", id, "actions", len(out))
	return out, nil
}

// orCode returns code, or def when code is empty.
func orCode(code, def oozieerr.Code) oozieerr.Code {
	if code == "" {
		return def
	}
	return code
}
