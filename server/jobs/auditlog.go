package jobs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

// showAuditLog is the show value of a job's audit trail.
const showAuditLog = "auditlog"

// auditLogPrefix stands between the time and the fields of an audit line:
// the level, logger and source line of Oozie's, which scripts that read its
// audit log split on.
const auditLogPrefix = "  INFO oozieaudit:520 - "

// getAuditLog serves show=auditlog: the audit records of a workflow,
// coordinator (with the records of operations on its actions) or bundle, one
// line each in Oozie's audit log format, times in loc, narrowed by the
// logfilter parameter (see logFilter; offsets count from the job's start:
// a workflow's start, else its creation, and a coordinator's or bundle's
// creation):
//
//	2025-01-27 09:18:57,123  INFO oozieaudit:520 - IP [127.0.0.1], USER [joe], GROUP [null], APP [nightly], JOBID [0000001-...-W], OPERATION [kill], PARAMETER [0000001-...-W], STATUS [SUCCESS], HTTPCODE [200], ERRORCODE [null], ERRORMESSAGE [null]
func (a *api) getAuditLog(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	switch kindOfID(id) {
	case idWorkflow, idCoordinator, idBundle:
	case idUnknown:
		return errJobNotFound(id)
	default:
		return server.NewError(http.StatusBadRequest, oozieerr.E0303,
			"Invalid parameter value, [show] = [%s]: the audit log is a workflow's, coordinator's or bundle's", showAuditLog)
	}
	f, err := logFilterParam(r.URL.Query(), loc)
	if err != nil {
		return err
	}
	ctx := r.Context()
	started, err := a.jobStarted(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errJobNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading job %s: %w", id, err)
	}
	from, to := f.window(started, a.Clock.Now())
	lf := store.AuditFilter{JobID: id, From: from, To: to}
	if f.text == "" && f.showsLevel("INFO") {
		lf.Limit = f.limit // every record makes a line: the store can stop early
	}
	recs, err := a.Store.ListAudit(ctx, lf)
	if err != nil {
		return fmt.Errorf("reading the audit log of %s: %w", id, err)
	}
	w.Header().Set("Content-Type", textContentType)
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriter(w)
	if f.debug {
		fmt.Fprintln(bw, f.describe(from, to, loc))
	}
	n := 0
	for i := range recs {
		if f.limit > 0 && n == f.limit {
			break
		}
		line := auditLine(&recs[i], loc)
		if !f.showsLevel("INFO") || !strings.Contains(line, f.text) {
			continue
		}
		bw.WriteString(line)
		bw.WriteByte('\n')
		n++
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the audit log of %s: %w", id, err)
	}
	return nil
}

// jobStarted reads when a job started, as logfilter offsets count: a
// workflow's start time (its creation before it starts), a coordinator's or
// bundle's creation (their start time is a nominal time).
func (a *api) jobStarted(ctx context.Context, id string) (time.Time, error) {
	var t time.Time
	err := a.Store.View(ctx, func(x store.Tx) error {
		switch kindOfID(id) {
		case idWorkflow:
			j, err := x.GetWorkflowJob(ctx, id)
			t = j.StartTime
			if t.IsZero() {
				t = j.CreatedTime
			}
			return err
		case idCoordinator:
			j, err := x.GetCoordJob(ctx, id)
			t = j.CreatedTime
			return err
		case idBundle:
			j, err := x.GetBundleJob(ctx, id)
			t = j.CreatedTime
			return err
		}
		return store.ErrNotFound
	})
	return t, err
}

// auditLine formats a record as Oozie's audit logger writes it, with
// "null" for what is empty, on one line.
func auditLine(r *store.AuditRecord, loc *time.Location) string {
	return fmt.Sprintf("%s%sIP [%s], USER [%s], GROUP [%s], APP [%s], JOBID [%s], OPERATION [%s], PARAMETER [%s], "+
		"STATUS [%s], HTTPCODE [%d], ERRORCODE [%s], ERRORMESSAGE [%s]",
		r.At.In(loc).Format(logTimeLayout), auditLogPrefix, null(r.IP), null(r.User), null(r.Group), null(r.App),
		null(r.Target), null(r.Operation), null(r.Parameter), r.Status, r.HTTPCode, null(r.ErrorCode), null(r.ErrorMessage))
}

// null is s on one line, or "null" (Java's word for nothing) when empty.
func null(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\r' || r == '\n' }), " ")
	if s == "" {
		return "null"
	}
	return s
}
