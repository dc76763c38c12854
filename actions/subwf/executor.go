package subwf

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/workflow/wfrun"
)

// Properties of a child's configuration (Oozie's names).
const (
	PropSuperParentID = "oozie.wf.superparent.id"
	PropDepth         = "oozie.action.subworkflow.depth"
	// DefaultMaxDepth is oozie.action.subworkflow.max.depth's default.
	DefaultMaxDepth = 50
)

// Error codes of the sub-workflow executor.
const (
	// CodeDepth is Oozie's code for a chain of sub-workflows that is too
	// deep.
	CodeDepth = "SUBWF001"
	// codeBadAction: the action body is not a sub-workflow.
	codeBadAction = "SUBWF_ACTION"
)

// trackerLocal is the tracker URI of a child on this server, as Oozie
// shows it.
const trackerLocal = "local"

// Workflows is what the executor needs from the workflow runner
// (*wfrun.Runner): preparing a child job and killing one.
type Workflows interface {
	Prepare(ctx context.Context, props *conf.Properties, opts wfrun.SubmitOptions) (*wfrun.Prepared, error)
	Kill(ctx context.Context, id string) error
}

var _ Workflows = (*wfrun.Runner)(nil)

// Config configures an Executor.
type Config struct {
	// Workflows submits and kills child jobs. Required.
	Workflows Workflows
	// Store reads the children. Required.
	Store store.Store
	// MaxDepth bounds a chain of sub-workflows; zero means DefaultMaxDepth.
	MaxDepth int
	// Logger receives the executor's lines; nil discards them.
	Logger *slog.Logger
}

// Executor runs sub-workflow actions. It is safe for concurrent use.
type Executor struct {
	cfg Config
}

var _ actions.Executor = (*Executor)(nil)

// New returns an executor.
func New(cfg Config) (*Executor, error) {
	if cfg.Workflows == nil || cfg.Store == nil {
		return nil, errors.New("subwf: Config.Workflows and Config.Store are required")
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = DefaultMaxDepth
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Executor{cfg: cfg}, nil
}

// Start submits and starts the child job, or reports the child this run
// already has.
func (e *Executor) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	if run.Key == "" || run.JobID == "" {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, codeBadAction, "%s: a sub-workflow run needs its key and job", run.ActionID)
	}
	var child store.WorkflowJob
	found := false
	err := e.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		child, found, err = findChild(ctx, x, run)
		return err
	})
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, string(oozieerr.E0803), "%s: looking for its child: %w", run.ActionID, err)
	}
	if found {
		e.cfg.Logger.Info("the run has its child already; not submitting again", "action_id", run.ActionID, "child_job_id", child.ID)
		return status(child), nil
	}
	body, err := workflow.ParseBody(run.Body)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, codeBadAction, "%s: reading the action: %w", run.ActionID, err)
	}
	sw, ok := body.(*workflow.SubWorkflow)
	if !ok {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, codeBadAction, "%s is not a sub-workflow action", run.ActionID)
	}
	props, err := childConf(run, sw, e.cfg.MaxDepth)
	if err != nil {
		return actions.Status{}, err
	}
	p, err := e.cfg.Workflows.Prepare(ctx, props, wfrun.SubmitOptions{Start: true, ParentID: run.JobID, ExternalID: run.Key})
	if err != nil {
		return actions.Status{}, submitError(run, err)
	}
	err = e.cfg.Store.Tx(ctx, func(x store.Tx) error {
		// Looked up again in the transaction that inserts, so two starts of
		// one run cannot both insert.
		var err error
		if child, found, err = findChild(ctx, x, run); err != nil || found {
			return err
		}
		if err := p.Insert(ctx, x); err != nil {
			return err
		}
		child, err = x.GetWorkflowJob(ctx, p.ID())
		return err
	})
	if err != nil {
		return actions.Status{}, submitError(run, err)
	}
	e.cfg.Logger.Info("started the sub-workflow", "action_id", run.ActionID, "child_job_id", child.ID)
	return status(child), nil
}

// Check reports the child.
func (e *Executor) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	var child store.WorkflowJob
	found := false
	err := e.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		if run.ExternalID == "" {
			child, found, err = findChild(ctx, x, run)
			return err
		}
		child, err = x.GetWorkflowJob(ctx, run.ExternalID)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		found = err == nil
		return err
	})
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, string(oozieerr.E0803), "%s: reading its child: %w", run.ActionID, err)
	}
	if !found {
		return actions.Status{ExternalID: run.ExternalID, ExternalStatus: string(store.WorkflowFailed), TrackerURI: trackerLocal,
			Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: string(oozieerr.E0604),
			ErrorMessage: fmt.Sprintf("Job does not exist [%s]", run.ExternalID)}, nil
	}
	return status(child), nil
}

// Kill kills the child job; a child that ended or is gone is left alone.
func (e *Executor) Kill(ctx context.Context, run *actions.Attempt) error {
	id := run.ExternalID
	if id == "" {
		var child store.WorkflowJob
		found := false
		err := e.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
			child, found, err = findChild(ctx, x, run)
			return err
		})
		if err != nil {
			return actions.Errorf(actions.Transient, string(oozieerr.E0803), "%s: looking for its child: %w", run.ActionID, err)
		}
		if !found {
			return nil
		}
		id = child.ID
	}
	err := e.cfg.Workflows.Kill(ctx, id)
	var re *wfrun.Error
	if errors.As(err, &re) && re.Code == oozieerr.E0604 {
		return nil
	}
	if err != nil {
		return actions.Errorf(actions.Transient, string(oozieerr.E0803), "%s: killing its child %s: %w", run.ActionID, id, err)
	}
	e.cfg.Logger.Info("killed the sub-workflow", "action_id", run.ActionID, "child_job_id", id)
	return nil
}

