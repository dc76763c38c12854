package bundlerun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/store"
)

// handleStatus rolls a bundle's status up from its coordinators (bundle-status, one trigger
// per bundle). Every status change of a coordinator schedules it in its own transaction
// (OnCoordinatorChange), and so does every bundle command, so a bundle follows its
// coordinators at once instead of after Oozie's 60-second pass. It also applies the pause
// time: the trigger is kept due at a pause time still ahead, when the bundle pauses; a
// pause time moved away unpauses it, and a PREPPAUSED bundle that becomes PREP again has
// its kick-off scheduled. The bundle's links follow their coordinators' statuses.
func (r *Runner) handleStatus(ctx context.Context, run *engine.Claim) error {
	id := run.Trigger.EntityID
	return retryConflicts(ctx, func() error {
		return run.Finish(ctx, time.Time{}, func(x store.Tx) error {
			job, err := x.GetBundleJob(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			coords, err := coordinators(ctx, x, id)
			if err != nil {
				return err
			}
			now := r.now()
			children := make([]store.JobStatus, 0, len(coords))
			for _, c := range coords {
				children = append(children, c.Status)
			}
			status := coordinator.HideErrors(job.Status.WithPause(job.PauseTime, now), r.hide)
			// No command to a coordinator is ever pending here: the bundle commands reach
			// their coordinators in their own transaction.
			next := bundle.Rollup(bundle.State{Status: status, Paused: !job.PauseTime.IsZero(),
				Suspended: !job.SuspendedTime.IsZero(), Children: children}, r.hide)
			if next != job.Status {
				before := job.Status
				job.Status, job.LastModified = next, now
				if err := x.UpdateBundleJob(ctx, &job, before); err != nil {
					return err
				}
				r.log.Info("bundle job status changed", "bundle_job_id", id, "from", before, "to", next)
				if before == store.JobPrepPaused && next == store.JobPrep {
					if err := x.Schedule(ctx, KindKickoff, id, later(job.KickoffTime, now), ""); err != nil {
						return err
					}
				}
			}
			if err := r.syncActions(ctx, x, id, coords, now); err != nil {
				return err
			}
			if !job.Status.Terminal() && job.PauseTime.After(now) {
				// Kept for the release: the trigger stays due at the pause time.
				return x.Schedule(ctx, KindStatus, id, job.PauseTime, "")
			}
			return nil
		})
	})
}

// syncActions copies the coordinators' statuses to the bundle's links.
func (r *Runner) syncActions(ctx context.Context, x store.Tx, id string, coords []store.CoordJob, now time.Time) error {
	byID := make(map[string]store.JobStatus, len(coords))
	for _, c := range coords {
		byID[c.ID] = c.Status
	}
	acts, err := x.ListBundleActions(ctx, id)
	if err != nil {
		return err
	}
	for _, a := range acts {
		s, ok := byID[a.CoordID]
		if !ok || s == a.Status {
			continue
		}
		a.Status, a.LastModified = s, now
		if err := x.UpdateBundleAction(ctx, &a); err != nil {
			return err
		}
	}
	return nil
}

// later returns the later of t and now.
func later(t, now time.Time) time.Time {
	if t.After(now) {
		return t
	}
	return now
}
