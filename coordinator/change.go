package coordinator

import (
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// Change is a parsed value of the coordinator change command
// ("endtime=…;concurrency=…;pausetime=…;status=…").
type Change struct {
	EndTime    time.Time
	HasEndTime bool
	// Concurrency is the new concurrency (negative: unlimited).
	Concurrency    int
	HasConcurrency bool
	// PauseTime is the new pause time; the zero time with HasPauseTime clears it.
	PauseTime    time.Time
	HasPauseTime bool
	// Status is RUNNING or IGNORED, or empty.
	Status store.JobStatus
}

// changeKeys are the keys a change value may set.
var changeKeys = map[string]bool{"endtime": true, "concurrency": true, "pausetime": true, "status": true}

// ParseChange parses a change value the way Oozie does: ';'-separated key=value pairs, keys
// endtime, concurrency, pausetime and status, each at most once; only pausetime may be empty
// (it clears the pause time). Errors are *Error with code E1015.
func ParseChange(value string, f oozietime.Format) (Change, error) {
	var c Change
	bad := func(format string, args ...any) (Change, error) {
		return Change{}, oozieerr.At(oozieerr.E1015, "change", "%s: "+format, append([]any{value}, args...)...)
	}
	if strings.TrimSpace(value) == "" {
		return bad("change value can not be empty string or null")
	}
	seen := map[string]bool{}
	tokens := strings.Split(value, ";")
	for len(tokens) > 0 && tokens[len(tokens)-1] == "" {
		tokens = tokens[:len(tokens)-1]
	}
	for _, tok := range tokens {
		if !strings.Contains(tok, "=") {
			return bad("change value must be name=value pair or name=(empty string)")
		}
		parts := strings.Split(tok, "=")
		for len(parts) > 1 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		key := parts[0]
		if seen[key] {
			return bad("can not specify repeated change values on %s", key)
		}
		seen[key] = true
		if len(parts) > 2 {
			return bad("elements on %s must be name=value pair or name=(empty string)", key)
		}
		v := ""
		if len(parts) == 2 {
			v = parts[1]
		}
		if !changeKeys[key] {
			return bad("must change endtime|concurrency|pausetime|status")
		}
		if v == "" && key != "pausetime" {
			return bad("value on %s can not be empty", key)
		}
		var err error
		switch key {
		case "endtime":
			if c.EndTime, err = ParseStored(f, v); err != nil {
				return bad("%s must be a valid date: %v", v, err)
			}
			c.HasEndTime = true
		case "concurrency":
			if c.Concurrency, err = strconv.Atoi(v); err != nil {
				return bad("%s must be a valid integer", v)
			}
			c.HasConcurrency = true
		case "pausetime":
			c.HasPauseTime = true
			if v != "" {
				if c.PauseTime, err = ParseStored(f, v); err != nil {
					return bad("%s must be a valid date: %v", v, err)
				}
			}
		case "status":
			s := store.JobStatus(v)
			if s != store.JobRunning && s != store.JobIgnored {
				return bad("%s must be RUNNING or IGNORED", v)
			}
			c.Status = s
		}
	}
	return c, nil
}

// ChangeResult is the outcome of ApplyChange.
type ChangeResult struct {
	// Job is the updated job row.
	Job store.CoordJob
	// Delete are the look-ahead actions to delete (with their SLA records).
	Delete []store.CoordAction
	// StartReady is set when concurrency grew: the ready/start step should run.
	StartReady bool
}

// ApplyChange applies a change to a job (§1.10). actions are the job's actions (at least the
// ones at or after the new end or pause time); pending says whether the job has work in
// progress. Moving the end or pause time back deletes the look-ahead actions at or after it,
// which must all be WAITING or READY (else E1022), and rewinds the materialization to the
// earliest deleted one.
func ApplyChange(row store.CoordJob, pending bool, actions []store.CoordAction, c Change, hideErrorStates bool) (ChangeResult, error) {
	if (row.Status == store.JobKilled || row.Status == store.JobIgnored) &&
		(c.Status == "" || c.HasEndTime || c.HasConcurrency || (c.HasPauseTime && !c.PauseTime.IsZero())) {
		return ChangeResult{}, oozieerr.At(oozieerr.E1016, "change", "cannot change a %s coordinator job", row.Status)
	}
	if err := checkStatusChange(row, pending, c.Status); err != nil {
		return ChangeResult{}, err
	}
	byNumber := make(map[int]store.CoordAction, len(actions))
	for _, a := range actions {
		byNumber[a.ActionNumber] = a
	}
	res := ChangeResult{Job: row}
	job := &res.Job
	lookahead := func(t time.Time) error {
		n := job.LastActionNumber
		var earliest time.Time
		for ; n > 0; n-- {
			a, ok := byNumber[n]
			if !ok || t.After(a.NominalTime) {
				break
			}
			if a.Status != store.CoordActionWaiting && a.Status != store.CoordActionReady {
				return oozieerr.At(oozieerr.E1022, "change", "Cannot delete running/completed coordinator action: [%s]", a.ID)
			}
			res.Delete = append(res.Delete, a)
			earliest = a.NominalTime
		}
		if !earliest.IsZero() {
			job.LastActionNumber, job.LastActionTime, job.NextMaterializedTime = n, earliest, earliest
			job.DoneMaterialization = false
		}
		return nil
	}
	if c.HasEndTime {
		keep := row.EndTime.Before(c.EndTime) && !row.NextMaterializedTime.IsZero() && row.NextMaterializedTime.After(c.EndTime)
		if !keep {
			job.EndTime = c.EndTime
			if !row.StartTime.Before(c.EndTime) {
				if row.Status != store.JobPrep {
					if err := lookahead(c.EndTime); err != nil {
						return ChangeResult{}, err
					}
				}
				if row.Status == store.JobPrep || row.Status == store.JobRunning {
					job.Status = store.JobSucceeded
				}
				job.DoneMaterialization = true
			} else {
				switch job.Status {
				case store.JobSucceeded:
					job.Status = store.JobRunning
				case store.JobDoneWithError, store.JobFailed:
					job.Status = HideErrors(store.JobRunningWithError, hideErrorStates)
				}
				job.DoneMaterialization = false
				if err := lookahead(c.EndTime); err != nil {
					return ChangeResult{}, err
				}
			}
		}
	}
	if c.HasConcurrency {
		res.StartReady = c.Concurrency > row.Concurrency
		job.Concurrency = c.Concurrency
	}
	if c.HasPauseTime {
		old := row.PauseTime
		job.PauseTime = c.PauseTime
		unpause := (!old.IsZero() && !c.PauseTime.IsZero() && old.Before(c.PauseTime)) || (!old.IsZero() && c.PauseTime.IsZero())
		if unpause {
			switch job.Status {
			case store.JobPaused:
				job.Status = store.JobRunning
			case store.JobPausedWithError:
				job.Status = store.JobRunningWithError
			}
		}
		if !c.PauseTime.IsZero() {
			if err := lookahead(c.PauseTime); err != nil {
				return ChangeResult{}, err
			}
		}
	}
	switch c.Status {
	case store.JobRunning:
		job.Status = store.JobRunning
		if job.NextMaterializedTime.IsZero() || job.EndTime.After(job.NextMaterializedTime) {
			job.DoneMaterialization = false
		}
	case store.JobIgnored:
		job.Status = store.JobIgnored
		job.DoneMaterialization = true
	}
	if !job.NextMaterializedTime.IsZero() && !job.EndTime.After(job.NextMaterializedTime) {
		job.DoneMaterialization = true
	}
	return res, nil
}

// checkStatusChange validates a status change: RUNNING only from FAILED, KILLED or IGNORED;
// IGNORED only from a FAILED or KILLED job with nothing pending.
func checkStatusChange(row store.CoordJob, pending bool, s store.JobStatus) error {
	switch s {
	case "":
		return nil
	case store.JobRunning:
		if row.Status != store.JobFailed && row.Status != store.JobKilled && row.Status != store.JobIgnored {
			return oozieerr.At(oozieerr.E1015, "change", "RUNNING: Only FAILED, KILLED, IGNORED job can be changed to RUNNING. "+
				"Current job status is %s", row.Status)
		}
	case store.JobIgnored:
		if (row.Status != store.JobFailed && row.Status != store.JobKilled) || pending {
			return oozieerr.At(oozieerr.E1015, "change", "IGNORED: Only FAILED or KILLED non-pending job can be changed to IGNORED. "+
				"Current job status is %s and pending status is %v", row.Status, pending)
		}
	default:
		return oozieerr.At(oozieerr.E1015, "change", "%s must be RUNNING or IGNORED", s)
	}
	return nil
}
