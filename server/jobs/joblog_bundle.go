package jobs

import (
	"time"

	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// bundleLog builds the log of a bundle job in the form of workflowLog, from
// its row and its coordinators' rows: submission, each coordinator's start
// (ACTION names the coordinator job) and current status, then the bundle's
// status. Kick-off times are shown in loc.
func bundleLog(job *store.BundleJob, coords []store.CoordJob, loc *time.Location) jobLog {
	l := jobLog{jobID: job.ID, user: job.User, group: job.Group, app: job.AppName, start: job.CreatedTime}
	if job.Status.Terminal() {
		l.end = job.LastModified
	}
	kickoff := "-"
	if !job.KickoffTime.IsZero() {
		kickoff = job.KickoffTime.In(loc).Format(oozietime.ZonedLayout)
	}
	l.add(job.CreatedTime, "INFO", "", "bundle job submitted, app path [%s], kick-off time [%s]", job.AppPath, kickoff)
	for i := range coords {
		c := &coords[i]
		l.add(c.CreatedTime, "INFO", c.ID, "coordinator [%s] started, app path [%s]", c.AppName, c.AppPath)
		level := "INFO"
		if jobWithErrors(c.Status) {
			level = "WARN"
		}
		l.add(c.LastModified, level, c.ID, "coordinator [%s] is [%s]", c.AppName, c.Status)
	}
	level := "INFO"
	if jobWithErrors(job.Status) {
		level = "WARN"
	}
	l.add(job.LastModified, level, "", "bundle job is [%s]", job.Status)
	return l
}
