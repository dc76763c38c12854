package jobs

import (
	"time"

	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// coordinatorLog builds the log of a coordinator job in the form of
// workflowLog, from its row and its actions' rows: submission, each action's
// materialization, what it waits for, its workflow and its end, then the
// job's status. Nominal times are shown in loc.
func coordinatorLog(job *store.CoordJob, acts []store.CoordAction, loc *time.Location) jobLog {
	l := jobLog{jobID: job.ID, user: job.User, group: job.Group, app: job.AppName, start: job.CreatedTime}
	if job.Status.Terminal() {
		l.end = job.LastModified
	}
	l.add(job.CreatedTime, "INFO", "", "coordinator job submitted, app path [%s], frequency [%s %s]", job.AppPath, job.Frequency, job.TimeUnit)
	addCoordActionEvents(&l, acts, loc)
	level := "INFO"
	if jobWithErrors(job.Status) {
		level = "WARN"
	}
	if job.ErrorCode != "" {
		l.add(job.LastModified, level, "", "coordinator job is [%s], error [%s]: %s", job.Status, job.ErrorCode, job.ErrorMessage)
		return l
	}
	l.add(job.LastModified, level, "", "coordinator job is [%s]", job.Status)
	return l
}

// coordActionsLog is the log of a coordinator job narrowed to some of its
// actions (Oozie's type=action|date&scope=...): their lines only, offsets
// counting from the first one's creation, ending at the last change of the
// last one once all have ended. acts is not empty.
func coordActionsLog(job *store.CoordJob, acts []store.CoordAction, loc *time.Location) jobLog {
	l := jobLog{jobID: job.ID, user: job.User, group: job.Group, app: job.AppName, start: acts[0].CreatedTime}
	ended := true
	for _, a := range acts {
		if a.CreatedTime.Before(l.start) {
			l.start = a.CreatedTime
		}
		if a.LastModified.After(l.end) {
			l.end = a.LastModified
		}
		ended = ended && a.Status.Terminal()
	}
	if !ended {
		l.end = time.Time{}
	}
	addCoordActionEvents(&l, acts, loc)
	return l
}

// addCoordActionEvents adds the events of coordinator actions to l.
func addCoordActionEvents(l *jobLog, acts []store.CoordAction, loc *time.Location) {
	for i := range acts {
		c := &acts[i]
		l.add(c.CreatedTime, "INFO", c.ID, "action [%d] materialized for nominal time [%s]", c.ActionNumber,
			c.NominalTime.In(loc).Format(oozietime.ZonedLayout))
		deps := coordrun.MissingList(c.MissingDependencies)
		switch {
		case c.ErrorCode != "":
			l.add(c.LastModified, "WARN", c.ID, "action [%d] is [%s], error [%s]: %s", c.ActionNumber, c.Status, c.ErrorCode, c.ErrorMessage)
		case c.Status == store.CoordActionWaiting && len(deps) > 0:
			l.add(c.LastModified, "INFO", c.ID, "action [%d] is [WAITING] on [%s]", c.ActionNumber, deps[0])
		case c.Status == store.CoordActionTimedOut || c.Status == store.CoordActionFailed || c.Status == store.CoordActionKilled:
			l.add(c.LastModified, "WARN", c.ID, "action [%d] ended with status [%s], workflow [%s]", c.ActionNumber, c.Status, dash(c.ExternalID))
		case c.ExternalID != "":
			l.add(c.LastModified, "INFO", c.ID, "action [%d] is [%s], workflow [%s]", c.ActionNumber, c.Status, c.ExternalID)
		default:
			l.add(c.LastModified, "INFO", c.ID, "action [%d] is [%s]", c.ActionNumber, c.Status)
		}
	}
}

// jobWithErrors reports whether a coordinator's or bundle's status tells of
// failure, which its log line shows as a warning.
func jobWithErrors(s store.JobStatus) bool {
	switch s {
	case store.JobFailed, store.JobKilled, store.JobDoneWithError, store.JobRunningWithError,
		store.JobSuspendedWithError, store.JobPausedWithError:
		return true
	}
	return false
}
