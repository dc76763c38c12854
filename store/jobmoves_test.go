package store

import (
	"testing"
	"time"
)

// TestSuspendResume checks the statuses suspend and resume move a
// coordinator or bundle job to, and when they do nothing.
func TestSuspendResume(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from             JobStatus
		suspend, resume  JobStatus
		suspends, resums bool
	}{
		{JobPrep, JobPrepSuspended, JobPrep, true, false},
		{JobRunning, JobSuspended, JobRunning, true, false},
		{JobRunningWithError, JobSuspendedWithError, JobRunningWithError, true, false},
		{JobPaused, JobSuspended, JobPaused, true, false},
		{JobPausedWithError, JobSuspendedWithError, JobPausedWithError, true, false},
		{JobPrepPaused, JobPrepSuspended, JobPrepPaused, true, false},
		{JobSuspended, JobSuspended, JobRunning, false, true},
		{JobSuspendedWithError, JobSuspendedWithError, JobRunningWithError, false, true},
		{JobPrepSuspended, JobPrepSuspended, JobPrep, false, true},
		{JobSucceeded, JobSucceeded, JobSucceeded, false, false},
		{JobDoneWithError, JobDoneWithError, JobDoneWithError, false, false},
		{JobKilled, JobKilled, JobKilled, false, false},
		{JobFailed, JobFailed, JobFailed, false, false},
		{JobIgnored, JobIgnored, JobIgnored, false, false},
	} {
		s, ok := tc.from.OnSuspend()
		if s != tc.suspend || ok != tc.suspends {
			t.Errorf("suspend %s = %s, %v; want %s, %v", tc.from, s, ok, tc.suspend, tc.suspends)
		}
		r, ok := tc.from.OnResume()
		if r != tc.resume || ok != tc.resums {
			t.Errorf("resume %s = %s, %v; want %s, %v", tc.from, r, ok, tc.resume, tc.resums)
		}
	}
}

// TestWithPause checks how a pause time moves a job.
func TestWithPause(t *testing.T) {
	t.Parallel()
	now := time.Date(2010, 1, 1, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Minute), now.Add(time.Minute)
	for _, tc := range []struct {
		from  JobStatus
		pause time.Time
		want  JobStatus
	}{
		{JobRunning, past, JobPaused},
		{JobRunning, now, JobPaused},
		{JobRunningWithError, past, JobPausedWithError},
		{JobPrep, past, JobPrepPaused},
		{JobRunning, future, JobRunning},
		{JobRunning, time.Time{}, JobRunning},
		{JobPaused, future, JobRunning},
		{JobPaused, time.Time{}, JobRunning},
		{JobPausedWithError, time.Time{}, JobRunningWithError},
		{JobPrepPaused, future, JobPrep},
		{JobPaused, past, JobPaused},
		{JobSuspended, past, JobSuspended},
		{JobSucceeded, past, JobSucceeded},
	} {
		if got := tc.from.WithPause(tc.pause, now); got != tc.want {
			t.Errorf("pause %s at %v = %s, want %s", tc.from, tc.pause, got, tc.want)
		}
	}
}

// TestOnRerun checks a job's status after a rerun with the coordinator's
// and the bundle's choices of what stays, and that Suspended agrees with
// OnResume.
func TestOnRerun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, coord, bundle JobStatus
	}{
		{JobSucceeded, JobRunning, JobRunning},
		{JobRunning, JobRunning, JobRunning},
		{JobSuspended, JobRunning, JobRunning},
		{JobPaused, JobPaused, JobPaused},
		{JobPausedWithError, JobPausedWithError, JobRunningWithError},
		{JobDoneWithError, JobRunningWithError, JobRunningWithError},
		{JobKilled, JobRunningWithError, JobRunningWithError},
	} {
		if got := tc.from.OnRerun(JobPaused, JobPausedWithError); got != tc.coord {
			t.Errorf("coordinator rerun of %s = %s, want %s", tc.from, got, tc.coord)
		}
		if got := tc.from.OnRerun(JobPaused); got != tc.bundle {
			t.Errorf("bundle rerun of %s = %s, want %s", tc.from, got, tc.bundle)
		}
	}
	for _, s := range JobStatuses {
		if _, resumes := s.OnResume(); resumes != s.Suspended() {
			t.Errorf("%s: Suspended() = %v but OnResume applies: %v", s, s.Suspended(), resumes)
		}
	}
}
