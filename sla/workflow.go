package sla

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// WorkflowChanged is the workflow runner's hook: it is called in the
// transaction of every change the runner writes. job is the job as written
// when jobWritten, else as the runner read it (nil where it did not),
// inserted reports the job's creation, and actions are the actions created
// or updated.
//
// A new job registers the SLAs of its sla:info blocks (the job's and its
// actions', EL resolved now, as Oozie does at submission); a rerun registers
// them afresh. Every change then judges the registrations it touches: the
// job's, its actions', and that of the coordinator action the job runs for.
// A job that cannot have registrations of its own (see ownRegistrations)
// is not looked up, nor are its actions.
func (s *Service) WorkflowChanged(ctx context.Context, x store.Tx, job *store.WorkflowJob, jobWritten, inserted bool, actions []store.WorkflowAction) error {
	own := job == nil || ownRegistrations(*job)
	if jobWritten {
		if inserted {
			if err := s.registerWorkflow(ctx, x, *job, false); err != nil {
				return err
			}
		} else if err := s.rerunWorkflow(ctx, x, *job); err != nil {
			return err
		}
		if own {
			if err := s.Track(ctx, x, job.ID); err != nil {
				return err
			}
		}
		if job.ParentID != "" {
			if err := s.track(ctx, x, job.ParentID, job); err != nil {
				return err
			}
		}
	}
	if !own {
		return nil
	}
	for _, a := range actions {
		if strings.HasPrefix(a.Type, ":") {
			continue // control nodes carry no sla:info
		}
		if err := s.Track(ctx, x, a.ID); err != nil {
			return err
		}
	}
	return nil
}

// slaNamespace begins the namespaces of sla:info (uri:oozie:sla:0.1, 0.2).
const slaNamespace = "uri:oozie:sla:"

// hasSLAInfo reports whether a workflow's definition may hold sla:info.
func hasSLAInfo(job store.WorkflowJob) bool { return strings.Contains(job.Definition, slaNamespace) }

// ownRegistrations reports whether a workflow job may have registrations
// of its own or of its actions (ids <job> and <job>@<node>): only
// registerWorkflow writes them, from a definition with sla:info, and a
// rerun's new definition may have dropped the sla:info of an earlier run,
// whose registrations stay, so a job run more than once is always looked
// up.
func ownRegistrations(job store.WorkflowJob) bool { return job.Run > 0 || hasSLAInfo(job) }

