package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gozie/gozie/coordinator/coordrun"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

// SLA commands of PUT job/<id> and their scope parameters.
const (
	actionSLAEnable  = "sla-enable"
	actionSLADisable = "sla-disable"
	actionSLAChange  = "sla-change"

	paramActionList   = "action-list"
	paramDate         = "date"
	paramCoordinators = "coordinators"
)

// SLAControl changes the SLA registrations of a job or action: its own and
// those whose parent it is. *sla.Service implements it.
type SLAControl interface {
	// SetAlerts enables or disables the alerts of id's registrations.
	SetAlerts(ctx context.Context, id string, enabled bool) error
	// Change applies "sla-should-end=30;sla-max-duration=60"-style changes and
	// re-arms the deadlines.
	Change(ctx context.Context, id, value string) error
}

// isSLAAction reports whether action is one of the SLA commands.
func isSLAAction(action string) bool {
	return action == actionSLAEnable || action == actionSLADisable || action == actionSLAChange
}

// putSLA serves PUT job/<id>?action=sla-enable|sla-disable|sla-change. On a
// coordinator, action-list=1,3-4 or date=<scope> narrow it to those actions;
// on a bundle, coordinators=<names or ids> to those coordinators. Without a
// scope it applies to the job and everything under it.
func (a *api) putSLA(w http.ResponseWriter, r *http.Request, id, action string) error {
	if a.SLA == nil {
		return errNotSupported("action=" + action + " (the SLA service is disabled)")
	}
	q := r.URL.Query()
	value := q.Get(paramValue)
	if action == actionSLAChange && strings.TrimSpace(value) == "" {
		return server.ErrMissingParam(paramValue)
	}
	ctx := r.Context()
	targets, err := a.slaTargets(ctx, id, q.Get(paramActionList), q.Get(paramDate), q.Get(paramCoordinators))
	if err != nil {
		return err
	}
	for _, t := range targets {
		switch action {
		case actionSLAEnable:
			err = a.SLA.SetAlerts(ctx, t, true)
		case actionSLADisable:
			err = a.SLA.SetAlerts(ctx, t, false)
		default:
			err = a.SLA.Change(ctx, t, value)
		}
		if err != nil {
			return fmt.Errorf("%s of %s: %w", action, t, err)
		}
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// slaTargets resolves the ids an SLA command applies to.
func (a *api) slaTargets(ctx context.Context, id, actionList, date, coordinators string) ([]string, error) {
	kind := kindOfID(id)
	if (actionList != "" || date != "") && kind != idCoordinator {
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0302, "Invalid parameter, [%s] and [%s] apply to coordinator jobs only", paramActionList, paramDate)
	}
	if coordinators != "" && kind != idBundle {
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0302, "Invalid parameter, [%s] applies to bundle jobs only", paramCoordinators)
	}
	switch {
	case actionList != "" && date != "":
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0302, "Invalid parameter, give either [%s] or [%s]", paramActionList, paramDate)
	case actionList != "" || date != "":
		if a.Coordinators == nil {
			return nil, errNotSupported("coordinator jobs")
		}
		typ, scope := coordrun.ScopeAction, actionList
		if date != "" {
			typ, scope = coordrun.ScopeDate, date
		}
		acts, err := a.Coordinators.SelectActions(ctx, id, typ, scope)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(acts))
		for i, act := range acts {
			out[i] = act.ID
		}
		return out, nil
	case kind == idBundle:
		return a.bundleCoordinators(ctx, id, coordinators)
	}
	return []string{id}, nil
}

// bundleCoordinators returns the coordinator job ids of a bundle, all of them
// or those named (by bundle entry name or job id) in the comma-separated list.
func (a *api) bundleCoordinators(ctx context.Context, id, list string) ([]string, error) {
	var links []store.BundleAction
	err := a.Store.View(ctx, func(x store.Tx) error {
		if _, err := x.GetBundleJob(ctx, id); err != nil {
			return err
		}
		var err error
		links, err = x.ListBundleActions(ctx, id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, errJobNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, c := range strings.Split(list, ",") {
		if c = strings.TrimSpace(c); c != "" {
			want[c] = true
		}
	}
	var out []string
	for _, l := range links {
		if l.CoordID == "" {
			continue // not kicked off yet: it has no registrations
		}
		if len(want) == 0 || want[l.CoordName] || want[l.CoordID] {
			out = append(out, l.CoordID)
			delete(want, l.CoordName)
			delete(want, l.CoordID)
		}
	}
	for c := range want {
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0303, "Invalid parameter value, [%s] = [%s]: no such coordinator in bundle %s", paramCoordinators, c, id)
	}
	return out, nil
}
