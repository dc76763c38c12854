package coordinator

import (
	"sort"
	"time"

	"github.com/gozie/gozie/store"
)

// StartRequest is one run of the ready/start step of a job.
type StartRequest struct {
	// Job is the resolved definition and Row the job row (status, concurrency, execution,
	// start and end).
	Job *Job
	Row store.CoordJob
	// Ready are the job's READY actions, in any order.
	Ready []store.CoordAction
	// Active is the number of the job's SUBMITTED and RUNNING actions.
	Active int
	Now    time.Time
	// Settings are the server defaults (NONE tolerance).
	Settings Settings
}

// StartDecision says which READY actions to submit and which to skip.
type StartDecision struct {
	// Submit are the actions to move to SUBMITTED and start, in order.
	Submit []store.CoordAction
	// Skip are the actions to move to SKIPPED (LAST_ONLY and NONE rules).
	Skip []store.CoordAction
	// Reason says why nothing may start (job status), empty otherwise.
	Reason string
}

// StartReady decides the ready/start step (§1.7): it runs only for jobs RUNNING,
// RUNNINGWITHERROR, SUCCEEDED, PAUSED or PAUSEDWITHERROR; READY actions are ordered by
// nominal time ascending (FIFO) or descending (LIFO, LAST_ONLY, NONE); LAST_ONLY and NONE
// actions whose window has passed are skipped; then up to concurrency − Active actions
// (all of them when concurrency is negative) are submitted.
func StartReady(req StartRequest) StartDecision {
	switch req.Row.Status {
	case store.JobRunning, store.JobRunningWithError, store.JobSucceeded, store.JobPaused, store.JobPausedWithError:
	default:
		return StartDecision{Reason: "coordinator job is not RUNNING but " + string(req.Row.Status)}
	}
	s := req.Settings.WithDefaults()
	ready := append([]store.CoordAction(nil), req.Ready...)
	exec := Execution(req.Row.ExecutionOrder)
	sort.SliceStable(ready, func(i, j int) bool {
		if exec == FIFO || exec == "" {
			return ready[i].NominalTime.Before(ready[j].NominalTime)
		}
		return ready[i].NominalTime.After(ready[j].NominalTime)
	})
	var d StartDecision
	var candidates []store.CoordAction
	for _, a := range ready {
		if skipReason(req.Job, req.Row, a, req.Now, s) != "" {
			d.Skip = append(d.Skip, a)
			continue
		}
		candidates = append(candidates, a)
	}
	slots := len(candidates)
	if c := req.Row.Concurrency; c >= 0 {
		slots = max(c-req.Active, 0)
	}
	d.Submit = candidates[:min(slots, len(candidates))]
	return d
}
