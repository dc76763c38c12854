package bundle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// The decisions of the bundle commands, as functions of the bundle's status. Like Oozie,
// a command that does not apply to the current status is not an error: the engine logs it
// and changes nothing.

// Suspend and resume move a bundle as they move a coordinator:
// store.JobStatus.OnSuspend and OnResume.

// Killable reports whether a kill applies: to any bundle that has not finished.
func Killable(s store.JobStatus) bool {
	return !s.Terminal()
}

// SuspendsCoordinator reports whether a bundle's suspend reaches a coordinator in status s:
// one that is PREP, RUNNING or PAUSED (with or without error), as in Oozie.
func SuspendsCoordinator(s store.JobStatus) bool {
	switch s {
	case store.JobPrep, store.JobRunning, store.JobRunningWithError, store.JobPaused, store.JobPausedWithError:
		return true
	}
	return false
}

// Change is a parsed bundle change value ("pausetime=…;endtime=…").
type Change struct {
	// HasPauseTime is set when the value names pausetime; a zero PauseTime clears it.
	HasPauseTime bool
	PauseTime    time.Time
	// HasEndTime is set when the value names endtime.
	HasEndTime bool
	EndTime    time.Time
}

// String renders the change as the coordinator change value that carries it to the
// bundle's coordinators.
func (c Change) String(format oozietime.Format) string {
	var parts []string
	if c.HasEndTime {
		parts = append(parts, "endtime="+format.Format(c.EndTime))
	}
	if c.HasPauseTime {
		v := ""
		if !c.PauseTime.IsZero() {
			v = format.Format(c.PauseTime)
		}
		parts = append(parts, "pausetime="+v)
	}
	return strings.Join(parts, ";")
}

// ParseChange reads a bundle change value: name=value pairs separated by ';' with the
// names pausetime and endtime only, each at most once (E1015 for a malformed or repeated
// pair, E1317 for another name, no name at all or a value that is not a date of the
// processing time zone). An empty pausetime clears the pause time; endtime needs a date.
func ParseChange(value string, format oozietime.Format) (Change, error) {
	var c Change
	seen := map[string]bool{}
	for _, pair := range strings.Split(value, ";") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		name, v, ok := strings.Cut(pair, "=")
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		if !ok || name == "" {
			return Change{}, oozieerr.At(oozieerr.E1015, "value", "Invalid change value [%s], expected name=value pairs separated by ';'", value)
		}
		if seen[name] {
			return Change{}, oozieerr.At(oozieerr.E1015, "value", "Invalid change value [%s], %s is given more than once", value, name)
		}
		seen[name] = true
		switch name {
		case "pausetime":
			c.HasPauseTime = true
			if v == "" {
				continue
			}
			t, err := coordinator.ParseStored(format, v)
			if err != nil {
				return Change{}, oozieerr.WrapAt(oozieerr.E1317, "pausetime", err, "Invalid bundle job change value %s, is not a valid date", v)
			}
			c.PauseTime = t
		case "endtime":
			if v == "" {
				return Change{}, oozieerr.At(oozieerr.E1317, "endtime", "Invalid bundle job change value endtime, a date is required")
			}
			t, err := coordinator.ParseStored(format, v)
			if err != nil {
				return Change{}, oozieerr.WrapAt(oozieerr.E1317, "endtime", err, "Invalid bundle job change value %s, is not a valid date", v)
			}
			c.HasEndTime, c.EndTime = true, t
		default:
			return Change{}, oozieerr.At(oozieerr.E1317, "value",
				"Invalid bundle job change value %s, can only change pausetime or endtime", value)
		}
	}
	if !c.HasPauseTime && !c.HasEndTime {
		return Change{}, oozieerr.At(oozieerr.E1317, "value", "Invalid bundle job change value %s, should change pausetime or endtime", value)
	}
	return c, nil
}

// ChangeDecision is what a change does to one bundle.
type ChangeDecision struct {
	// Apply is false when the change does not apply to the bundle's status (Oozie's
	// E1312, logged only); Reason then says why.
	Apply  bool
	Reason string
	// Job is the bundle row with the change applied.
	Job store.BundleJob
}

