package jobs

import (
	"net/http"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
)

// actionUpdate is PUT job/<coord id>?action=update[&dryrun=true], with an
// optional XML job configuration as the body.
const (
	actionUpdate = "update"
	paramDryRun  = "dryrun"
)

// updateResponse is the answer of an update: {"update":{"diff":"..."}}.
type updateResponse struct {
	Update struct {
		Diff string `json:"diff"`
	} `json:"update"`
}

// putUpdate serves action=update of a coordinator: its definition is read
// again from the app path under the body's configuration (or its own), and
// the differences are answered; dryrun=true only answers them.
func (a *api) putUpdate(w http.ResponseWriter, r *http.Request, id string) error {
	if kindOfID(id) != idCoordinator {
		return server.NewError(http.StatusBadRequest, oozieerr.E0303,
			"Invalid parameter value, [action] = [update]: only coordinator jobs can be updated")
	}
	if a.Coordinators == nil {
		return errNotSupported("coordinator jobs")
	}
	dryRun, err := boolParam(r, paramDryRun)
	if err != nil {
		return err
	}
	props := &conf.Properties{}
	if r.ContentLength != 0 {
		if props, err = readConfiguration(r); err != nil {
			return err
		}
	}
	diff, err := a.Coordinators.Update(r.Context(), id, props, dryRun)
	if err != nil {
		return err
	}
	var out updateResponse
	out.Update.Diff = diff
	return server.WriteJSON(w, http.StatusOK, out)
}
