package bundle

import (
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// State is what the bundle status roll-up looks at.
type State struct {
	// Status is the bundle's current status.
	Status store.JobStatus
	// Paused and Suspended say whether the bundle has a pause time and a suspended time
	// set.
	Paused    bool
	Suspended bool
	// Pending is set while some command to a coordinator is still in flight.
	Pending bool
	// Children are the statuses of the bundle's coordinators; IGNORED ones are left out.
	Children []store.JobStatus
}

// Rollup computes a bundle's status from its coordinators (§2 of the semantics reference):
//
//  1. terminal when nothing is pending and every coordinator is SUCCEEDED, FAILED, KILLED
//     or DONEWITHERROR: a KILLED bundle stays KILLED, all SUCCEEDED is SUCCEEDED, all
//     KILLED is KILLED, all FAILED is FAILED, anything else DONEWITHERROR;
//  2. a PAUSED bundle (or PAUSEDWITHERROR with its pause time set) stays paused, with
//     error when a coordinator failed, was killed, ended with errors or is in a *WITHERROR
//     state; bottom-up, all coordinators PAUSED make it PAUSED, all PAUSED or
//     PAUSEDWITHERROR (one at least) PAUSEDWITHERROR;
//  3. a SUSPENDED bundle with its suspended time set stays suspended, with error alike;
//     bottom-up, coordinators all SUSPENDED or SUCCEEDED (one suspended at least) make it
//     SUSPENDED, and SUSPENDED*, SUCCEEDED, KILLED, FAILED or DONEWITHERROR make it
//     SUSPENDEDWITHERROR;
//  4. otherwise a bundle that is not PREP is RUNNING, or RUNNINGWITHERROR when a
//     coordinator FAILED, was KILLED, is DONEWITHERROR or RUNNINGWITHERROR; a PREP bundle
//     some of whose coordinators have left PREP follows the same rule.
//
// It mirrors Oozie's bundle status transit, operator precedence included, with two
// guards Oozie gets from only looking at running bundles: a KILLED bundle never comes
// back, and a bundle without coordinators keeps its status. With hideErrorStates (Oozie's
// default backward support) the *WITHERROR states become plain ones.
func Rollup(s State, hideErrorStates bool) store.JobStatus {
	counts := map[store.JobStatus]int{}
	total := 0
	for _, c := range s.Children {
		if c == store.JobIgnored {
			continue
		}
		counts[c]++
		total++
	}
	if s.Status == store.JobKilled || total == 0 {
		return s.Status
	}
	n := func(ss ...store.JobStatus) int {
		sum := 0
		for _, st := range ss {
			sum += counts[st]
		}
		return sum
	}
	has := func(st store.JobStatus) bool { return counts[st] > 0 }
	endedWithError := has(store.JobKilled) || has(store.JobFailed) || has(store.JobDoneWithError)
	var next store.JobStatus
	switch {
	case !s.Pending && total == n(store.JobSucceeded, store.JobFailed, store.JobKilled, store.JobDoneWithError):
		switch total {
		case counts[store.JobSucceeded]:
			next = store.JobSucceeded
		case counts[store.JobKilled]:
			next = store.JobKilled
		case counts[store.JobFailed]:
			next = store.JobFailed
		default:
			next = store.JobDoneWithError
		}
	// Oozie tests "PAUSED || (PAUSEDWITHERROR && pause time set)".
	case s.Status == store.JobPaused || (s.Status == store.JobPausedWithError && s.Paused):
		next = pick(endedWithError || has(store.JobSuspendedWithError) || has(store.JobRunningWithError) ||
			has(store.JobPausedWithError), store.JobPausedWithError, store.JobPaused)
	case has(store.JobPaused) && total == counts[store.JobPaused]:
		next = store.JobPaused
	case has(store.JobPausedWithError) && total == n(store.JobPaused, store.JobPausedWithError):
		next = store.JobPausedWithError
	case (s.Status == store.JobSuspended || s.Status == store.JobSuspendedWithError) && s.Suspended:
		next = pick(endedWithError || has(store.JobSuspendedWithError) || has(store.JobPausedWithError),
			store.JobSuspendedWithError, store.JobSuspended)
	case ((!s.Pending && has(store.JobSuspended)) || has(store.JobSuspendedWithError)) &&
		total == n(store.JobSuspended, store.JobSucceeded):
		next = store.JobSuspended
	case ((!s.Pending && has(store.JobSuspended)) || has(store.JobSuspendedWithError)) &&
		total == n(store.JobSuspendedWithError, store.JobSuspended, store.JobSucceeded, store.JobKilled, store.JobFailed,
			store.JobDoneWithError):
		next = store.JobSuspendedWithError
	case s.Status != store.JobPrep:
		next = pick(endedWithError || has(store.JobRunningWithError), store.JobRunningWithError, store.JobRunning)
	case !s.Pending && has(store.JobPrep) && total > counts[store.JobPrep]:
		next = pick(endedWithError || has(store.JobRunningWithError), store.JobRunningWithError, store.JobRunning)
	default:
		return s.Status
	}
	return coordinator.HideErrors(next, hideErrorStates)
}

// pick returns a if cond, else b.
func pick(cond bool, a, b store.JobStatus) store.JobStatus {
	if cond {
		return a
	}
	return b
}

// PauseStatus applies a bundle's pause time to its status, as Oozie's pause service does:
// once the pause time is reached RUNNING becomes PAUSED (RUNNINGWITHERROR
// PAUSEDWITHERROR, PREP PREPPAUSED); without a pause time, or with one still ahead, the
// paused states go back. Other statuses are returned unchanged.
func PauseStatus(s store.JobStatus, pauseTime, now time.Time) store.JobStatus {
	if !pauseTime.IsZero() && !pauseTime.After(now) {
		switch s {
		case store.JobRunning:
			return store.JobPaused
		case store.JobRunningWithError:
			return store.JobPausedWithError
		case store.JobPrep:
			return store.JobPrepPaused
		}
		return s
	}
	switch s {
	case store.JobPaused:
		return store.JobRunning
	case store.JobPausedWithError:
		return store.JobRunningWithError
	case store.JobPrepPaused:
		return store.JobPrep
	}
	return s
}
