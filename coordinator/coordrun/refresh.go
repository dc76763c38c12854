package coordrun

import (
	"fmt"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// refreshAction materializes action number a.ActionNumber again, at its
// nominal time and with now as its actual time (rerun -refresh): events and
// missing dependencies are resolved afresh from the job's definition.
//
// The coordinator core materializes windows, not single actions, so this
// runs it over a window made to hold exactly that action: the job state just
// before the action, its nominal time as the next materialization, and an
// end one minute later. A daily-or-longer cron in a daylight-saving zone may
// have shifted a nominal time off the cron's own fire times; such an action is
// found again by materializing from the fire time before it.
func refreshAction(def *coordinator.Job, job store.CoordJob, a store.CoordAction, now time.Time, s coordinator.Settings) (coordinator.NewAction, error) {
	try := func(last int, from, to time.Time, n int) (coordinator.NewAction, bool, error) {
		row := job
		row.Status, row.DoneMaterialization = store.JobRunning, false
		row.LastActionNumber, row.NextMaterializedTime, row.LastActionTime = last, from, time.Time{}
		row.EndTime, row.PauseTime = to, time.Time{}
		row.ExecutionOrder, row.Throttle = string(coordinator.FIFO), n
		set := s
		if ahead := from.Sub(now) + time.Hour; ahead > set.LookupInterval {
			set.LookupInterval = ahead
		}
		res, err := coordinator.Materialize(coordinator.MaterializeRequest{Job: def, JobID: job.ID, Row: row, Now: now, Settings: set})
		if err != nil {
			return coordinator.NewAction{}, false, err
		}
		for _, na := range res.Actions {
			if na.Row.ActionNumber == a.ActionNumber && na.Row.NominalTime.Equal(a.NominalTime) {
				return na, true, nil
			}
		}
		return coordinator.NewAction{}, false, nil
	}
	nt := a.NominalTime
	if na, ok, err := try(a.ActionNumber-1, nt, nt.Add(time.Minute), 1); err != nil || ok {
		return na, err
	}
	if def.Frequency.Unit == oozietime.Cron {
		loc := def.Format.Location()
		for shift := -2 * time.Hour; shift <= 2*time.Hour; shift += 30 * time.Minute {
			raw := nt.Add(shift)
			if next, ok := def.Frequency.Cron.Next(raw.Add(-time.Minute), loc); shift == 0 || !ok || !next.Equal(raw) {
				continue
			}
			prev, ok := previousFire(def.Frequency.Cron, raw, loc)
			if !ok {
				continue
			}
			if na, ok, err := try(a.ActionNumber-2, prev, raw.Add(time.Minute), 2); err != nil || ok {
				return na, err
			}
		}
	}
	return coordinator.NewAction{}, fmt.Errorf("action %s at %s cannot be materialized again from the job's definition",
		a.ID, def.Format.Format(nt))
}

// previousFire finds the cron's last fire time before t, looking back up to
// a year.
func previousFire(c *oozietime.CronSpec, t time.Time, loc *time.Location) (time.Time, bool) {
	for _, back := range []time.Duration{25 * time.Hour, 8 * 24 * time.Hour, 32 * 24 * time.Hour, 367 * 24 * time.Hour} {
		var prev time.Time
		at := t.Add(-back)
		for i := 0; i < 1000; i++ {
			next, ok := c.Next(at, loc)
			if !ok || !next.Before(t) {
				break
			}
			prev, at = next, next
		}
		if !prev.IsZero() {
			return prev, true
		}
	}
	return time.Time{}, false
}
