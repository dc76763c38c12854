package bundle

import (
	"testing"

	"github.com/gozie/gozie/store"
)

// TestRollup covers every rule of the bundle roll-up (§2), and R8/R10 of the cases.
func TestRollup(t *testing.T) {
	t.Parallel()
	const (
		P   = store.JobPrep
		R   = store.JobRunning
		RE  = store.JobRunningWithError
		S   = store.JobSuspended
		SE  = store.JobSuspendedWithError
		PS  = store.JobPrepSuspended
		PA  = store.JobPaused
		PAE = store.JobPausedWithError
		OK  = store.JobSucceeded
		DE  = store.JobDoneWithError
		K   = store.JobKilled
		F   = store.JobFailed
		IG  = store.JobIgnored
	)
	c := func(ss ...store.JobStatus) []store.JobStatus { return ss }
	tests := []struct {
		id   string
		in   State
		hide bool
		want store.JobStatus
	}{
		// 1. terminal
		{"R8", State{Status: R, Children: c(K)}, true, K},
		{"all succeeded", State{Status: R, Children: c(OK, OK)}, true, OK},
		{"all killed", State{Status: R, Children: c(K, K)}, true, K},
		{"all failed", State{Status: R, Children: c(F, F)}, true, F},
		{"mixed terminal", State{Status: R, Children: c(OK, F)}, true, DE},
		{"one done with error", State{Status: R, Children: c(OK, DE)}, true, DE},
		{"killed bundle stays killed", State{Status: K, Children: c(OK, OK)}, true, K},
		{"killed bundle stays killed while a coordinator runs", State{Status: K, Children: c(R, K)}, false, K},
		{"pending is not terminal", State{Status: R, Pending: true, Children: c(OK)}, true, R},
		{"ignored children left out", State{Status: R, Children: c(OK, IG)}, true, OK},
		{"terminal bundle follows a coordinator running again", State{Status: OK, Children: c(R, OK)}, true, R},
		// 2. paused
		{"paused stays paused", State{Status: PA, Paused: true, Children: c(R, R)}, false, PA},
		{"paused with a failed coordinator", State{Status: PA, Paused: true, Children: c(R, F)}, false, PAE},
		{"paused with a suspended-with-error coordinator", State{Status: PA, Children: c(SE, R)}, false, PAE},
		{"paused with error hidden", State{Status: PA, Paused: true, Children: c(R, K)}, true, PA},
		{"paused with error and pause time", State{Status: PAE, Paused: true, Children: c(R)}, false, PA},
		{"paused with error without pause time", State{Status: PAE, Children: c(R)}, false, R},
		{"bottom-up paused", State{Status: R, Children: c(PA, PA)}, true, PA},
		{"bottom-up paused with error", State{Status: R, Children: c(PA, PAE)}, false, PAE},
		{"not all paused", State{Status: R, Children: c(PA, R)}, false, R},
		// 3. suspended
		{"R10", State{Status: R, Children: c(S, SE)}, false, SE},
		{"R10 hidden", State{Status: R, Children: c(S, SE)}, true, S},
		{"suspended stays suspended", State{Status: S, Suspended: true, Children: c(R, R)}, false, S},
		{"suspended with a killed coordinator", State{Status: S, Suspended: true, Children: c(S, K)}, false, SE},
		{"suspended with a paused-with-error coordinator", State{Status: S, Suspended: true, Children: c(S, PAE)}, false, SE},
		{"all paused wins over suspended", State{Status: S, Suspended: true, Children: c(PAE)}, false, PAE},
		{"suspended without suspended time follows", State{Status: S, Children: c(R, R)}, false, R},
		{"bottom-up suspended", State{Status: R, Children: c(S, OK)}, false, S},
		{"bottom-up suspended waits for pending", State{Status: R, Pending: true, Children: c(S, OK)}, false, R},
		{"bottom-up suspended with error", State{Status: R, Children: c(S, F, DE)}, false, SE},
		{"bottom-up suspended with error even pending", State{Status: R, Pending: true, Children: c(SE, S, K)}, false, SE},
		{"suspended and running", State{Status: R, Children: c(S, R)}, false, R},
		// 4. running
		{"running", State{Status: R, Children: c(R, P)}, false, R},
		{"running with a failed coordinator", State{Status: R, Children: c(R, F)}, false, RE},
		{"running with a done-with-error coordinator", State{Status: R, Children: c(R, DE)}, false, RE},
		{"running with a running-with-error coordinator", State{Status: R, Children: c(RE, OK)}, false, RE},
		{"running with error hidden", State{Status: R, Children: c(R, K)}, true, R},
		{"resumed bundle follows its coordinators", State{Status: R, Children: c(PS, R)}, false, R},
		{"prep with a started child", State{Status: P, Children: c(P, R)}, true, R},
		{"prep with a started child pending", State{Status: P, Pending: true, Children: c(P, R)}, true, P},
		{"prep with a failed child", State{Status: P, Children: c(P, F)}, false, RE},
		{"prep stays prep", State{Status: P, Children: c(P)}, true, P},
		{"no coordinators: unchanged", State{Status: F}, true, F},
		{"prep without coordinators", State{Status: P}, true, P},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			if got := Rollup(tc.in, tc.hide); got != tc.want {
				t.Fatalf("Rollup(%+v) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestRollupNeverIgnored checks over every combination of two coordinator statuses that
// a bundle is never rolled up to IGNORED or to a status outside the job statuses.
func TestRollupNeverIgnored(t *testing.T) {
	t.Parallel()
	for _, from := range store.JobStatuses {
		if from == store.JobIgnored {
			continue
		}
		for _, a := range store.JobStatuses {
			for _, b := range store.JobStatuses {
				for _, hide := range []bool{false, true} {
					got := Rollup(State{Status: from, Children: []store.JobStatus{a, b}}, hide)
					if got == store.JobIgnored || !validStatus(got) {
						t.Fatalf("Rollup(%s; %s, %s) = %q", from, a, b, got)
					}
					live := a != store.JobIgnored || b != store.JobIgnored
					if hide && live && (got == store.JobRunningWithError || got == store.JobSuspendedWithError || got == store.JobPausedWithError) {
						t.Fatalf("Rollup(%s; %s, %s) = %s with errors hidden", from, a, b, got)
					}
				}
			}
		}
	}
}

func validStatus(s store.JobStatus) bool {
	for _, v := range store.JobStatuses {
		if v == s {
			return true
		}
	}
	return false
}
