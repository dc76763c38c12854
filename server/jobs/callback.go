package jobs

import (
	"fmt"
	"net/http"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
)

// callback serves GET and POST /oozie/callback?id=<action id>&status=<status>, what an
// action's launcher calls when it ends. The callback is a hint: the runner checks the action
// at once and trusts its executor's answer, not the status sent, so a POST body (Oozie's
// launchers send capture-output data in it) is not read; gozie's executors collect action
// data themselves. An id that names no action is 404 E0605.
func (a *api) callback(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	id, status := q.Get(paramID), q.Get(paramStatus)
	if id == "" || !q.Has(paramStatus) {
		return server.NewError(http.StatusBadRequest, oozieerr.E0402, "Invalid callback ID [%s]", r.URL.RawQuery)
	}
	if err := a.Workflows.Callback(r.Context(), id, status); err != nil {
		return fmt.Errorf("callback for action %s: %w", id, err)
	}
	w.WriteHeader(http.StatusOK)
	return nil
}
