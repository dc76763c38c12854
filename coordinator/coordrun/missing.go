package coordrun

import (
	"context"
	"errors"
	"slices"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// MissingDeps are the dependencies one coordinator action still waits for,
// grouped by the data-in that needs them (show=missing-dependencies).
type MissingDeps struct {
	// Number is the action number.
	Number int
	// BlockedOn is the first missing dependency, the one the input check
	// looks at first.
	BlockedOn string
	// DataSets lists, per data-in name in document order, its missing URIs
	// (resolved instances with their done-flag, or the coord:latest/future
	// placeholders not yet resolved).
	DataSets []DataSetDeps
}

// DataSetDeps is the missing part of one data-in.
type DataSetDeps struct {
	Name    string
	Missing []string
}

// MissingDependencies lists the missing dependencies of a coordinator's
// actions: those in a scope (action numbers or nominal dates), or, with an
// empty scope type, every action still waiting. Actions with nothing missing
// are left out.
func (r *Runner) MissingDependencies(ctx context.Context, id string, typ ScopeType, scope string) ([]MissingDeps, error) {
	var (
		job  store.CoordJob
		acts []store.CoordAction
	)
	err := r.tx(ctx, func(x store.Tx) error {
		var err error
		if job, err = x.GetCoordJob(ctx, id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
			}
			return err
		}
		if typ == "" {
			acts, _, err = x.ListCoordActions(ctx, store.CoordActionFilter{JobID: id,
				Statuses: []store.CoordActionStatus{store.CoordActionWaiting}})
			return err
		}
		acts, err = r.selectActions(ctx, x, id, typ, scope)
		return err
	})
	if err != nil {
		return nil, err
	}
	_, jobConf, err := r.definition(&job)
	if err != nil {
		return nil, err
	}
	var out []MissingDeps
	for _, a := range acts {
		if a.MissingDependencies == "" {
			continue
		}
		m, err := missingOf(a, jobConf, r.cfg.Format)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b MissingDeps) int { return a.Number - b.Number })
	return out, nil
}

// missingOf groups an action's missing dependencies by data-in.
func missingOf(a store.CoordAction, jobConf *conf.Properties, f oozietime.Format) (MissingDeps, error) {
	order := MissingList(a.MissingDependencies)
	missing := make(map[string]bool, len(order))
	for _, u := range order {
		missing[u] = true
	}
	m := MissingDeps{Number: a.ActionNumber}
	if len(order) > 0 {
		m.BlockedOn = order[0]
	}
	runConf, err := conf.ParseConfigurationXML(a.RunConf, "coordinator action "+a.ID+" run configuration")
	if err != nil {
		return m, err
	}
	if runConf.Len() == 0 {
		runConf = jobConf
	}
	doc, err := coordinator.ParseActionXML(a.ActionXML, runConf, f)
	if err != nil {
		return m, err
	}
	placed := map[string]bool{}
	for _, in := range doc.DataIns {
		d := DataSetDeps{Name: in.Name}
		for _, u := range append(in.Dependencies(), in.Unresolved...) {
			if missing[u] && !placed[u] {
				d.Missing = append(d.Missing, u)
				placed[u] = true
			}
		}
		if len(d.Missing) > 0 {
			m.DataSets = append(m.DataSets, d)
		}
	}
	// Anything the data-ins do not name (an input-logic rewrite) is still shown.
	var rest []string
	for _, u := range order {
		if !placed[u] {
			rest = append(rest, u)
		}
	}
	if len(rest) > 0 {
		m.DataSets = append(m.DataSets, DataSetDeps{Missing: rest})
	}
	return m, nil
}
