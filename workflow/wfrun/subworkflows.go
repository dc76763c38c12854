package wfrun

import (
	"context"
	"errors"
	"strings"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// SubWorkflowType is the action type whose runs are child workflow jobs.
const SubWorkflowType = "sub-workflow"

// maxCascadeDepth bounds the cascade of suspend and resume through nested
// sub-workflows (Oozie's oozie.action.subworkflow.max.depth is 50).
const maxCascadeDepth = 64

// ParentActionOf returns the id of the sub-workflow action that started
// job, or "" when job is not a sub-workflow. A sub-workflow's parent is its
// parent workflow (ParentID) and its external id is the run key of the
// parent's action ("<parentID>@<node>#<run>.<attempt>", see
// SubmitOptions.ExternalID).
func ParentActionOf(job store.WorkflowJob) string {
	if job.ParentID == "" || !strings.HasPrefix(job.ExternalID, job.ParentID+"@") {
		return ""
	}
	action, _, _ := strings.Cut(job.ExternalID, "#")
	return action
}

// cascade applies a suspend or resume of job jobID to the child jobs of its
// running sub-workflow actions, and theirs, in the caller's transaction.
// Children in a state the event does not apply to are left alone.
func (r *Runner) cascade(ctx context.Context, x store.Tx, jobID string, ev workflow.Event, depth int) error {
	if depth >= maxCascadeDepth {
		return nil
	}
	acts, err := x.ListWorkflowActions(ctx, jobID)
	if err != nil {
		return err
	}
	for _, a := range acts {
		if a.Type != SubWorkflowType || a.Status != store.ActionRunning || a.ExternalID == "" {
			continue
		}
		st, err := r.decide(ctx, x, a.ExternalID, ev)
		if errors.Is(err, store.ErrNotFound) || errorCode(err) == oozieerr.E0604 {
			continue // a child that was purged
		}
		if err != nil {
			return err
		}
		if st.Ignored != nil {
			continue
		}
		if err := r.apply(ctx, x, st, ""); err != nil {
			return err
		}
		r.log.Info("cascaded to a sub-workflow", "job_id", jobID, "child_job_id", a.ExternalID, "event", ev.Kind)
		if err := r.cascade(ctx, x, a.ExternalID, ev, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// errorCode returns the Oozie code of a coded error, "" for others.
func errorCode(err error) oozieerr.Code { return oozieerr.CodeOf(err) }
