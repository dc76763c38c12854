package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// Coordinator info paging defaults (oozie.coord.actions.default.length).
const coordDefaultLen = 1000

// PUT job/<coord id> actions beyond the workflow ones, and their parameters.
const (
	actionChange     = "change"
	actionIgnore     = "ignore"
	actionCoordRerun = "coord-rerun"
	paramType        = "type"
	paramScope       = "scope"
	paramValue       = "value"
	paramOrder       = "order"
	paramRefresh     = "refresh"
	paramNoCleanup   = "nocleanup"
	paramFailed      = "failed"
)

// submitCoordinator submits (or, for dryrun, only checks) a coordinator job. A dry run
// answers Oozie's text (the parsed definition and each action's document) in the id field.
func (a *api) submitCoordinator(ctx context.Context, w http.ResponseWriter, props *conf.Properties, dryRun bool) error {
	if a.Coordinators == nil {
		return errNotSupported("submitting coordinator jobs")
	}
	var id string
	if dryRun {
		res, err := a.Coordinators.DryRun(ctx, props, coordrun.SubmitOptions{})
		if err != nil {
			return fmt.Errorf("dry run of coordinator job: %w", err)
		}
		id = res.Text
	} else {
		var err error
		if id, err = a.Coordinators.Submit(ctx, props, coordrun.SubmitOptions{}); err != nil {
			return fmt.Errorf("submitting coordinator job: %w", err)
		}
	}
	return server.WriteJSON(w, http.StatusCreated, oozieapi.JobID{ID: id})
}

// coordInfoPage reads the paging of a coordinator's info: 1-based offset (see offsetParam),
// and len whose default differs by version (v1: below 1 means 1000; v2: absent or 0 means
// no actions, negative 1000, as Oozie's clients send -1 for "the default"). It returns a
// length of 0 for "no actions".
func coordInfoPage(r *http.Request) (offset, length int, err error) {
	q := r.URL.Query()
	if offset, err = offsetParam(q); err != nil {
		return 0, 0, err
	}
	v2 := mux.Vars(r)["version"] == "2"
	def := coordDefaultLen
	if v2 {
		def = 0
	}
	if length, err = intParam(q, paramLen, def); err != nil {
		return 0, 0, err
	}
	switch {
	case v2 && length < 0:
		length = coordDefaultLen
	case !v2 && length < 1:
		length = coordDefaultLen
	}
	return offset, length, nil
}

// getCoordinator answers GET job/<coordinator id>: info (paged and filtered actions),
// definition or status.
func (a *api) getCoordinator(w http.ResponseWriter, r *http.Request, id, show string, loc *time.Location) error {
	if show != showInfo && show != showDefinition && show != showStatus {
		return errNotSupported("show=" + show + " of coordinator jobs")
	}
	q := r.URL.Query()
	offset, length, err := coordInfoPage(r)
	if err != nil {
		return err
	}
	// Oozie's JSON of an action has no action XML: its column is not read.
	f := store.CoordActionFilter{JobID: id, Offset: offset - 1, Limit: length, OmitActionXML: true}
	switch o := q.Get(paramOrder); o {
	case "", "asc":
	case "desc":
		f.Desc = true
	default:
		return server.ErrInvalidParamValue(paramOrder, o)
	}
	if err := parseCoordActionFilter(q.Get(paramFilter), &f); err != nil {
		return err
	}
	var (
		job   store.CoordJob
		acts  []store.CoordAction
		total int
	)
	err = a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		if show != showInfo {
			job, err = x.GetCoordJob(r.Context(), id)
			return err
		}
		// The job (its definitions are not part of the info) and the number
		// of its actions matching the filter in one statement; the page in
		// a second.
		if job, total, err = x.GetCoordJobCounting(r.Context(), id, f); err != nil || length == 0 {
			return err
		}
		f.JobConf = job.Conf
		acts, err = x.ListCoordActionsPage(r.Context(), f)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errJobNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading coordinator job %s: %w", id, err)
	}
	switch show {
	case showDefinition:
		return writeText(w, xmlResponseType, job.OrigDefinition)
	case showStatus:
		return server.WriteJSON(w, http.StatusOK, oozieapi.JobStatus{Status: string(job.Status)})
	}
	return server.WriteJSON(w, http.StatusOK, coordJSON(&job, acts, total, loc))
}

