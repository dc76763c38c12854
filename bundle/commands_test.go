package bundle

import (
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

func TestSuspendResumeKill(t *testing.T) {
	t.Parallel()
	tests := []struct {
		from             store.JobStatus
		suspend          store.JobStatus
		suspends         bool
		resume           store.JobStatus
		resumes, killing bool
	}{
		{store.JobPrep, store.JobPrepSuspended, true, store.JobPrep, false, true},
		{store.JobPrepPaused, store.JobPrepSuspended, true, store.JobPrepPaused, false, true},
		{store.JobRunning, store.JobSuspended, true, store.JobRunning, false, true},
		{store.JobRunningWithError, store.JobSuspendedWithError, true, store.JobRunningWithError, false, true},
		{store.JobPaused, store.JobSuspended, true, store.JobPaused, false, true},
		{store.JobPausedWithError, store.JobSuspendedWithError, true, store.JobPausedWithError, false, true},
		{store.JobSuspended, store.JobSuspended, false, store.JobRunning, true, true},
		{store.JobSuspendedWithError, store.JobSuspendedWithError, false, store.JobRunningWithError, true, true},
		{store.JobPrepSuspended, store.JobPrepSuspended, false, store.JobPrep, true, true},
		{store.JobSucceeded, store.JobSucceeded, false, store.JobSucceeded, false, false},
		{store.JobDoneWithError, store.JobDoneWithError, false, store.JobDoneWithError, false, false},
		{store.JobKilled, store.JobKilled, false, store.JobKilled, false, false},
		{store.JobFailed, store.JobFailed, false, store.JobFailed, false, false},
	}
	for _, tc := range tests {
		if got, ok := tc.from.OnSuspend(); got != tc.suspend || ok != tc.suspends {
			t.Errorf("SuspendStatus(%s) = %s, %v; want %s, %v", tc.from, got, ok, tc.suspend, tc.suspends)
		}
		if got, ok := tc.from.OnResume(); got != tc.resume || ok != tc.resumes {
			t.Errorf("ResumeStatus(%s) = %s, %v; want %s, %v", tc.from, got, ok, tc.resume, tc.resumes)
		}
		if got := Killable(tc.from); got != tc.killing {
			t.Errorf("Killable(%s) = %v, want %v", tc.from, got, tc.killing)
		}
	}
}

func TestCoordinatorsReached(t *testing.T) {
	t.Parallel()
	var suspended, resumed, changed []store.JobStatus
	for _, s := range store.JobStatuses {
		if SuspendsCoordinator(s) {
			suspended = append(suspended, s)
		}
		if s.Suspended() {
			resumed = append(resumed, s)
		}
		if !ChangesCoordinator(s) {
			changed = append(changed, s)
		}
	}
	if want := []store.JobStatus{store.JobPrep, store.JobRunning, store.JobRunningWithError, store.JobPaused, store.JobPausedWithError}; !slices.Equal(suspended, want) {
		t.Errorf("suspend reaches %v, want %v", suspended, want)
	}
	if want := []store.JobStatus{store.JobSuspended, store.JobSuspendedWithError, store.JobPrepSuspended}; !slices.Equal(resumed, want) {
		t.Errorf("resume reaches %v, want %v", resumed, want)
	}
	if want := []store.JobStatus{store.JobKilled, store.JobIgnored}; !slices.Equal(changed, want) {
		t.Errorf("change skips %v, want %v", changed, want)
	}
}

func TestParseChange(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  Change
		code  oozieerr.Code
	}{
		{"pausetime=2025-02-01T10:00Z", Change{HasPauseTime: true, PauseTime: at}, ""},
		{"pausetime=", Change{HasPauseTime: true}, ""},
		{" endtime = 2025-02-01T10:00Z ;", Change{HasEndTime: true, EndTime: at}, ""},
		{"endtime=2025-02-01T10:00Z;pausetime=2025-02-01T10:00Z", Change{HasPauseTime: true, PauseTime: at, HasEndTime: true, EndTime: at}, ""},
		{"endtime=", Change{}, oozieerr.E1317},
		{"concurrency=3", Change{}, oozieerr.E1317},
		{"pausetime=2025-02-01T10:00Z;concurrency=3", Change{}, oozieerr.E1317},
		{"pausetime=2025-02-01 10:00", Change{}, oozieerr.E1317},
		{"", Change{}, oozieerr.E1317},
		{"pausetime", Change{}, oozieerr.E1015},
		{"pausetime=;pausetime=", Change{}, oozieerr.E1015},
	}
	for _, tc := range tests {
		got, err := ParseChange(tc.value, testFormat)
		if ErrorCode(err) != tc.code || got != tc.want {
			t.Errorf("ParseChange(%q) = %+v, %v; want %+v, code %q", tc.value, got, err, tc.want, tc.code)
		}
	}
	c := Change{HasPauseTime: true, HasEndTime: true, EndTime: at}
	if got := c.String(testFormat); got != "endtime=2025-02-01T10:00Z;pausetime=" {
		t.Errorf("String() = %q", got)
	}
}