// findChild returns the child job this run submitted: the parent's child
// whose external id is the run's key.
func findChild(ctx context.Context, x store.Tx, run *actions.Attempt) (store.WorkflowJob, bool, error) {
	jobs, _, err := x.ListWorkflowJobs(ctx, store.JobFilter{ParentID: run.JobID})
	if err != nil {
		return store.WorkflowJob{}, false, err
	}
	for _, j := range jobs {
		if j.ExternalID == run.Key {
			return j, true, nil
		}
	}
	return store.WorkflowJob{}, false, nil
}

// status is the run's status from its child job.
func status(child store.WorkflowJob) actions.Status {
	st := actions.Status{ExternalID: child.ID, ExternalStatus: string(child.Status), TrackerURI: trackerLocal}
	switch child.Status {
	case store.WorkflowSucceeded:
		st.Done, st.Outcome = true, workflow.OutcomeOK
	case store.WorkflowKilled, store.WorkflowFailed:
		st.Done, st.Outcome = true, workflow.OutcomeError
		st.ErrorCode = child.ErrorCode
		st.ErrorMessage = fmt.Sprintf("sub-workflow [%s] ended [%s]", child.ID, child.Status)
		if child.ErrorMessage != "" {
			st.ErrorMessage += ": " + child.ErrorMessage
		}
	case store.WorkflowPrep, store.WorkflowRunning, store.WorkflowSuspended:
	}
	return st
}

// submitError classifies a failed submission: an unreadable filesystem or
// database (no code, or E0803) is retried; a child that cannot be submitted
// as it is (no app, an invalid definition, a missing property) ends the
// action in ERROR with the submission's Oozie error code.
func submitError(run *actions.Attempt, err error) error {
	if code := oozieerr.CodeOf(err); code != "" && code != oozieerr.E0803 {
		return actions.Errorf(actions.ActionError, string(code), "%s: submitting the sub-workflow: %w", run.ActionID, err)
	}
	return actions.Errorf(actions.Transient, string(oozieerr.E0803), "%s: submitting the sub-workflow: %w", run.ActionID, err)
}

// childConf builds the child's job configuration.
func childConf(run *actions.Attempt, sw *workflow.SubWorkflow, maxDepth int) (*conf.Properties, error) {
	depth := 0
	if s := strings.TrimSpace(run.JobConf.Value(PropDepth)); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, actions.Errorf(actions.ActionError, CodeDepth, "invalid %s [%s] in the parent's configuration", PropDepth, s)
		}
		depth = n
	}
	if depth >= maxDepth {
		return nil, actions.Errorf(actions.ActionError, CodeDepth, "Depth [%d] cannot exceed maximum subworkflow depth [%d]", depth+1, maxDepth)
	}
	appPath := strings.TrimSpace(sw.AppPath)
	if appPath == "" {
		return nil, actions.Errorf(actions.ActionError, string(oozieerr.E0302), "the sub-workflow action %s has no app-path", run.ActionID)
	}
	props := &conf.Properties{}
	if sw.PropagateConfiguration {
		for k, v := range run.JobConf.All() {
			if k != "oozie.wf.rerun.skip.nodes" && k != "oozie.wf.rerun.failnodes" {
				props.Set(k, v)
			}
		}
	}
	for _, p := range sw.Configuration {
		props.Set(p.Name, p.Value)
	}
	super := run.JobConf.Value(PropSuperParentID)
	if super == "" {
		super = run.JobID
	}
	props.Set(wfrun.PropAppPath, qualifyAppPath(run, appPath))
	props.Set(wfrun.PropUser, run.User)
	if run.Group != "" {
		props.Set(wfrun.PropGroup, run.Group)
	}
	props.Set(wfrun.PropParentID, run.JobID)
	props.Set(PropSuperParentID, super)
	props.Set(PropDepth, strconv.Itoa(depth+1))
	return props, nil
}

// qualifyAppPath makes an app-path a full URI for run (see QualifyAppPath).
func qualifyAppPath(run *actions.Attempt, p string) string {
	return QualifyAppPath(p, run.NameNode, run.AppPath, run.User)
}

// QualifyAppPath makes a sub-workflow's app-path p a full URI as Oozie's
// normalizeAppPath does: a full URI stays, an absolute path goes on the
// filesystem of nameNode (the action's name node; without one, that of
// parentAppPath), and a relative one below user's home directory there.
func QualifyAppPath(p, nameNode, parentAppPath, user string) string {
	if strings.Contains(p, "://") {
		return p
	}
	root := ""
	for _, u := range []string{nameNode, parentAppPath} {
		if scheme, rest, ok := strings.Cut(u, "://"); ok {
			authority, _, _ := strings.Cut(rest, "/")
			root = scheme + "://" + authority
			break
		}
	}
	if !strings.HasPrefix(p, "/") {
		p = "/user/" + user + "/" + p
	}
	return root + p
}
