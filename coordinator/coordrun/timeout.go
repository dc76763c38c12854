package coordrun

import (
	"context"
	"slices"
	"time"

	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// handleTimeout makes sure a waiting action is checked when its timeout
// expires (coord-timeout, one trigger per job, due at the earliest deadline
// among the job's WAITING actions). It does not time actions out itself: it
// schedules their input check at once, and the check, as in Oozie, first
// looks at the dependencies and only then turns the action TIMEDOUT, so data
// that arrived just in time still counts.
func (r *Runner) handleTimeout(ctx context.Context, run *engine.Claim) error {
	jobID := run.Trigger.EntityID
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		job, err := lockJob(ctx, x, jobID)
		if ErrorCode(err) == oozieerr.E0604 {
			return nil
		}
		if err != nil {
			return err
		}
		if !inputCheckable(job.Status) {
			return nil // a resume schedules it again
		}
		waiting, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: jobID,
			Statuses: []store.CoordActionStatus{store.CoordActionWaiting}})
		if err != nil {
			return err
		}
		now := r.now()
		due, later := expiredActions(waiting, now)
		for _, id := range due {
			if err := x.Schedule(ctx, KindInputCheck, id, now, ""); err != nil {
				return err
			}
		}
		return reschedule(ctx, x, run, later)
	})
}

// expiredActions splits waiting actions into those whose timeout has
// expired at now and the earliest deadline still ahead (zero if none).
func expiredActions(waiting []store.CoordAction, now time.Time) (due []string, next time.Time) {
	for _, a := range waiting {
		d, ok := timeoutDeadline(a)
		switch {
		case !ok:
		case !now.Before(d):
			due = append(due, a.ID)
		case next.IsZero() || d.Before(next):
			next = d
		}
	}
	slices.Sort(due) // triggers are always scheduled in id order (see Notify)
	return due, next
}
