package jobs

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/oozieerr"
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
			return server.NewError(http.StatusBadRequest, oozieerr.E0302,
				"Invalid parameter, give either [%s] or [%s]", paramActionListShow, paramDateShow)
		case q.Get(paramActionListShow) != "":
			typ, scope = coordrun.ScopeAction, q.Get(paramActionListShow)
		case q.Get(paramDateShow) != "":
			typ, scope = coordrun.ScopeDate, q.Get(paramDateShow)
		}
	default:
		return server.NewError(http.StatusBadRequest, oozieerr.E0303,
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
			return server.NewError(http.StatusBadRequest, oozieerr.E0302,
				"Invalid parameter, show=allruns of a coordinator job needs type=action and scope=<action number>")
		}
		actionID = id + "@" + q.Get(paramScope)
	} else if kindOfID(id) != idCoordAction {
		return server.NewError(http.StatusBadRequest, oozieerr.E0303,
			"Invalid parameter value, [show] = [%s]: all runs are a coordinator action's", showAllRuns)
	}
	var runs []store.WorkflowJob
	err := a.Store.View(r.Context(), func(x store.Tx) error {
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
