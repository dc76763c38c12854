package coordrun

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

// OnWorkflowChange makes a coordinator action follow its workflow. The
// workflow runner calls it (wfrun.Config.OnJobChange) in the transaction of
// every change of a workflow that has a parent; parents that are not
// coordinator actions, and workflows that are no longer their action's
// current run, are left alone. A workflow that ended frees a concurrency
// slot (the ready/start step runs) and the job's status is rolled up.
func (r *Runner) OnWorkflowChange(ctx context.Context, x store.Tx, wf store.WorkflowJob) error {
	if !isCoordActionID(wf.ParentID) {
		return nil
	}
	a, job, err := lockAction(ctx, x, wf.ParentID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if a.ExternalID != wf.ID {
		return nil
	}
	next, ok := actionStatusForWorkflow(a.Status, wf.Status)
	if !ok && a.ExternalStatus == string(wf.Status) {
		return nil
	}
	from := a.Status
	a.Status = next
	a.ExternalStatus = string(wf.Status)
	a.LastModified = r.now()
	if wf.Status == store.WorkflowFailed || wf.Status == store.WorkflowKilled {
		a.ErrorCode, a.ErrorMessage = wf.ErrorCode, wf.ErrorMessage
	}
	if err := r.updateAction(ctx, x, &job, from, &a); err != nil {
		return err
	}
	// A workflow that starts while its job is being suspended is
	// suspended in turn.
	if next == store.CoordActionRunning && job.Status.Suspended() {
		return x.Schedule(ctx, KindWorkflow, a.ID, r.now(), "")
	}
	return nil
}

// isCoordActionID reports whether id names a coordinator action
// (<jobID>@<number> with a -C job id).
func isCoordActionID(id string) bool {
	job, n, ok := strings.Cut(id, "@")
	if !ok || !ids.EndsWithKind(job, ids.Coordinator) || n == "" {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// handleWorkflowCommand brings an action's workflow in line with the action
// and its job (coord-workflow-cmd, one trigger per action): it kills the
// workflow of a killed action, suspends or resumes it with its job, and
// reruns the failed nodes of a -failed rerun. The command is derived from
// the rows each time (workflowCommand), never from a queued message, so a
// replay or a command overtaken by another does the right thing. The
// workflow runner's command runs in its own transaction, which moves the
// action through OnWorkflowChange; then the action's pending flag is
// cleared.
func (r *Runner) handleWorkflowCommand(ctx context.Context, run *engine.Claim) error {
	actionID := run.Trigger.EntityID
	var a store.CoordAction
	var job store.CoordJob
	var wf store.WorkflowJob
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		if a, err = x.GetCoordAction(ctx, actionID); err != nil {
			return err
		}
		if job, err = x.GetCoordJob(ctx, a.JobID); err != nil {
			return err
		}
		if a.ExternalID == "" {
			return nil
		}
		wf, err = x.GetWorkflowJob(ctx, a.ExternalID)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return r.clearPending(ctx, run, actionID)
	}
	if err != nil {
		return err
	}
	cmd := workflowCommand(a, job.Status, wf.Status)
	if cmd != cmdNone {
		if err := r.runWorkflowCommand(ctx, cmd, a); err != nil {
			code := ErrorCode(err)
			if code == "" {
				return err // transient: retried with backoff
			}
			if cmd == cmdRerunFailed {
				return r.failRerun(ctx, run, actionID, err)
			}
			r.log.Warn("coordinator workflow command had no effect", "action_id", actionID, "command", cmd, "err", err)
		} else {
			r.log.Info("coordinator action's workflow commanded", "action_id", actionID, "workflow", a.ExternalID, "command", cmd)
		}
	}
	return r.clearPending(ctx, run, actionID)
}

// runWorkflowCommand calls the workflow runner.
func (r *Runner) runWorkflowCommand(ctx context.Context, cmd wfCommand, a store.CoordAction) error {
	w := r.cfg.Workflows
	switch cmd {
	case cmdKill:
		return w.Kill(ctx, a.ExternalID)
	case cmdSuspend:
		return w.Suspend(ctx, a.ExternalID)
	case cmdResume:
		return w.Resume(ctx, a.ExternalID)
	case cmdRerunFailed:
		_, rerun, err := splitRunConf(a.RunConf)
		if err != nil {
			return oozieerr.Wrap(oozieerr.E1018, err, "reading the rerun configuration of %s", a.ID)
		}
		props := rerun.Clone()
		props.Set(keyRerunFailNodes, "true")
		return w.Rerun(ctx, a.ExternalID, props)
	}
	return nil
}

// clearPending releases the trigger, clearing the action's pending flag
// unless it still owes a command, and rolls the job up.
func (r *Runner) clearPending(ctx context.Context, run *engine.Claim, actionID string) error {
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		a, job, err := lockAction(ctx, x, actionID)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var wf store.WorkflowStatus
		if a.ExternalID != "" {
			w, err := x.GetWorkflowJob(ctx, a.ExternalID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			wf = w.Status
		}
		pending := owesCommand(a, job.Status, wf)
		if a.Pending == pending {
			return nil
		}
		a.Pending = pending
		if err := x.UpdateCoordAction(ctx, &a); err != nil {
			return err
		}
		return r.scheduleStatus(ctx, x, a.JobID)
	})
}

// failRerun fails an action whose -failed rerun the workflow runner refused.
func (r *Runner) failRerun(ctx context.Context, run *engine.Claim, actionID string, cause error) error {
	r.log.Warn("coordinator action's workflow cannot be rerun", "action_id", actionID, "err", cause)
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		a, job, err := lockAction(ctx, x, actionID)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if a.Status != store.CoordActionSubmitted {
			return nil
		}
		a.Status, a.Pending = store.CoordActionFailed, false
		a.ErrorCode, a.ErrorMessage = string(ErrorCode(cause)), cause.Error()
		a.LastModified = r.now()
		return r.updateAction(ctx, x, &job, store.CoordActionSubmitted, &a)
	})
}

// ensure the runner's error type carries codes as this package expects.
var _ interface{ ErrorCode() string } = (*wfrun.Error)(nil)
