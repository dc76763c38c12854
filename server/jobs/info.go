package jobs

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// Values of the show parameter.
const (
	showInfo       = "info"
	showDefinition = "definition"
	showLog        = "log"
	showStatus     = "status"
)

// otherShows are show values Oozie serves and gozie does not yet.
var otherShows = map[string]bool{"jmstopic": true, "wf-actions-in-coord": true}

// get serves GET job/<id>?show=...: info (the default), definition or status of a
// workflow job, info and status also of a workflow action (<job id>@<node>); log (see
// getLog) and the shows of extraShow of every kind of job.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	q := r.URL.Query()
	show := q.Get(paramShow)
	if show == "" {
		show = showInfo
	}
	if show == showGraph {
		return a.getGraph(w, r, id)
	}
	h := a.extraShow(show)
	if show == showLog {
		h = a.getLog
	}
	if h != nil {
		loc, err := zoneParam(q)
		if err != nil {
			return err
		}
		return h(w, r, id, loc)
	}
	switch show {
	case showInfo, showDefinition, showStatus:
	default:
		if otherShows[show] {
			return errNotSupported("show=" + show)
		}
		return server.ErrInvalidParamValue(paramShow, show)
	}
	loc, err := zoneParam(q)
	if err != nil {
		return err
	}
	kind := kindOfID(id)
	switch kind {
	case idCoordinator:
		if a.Coordinators != nil {
			return a.getCoordinator(w, r, id, show, loc)
		}
	case idCoordAction:
		if a.Coordinators != nil {
			return a.getCoordAction(w, r, id, show, loc)
		}
	case idBundle:
		if a.Bundles != nil {
			return a.getBundle(w, r, id, show, loc)
		}
	}
	if e, ok := notSupportedKind(kind); ok {
		return e
	}
	switch kind {
	case idWorkflowAction:
		return a.getAction(w, r, id, show, loc)
	case idWorkflow:
		return a.getWorkflow(w, r, id, show, loc)
	}
	return errJobNotFound(id)
}

// getWorkflow answers GET job/<workflow id>.
func (a *api) getWorkflow(w http.ResponseWriter, r *http.Request, id, show string, loc *time.Location) error {
	q := r.URL.Query()
	// Actions of info are paged like Oozie's: 1-based offset, every action by default.
	offset, length, err := pageParams(q, 0)
	if err != nil {
		return err
	}
	var (
		job  store.WorkflowJob
		acts []store.WorkflowAction
	)
	err = a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		if job, err = x.GetWorkflowJob(r.Context(), id); err != nil {
			return err
		}
		if show == showInfo {
			acts, err = x.ListWorkflowActions(r.Context(), id)
		}
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errJobNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading workflow job %s: %w", id, err)
	}
	switch show {
	case showDefinition:
		return writeText(w, xmlResponseType, job.Definition)
	case showStatus:
		return server.WriteJSON(w, http.StatusOK, oozieapi.JobStatus{Status: string(job.Status)})
	}
	return server.WriteJSON(w, http.StatusOK, workflowJSON(&job, page(acts, offset, length), loc))
}

// page returns the length items of s from the 1-based offset; length 0 means all of them.
func page[T any](s []T, offset, length int) []T {
	if offset > len(s) {
		return s[:0]
	}
	s = s[offset-1:]
	if length > 0 && length < len(s) {
		s = s[:length]
	}
	return s
}

// getAction answers GET job/<workflow action id>: the action's info or status.
func (a *api) getAction(w http.ResponseWriter, r *http.Request, id, show string, loc *time.Location) error {
	if show != showInfo && show != showStatus {
		return server.ErrInvalidParamValue(paramShow, show)
	}
	var act store.WorkflowAction
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		act, err = x.GetWorkflowAction(r.Context(), id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errActionNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading workflow action %s: %w", id, err)
	}
	if show == showStatus {
		return server.WriteJSON(w, http.StatusOK, oozieapi.JobStatus{Status: string(act.Status)})
	}
	return server.WriteJSON(w, http.StatusOK, actionJSON(&act, loc))
}

// writeText sends a 200 text response.
func writeText(w http.ResponseWriter, contentType, body string) error {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte(body)); err != nil {
		return fmt.Errorf("writing response: %w", err)
	}
	return nil
}
