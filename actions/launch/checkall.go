package launch

import (
	"context"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// CheckAll finds, with one list query, which of the runs have ended: every
// launcher carries CommonTag and every MapReduce job a map-reduce action
// submitted carries ChildCommonTag, so the query asks for such applications
// that finished (FINISHED, FAILED, KILLED) since the previous CheckAll (less
// an overlap for clock skew between this server and the RM; the first call
// of a process looks back CheckAllLookback). A run is matched by the
// application it follows (its external id), else by its tag while it
// follows its launcher, and keyed by ActionID.
//
// The statuses say how each run ended as far as the report tells (final
// status and diagnostics); the caller then calls Check, which adds what the
// result file holds (error code, captured output). A run whose application
// the RM forgot before any CheckAll saw it end is not reported here; Check
// (on a callback or a fallback timer) finds it through the result file.
func (e *Executor) CheckAll(ctx context.Context, runs []*actions.Attempt) (map[string]actions.Status, error) {
	out := map[string]actions.Status{}
	if len(runs) == 0 {
		return out, nil
	}
	now := e.cfg.Clock.Now()
	e.mu.Lock()
	since := e.lastCheckAll.Add(-e.cfg.CheckAllOverlap)
	if e.lastCheckAll.IsZero() {
		since = now.Add(-e.cfg.CheckAllLookback)
	}
	e.mu.Unlock()
	reps, err := e.cfg.YARN.Apps(ctx, yarn.AppsFilter{
		Tags:              []string{CommonTag, ChildCommonTag},
		States:            []yarn.AppState{yarn.StateFinished, yarn.StateFailed, yarn.StateKilled},
		FinishedTimeBegin: since,
	})
	if err != nil {
		return nil, yarnError(err, "listing finished launchers")
	}
	e.mu.Lock()
	if now.After(e.lastCheckAll) {
		e.lastCheckAll = now
	}
	e.mu.Unlock()

	byTag := make(map[string]*yarn.AppReport, len(reps))
	byID := make(map[string]*yarn.AppReport, len(reps))
	for i := range reps {
		r := &reps[i]
		byID[r.ID.String()] = r
		for _, t := range r.Tags {
			byTag[strings.ToLower(t)] = r
		}
	}
	for _, run := range runs {
		r := byID[run.ExternalID]
		if r == nil {
			// Only while the run follows its launcher: a run that follows
			// its MapReduce job is not over when the launcher is.
			if l := byTag[strings.ToLower(run.Tag)]; l != nil && (run.ExternalID == "" || run.ExternalID == l.ID.String()) {
				r = l
			}
		}
		if r == nil || !r.Done() {
			continue
		}
		out[run.ActionID] = reportStatus(run, r)
	}
	return out, nil
}

// reportStatus is an ended run's status from its report alone.
func reportStatus(run *actions.Attempt, r *yarn.AppReport) actions.Status {
	st := actions.Status{
		ExternalID: r.ID.String(), TrackerURI: run.ResourceManager, ConsoleURL: r.TrackingURL,
		Done: true, ExternalStatus: externalSucceeded, Outcome: workflow.OutcomeOK,
	}
	if !r.Succeeded() {
		st.ExternalStatus, st.Outcome = externalFailed, workflow.OutcomeError
		st.ErrorMessage = strings.TrimSpace(r.Diagnostics)
	}
	return st
}
