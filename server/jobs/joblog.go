package jobs

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gozie/gozie/store"
)

// logTimeLayout is the timestamp of job log lines, as Oozie's log4j pattern writes it.
const logTimeLayout = "2006-01-02 15:04:05,000"

// logEvent is one line of a job log.
type logEvent struct {
	at     time.Time
	level  string
	action string // action id, empty for the job itself
	msg    string
}

// jobLog is the log of one job, built from its rows: gozie keeps no per-job
// log files to stream, and the logs of the actions themselves are on YARN
// (the action's console URL and external id lead there). What the rows do not
// keep (transient retries, every status change) is not shown.
type jobLog struct {
	jobID, user, group, app string
	events                  []logEvent
	// start is where logfilter offsets count from: a workflow's start (its
	// creation before it starts), a coordinator's or bundle's creation, or
	// the creation of the first of the coordinator actions a log is narrowed
	// to.
	start time.Time
	// end is where the log of a finished job ends (recent counts back from
	// it); zero while the job runs, when recent counts back from now.
	end time.Time
}

// add appends an event; one at the zero time (something that has not
// happened) is left out.
func (l *jobLog) add(at time.Time, level, action, format string, args ...any) {
	if !at.IsZero() {
		l.events = append(l.events, logEvent{at: at, level: level, action: action, msg: fmt.Sprintf(format, args...)})
	}
}

// write writes the events that f keeps among those of levels (nil: every
// level) in time order, one line each, times in loc; now is where recent
// counts back from while the job runs:
//
//	2025-01-27 09:18:57,123 INFO  USER[joe] GROUP[-] APP[nightly] JOB[0000001-...-W] ACTION[-] workflow job submitted, ...
func (l *jobLog) write(w io.Writer, f logFilter, levels []string, now time.Time, loc *time.Location) error {
	last := l.end
	if last.IsZero() {
		last = now
	}
	from, to := f.window(l.start, last)
	out := newLogLines(w, f, from, to, levels, loc)
	slices.SortStableFunc(l.events, func(x, y logEvent) int { return x.at.Compare(y.at) })
	prefix := fmt.Sprintf("USER[%s] GROUP[%s] APP[%s] JOB[%s]", dash(l.user), dash(l.group), dash(l.app), l.jobID)
	for _, e := range l.events {
		line := fmt.Sprintf("%s %-5s %s ACTION[%s] %s", e.at.In(loc).Format(logTimeLayout), e.level, prefix, dash(e.action), e.msg)
		if !out.add(e.at, e.level, line) {
			break
		}
	}
	if err := out.flush(); err != nil {
		return fmt.Errorf("writing the log of %s: %w", l.jobID, err)
	}
	return nil
}

// workflowLog builds the log of a workflow job from its row and its action
// rows: submission, start, each node's start and end with its transition,
// external id and error, the job's end or current status.
func workflowLog(job *store.WorkflowJob, acts []store.WorkflowAction) jobLog {
	l := jobLog{jobID: job.ID, user: job.User, group: job.Group, app: job.AppName, start: job.StartTime}
	if l.start.IsZero() {
		l.start = job.CreatedTime
	}
	if job.Status.Terminal() {
		l.end = job.EndTime
		if l.end.IsZero() {
			l.end = job.LastModified
		}
	}
	l.add(job.CreatedTime, "INFO", "", "workflow job submitted, app path [%s]", job.AppPath)
	if job.Run > 0 {
		l.add(job.StartTime, "INFO", "", "workflow job started, run [%d]", job.Run)
	} else {
		l.add(job.StartTime, "INFO", "", "workflow job started")
	}
	for i := range acts {
		a := &acts[i]
		switch {
		case !a.StartTime.IsZero():
			l.add(a.StartTime, "INFO", a.ID, "node [%s] type [%s] started%s", a.Name, a.Type, externalOf(a))
		default:
			l.add(a.CreatedTime, "INFO", a.ID, "node [%s] type [%s] created", a.Name, a.Type)
		}
		if a.UserRetryCount > 0 {
			l.add(a.LastModified, "INFO", a.ID, "node [%s] user retry [%d] of [%d]", a.Name, a.UserRetryCount, a.UserRetryMax)
		}
		switch {
		case !a.EndTime.IsZero() && a.ErrorCode != "":
			l.add(a.EndTime, "WARN", a.ID, "node [%s] ended with status [%s], transition [%s], error [%s]: %s",
				a.Name, a.Status, dash(a.Transition), a.ErrorCode, a.ErrorMessage)
		case !a.EndTime.IsZero():
			l.add(a.EndTime, "INFO", a.ID, "node [%s] ended with status [%s], transition [%s]", a.Name, a.Status, dash(a.Transition))
		case !a.StartTime.IsZero():
			l.add(a.LastModified, "INFO", a.ID, "node [%s] is [%s], external status [%s]", a.Name, a.Status, dash(a.ExternalStatus))
		}
	}
	switch {
	case !job.EndTime.IsZero() && job.ErrorCode != "":
		l.add(job.EndTime, "WARN", "", "workflow job ended with status [%s], error [%s]: %s", job.Status, job.ErrorCode, job.ErrorMessage)
	case !job.EndTime.IsZero():
		l.add(job.EndTime, "INFO", "", "workflow job ended with status [%s]", job.Status)
	default:
		l.add(job.LastModified, "INFO", "", "workflow job is [%s]", job.Status)
	}
	return l
}

// externalOf describes an action's external work for a log line, if it has any.
func externalOf(a *store.WorkflowAction) string {
	s := ""
	if a.ExternalID != "" {
		s += ", external id [" + a.ExternalID + "]"
	}
	if a.ConsoleURL != "" {
		s += ", console [" + a.ConsoleURL + "]"
	}
	return s
}

// dash is s, or "-" when s is empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
