package jobs

import (
	"fmt"
	"net/http"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
)

// Parameters and values of PUT v2/dataset.
const (
	actionNotify = "notify"
	paramURI     = "uri"
)

// notifyDataset serves PUT v2/dataset?action=notify&uri=<uri>, gozie's push path for
// dataset instances: every coordinator action waiting on uri checks its inputs at once.
// It answers {"notified":<actions woken>}; an unknown uri wakes none.
func (a *api) notifyDataset(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	if !q.Has(paramAction) {
		return server.ErrMissingParam(paramAction)
	}
	if act := q.Get(paramAction); act != actionNotify {
		return server.ErrInvalidParamValue(paramAction, act)
	}
	uri := q.Get(paramURI)
	if uri == "" {
		return server.ErrMissingParam(paramURI)
	}
	if a.Coordinators == nil {
		return errNotSupported("dataset notifications")
	}
	n, err := a.Coordinators.Notify(r.Context(), uri)
	if err != nil {
		return fmt.Errorf("notifying dataset %s: %w", uri, err)
	}
	return server.WriteJSON(w, http.StatusOK, oozieapi.DatasetNotification{Notified: n})
}
