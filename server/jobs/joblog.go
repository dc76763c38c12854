package jobs

import (
	"bufio"
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

// writeJobLog writes GET job/<id>?show=log for a workflow job: a readable history built
// from the job's row and its action rows (submission, start, each node's start and end with
// its transition, external id and error, the job's end or current status), one line per
// event in time order, timestamps in loc:
//
//	2025-01-27 09:18:57,123 INFO  USER[joe] GROUP[-] APP[nightly] JOB[0000001-...-W] ACTION[-] workflow job submitted, ...
//
// It is not Oozie's server log: gozie keeps no per-job log files to stream, and the logs of
// the actions themselves are on YARN (the action's console URL and external id lead there).
// What the rows do not keep (transient retries, every status change) is not shown.
func writeJobLog(w io.Writer, job *store.WorkflowJob, acts []store.WorkflowAction, loc *time.Location) error {
	var events []logEvent
	add := func(at time.Time, level, action, format string, args ...any) {
		if !at.IsZero() {
			events = append(events, logEvent{at: at, level: level, action: action, msg: fmt.Sprintf(format, args...)})
		}
	}
	add(job.CreatedTime, "INFO", "", "workflow job submitted, app path [%s]", job.AppPath)
	if job.Run > 0 {
		add(job.StartTime, "INFO", "", "workflow job started, run [%d]", job.Run)
	} else {
		add(job.StartTime, "INFO", "", "workflow job started")
	}
	for i := range acts {
		a := &acts[i]
		switch {
		case !a.StartTime.IsZero():
			add(a.StartTime, "INFO", a.ID, "node [%s] type [%s] started%s", a.Name, a.Type, externalOf(a))
		default:
			add(a.CreatedTime, "INFO", a.ID, "node [%s] type [%s] created", a.Name, a.Type)
		}
		if a.UserRetryCount > 0 {
			add(a.LastModified, "INFO", a.ID, "node [%s] user retry [%d] of [%d]", a.Name, a.UserRetryCount, a.UserRetryMax)
		}
		switch {
		case !a.EndTime.IsZero() && a.ErrorCode != "":
			add(a.EndTime, "WARN", a.ID, "node [%s] ended with status [%s], transition [%s], error [%s]: %s",
				a.Name, a.Status, dash(a.Transition), a.ErrorCode, a.ErrorMessage)
		case !a.EndTime.IsZero():
			add(a.EndTime, "INFO", a.ID, "node [%s] ended with status [%s], transition [%s]", a.Name, a.Status, dash(a.Transition))
		case !a.StartTime.IsZero():
			add(a.LastModified, "INFO", a.ID, "node [%s] is [%s], external status [%s]", a.Name, a.Status, dash(a.ExternalStatus))
		}
	}
	switch {
	case !job.EndTime.IsZero() && job.ErrorCode != "":
		add(job.EndTime, "WARN", "", "workflow job ended with status [%s], error [%s]: %s", job.Status, job.ErrorCode, job.ErrorMessage)
	case !job.EndTime.IsZero():
		add(job.EndTime, "INFO", "", "workflow job ended with status [%s]", job.Status)
	default:
		add(job.LastModified, "INFO", "", "workflow job is [%s]", job.Status)
	}
	return writeLogEvents(w, events, job.User, job.Group, job.AppName, job.ID, loc)
}

// writeLogEvents writes a job's log events in time order, one line each, in
// the form writeJobLog shows.
func writeLogEvents(w io.Writer, events []logEvent, user, group, app, jobID string, loc *time.Location) error {
	slices.SortStableFunc(events, func(x, y logEvent) int { return x.at.Compare(y.at) })
	bw := bufio.NewWriter(w)
	prefix := fmt.Sprintf("USER[%s] GROUP[%s] APP[%s] JOB[%s]", dash(user), dash(group), dash(app), jobID)
	for _, e := range events {
		fmt.Fprintf(bw, "%s %-5s %s ACTION[%s] %s\n", e.at.In(loc).Format(logTimeLayout), e.level, prefix, dash(e.action), e.msg)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the log of %s: %w", jobID, err)
	}
	return nil
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
