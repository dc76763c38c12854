package jobs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// More values of the show parameter.
const (
	showErrorLog    = "errorlog"
	showMissingDeps = "missing-dependencies"
	showAllRuns     = "allruns"
)

// Parameters of show=missing-dependencies.
const (
	paramActionListShow = "action-list"
	paramDateShow       = "date"
)

// extraShow returns the handler of the show values served by this file, or
// nil.
func (a *api) extraShow(show string) func(http.ResponseWriter, *http.Request, string, *time.Location) error {
	switch show {
	case showErrorLog:
		return a.getErrorLog
	case showMissingDeps:
		return a.getMissingDeps
	case showAllRuns:
		return a.getAllRuns
	case showRetries:
		return a.getRetries
	case showAuditLog:
		return a.getAuditLog
	}
	return nil
}

// getErrorLog serves show=errorlog: the lines of the job's log (see
// writeJobLog and writeCoordLog) at WARN or ERROR level.
func (a *api) getErrorLog(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	var buf bytes.Buffer
	switch kindOfID(id) {
	case idWorkflow:
		var (
			job  store.WorkflowJob
			acts []store.WorkflowAction
		)
		err := a.Store.Tx(r.Context(), func(x store.Tx) error {
			var err error
			if job, err = x.GetWorkflowJob(r.Context(), id); err != nil {
				return err
			}
			acts, err = x.ListWorkflowActions(r.Context(), id)
			return err
		})
		if errors.Is(err, store.ErrNotFound) {
			return errJobNotFound(id)
		}
		if err != nil {
			return fmt.Errorf("reading workflow job %s: %w", id, err)
		}
		if err := writeJobLog(&buf, &job, acts, loc); err != nil {
			return err
		}
	case idCoordinator:
		if err := a.coordLog(r, id, loc, &buf); err != nil {
			return err
		}
	default:
		if e, ok := notSupportedKind(kindOfID(id)); ok {
			return e
		}
		return errJobNotFound(id)
	}
	w.Header().Set("Content-Type", textContentType)
	w.WriteHeader(http.StatusOK)
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		if line := sc.Text(); strings.Contains(line, " WARN ") || strings.Contains(line, " ERROR ") {
			bw.WriteString(line)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// getCoordLog serves show=log of a coordinator job.
func (a *api) getCoordLog(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	var buf bytes.Buffer
	if err := a.coordLog(r, id, loc, &buf); err != nil {
		return err
	}
	w.Header().Set("Content-Type", textContentType)
	w.WriteHeader(http.StatusOK)
	_, err := buf.WriteTo(w)
	return err
}

// coordLog writes a coordinator job's log.
func (a *api) coordLog(r *http.Request, id string, loc *time.Location, w io.Writer) error {
	var (
		job  store.CoordJob
		acts []store.CoordAction
	)
	err := a.Store.Tx(r.Context(), func(x store.Tx) error {
		var err error
		if job, err = x.GetCoordJob(r.Context(), id); err != nil {
			return err
		}
		acts, _, err = x.ListCoordActions(r.Context(), store.CoordActionFilter{JobID: id})
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errJobNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading coordinator job %s: %w", id, err)
	}
	return writeCoordLog(w, &job, acts, loc)
}

// writeCoordLog writes a coordinator job's history in the form of
// writeJobLog, from its row and its actions' rows: submission, each action's
// materialization, what it waits for, its workflow and its end.
func writeCoordLog(w io.Writer, job *store.CoordJob, acts []store.CoordAction, loc *time.Location) error {
	var events []logEvent
	add := func(at time.Time, level, action, format string, args ...any) {
		if !at.IsZero() {
			events = append(events, logEvent{at: at, level: level, action: action, msg: fmt.Sprintf(format, args...)})
		}
	}
	add(job.CreatedTime, "INFO", "", "coordinator job submitted, app path [%s], frequency [%s %s]", job.AppPath, job.Frequency, job.TimeUnit)
	for i := range acts {
		c := &acts[i]
		add(c.CreatedTime, "INFO", c.ID, "action [%d] materialized for nominal time [%s]", c.ActionNumber,
			c.NominalTime.In(loc).Format("2006-01-02T15:04Z07:00"))
		deps := coordrun.MissingList(c.MissingDependencies)
		switch {
		case c.ErrorCode != "":
			add(c.LastModified, "WARN", c.ID, "action [%d] is [%s], error [%s]: %s", c.ActionNumber, c.Status, c.ErrorCode, c.ErrorMessage)
		case c.Status == store.CoordActionWaiting && len(deps) > 0:
			add(c.LastModified, "INFO", c.ID, "action [%d] is [WAITING] on [%s]", c.ActionNumber, deps[0])
		case c.Status == store.CoordActionTimedOut || c.Status == store.CoordActionFailed || c.Status == store.CoordActionKilled:
			add(c.LastModified, "WARN", c.ID, "action [%d] ended with status [%s], workflow [%s]", c.ActionNumber, c.Status, dash(c.ExternalID))
		case c.ExternalID != "":
			add(c.LastModified, "INFO", c.ID, "action [%d] is [%s], workflow [%s]", c.ActionNumber, c.Status, c.ExternalID)
		default:
			add(c.LastModified, "INFO", c.ID, "action [%d] is [%s]", c.ActionNumber, c.Status)
		}
	}
	level := "INFO"
	if job.Status == store.JobFailed || job.Status == store.JobKilled || job.Status == store.JobDoneWithError ||
		job.Status == store.JobRunningWithError {
		level = "WARN"
	}
	add(job.LastModified, level, "", "coordinator job is [%s]", job.Status)
	return writeLogEvents(w, events, job.User, job.Group, job.AppName, job.ID, loc)
}

// getMissingDeps serves show=missing-dependencies of a coordinator job
// (narrowed by action-list=1,3-4 or date=<scope>; every waiting action
// without them) or of one coordinator action.
func (a *api) getMissingDeps(w http.ResponseWriter, r *http.Request, id string, _ *time.Location) error {
	if a.Coordinators == nil {
		return errNotSupported("coordinator jobs")
	}
	q := r.URL.Query()
	var (
		typ   coordrun.ScopeType
		scope string
	)
	switch kindOfID(id) {
	case idCoordAction:
		job, n, _ := strings.Cut(id, "@")
		id, typ, scope = job, coordrun.ScopeAction, n
	case idCoordinator:
		switch {
		case q.Get(paramActionListShow) != "" && q.Get(paramDateShow) != "":
			return server.NewError(http.StatusBadRequest, server.CodeInvalidParam,
				"Invalid parameter, give either [%s] or [%s]", paramActionListShow, paramDateShow)
		case q.Get(paramActionListShow) != "":
			typ, scope = coordrun.ScopeAction, q.Get(paramActionListShow)
		case q.Get(paramDateShow) != "":
			typ, scope = coordrun.ScopeDate, q.Get(paramDateShow)
		}
	default:
		return server.NewError(http.StatusBadRequest, server.CodeInvalidParamValue,
			"Invalid parameter value, [show] = [%s]: missing dependencies are a coordinator's", showMissingDeps)
	}
	deps, err := a.Coordinators.MissingDependencies(r.Context(), id, typ, scope)
	if err != nil {
		return err
	}
	out := oozieapi.MissingDependencies{MissingDependencies: []oozieapi.ActionMissingDependencies{}}
	for _, d := range deps {
		e := oozieapi.ActionMissingDependencies{ID: d.Number, BlockedOn: d.BlockedOn, DataSets: []oozieapi.DataSetDependencies{}}
		for _, ds := range d.DataSets {
			e.DataSets = append(e.DataSets, oozieapi.DataSetDependencies{DataSet: ds.Name, MissingDependencies: ds.Missing})
		}
		out.MissingDependencies = append(out.MissingDependencies, e)
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

// getAllRuns serves show=allruns: every workflow run of a coordinator action,
// given as its id (C@n) or as the job id with type=action&scope=n.
func (a *api) getAllRuns(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	actionID := id
	if kindOfID(id) == idCoordinator {
		q := r.URL.Query()
		if q.Get(paramType) != string(coordrun.ScopeAction) || q.Get(paramScope) == "" {
			return server.NewError(http.StatusBadRequest, server.CodeInvalidParam,
				"Invalid parameter, show=allruns of a coordinator job needs type=action and scope=<action number>")
		}
		actionID = id + "@" + q.Get(paramScope)
	} else if kindOfID(id) != idCoordAction {
		return server.NewError(http.StatusBadRequest, server.CodeInvalidParamValue,
			"Invalid parameter value, [show] = [%s]: all runs are a coordinator action's", showAllRuns)
	}
	var runs []store.WorkflowJob
	err := a.Store.Tx(r.Context(), func(x store.Tx) error {
		if _, err := x.GetCoordAction(r.Context(), actionID); err != nil {
			return err
		}
		var err error
		runs, _, err = x.ListWorkflowJobs(r.Context(), store.JobFilter{ParentID: actionID, SortBy: SortCreatedTime})
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errActionNotFound(actionID)
	}
	if err != nil {
		return fmt.Errorf("reading runs of %s: %w", actionID, err)
	}
	out := oozieapi.AllRuns{Workflows: []oozieapi.WorkflowRun{}}
	for i := len(runs) - 1; i >= 0; i-- { // oldest first
		j := runs[i]
		out.Workflows = append(out.Workflows, oozieapi.WorkflowRun{ID: j.ID, Status: string(j.Status),
			StartTime: oozieapi.NewDate(j.StartTime, loc), EndTime: oozieapi.NewDate(j.EndTime, loc)})
	}
	return server.WriteJSON(w, http.StatusOK, out)
}
