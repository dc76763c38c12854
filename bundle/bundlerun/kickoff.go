package bundlerun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// failure is a coordinator that could not be submitted at kick-off.
type failure struct {
	name string
	err  error
}

// ready is a coordinator prepared at kick-off, with its bundle entry.
type ready struct {
	entry bundle.Coordinator
	p     *coordrun.Prepared
}

// handleKickoff starts a PREP bundle (bundle-kickoff, due at the kick-off time or at once
// after -start): each enabled coordinator is prepared through the coordinator engine
// (definition read and validated, outside any transaction), then one transaction stores
// them all in PREP with the bundle's links and moves the bundle to RUNNING. A bundle
// without an enabled coordinator (E1318), or with one that cannot be submitted, becomes
// FAILED and none of its coordinators is stored. A bundle that is not PREP any more
// (suspended or paused before its kick-off, killed) is left alone: resume and unpause
// schedule the kick-off again. Reading an application fails the handler instead, to be
// retried with backoff, when the filesystem rather than the application is at fault.
func (r *Runner) handleKickoff(ctx context.Context, run *engine.Claim) error {
	id := run.Trigger.EntityID
	return retryConflicts(ctx, func() error {
		var job store.BundleJob
		err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) { job, err = x.GetBundleJob(ctx, id); return err })
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if job.Status != store.JobPrep {
			r.log.Info("bundle kick-off skipped", "bundle_job_id", id, "status", job.Status)
			return run.Finish(ctx, time.Time{}, nil)
		}
		def, err := r.definition(&job)
		if err != nil {
			return err
		}
		props, err := conf.ParseConfigurationXML(job.Conf, "bundle job "+id+" configuration")
		if err != nil {
			return err
		}
		var prepared []ready
		var failed []failure
		enabled := def.Enabled()
		for _, c := range enabled {
			p, err := r.cfg.Coordinators.Prepare(ctx, coordinatorConf(props, c, id),
				coordrun.SubmitOptions{BundleID: id, BundleCoordName: c.Name})
			if err != nil {
				if transient(err) {
					return fmt.Errorf("kick-off of bundle %s: preparing coordinator %s: %w", id, c.Name, err)
				}
				failed = append(failed, failure{name: c.Name, err: err})
				continue
			}
			prepared = append(prepared, ready{entry: c, p: p})
		}
		return run.Finish(ctx, time.Time{}, func(x store.Tx) error {
			return r.kickoff(ctx, x, job, enabled, prepared, failed)
		})
	})
}

// transient reports whether a coordinator's submission failed for want of its filesystem
// (Oozie's IO error codes, or no code at all) rather than for its application.
func transient(err error) bool {
	switch ErrorCode(err) {
	case "", oozieerr.E0803, oozieerr.E0702, oozieerr.E0307:
		return true
	}
	return false
}

// kickoff writes the outcome of a kick-off in x: the coordinators and links, or the
// failure. The bundle is moved by compare-and-set on the version it was read at.
func (r *Runner) kickoff(ctx context.Context, x store.Tx, job store.BundleJob, enabled []bundle.Coordinator,
	prepared []ready, failed []failure) error {
	now := r.now()
	updated := job
	updated.LastModified = now
	// The kick-off moves a PREP bundle to FAILED or RUNNING (store.BundleJobMachine).
	if len(enabled) == 0 || len(failed) > 0 {
		updated.Status = store.JobFailed
		if err := x.UpdateBundleJob(ctx, &updated, store.JobPrep); err != nil {
			return err
		}
		if len(enabled) == 0 {
			r.log.Error("bundle failed: "+oozieerr.E1318+": no enabled coordinator", "bundle_job_id", job.ID)
			return nil
		}
		bad := map[string]bool{}
		for _, f := range failed {
			bad[f.name] = true
			r.log.Error("bundle failed: a coordinator could not be submitted", "bundle_job_id", job.ID, "coordinator", f.name,
				"error_code", ErrorCode(f.err), "error", f.err)
		}
		for _, c := range enabled {
			// A coordinator that could not be submitted FAILED; the others were never
			// created, which Oozie shows as KILLED.
			status := store.JobKilled
			if bad[c.Name] {
				status = store.JobFailed
			}
			a := store.BundleAction{ID: bundle.ActionID(job.ID, c.Name), BundleID: job.ID, CoordName: c.Name, Status: status,
				Critical: c.Critical, LastModified: now}
			if err := x.InsertBundleAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	}
	updated.Status, updated.StartTime = store.JobRunning, now
	if err := x.UpdateBundleJob(ctx, &updated, store.JobPrep); err != nil {
		return err
	}
	for _, c := range prepared {
		if err := c.p.Insert(ctx, x); err != nil {
			return err
		}
		a := store.BundleAction{ID: bundle.ActionID(job.ID, c.entry.Name), BundleID: job.ID, CoordName: c.entry.Name,
			CoordID: c.p.ID(), Status: store.JobPrep, Critical: c.entry.Critical, LastModified: now}
		if err := x.InsertBundleAction(ctx, &a); err != nil {
			return err
		}
	}
	r.log.Info("bundle kicked off", "bundle_job_id", job.ID, "coordinators", len(prepared))
	return r.scheduleStatus(ctx, x, job.ID)
}
