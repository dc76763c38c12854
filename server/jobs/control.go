package jobs

import (
	"fmt"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
)

// Values of the action parameter of PUT job/<id>.
const (
	actionStart   = "start"
	actionSuspend = "suspend"
	actionResume  = "resume"
	actionKill    = "kill"
	actionRerun   = "rerun"
)

// otherActions are PUT job actions Oozie has and gozie does not serve yet.
var otherActions = map[string]bool{
	"bundle-rerun": true,
}

// put serves PUT job/<id>?action=start|suspend|resume|kill|rerun on a workflow job; rerun
// takes an XML job configuration as its body. Commands that do not apply to the job's
// current state (resuming a running job, killing a finished one) change nothing and still
// answer 200, as in Oozie.
func (a *api) put(w http.ResponseWriter, r *http.Request) error {
	id := mux.Vars(r)["id"]
	q := r.URL.Query()
	if !q.Has(paramAction) {
		return server.ErrMissingParam(paramAction)
	}
	action := q.Get(paramAction)
	if isSLAAction(action) {
		return a.putSLA(w, r, id, action)
	}
	if action == actionUpdate {
		return a.putUpdate(w, r, id)
	}
	if action == actionIgnore {
		if err := refuseIgnore(mux.Vars(r)["version"], id); err != nil {
			return err
		}
	}
	if kindOfID(id) == idBundle && a.Bundles != nil {
		return a.putBundle(w, r, id, action)
	}
	switch action {
	case actionStart, actionSuspend, actionResume, actionKill, actionRerun:
	case actionChange, actionIgnore, actionCoordRerun:
		if kindOfID(id) == idCoordinator {
			return a.putCoordinator(w, r, id, action)
		}
		if kindOfID(id) == idWorkflow && action == actionChange {
			return server.NewError(http.StatusBadRequest, oozieerr.E1017, "Workflow jobs cannot be changed")
		}
		if action == actionIgnore {
			return errJobNotFound(id) // Oozie takes any other id for a coordinator's
		}
		return errNotSupported("action=" + action)
	default:
		if otherActions[action] {
			return errNotSupported("action=" + action)
		}
		return server.ErrInvalidParamValue(paramAction, action)
	}
	switch kind := kindOfID(id); kind {
	case idWorkflow:
	case idCoordinator:
		if action == actionRerun {
			// Coordinators rerun their actions with action=coord-rerun.
			return server.ErrInvalidParamValue(paramAction, action)
		}
		return a.putCoordinator(w, r, id, action)
	default:
		if e, ok := notSupportedKind(kind); ok {
			return e
		}
		return errJobNotFound(id)
	}
	ctx := r.Context()
	var err error
	switch action {
	case actionStart:
		err = a.Workflows.Start(ctx, id)
	case actionSuspend:
		err = a.Workflows.Suspend(ctx, id)
	case actionResume:
		err = a.Workflows.Resume(ctx, id)
	case actionKill:
		err = a.Workflows.Kill(ctx, id)
	case actionRerun:
		props, rerr := readConfiguration(r)
		if rerr != nil {
			return rerr
		}
		err = a.Workflows.Rerun(ctx, id, props)
	}
	if err != nil {
		return fmt.Errorf("%s of workflow job %s: %w", action, id, err)
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// refuseIgnore answers the ignore commands Oozie refuses, whatever the job's state: every
// one in v1 (V1JobServlet), and in v2 that of a workflow or a bundle job (V2JobServlet's
// own words). It returns nil for a v2 ignore of any other id, which Oozie runs as a
// coordinator's.
func refuseIgnore(version, id string) error {
	switch {
	case version == "1":
		return server.ErrNotSupportedInV1()
	case kindOfID(id) == idWorkflow:
		return server.ErrInvalidParam("Workflow Ignore Not supported")
	case kindOfID(id) == idBundle:
		return server.ErrInvalidParam("Bundle Ignore Not supported")
	}
	return nil
}
