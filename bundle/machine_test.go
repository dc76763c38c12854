package bundle

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// TestDecisionsMoveAlongTheTables drives the bundle's pure decisions
// (suspend, resume, pause, roll-up, change, rerun, kill) with random events
// over coordinators that move along store.CoordJobMachine, and checks that
// every status change of the bundle is a move of store.BundleJobMachine and
// every change of a bundle's link to a coordinator, which copies the
// coordinator's status whenever the bundle's status is computed, a move of
// store.BundleActionMachine.
func TestDecisionsMoveAlongTheTables(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		hide := r.IntN(2) == 0
		job := store.BundleJob{ID: "0000001-250101000000000-gozie-B", Status: store.JobPrep, KickoffTime: now.Add(-time.Hour)}
		coords := make([]store.JobStatus, 1+r.IntN(3))
		links := make([]store.JobStatus, len(coords))
		for i := range coords {
			coords[i], links[i] = store.JobPrep, store.JobPrep
		}
		move := func(what string, next store.JobStatus) {
			t.Helper()
			if !store.BundleJobMachine.Allows(job.Status, next) {
				t.Errorf("%s moved the bundle %s -> %s, not in store.BundleJobMachine", what, job.Status, next)
			}
			job.Status = next
		}
		for n := 0; n < 100; n++ {
			switch r.IntN(10) {
			case 0:
				if next, ok := job.Status.OnSuspend(); ok {
					move("suspend", coordinator.HideErrors(next, hide))
					job.SuspendedTime = now
				}
			case 1:
				if next, ok := job.Status.OnResume(); ok {
					move("resume", coordinator.HideErrors(next, hide))
					job.SuspendedTime = time.Time{}
				}
			case 2:
				job.PauseTime = []time.Time{{}, now.Add(-time.Minute), now.Add(time.Hour)}[r.IntN(3)]
			case 3, 4:
				status := coordinator.HideErrors(job.Status.WithPause(job.PauseTime, now), hide)
				move("the roll-up", Rollup(State{Status: status, Paused: !job.PauseTime.IsZero(),
					Suspended: !job.SuspendedTime.IsZero(), Children: coords}, hide))
				for i, c := range coords {
					if !store.BundleActionMachine.Allows(links[i], c) {
						t.Errorf("the link to coordinator %d moved %s -> %s, not in store.BundleActionMachine", i, links[i], c)
					}
					links[i] = c
				}
			case 5:
				c := Change{HasEndTime: r.IntN(2) == 0, EndTime: now.Add(time.Hour), HasPauseTime: r.IntN(2) == 0}
				if d, err := DecideChange(job, c, now); err == nil && d.Apply {
					move("change", d.Job.Status)
					job = d.Job
				}
			case 6:
				if RerunAllowed(job.Status) {
					move("rerun", RerunStatus(job.Status, hide))
				}
			case 7:
				if Killable(job.Status) {
					move("kill", store.JobKilled)
				}
			default:
				// The coordinators move on their own, along their table.
				i := r.IntN(len(coords))
				if tos := store.CoordJobMachine.Moves[coords[i]]; len(tos) > 0 {
					coords[i] = tos[r.IntN(len(tos))]
				}
			}
		}
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}