func TestDecideChange(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 2, 1, 10, 0, 0, 0, time.UTC)
	kick := now.Add(-24 * time.Hour)
	job := func(s store.JobStatus) store.BundleJob {
		return store.BundleJob{ID: "B", Status: s, KickoffTime: kick}
	}
	later := now.Add(time.Hour)
	tests := []struct {
		name   string
		job    store.BundleJob
		c      Change
		code   oozieerr.Code
		apply  bool
		status store.JobStatus
	}{
		{"pause a running bundle", job(store.JobRunning), Change{HasPauseTime: true, PauseTime: later}, "", true, store.JobRunning},
		{"pause time now is not past", job(store.JobRunning), Change{HasPauseTime: true, PauseTime: now}, "", true, store.JobRunning},
		{"clear the pause time", job(store.JobPaused), Change{HasPauseTime: true}, "", true, store.JobPaused},
		{"pause time in the past", job(store.JobRunning), Change{HasPauseTime: true, PauseTime: now.Add(-time.Minute)}, oozieerr.E1317, false, ""},
		{"pause a finished bundle", job(store.JobSucceeded), Change{HasPauseTime: true, PauseTime: later}, "", false, ""},
		{"pause a done-with-error bundle", job(store.JobDoneWithError), Change{HasPauseTime: true, PauseTime: later}, "", false, ""},
		{"end time before kick-off", job(store.JobRunning), Change{HasEndTime: true, EndTime: kick.Add(-time.Minute)}, oozieerr.E1317, false, ""},
		{"end time of a killed bundle", job(store.JobKilled), Change{HasEndTime: true, EndTime: later}, "", false, ""},
		{"end time revives a succeeded bundle", job(store.JobSucceeded), Change{HasEndTime: true, EndTime: later}, "", true, store.JobRunning},
		{"end time revives a failed bundle", job(store.JobFailed), Change{HasEndTime: true, EndTime: later}, "", true, store.JobRunning},
		{"end time keeps a suspended bundle", job(store.JobSuspended), Change{HasEndTime: true, EndTime: later}, "", true, store.JobSuspended},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := DecideChange(tc.job, tc.c, now)
			if ErrorCode(err) != tc.code {
				t.Fatalf("error %v, want code %q", err, tc.code)
			}
			if err != nil {
				return
			}
			if d.Apply != tc.apply || (!d.Apply && d.Reason == "") {
				t.Fatalf("decision %+v, want apply %v", d, tc.apply)
			}
			if !d.Apply {
				return
			}
			if d.Job.Status != tc.status || (tc.c.HasPauseTime && !d.Job.PauseTime.Equal(tc.c.PauseTime)) ||
				(tc.c.HasEndTime && !d.Job.EndTime.Equal(tc.c.EndTime)) {
				t.Errorf("job %+v", d.Job)
			}
		})
	}
}

func TestRerunDecisions(t *testing.T) {
	t.Parallel()
	allowed := map[store.JobStatus]bool{}
	for _, s := range store.JobStatuses {
		allowed[s] = RerunAllowed(s)
	}
	for _, s := range []store.JobStatus{store.JobKilled, store.JobFailed, store.JobPrep, store.JobPrepPaused, store.JobPrepSuspended} {
		if allowed[s] {
			t.Errorf("rerun allowed from %s", s)
		}
	}
	for _, s := range []store.JobStatus{store.JobRunning, store.JobSucceeded, store.JobDoneWithError, store.JobSuspended, store.JobPaused} {
		if !allowed[s] {
			t.Errorf("rerun refused from %s", s)
		}
	}
	for from, want := range map[store.JobStatus]store.JobStatus{
		store.JobPaused: store.JobPaused, store.JobSucceeded: store.JobRunning, store.JobSuspended: store.JobRunning,
		store.JobRunning: store.JobRunning, store.JobDoneWithError: store.JobRunningWithError,
		store.JobRunningWithError: store.JobRunningWithError,
	} {
		if got := RerunStatus(from, false); got != want {
			t.Errorf("RerunStatus(%s) = %s, want %s", from, got, want)
		}
	}
	if got := RerunStatus(store.JobDoneWithError, true); got != store.JobRunning {
		t.Errorf("RerunStatus(DONEWITHERROR) hidden = %s", got)
	}
	start, end := time.Date(2010, 1, 1, 1, 0, 0, 0, time.UTC), time.Date(2010, 1, 1, 3, 0, 0, 0, time.UTC)
	if got := RerunDateScope("", start, end, testFormat); got != "2010-01-01T01:00Z::2010-01-01T03:00Z" {
		t.Errorf("whole span = %q", got)
	}
	if got := RerunDateScope("2010-01-01T02:00Z", start, end, testFormat); got != "2010-01-01T02:00Z" {
		t.Errorf("given dates = %q", got)
	}
	names := []string{"load", "agg", "publish"}
	for in, want := range map[string][]string{"": names, "agg, load,agg": {"agg", "load"}, "nope": nil, "publish,nope": {"publish"}} {
		if got := RerunScope(in, names); !slices.Equal(got, want) {
			t.Errorf("RerunScope(%q) = %v, want %v", in, got, want)
		}
	}
}