// DecideChange checks a change against a bundle at now and applies it to the row: a new
// pause time may not be in the past and a new end time not before the kick-off time (both
// E1317). A pause time change does not apply to a finished bundle, an end time change not
// to a KILLED one. A new end time brings a finished bundle back to RUNNING; the roll-up
// then follows its coordinators.
func DecideChange(job store.BundleJob, c Change, now time.Time) (ChangeDecision, error) {
	if c.HasPauseTime && !c.PauseTime.IsZero() && c.PauseTime.Before(now) {
		return ChangeDecision{}, oozieerr.At(oozieerr.E1317, "pausetime", "Invalid bundle job change value %s, must be a non-past time",
			c.PauseTime.UTC().Format(time.RFC3339))
	}
	if c.HasEndTime && !job.KickoffTime.IsZero() && c.EndTime.Before(job.KickoffTime) {
		return ChangeDecision{}, oozieerr.At(oozieerr.E1317, "endtime", "Invalid bundle job change value %s, must be greater then kickoff time",
			c.EndTime.UTC().Format(time.RFC3339))
	}
	if c.HasPauseTime && job.Status.Terminal() {
		return ChangeDecision{Reason: fmt.Sprintf("E1312: the bundle's pause time cannot change, job %s finished, status %s", job.ID, job.Status)}, nil
	}
	if c.HasEndTime && job.Status == store.JobKilled {
		return ChangeDecision{Reason: fmt.Sprintf("E1312: the bundle's end time cannot change, job %s was killed", job.ID)}, nil
	}
	if c.HasPauseTime {
		job.PauseTime = c.PauseTime
	}
	if c.HasEndTime {
		job.EndTime = c.EndTime
		switch job.Status {
		case store.JobSucceeded, store.JobDoneWithError, store.JobFailed:
			job.Status = store.JobRunning
		}
	}
	return ChangeDecision{Apply: true, Job: job}, nil
}

// ChangesCoordinator reports whether a bundle's change reaches a coordinator in status s:
// every one but the KILLED (and IGNORED, which a change refuses), as in Oozie.
func ChangesCoordinator(s store.JobStatus) bool {
	return s != store.JobKilled && s != store.JobIgnored
}

// RerunAllowed reports whether a bundle in status s can rerun its coordinators: not when
// it was KILLED or FAILED, nor before it started (PREP, PREPPAUSED, PREPSUSPENDED).
func RerunAllowed(s store.JobStatus) bool {
	switch s {
	case store.JobKilled, store.JobFailed, store.JobPrep, store.JobPrepPaused, store.JobPrepSuspended:
		return false
	}
	return true
}

// RerunStatus is a bundle's status once it reruns coordinators (store.JobStatus.OnRerun):
// a PAUSED bundle stays PAUSED, a SUCCEEDED, SUSPENDED or RUNNING one becomes RUNNING, any
// other RUNNINGWITHERROR (hidden as RUNNING by default).
func RerunStatus(s store.JobStatus, hideErrorStates bool) store.JobStatus {
	return coordinator.HideErrors(s.OnRerun(store.JobPaused), hideErrorStates)
}

// RerunDateScope is the date scope of a coordinator's rerun within a bundle rerun: the
// given dates, or without them the coordinator's whole span, start::end.
func RerunDateScope(dates string, coordStart, coordEnd time.Time, format oozietime.Format) string {
	if strings.TrimSpace(dates) != "" {
		return dates
	}
	return format.Format(coordStart) + "::" + format.Format(coordEnd)
}

// RerunScope selects the coordinators of a bundle rerun: those named in coords (a comma
// list; names that are not in the bundle are skipped, as in Oozie), or every coordinator
// when coords is empty. names are the bundle's coordinator names.
func RerunScope(coords string, names []string) []string {
	if strings.TrimSpace(coords) == "" {
		return names
	}
	var out []string
	for _, n := range strings.Split(coords, ",") {
		n = strings.TrimSpace(n)
		if slices.Contains(names, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
