package coordrun

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// ScopeType says how a scope selects a job's actions.
type ScopeType string

// Scope types, as Oozie's type parameter names them.
const (
	// ScopeAction selects by action number: "1-3,7".
	ScopeAction ScopeType = "action"
	// ScopeDate selects by nominal time: "2009-12-15T01:00Z::2009-12-16T01:00Z,2009-12-20T01:00Z"
	// (a single date must be an action's nominal time exactly; ranges include both ends).
	ScopeDate ScopeType = "date"
)

// selectActions returns the job's actions in a scope, in the scope's order
// for numbers and in nominal-time order for dates; numbers without an action
// are skipped.
func (r *Runner) selectActions(ctx context.Context, x store.Tx, jobID string, typ ScopeType, scope string) ([]store.CoordAction, error) {
	switch ScopeType(strings.ToLower(string(typ))) {
	case ScopeAction:
		ids, err := coordinator.ActionScope(jobID, scope)
		if err != nil {
			return nil, coded(err)
		}
		var out []store.CoordAction
		for _, id := range ids {
			a, err := x.GetCoordAction(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	case ScopeDate:
		ranges, err := coordinator.DateScope(scope, r.cfg.Format)
		if err != nil {
			return nil, coded(err)
		}
		from, to := ranges[0].From, ranges[0].To
		for _, rg := range ranges[1:] {
			from, to = minT(from, rg.From), maxT(to, rg.To)
		}
		acts, _, err := x.ListCoordActions(ctx, store.CoordActionFilter{JobID: jobID, NominalFrom: from,
			NominalTo: to.Add(time.Millisecond)})
		if err != nil {
			return nil, err
		}
		return coordinator.InDateScope(acts, ranges), nil
	}
	return nil, oozieerr.New(oozieerr.E0302, "Invalid parameter [type] = [%s]: must be action or date", typ)
}

func minT(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxT(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// KillActions kills the job's actions in a scope that have not finished
// (their workflows are killed) and returns them; finished ones are left out,
// as in Oozie. The job itself keeps running.
func (r *Runner) KillActions(ctx context.Context, id string, typ ScopeType, scope string) ([]store.CoordAction, error) {
	var killed []store.CoordAction
	err := r.tx(ctx, func(x store.Tx) error {
		job, err := lockJob(ctx, x, id)
		if err != nil {
			return err
		}
		acts, err := r.selectActions(ctx, x, id, typ, scope)
		if err != nil {
			return err
		}
		killed, err = r.killActions(ctx, x, &job, acts)
		return err
	})
	return killed, err
}

// IgnoreActions ignores the job's actions in a scope: each must have
// FAILED, been KILLED or TIMEDOUT, and the job must not be in PREP (E1024).
// Ignored actions no longer count in the job's status.
func (r *Runner) IgnoreActions(ctx context.Context, id string, typ ScopeType, scope string) ([]store.CoordAction, error) {
	var ignored []store.CoordAction
	err := r.tx(ctx, func(x store.Tx) error {
		ignored = nil
		job, err := lockJob(ctx, x, id)
		if err != nil {
			return err
		}
		if job.Status == store.JobPrep {
			return oozieerr.New(oozieerr.E1024, "Coordinator job [%s] is in PREP: it has no actions to ignore", id)
		}
		acts, err := r.selectActions(ctx, x, id, typ, scope)
		if err != nil {
			return err
		}
		if len(acts) == 0 {
			return oozieerr.New(oozieerr.E1024, "No coordinator actions of [%s] in scope [%s]", id, scope)
		}
		var refused []string
		for _, a := range acts {
			if !ignorable(a.Status) {
				refused = append(refused, a.ID+" ("+string(a.Status)+")")
			}
		}
		if len(refused) > 0 {
			return oozieerr.New(oozieerr.E1024, "Only FAILED, KILLED or TIMEDOUT actions can be ignored: %s", strings.Join(refused, ", "))
		}
		now := r.now()
		for _, a := range acts {
			from := a.Status
			a.Status, a.LastModified = store.CoordActionIgnored, now
			if err := r.updateAction(ctx, x, &job, from, &a); err != nil {
				return err
			}
			ignored = append(ignored, a)
		}
		return nil
	})
	return ignored, err
}

// SelectActions returns the actions of job id in a scope (action numbers or
// nominal dates, as KillActions takes them), for commands that act on
// actions outside this package, such as the SLA service's sla-enable.
func (r *Runner) SelectActions(ctx context.Context, id string, typ ScopeType, scope string) ([]store.CoordAction, error) {
	var acts []store.CoordAction
	err := r.tx(ctx, func(x store.Tx) error {
		if _, err := x.GetCoordJob(ctx, id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return oozieerr.New(oozieerr.E0604, "Job does not exist [%s]", id)
			}
			return err
		}
		var err error
		acts, err = r.selectActions(ctx, x, id, typ, scope)
		return err
	})
	return acts, err
}
