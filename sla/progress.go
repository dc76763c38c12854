package sla

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/store"
)

// progressOf reads the progress of the job or action a registration
// watches. wf, when set, is a workflow written in the same transaction that
// belongs to the registration's coordinator action, which may not name it
// yet.
func progressOf(ctx context.Context, x store.Tx, reg store.SLA, wf *store.WorkflowJob) (Progress, error) {
	switch reg.AppType {
	case store.AppWorkflowJob:
		job, err := x.GetWorkflowJob(ctx, reg.ID)
		if errors.Is(err, store.ErrNotFound) {
			return Progress{Gone: true}, nil
		}
		if err != nil {
			return Progress{}, err
		}
		return workflowProgress(job), nil
	case store.AppWorkflowAction:
		a, err := x.GetWorkflowAction(ctx, reg.ID)
		if errors.Is(err, store.ErrNotFound) {
			// Not created yet (actions are created when the job reaches
			// them), or purged with its job.
			if _, jerr := x.GetWorkflowJob(ctx, reg.ParentID); errors.Is(jerr, store.ErrNotFound) {
				return Progress{Gone: true}, nil
			}
			return Progress{Status: string(store.ActionPrep)}, nil
		}
		if err != nil {
			return Progress{}, err
		}
		return actionProgress(a), nil
	case store.AppCoordinatorAction:
		a, err := x.GetCoordAction(ctx, reg.ID)
		if errors.Is(err, store.ErrNotFound) {
			return Progress{Gone: true}, nil
		}
		if err != nil {
			return Progress{}, err
		}
		if wf == nil && a.ExternalID != "" {
			w, err := x.GetWorkflowJob(ctx, a.ExternalID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return Progress{}, err
			}
			if err == nil {
				wf = &w
			}
		}
		if wf != nil && a.ExternalID != "" && a.ExternalID != wf.ID {
			wf = nil // an older run's workflow
		}
		return coordActionProgress(a, wf), nil
	}
	// Registrations of other kinds are judged on their deadlines alone.
	return Progress{Status: reg.JobStatus}, nil
}

func workflowProgress(job store.WorkflowJob) Progress {
	p := Progress{Status: string(job.Status)}
	if job.Status != store.WorkflowPrep && !job.StartTime.IsZero() {
		p.Start = job.StartTime
	}
	if job.Status.Terminal() {
		p.End = orElse(job.EndTime, job.LastModified)
		p.Failed = job.Status != store.WorkflowSucceeded
	}
	return p
}

func actionProgress(a store.WorkflowAction) Progress {
	p := Progress{Status: string(a.Status), Start: a.StartTime}
	if a.Status.Terminal() {
		p.End = orElse(a.EndTime, a.LastModified)
		p.Failed = a.Status != store.ActionOK
	}
	if !p.End.IsZero() && p.Start.IsZero() && a.Status == store.ActionOK {
		p.Start = p.End // a control node or an action done in no time
	}
	return p
}

// coordActionProgress: a coordinator action starts when its workflow does
// and ends with it, or when it ends without one (timed out, killed while
// waiting, skipped).
func coordActionProgress(a store.CoordAction, wf *store.WorkflowJob) Progress {
	p := Progress{Status: string(a.Status)}
	if wf != nil {
		w := workflowProgress(*wf)
		p.Start = w.Start
		if !w.End.IsZero() {
			p.End, p.Failed = w.End, w.Failed
		}
	}
	if a.Status.Terminal() {
		if p.End.IsZero() {
			p.End = a.LastModified
		}
		p.Failed = a.Status != store.CoordActionSucceeded
	}
	return p
}

func orElse(t, def time.Time) time.Time {
	if t.IsZero() {
		return def
	}
	return t
}
