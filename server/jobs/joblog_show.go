package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

// getLog serves show=log of a workflow, coordinator or bundle job: its log
// (see jobLog) narrowed by the logfilter parameter (see logFilter), for a
// coordinator also to the actions of type=action|date&scope=..., times in
// loc; of a workflow action, its container logs (getActionLog).
func (a *api) getLog(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	if kindOfID(id) == idWorkflowAction {
		return a.getActionLog(w, r, id)
	}
	return a.serveLog(w, r, id, loc, showLog, nil)
}

// getErrorLog serves show=errorlog: what show=log shows at the levels of
// Oozie's error log (WARN, ERROR, FATAL), narrowed the same way.
func (a *api) getErrorLog(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	return a.serveLog(w, r, id, loc, showErrorLog, errorLogLevels)
}

// serveLog writes the lines of a job's log that the request's logfilter
// keeps among those of levels (nil: every level).
func (a *api) serveLog(w http.ResponseWriter, r *http.Request, id string, loc *time.Location, show string, levels []string) error {
	q := r.URL.Query()
	switch kindOfID(id) {
	case idWorkflow, idCoordinator, idBundle:
	case idWorkflowAction, idCoordAction:
		return server.ErrInvalidParamValue(paramShow, show)
	default:
		return errJobNotFound(id)
	}
	f, err := logFilterParam(q, loc)
	if err != nil {
		return err
	}
	l, err := a.readJobLog(r.Context(), id, q, loc)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", textContentType)
	w.WriteHeader(http.StatusOK)
	return l.write(w, f, levels, a.Clock.Now(), loc)
}

// readJobLog reads the rows of a job's log.
func (a *api) readJobLog(ctx context.Context, id string, q url.Values, loc *time.Location) (jobLog, error) {
	kind := kindOfID(id)
	if kind != idCoordinator && (q.Has(paramType) || q.Has(paramScope)) {
		return jobLog{}, server.NewError(http.StatusBadRequest, oozieerr.E0302,
			"Invalid parameter, [%s] and [%s] narrow the log of a coordinator job only", paramType, paramScope)
	}
	if kind == idCoordinator && (q.Has(paramType) || q.Has(paramScope)) {
		return a.readCoordActionsLog(ctx, id, q, loc)
	}
	var l jobLog
	err := a.Store.View(ctx, func(x store.Tx) error {
		switch kind {
		case idWorkflow:
			job, err := x.GetWorkflowJob(ctx, id)
			if err != nil {
				return err
			}
			acts, err := x.ListWorkflowActions(ctx, id)
			l = workflowLog(&job, acts)
			return err
		case idCoordinator:
			job, err := x.GetCoordJob(ctx, id)
			if err != nil {
				return err
			}
			acts, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: id})
			l = coordinatorLog(&job, acts, loc)
			return err
		case idBundle:
			job, err := x.GetBundleJob(ctx, id)
			if err != nil {
				return err
			}
			coords, _, err := x.ListCoordJobs(ctx, store.JobFilter{BundleID: id})
			l = bundleLog(&job, coords, loc)
			return err
		}
		return store.ErrNotFound
	})
	if errors.Is(err, store.ErrNotFound) {
		return jobLog{}, errJobNotFound(id)
	}
	if err != nil {
		return jobLog{}, fmt.Errorf("reading the log of %s: %w", id, err)
	}
	return l, nil
}

// readCoordActionsLog reads the log of a coordinator's actions in the scope
// of the type and scope parameters (Oozie's -log ID -action 1,3-4 or -date
// d1::d2); a scope without actions gives an empty log.
func (a *api) readCoordActionsLog(ctx context.Context, id string, q url.Values, loc *time.Location) (jobLog, error) {
	for _, p := range []string{paramType, paramScope} {
		if q.Get(p) == "" {
			return jobLog{}, server.ErrMissingParam(p)
		}
	}
	if a.Coordinators == nil {
		return jobLog{}, errNotSupported("coordinator jobs")
	}
	acts, err := a.Coordinators.SelectActions(ctx, id, coordrun.ScopeType(q.Get(paramType)), q.Get(paramScope))
	if err != nil {
		return jobLog{}, fmt.Errorf("selecting the actions of %s: %w", id, err)
	}
	var job store.CoordJob
	err = a.Store.View(ctx, func(x store.Tx) error {
		var err error
		job, err = x.GetCoordJob(ctx, id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return jobLog{}, errJobNotFound(id)
	}
	if err != nil {
		return jobLog{}, fmt.Errorf("reading coordinator job %s: %w", id, err)
	}
	if len(acts) == 0 {
		return jobLog{jobID: id, start: job.CreatedTime}, nil
	}
	return coordActionsLog(&job, acts, loc), nil
}
