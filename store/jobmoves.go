package store

import (
	"slices"
	"time"
)

// The job-status moves that coordinators and bundles share: suspend,
// resume, the pause time and rerun, as Oozie's commands make them for both
// kinds of job. A move that does not apply to the current status is not an
// error: Oozie logs it and changes nothing. Each is a move of
// CoordJobMachine and of BundleJobMachine.

// Suspended reports whether a job is suspended: SUSPENDED,
// SUSPENDEDWITHERROR or PREPSUSPENDED.
func (s JobStatus) Suspended() bool {
	switch s {
	case JobSuspended, JobSuspendedWithError, JobPrepSuspended:
		return true
	}
	return false
}

// OnSuspend is the status a suspend moves a job to: PREP and PREPPAUSED
// become PREPSUSPENDED, RUNNING and PAUSED SUSPENDED, their *WITHERROR twins
// SUSPENDEDWITHERROR. ok is false for a job that is finished or suspended
// already (Oozie's soft precondition, E0728 in its log only).
func (s JobStatus) OnSuspend() (next JobStatus, ok bool) {
	switch s {
	case JobPrep, JobPrepPaused:
		return JobPrepSuspended, true
	case JobRunning, JobPaused:
		return JobSuspended, true
	case JobRunningWithError, JobPausedWithError:
		return JobSuspendedWithError, true
	}
	return s, false
}

// OnResume is the status a resume moves a suspended job back to: SUSPENDED
// becomes RUNNING, SUSPENDEDWITHERROR RUNNINGWITHERROR and PREPSUSPENDED
// PREP. ok is false for a job that is not suspended.
func (s JobStatus) OnResume() (next JobStatus, ok bool) {
	switch s {
	case JobSuspended:
		return JobRunning, true
	case JobSuspendedWithError:
		return JobRunningWithError, true
	case JobPrepSuspended:
		return JobPrep, true
	}
	return s, false
}

// WithPause applies a job's pause time at now, as Oozie's pause service
// does: once the pause time is reached RUNNING becomes PAUSED,
// RUNNINGWITHERROR PAUSEDWITHERROR and PREP PREPPAUSED; without a pause
// time, or with one still ahead, the paused statuses go back. Other
// statuses are returned unchanged.
func (s JobStatus) WithPause(pause, now time.Time) JobStatus {
	if !pause.IsZero() && !now.Before(pause) {
		switch s {
		case JobRunning:
			return JobPaused
		case JobRunningWithError:
			return JobPausedWithError
		case JobPrep:
			return JobPrepPaused
		}
		return s
	}
	switch s {
	case JobPaused:
		return JobRunning
	case JobPausedWithError:
		return JobRunningWithError
	case JobPrepPaused:
		return JobPrep
	}
	return s
}

// OnRerun is a job's status once it reruns some of its children: a
// SUCCEEDED, SUSPENDED or RUNNING job runs again, one whose status is in
// stays keeps it, any other runs with errors (RUNNINGWITHERROR). Oozie's
// coordinator rerun keeps PAUSED and PAUSEDWITHERROR; its bundle rerun
// keeps PAUSED only.
func (s JobStatus) OnRerun(stays ...JobStatus) JobStatus {
	switch {
	case slices.Contains(stays, s):
		return s
	case s == JobSucceeded, s == JobSuspended, s == JobRunning:
		return JobRunning
	}
	return JobRunningWithError
}
