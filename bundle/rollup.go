package bundle

import (
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
	t := coordinator.NewTally(s.Children, store.JobIgnored)
	if s.Status == store.JobKilled || t.Total() == 0 {
		return s.Status
	}
	endedWithError := t.Has(store.JobKilled) || t.Has(store.JobFailed) || t.Has(store.JobDoneWithError)
	pick := coordinator.Pick[store.JobStatus]
	var next store.JobStatus
	switch {
	case !s.Pending && t.Only(store.JobSucceeded, store.JobFailed, store.JobKilled, store.JobDoneWithError):
		switch {
		case t.Only(store.JobSucceeded):
			next = store.JobSucceeded
		case t.Only(store.JobKilled):
			next = store.JobKilled
		case t.Only(store.JobFailed):
			next = store.JobFailed
		default:
			next = store.JobDoneWithError
		}
	// Oozie tests "PAUSED || (PAUSEDWITHERROR && pause time set)".
	case s.Status == store.JobPaused || (s.Status == store.JobPausedWithError && s.Paused):
		next = pick(endedWithError || t.Has(store.JobSuspendedWithError) || t.Has(store.JobRunningWithError) ||
			t.Has(store.JobPausedWithError), store.JobPausedWithError, store.JobPaused)
	case t.Has(store.JobPaused) && t.Only(store.JobPaused):
		next = store.JobPaused
	case t.Has(store.JobPausedWithError) && t.Only(store.JobPaused, store.JobPausedWithError):
		next = store.JobPausedWithError
	case (s.Status == store.JobSuspended || s.Status == store.JobSuspendedWithError) && s.Suspended:
		next = pick(endedWithError || t.Has(store.JobSuspendedWithError) || t.Has(store.JobPausedWithError),
			store.JobSuspendedWithError, store.JobSuspended)
	case ((!s.Pending && t.Has(store.JobSuspended)) || t.Has(store.JobSuspendedWithError)) &&
		t.Only(store.JobSuspended, store.JobSucceeded):
		next = store.JobSuspended
	case ((!s.Pending && t.Has(store.JobSuspended)) || t.Has(store.JobSuspendedWithError)) &&
		t.Only(store.JobSuspendedWithError, store.JobSuspended, store.JobSucceeded, store.JobKilled, store.JobFailed,
			store.JobDoneWithError):
		next = store.JobSuspendedWithError
	case s.Status != store.JobPrep:
		next = pick(endedWithError || t.Has(store.JobRunningWithError), store.JobRunningWithError, store.JobRunning)
	case !s.Pending && t.Has(store.JobPrep) && !t.Only(store.JobPrep):
		next = pick(endedWithError || t.Has(store.JobRunningWithError), store.JobRunningWithError, store.JobRunning)
	default:
		return s.Status
	}
	return coordinator.HideErrors(next, hideErrorStates)
}