// getCoordAction answers GET job/<coordinator action id>: its info or status.
func (a *api) getCoordAction(w http.ResponseWriter, r *http.Request, id, show string, loc *time.Location) error {
	if show != showInfo && show != showStatus {
		return server.ErrInvalidParamValue(paramShow, show)
	}
	var act store.CoordAction
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		act, err = x.GetCoordAction(r.Context(), id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errActionNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading coordinator action %s: %w", id, err)
	}
	if show == showStatus {
		return server.WriteJSON(w, http.StatusOK, oozieapi.JobStatus{Status: string(act.Status)})
	}
	return server.WriteJSON(w, http.StatusOK, coordActionJSON(&act, loc))
}

// scopeParams reads type=action|date and scope; ok is false when neither is given.
func scopeParams(r *http.Request) (typ coordrun.ScopeType, scope string, ok bool, err error) {
	q := r.URL.Query()
	if !q.Has(paramType) && !q.Has(paramScope) {
		return "", "", false, nil
	}
	switch t := q.Get(paramType); coordrun.ScopeType(t) {
	case coordrun.ScopeAction, coordrun.ScopeDate:
		typ = coordrun.ScopeType(t)
	default:
		return "", "", false, server.ErrInvalidParamValue(paramType, t)
	}
	scope = q.Get(paramScope)
	if scope == "" {
		return "", "", false, server.ErrMissingParam(paramScope)
	}
	return typ, scope, true, nil
}

// boolParam reads an optional true/false parameter.
func boolParam(r *http.Request, name string) (bool, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, server.ErrInvalidParamValue(name, s)
	}
	return b, nil
}

// putCoordinator runs a command on a coordinator job: suspend, resume, kill (of the job,
// or with type and scope of some actions), change, ignore (the job or some actions) and
// coord-rerun. Commands on actions answer {"actions":[...]} with GMT dates.
func (a *api) putCoordinator(w http.ResponseWriter, r *http.Request, id, action string) error {
	if a.Coordinators == nil {
		return errNotSupported("coordinator jobs")
	}
	ctx := r.Context()
	var (
		acts   []store.CoordAction
		answer bool
		err    error
		typ    coordrun.ScopeType
		scope  string
		scoped bool
		perr   error
	)
	if typ, scope, scoped, perr = scopeParams(r); perr != nil {
		return perr
	}
	switch action {
	case actionStart:
		// Coordinators start by themselves; Oozie refuses the command.
		return server.ErrInvalidParamValue(paramAction, action)
	case actionSuspend:
		err = a.Coordinators.Suspend(ctx, id)
	case actionResume:
		err = a.Coordinators.Resume(ctx, id)
	case actionKill:
		if scoped {
			acts, err = a.Coordinators.KillActions(ctx, id, typ, scope)
			answer = true
		} else {
			err = a.Coordinators.Kill(ctx, id)
		}
	case actionChange:
		if !r.URL.Query().Has(paramValue) {
			return server.ErrMissingParam(paramValue)
		}
		err = a.Coordinators.Change(ctx, id, r.URL.Query().Get(paramValue))
	case actionIgnore:
		if scoped {
			acts, err = a.Coordinators.IgnoreActions(ctx, id, typ, scope)
			answer = true
		} else {
			err = a.Coordinators.Ignore(ctx, id)
		}
	case actionCoordRerun:
		if !scoped {
			return server.ErrMissingParam(paramType)
		}
		opts := coordrun.RerunOptions{Type: typ, Scope: scope}
		if opts.Refresh, err = boolParam(r, paramRefresh); err != nil {
			return err
		}
		if opts.NoCleanup, err = boolParam(r, paramNoCleanup); err != nil {
			return err
		}
		if opts.Failed, err = boolParam(r, paramFailed); err != nil {
			return err
		}
		if r.ContentLength != 0 {
			if opts.Conf, err = readConfiguration(r); err != nil {
				return err
			}
		}
		acts, err = a.Coordinators.Rerun(ctx, id, opts)
		answer = true
	default:
		return errNotSupported("action=" + action + " of coordinator jobs")
	}
	if err != nil {
		return fmt.Errorf("%s of coordinator job %s: %w", action, id, err)
	}
	if answer {
		return server.WriteJSON(w, http.StatusOK, oozieapi.CoordinatorActions{Actions: coordActionsJSON(acts, oozieapi.GMT)})
	}
	w.WriteHeader(http.StatusOK)
	return nil
}
