package coordinator

import "github.com/gozie/gozie/store"

// JobRollup is what the coordinator status roll-up looks at.
type JobRollup struct {
	// Status is the job's current status.
	Status store.JobStatus
	// DoneMaterialization is set once every action has been materialized.
	DoneMaterialization bool
	// Pending is set while some action has work in progress (Oozie's pending counter).
	Pending bool
	// Actions are the statuses of the job's actions; IGNORED ones are left out of every
	// count.
	Actions []store.CoordActionStatus
}

// RollupCoordinator computes a coordinator job's status from its actions (§1.9): terminal
// when materialization is done (or the job FAILED/KILLED) and every action is SUCCEEDED,
// FAILED, KILLED, TIMEDOUT or SKIPPED; a FAILED or KILLED job whose actions have not all
// finished stays as it is; otherwise paused, suspended (also bottom-up from suspended
// actions) or running, with *WITHERROR when some action failed, was killed or timed out. With hideErrorStates (Oozie's default backward support) the *WITHERROR states
// become plain ones. A terminal job never becomes SUSPENDED; the current status is returned
// when nothing applies.
func RollupCoordinator(r JobRollup, hideErrorStates bool) store.JobStatus {
	t := NewTally(r.Actions, store.CoordActionIgnored)
	withError := t.N(store.CoordActionKilled, store.CoordActionFailed, store.CoordActionTimedOut) > 0
	var next store.JobStatus
	switch {
	case (r.DoneMaterialization || r.Status == store.JobFailed || r.Status == store.JobKilled) &&
		t.Only(store.CoordActionSucceeded, store.CoordActionFailed, store.CoordActionKilled,
			store.CoordActionTimedOut, store.CoordActionSkipped):
		switch {
		case r.Status == store.JobKilled:
			next = store.JobKilled
		case t.Only(store.CoordActionSucceeded, store.CoordActionSkipped) && r.DoneMaterialization:
			next = store.JobSucceeded
		case t.Only(store.CoordActionKilled):
			next = store.JobKilled
		case t.Only(store.CoordActionFailed):
			next = store.JobFailed
		default:
			next = store.JobDoneWithError
		}
	case r.Status == store.JobFailed || r.Status == store.JobKilled:
		// Some actions have not finished: a kill still killing them in batches, or a job
		// the engine failed whose running actions go on. The roll-up never brings the job
		// back; only a change of its status does (ApplyChange).
		next = r.Status
	case r.Status == store.JobPaused || r.Status == store.JobPausedWithError:
		next = Pick(withError, store.JobPausedWithError, store.JobPaused)
	case r.Status == store.JobSuspended || r.Status == store.JobSuspendedWithError:
		next = Pick(withError, store.JobSuspendedWithError, store.JobSuspended)
	case r.Status == store.JobPrepSuspended:
		next = store.JobPrepSuspended
	case r.DoneMaterialization && !r.Pending && t.Has(store.CoordActionSuspended) &&
		t.Only(store.CoordActionSuspended, store.CoordActionSucceeded):
		next = store.JobSuspended
	case r.DoneMaterialization && !r.Pending && t.Has(store.CoordActionSuspended) &&
		t.Only(store.CoordActionSuspended, store.CoordActionSucceeded, store.CoordActionKilled,
			store.CoordActionFailed, store.CoordActionTimedOut):
		next = store.JobSuspendedWithError
	case r.Status != store.JobPrep:
		next = Pick(withError, store.JobRunningWithError, store.JobRunning)
	default:
		return r.Status
	}
	if r.Status.Terminal() && (next == store.JobSuspended || next == store.JobSuspendedWithError) {
		return r.Status
	}
	return HideErrors(next, hideErrorStates)
}

// HideErrors maps the *WITHERROR states to plain ones when hide is set
// (backward.support.for.states.without.error).
func HideErrors(s store.JobStatus, hide bool) store.JobStatus {
	if !hide {
		return s
	}
	switch s {
	case store.JobRunningWithError:
		return store.JobRunning
	case store.JobSuspendedWithError:
		return store.JobSuspended
	case store.JobPausedWithError:
		return store.JobPaused
	}
	return s
}

// RollupUnchangedBy reports whether an action's move from one status to another leaves
// the roll-up of its job as it was, whatever the job and its other actions: both are
// live statuses (WAITING, READY, SUBMITTED, RUNNING), which every rule of
// RollupCoordinator sees alike, as unfinished and not suspended.
func RollupUnchangedBy(from, to store.CoordActionStatus) bool {
	return live(from) && live(to)
}

func live(s store.CoordActionStatus) bool {
	switch s {
	case store.CoordActionWaiting, store.CoordActionReady, store.CoordActionSubmitted, store.CoordActionRunning:
		return true
	}
	return false
}