// rerunWorkflow registers a rerun job's SLAs afresh, with the rerun's
// configuration: its registration ended and the job runs again.
func (s *Service) rerunWorkflow(ctx context.Context, x store.Tx, job store.WorkflowJob) error {
	if job.Status.Terminal() || !hasSLAInfo(job) {
		return nil
	}
	reg, err := x.GetSLA(ctx, job.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !Reset(reg, workflowProgress(job)) {
		return nil
	}
	return s.registerWorkflow(ctx, x, job, true)
}

// registerWorkflow stores the registrations of a workflow job's sla:info
// blocks. With again set, existing registrations are replaced (their
// history is kept).
func (s *Service) registerWorkflow(ctx context.Context, x store.Tx, job store.WorkflowJob, again bool) error {
	if !hasSLAInfo(job) {
		return nil
	}
	regs, err := s.WorkflowRegistrations(job)
	if err != nil {
		return err
	}
	for _, reg := range regs {
		if again {
			old, err := x.GetSLA(ctx, reg.ID)
			switch {
			case err == nil:
				reg.Version, reg.CreatedTime, reg.AlertsEnabled = old.Version, old.CreatedTime, old.AlertsEnabled
				if err := x.UpdateSLA(ctx, &reg); err != nil {
					return fmt.Errorf("registering SLA of %s again: %w", reg.ID, err)
				}
				continue
			case !errors.Is(err, store.ErrNotFound):
				return err
			}
		}
		if err := Insert(ctx, x, &reg); err != nil {
			return fmt.Errorf("registering SLA of %s: %w", reg.ID, err)
		}
	}
	return nil
}

// WorkflowRegistrations builds the registrations of a workflow job's
// sla:info blocks: the job's (parent: its coordinator action or parent
// workflow) and each action's (id <job>@<node>, parent: the job). EL is
// resolved with the job's configuration, the wf: functions and the
// constants MINUTES, HOURS and DAYS. Errors are *Error (E1004 for EL).
func (s *Service) WorkflowRegistrations(job store.WorkflowJob) ([]store.SLA, error) {
	app, err := workflow.Parse([]byte(job.Definition))
	if err != nil {
		return nil, fmt.Errorf("reading sla:info of workflow %s: %w", job.ID, err)
	}
	props, err := conf.ReadConfigurationXML(strings.NewReader(job.Conf), "job "+job.ID+" configuration")
	if err != nil {
		return nil, fmt.Errorf("reading sla:info of workflow %s: %w", job.ID, err)
	}
	wc := &workflow.Context{Job: &job, Conf: props.Plain()}
	env := wc.Env(nil, s.cfg.Clock.Now, s.cfg.Location)
	env.Vars = el.ChainVars(env.Vars, el.MapVars(el.SLAConstants()))
	now := s.now()
	var out []store.SLA
	add := func(info *workflow.SLAInfo, base store.SLA, where string) error {
		def, err := resolve(env, info, where)
		if err != nil {
			return err
		}
		reg, err := Build(def, base, s.cfg.ParseTime, now)
		if err != nil {
			return err
		}
		reg.AlertsEnabled = s.alertsEnabled(reg, now)
		out = append(out, reg)
		return nil
	}
	if app.SLA != nil {
		base := store.SLA{ID: job.ID, ParentID: job.ParentID, AppName: job.AppName, AppType: store.AppWorkflowJob,
			User: job.User, JobStatus: string(job.Status)}
		if err := add(app.SLA, base, "sla:info"); err != nil {
			return nil, err
		}
	}
	for _, n := range app.Nodes {
		if n.Action == nil || n.Action.SLA == nil {
			continue
		}
		base := store.SLA{ID: job.ID + "@" + n.Name, ParentID: job.ID, AppName: n.Name, AppType: store.AppWorkflowAction,
			User: job.User, JobStatus: string(store.ActionPrep)}
		if err := add(n.Action.SLA, base, "action "+n.Name+" sla:info"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// alertsEnabled disables alerts of registrations whose nominal time is
// older than the configured horizon.
func (s *Service) alertsEnabled(reg store.SLA, now time.Time) bool {
	h := s.cfg.DisableAlertsOlderThan
	return h < 0 || now.Sub(reg.NominalTime) <= h
}

// resolve evaluates every field of an sla:info block.
func resolve(env *el.Env, info *workflow.SLAInfo, where string) (Def, error) {
	var d Def
	fields := []struct {
		name string
		src  string
		dst  *string
	}{
		{"nominal-time", info.NominalTime, &d.NominalTime},
		{"should-start", info.ShouldStart, &d.ShouldStart},
		{"should-end", info.ShouldEnd, &d.ShouldEnd},
		{"max-duration", info.MaxDuration, &d.MaxDuration},
		{"alert-events", info.AlertEvents, &d.AlertEvents},
		{"alert-contact", info.AlertContact, &d.AlertContact},
		{"notification-msg", info.NotificationMsg, &d.NotificationMsg},
		{"upstream-apps", info.UpstreamApps, &d.UpstreamApps},
	}
	for _, f := range fields {
		if f.src == "" {
			continue
		}
		v, err := env.EvalString(f.src)
		if err != nil {
			return d, &Error{Code: oozieerr.E1004, Node: f.name, Err: err,
				Msg: fmt.Sprintf("Expression language evaluation error, %s/%s [%s]: %v", where, f.name, f.src, err)}
		}
		*f.dst = v
	}
	return d, nil
}
