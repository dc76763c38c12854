package jobs

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// showRetries is the show value of an action's user-retry attempts.
const showRetries = "retries"

// getRetries serves GET /v2/job/<job id>@<action>?show=retries: the attempts
// of a workflow action that its user-retry policy ran again, oldest first
// ({"retries":[]} when it was never retried). As in Oozie these are the
// attempts numbered up to the action's retry count; the last attempt is the
// action itself. Dates are in the timezone parameter's zone (GMT by default).
//
// Like Oozie, v1 does not serve it (400 E0302); ids other than a workflow
// action's are 400 E0303, and an action that does not exist is 404 E0605.
func (a *api) getRetries(w http.ResponseWriter, r *http.Request, id string, loc *time.Location) error {
	if mux.Vars(r)["version"] == "1" {
		return server.ErrNotSupportedInV1()
	}
	if kindOfID(id) != idWorkflowAction {
		return server.NewError(http.StatusBadRequest, oozieerr.E0303,
			"Invalid parameter value, [show] = [%s]: retries are a workflow action's, give <workflow id>@<action name>",
			showRetries)
	}
	var (
		act      store.WorkflowAction
		attempts []store.ActionAttempt
	)
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		if act, err = x.GetWorkflowAction(r.Context(), id); err != nil {
			return err
		}
		attempts, err = x.ListActionAttempts(r.Context(), id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errActionNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading the retries of action %s: %w", id, err)
	}
	return server.WriteJSON(w, http.StatusOK, retriesJSON(&act, attempts, loc))
}

// retriesJSON is the show=retries document of act: its attempts that ended
// and were retried.
func retriesJSON(act *store.WorkflowAction, attempts []store.ActionAttempt, loc *time.Location) oozieapi.ActionRetries {
	out := oozieapi.ActionRetries{Retries: []oozieapi.ActionRetry{}}
	for _, at := range attempts {
		if at.Attempt > act.UserRetryCount {
			continue // the attempt running now (or the last one), which is the action itself
		}
		out.Retries = append(out.Retries, oozieapi.ActionRetry{Attempt: at.Attempt,
			StartTime: oozieapi.NewDate(at.StartTime, loc), EndTime: oozieapi.NewDate(at.EndTime, loc),
			ConsoleURL: at.ConsoleURL, ExternalChildIDs: at.ExternalChildIDs})
	}
	return out
}
