package coordinator

import (
	"slices"
	"testing"

	"github.com/gozie/gozie/store"
)

func TestRollupCoordinator(t *testing.T) {
	t.Parallel()
	const (
		W  = store.CoordActionWaiting
		RU = store.CoordActionRunning
		S  = store.CoordActionSucceeded
		K  = store.CoordActionKilled
		F  = store.CoordActionFailed
		TO = store.CoordActionTimedOut
		SK = store.CoordActionSkipped
		SU = store.CoordActionSuspended
		IG = store.CoordActionIgnored
	)
	tests := []struct {
		id   string
		in   JobRollup
		hide bool
		want store.JobStatus
	}{
		{"R2", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{K, S, S}}, true, store.JobDoneWithError},
		{"R4", JobRollup{Status: store.JobRunning, Actions: []store.CoordActionStatus{RU, RU, RU}}, true, store.JobRunning},
		{"R6", JobRollup{Status: store.JobKilled, DoneMaterialization: true, Actions: []store.CoordActionStatus{S}}, true, store.JobKilled},
		{"all succeeded", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{S, SK, S}}, true, store.JobSucceeded},
		{"no actions", JobRollup{Status: store.JobRunning, DoneMaterialization: true}, true, store.JobSucceeded},
		{"all killed", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{K, K}}, true, store.JobKilled},
		{"all failed", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{F}}, true, store.JobFailed},
		{"all timed out", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{TO, TO}}, true, store.JobDoneWithError},
		{"ignored actions do not count", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{S, IG}}, true, store.JobSucceeded},
		{"not done", JobRollup{Status: store.JobRunning, Actions: []store.CoordActionStatus{S, S}}, true, store.JobRunning},
		{"running with error hidden", JobRollup{Status: store.JobRunning, Actions: []store.CoordActionStatus{F, W}}, true, store.JobRunning},
		{"running with error shown", JobRollup{Status: store.JobRunning, Actions: []store.CoordActionStatus{F, W}}, false, store.JobRunningWithError},
		{"paused", JobRollup{Status: store.JobPaused, Actions: []store.CoordActionStatus{K, W}}, false, store.JobPausedWithError},
		{"paused hidden", JobRollup{Status: store.JobPausedWithError, Actions: []store.CoordActionStatus{K, W}}, true, store.JobPaused},
		{"suspended", JobRollup{Status: store.JobSuspended, Actions: []store.CoordActionStatus{SU, W}}, false, store.JobSuspended},
		{"prep suspended stays", JobRollup{Status: store.JobPrepSuspended}, true, store.JobPrepSuspended},
		{"bottom-up suspended", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{SU, S}}, false, store.JobSuspended},
		{"bottom-up suspended with error", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Actions: []store.CoordActionStatus{SU, F}}, false, store.JobSuspendedWithError},
		{"pending blocks bottom-up", JobRollup{Status: store.JobRunning, DoneMaterialization: true, Pending: true, Actions: []store.CoordActionStatus{SU, S}}, false, store.JobRunning},
		{"terminal job never suspended", JobRollup{Status: store.JobSucceeded, DoneMaterialization: true, Actions: []store.CoordActionStatus{SU, S}}, false, store.JobSucceeded},
		{"prep stays", JobRollup{Status: store.JobPrep}, true, store.JobPrep},
		{"failed job terminal", JobRollup{Status: store.JobFailed, Actions: []store.CoordActionStatus{S, K}}, true, store.JobDoneWithError},
		{"killed job still killing", JobRollup{Status: store.JobKilled, DoneMaterialization: true, Actions: []store.CoordActionStatus{K, W}}, true, store.JobKilled},
		{"failed job with running actions", JobRollup{Status: store.JobFailed, Actions: []store.CoordActionStatus{S, RU, SU}}, false, store.JobFailed},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			if got := RollupCoordinator(tc.in, tc.hide); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestRollupUnchangedByLiveMoves: for every job status, materialization and
// pending flag, hidden error states or not, and every list of up to three
// other action statuses, moving one action between the statuses
// RollupUnchangedBy accepts gives the roll-up it gave before; and each
// status it refuses changes some roll-up when moved to from a live one.
func TestRollupUnchangedByLiveMoves(t *testing.T) {
	t.Parallel()
	all := store.CoordActionStatuses
	var others [][]store.CoordActionStatus
	var grow func(prefix []store.CoordActionStatus, from int)
	grow = func(prefix []store.CoordActionStatus, from int) {
		others = append(others, slices.Clone(prefix))
		if len(prefix) == 3 {
			return
		}
		for i := from; i < len(all); i++ {
			grow(append(prefix, all[i]), i)
		}
	}
	grow(nil, 0)
	changes := map[store.CoordActionStatus]bool{}
	for _, job := range store.JobStatuses {
		for _, done := range []bool{false, true} {
			for _, pending := range []bool{false, true} {
				for _, hideErr := range []bool{false, true} {
					for _, rest := range others {
						rollup := func(s store.CoordActionStatus) store.JobStatus {
							return RollupCoordinator(JobRollup{Status: job, DoneMaterialization: done, Pending: pending,
								Actions: append(slices.Clone(rest), s)}, hideErr)
						}
						for _, from := range all {
							for _, to := range all {
								if from == to || !RollupUnchangedBy(from, store.CoordActionRunning) {
									continue
								}
								same := rollup(from) == rollup(to)
								if RollupUnchangedBy(from, to) && !same {
									t.Errorf("job %s done %v pending %v hide %v, others %v: moving %s → %s changes the roll-up %s → %s",
										job, done, pending, hideErr, rest, from, to, rollup(from), rollup(to))
								}
								if !same {
									changes[to] = true
								}
							}
						}
					}
				}
			}
		}
	}
	for _, s := range all {
		if !RollupUnchangedBy(store.CoordActionRunning, s) && !changes[s] && s != store.CoordActionIgnored {
			t.Errorf("moving to %s never changes a roll-up: RollupUnchangedBy could accept it", s)
		}
	}
}
