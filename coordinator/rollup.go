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
// FAILED, KILLED, TIMEDOUT or SKIPPED; otherwise paused, suspended (also bottom-up from
// suspended actions) or running, with *WITHERROR when some action failed, was killed or
// timed out. With hideErrorStates (Oozie's default backward support) the *WITHERROR states
// become plain ones. A terminal job never becomes SUSPENDED; the current status is returned
// when nothing applies.
func RollupCoordinator(r JobRollup, hideErrorStates bool) store.JobStatus {
	counts := map[store.CoordActionStatus]int{}
	total := 0
	for _, s := range r.Actions {
		if s == store.CoordActionIgnored {
			continue
		}
		counts[s]++
		total++
	}
	n := func(ss ...store.CoordActionStatus) int {
		sum := 0
		for _, s := range ss {
			sum += counts[s]
		}
		return sum
	}
	withError := n(store.CoordActionKilled, store.CoordActionFailed, store.CoordActionTimedOut) > 0
	var next store.JobStatus
	switch {
	case (r.DoneMaterialization || r.Status == store.JobFailed || r.Status == store.JobKilled) &&
		total == n(store.CoordActionSucceeded, store.CoordActionFailed, store.CoordActionKilled,
			store.CoordActionTimedOut, store.CoordActionSkipped):
		switch {
		case r.Status == store.JobKilled:
			next = store.JobKilled
		case total == n(store.CoordActionSucceeded, store.CoordActionSkipped) && r.DoneMaterialization:
			next = store.JobSucceeded
		case total == counts[store.CoordActionKilled]:
			next = store.JobKilled
		case total == counts[store.CoordActionFailed]:
			next = store.JobFailed
		default:
			next = store.JobDoneWithError
		}
	case r.Status == store.JobPaused || r.Status == store.JobPausedWithError:
		next = pick(withError, store.JobPausedWithError, store.JobPaused)
	case r.Status == store.JobSuspended || r.Status == store.JobSuspendedWithError:
		next = pick(withError, store.JobSuspendedWithError, store.JobSuspended)
	case r.Status == store.JobPrepSuspended:
		next = store.JobPrepSuspended
	case r.DoneMaterialization && !r.Pending && counts[store.CoordActionSuspended] > 0 &&
		total == n(store.CoordActionSuspended, store.CoordActionSucceeded):
		next = store.JobSuspended
	case r.DoneMaterialization && !r.Pending && counts[store.CoordActionSuspended] > 0 &&
		total == n(store.CoordActionSuspended, store.CoordActionSucceeded, store.CoordActionKilled,
			store.CoordActionFailed, store.CoordActionTimedOut):
		next = store.JobSuspendedWithError
	case r.Status != store.JobPrep:
		next = pick(withError, store.JobRunningWithError, store.JobRunning)
	default:
		return r.Status
	}
	if r.Status.Terminal() && (next == store.JobSuspended || next == store.JobSuspendedWithError) {
		return r.Status
	}
	return HideErrors(next, hideErrorStates)
}

// BundleRollup is what the bundle status roll-up looks at.
type BundleRollup struct {
	// Status is the bundle's current status.
	Status store.JobStatus
	// Paused and Suspended say whether the bundle has a pause time and a suspended time set.
	Paused    bool
	Suspended bool
	// Pending is set while some bundle action has work in progress.
	Pending bool
	// Children are the statuses of the bundle's coordinators; IGNORED ones are left out.
	Children []store.JobStatus
}

// RollupBundle computes a bundle's status from its coordinators (§2): terminal when nothing
// is pending and every coordinator is SUCCEEDED, FAILED, KILLED or DONEWITHERROR; otherwise
// paused, suspended (also bottom-up) or running, with *WITHERROR when a coordinator failed,
// was killed, ended with errors or is itself in a *WITHERROR state. It mirrors Oozie's
// bundle status transit, including its operator precedence.
func RollupBundle(r BundleRollup, hideErrorStates bool) store.JobStatus {
	counts := map[store.JobStatus]int{}
	total := 0
	for _, s := range r.Children {
		if s == store.JobIgnored {
			continue
		}
		counts[s]++
		total++
	}
	n := func(ss ...store.JobStatus) int {
		sum := 0
		for _, s := range ss {
			sum += counts[s]
		}
		return sum
	}
	has := func(s store.JobStatus) bool { return counts[s] > 0 }
	terminatedWithError := has(store.JobKilled) || has(store.JobFailed) || has(store.JobDoneWithError)
	bottomUpPaused := func() (store.JobStatus, bool) {
		switch {
		case has(store.JobPaused) && total == counts[store.JobPaused]:
			return store.JobPaused, true
		case has(store.JobPausedWithError) && total == n(store.JobPaused, store.JobPausedWithError):
			return store.JobPausedWithError, true
		}
		return "", false
	}
	bottomUpSuspended := func() (store.JobStatus, bool) {
		if (!r.Pending && has(store.JobSuspended)) || has(store.JobSuspendedWithError) {
			switch {
			case total == n(store.JobSuspended, store.JobSucceeded):
				return store.JobSuspended, true
			case total == n(store.JobSuspendedWithError, store.JobSuspended, store.JobSucceeded, store.JobKilled,
				store.JobFailed, store.JobDoneWithError):
				return store.JobSuspendedWithError, true
			}
		}
		return "", false
	}
	var next store.JobStatus
	switch {
	case !r.Pending && total == n(store.JobSucceeded, store.JobFailed, store.JobKilled, store.JobDoneWithError):
		switch {
		case r.Status == store.JobKilled:
			next = store.JobKilled
		case total == counts[store.JobSucceeded]:
			next = store.JobSucceeded
		case total == counts[store.JobKilled]:
			next = store.JobKilled
		case total == counts[store.JobFailed]:
			next = store.JobFailed
		default:
			next = store.JobDoneWithError
		}
	// Oozie tests "PAUSED || (PAUSEDWITHERROR && pause time set)".
	case r.Status == store.JobPaused || (r.Status == store.JobPausedWithError && r.Paused):
		next = pick(terminatedWithError || has(store.JobSuspendedWithError) || has(store.JobRunningWithError) ||
			has(store.JobPausedWithError), store.JobPausedWithError, store.JobPaused)
	case func() bool { _, ok := bottomUpPaused(); return ok }():
		next, _ = bottomUpPaused()
	case (r.Status == store.JobSuspended || r.Status == store.JobSuspendedWithError) && r.Suspended:
		next = pick(terminatedWithError || has(store.JobSuspendedWithError) || has(store.JobPausedWithError),
			store.JobSuspendedWithError, store.JobSuspended)
	case func() bool { _, ok := bottomUpSuspended(); return ok }():
		next, _ = bottomUpSuspended()
	case r.Status != store.JobPrep:
		next = pick(terminatedWithError || has(store.JobRunningWithError), store.JobRunningWithError, store.JobRunning)
	case !r.Pending && has(store.JobPrep) && total > counts[store.JobPrep]:
		next = pick(terminatedWithError || has(store.JobRunningWithError), store.JobRunningWithError, store.JobRunning)
	default:
		return r.Status
	}
	return HideErrors(next, hideErrorStates)
}

// pick returns a if cond, else b.
func pick(cond bool, a, b store.JobStatus) store.JobStatus {
	if cond {
		return a
	}
	return b
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
