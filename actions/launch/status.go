package launch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// status turns an application report into the run's status. An ended
// application is judged as Oozie does: it succeeded only with final status
// SUCCEEDED; anything else is an ERROR whose code and message come from the
// launcher's result file (e.g. "1" for a failed shell command), or the RM's
// diagnostics when the launcher never wrote one. One exception: a launcher
// that wrote its command's success and then failed to unregister (RM
// trouble) is a success, since the work is done; only a kill overrides it.
func (e *Executor) status(ctx context.Context, run *actions.Attempt, rep yarn.AppReport) (actions.Status, error) {
	st := actions.Status{
		ExternalID:     rep.ID.String(),
		ExternalStatus: string(rep.State),
		TrackerURI:     run.ResourceManager,
		ConsoleURL:     rep.TrackingURL,
	}
	// A launcher that unregistered has written its result and settled its
	// final status; the RM keeps the application FINISHING until the
	// container exits, which must not delay the next action.
	unregistered := rep.FinalStatus != "" && rep.FinalStatus != yarn.FinalUndefined
	if !rep.Done() && !unregistered {
		if rep.State == yarn.StateRunning {
			st.ExternalStatus = externalRunning
		}
		return st, nil
	}
	res, err := e.readResult(ctx, run)
	if err != nil {
		return actions.Status{}, err
	}
	if rep.FinalStatus != yarn.FinalSucceeded && rep.FinalStatus != yarn.FinalKilled && commandSucceeded(res, rep.ID) {
		// The launcher wrote that the command succeeded, then could not
		// tell the RM (an RM outage longer than its retries): the RM failed
		// an attempt whose work was done. The result file decides.
		e.cfg.Logger.Warn("the launcher's command succeeded but its application ended otherwise; the result file decides",
			"action_id", run.ActionID, "yarn_app_id", rep.ID.String(), "final_status", rep.FinalStatus,
			"diagnostics", strings.TrimSpace(rep.Diagnostics))
		rep.FinalStatus = yarn.FinalSucceeded
	}
	if rep.FinalStatus == yarn.FinalSucceeded && res != nil && res.Succeeded() && res.NewID != "" {
		// A map-reduce launcher returns once the job is submitted: from here
		// the run is the job (Oozie's id swap).
		return e.followJob(ctx, run, res.NewID)
	}
	st.Done = true
	if res != nil {
		st.ExternalChildIDs = res.ExternalChildIDs
	}
	if rep.FinalStatus == yarn.FinalSucceeded {
		st.ExternalStatus, st.Outcome = externalSucceeded, workflow.OutcomeOK
		if res != nil && res.Succeeded() {
			st.Data = res.Output
		} else {
			e.cfg.Logger.Warn("the launcher succeeded but left no result file; no captured output",
				"action_id", run.ActionID, "yarn_app_id", rep.ID.String())
		}
		return st, nil
	}
	if cst, ok, err := e.failedChild(ctx, run, res); err != nil || ok {
		return cst, err // a distcp or pig job failed: the run is that job
	}
	st.ExternalStatus, st.Outcome = externalFailed, workflow.OutcomeError
	if res != nil && !res.Succeeded() {
		st.ErrorCode, st.ErrorMessage = res.ErrorCode, res.ErrorMessage
	} else {
		st.ErrorMessage = strings.TrimSpace(rep.Diagnostics)
	}
	return st, nil
}

// commandSucceeded reports whether res is a success written by app's own
// launcher (not a result left by another application of the run).
func commandSucceeded(res *launcher.Result, app yarn.ApplicationID) bool {
	return res != nil && res.Succeeded() && res.ApplicationID == app.String()
}

// followJob reports the MapReduce job a map-reduce launcher submitted; a
// job the RM does not know is failed with JA017, as Oozie does.
func (e *Executor) followJob(ctx context.Context, run *actions.Attempt, jobApp string) (actions.Status, error) {
	id, err := yarn.ParseApplicationID(jobApp)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, codeUnknownJob, "action %s: job id %q: %w", run.ActionID, jobApp, err)
	}
	rep, err := e.cfg.YARN.App(ctx, id)
	if errors.Is(err, yarn.ErrAppNotFound) {
		return actions.Status{
			ExternalID: jobApp, ExternalStatus: string(yarn.StateFailed), TrackerURI: run.ResourceManager,
			ExternalChildIDs: []string{jobApp}, Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: codeUnknownJob,
			ErrorMessage: fmt.Sprintf("Unknown hadoop job [%s] associated with action [%s].  Failing this action!", jobApp, run.ActionID),
		}, nil
	}
	if err != nil {
		return actions.Status{}, yarnError(err, "reading the report of %s", id)
	}
	return e.endedJobStatus(ctx, run, rep)
}

// jobStatus is the status of a run that follows its MapReduce job: the
// job's application is the external id; it succeeded only with final
// status SUCCEEDED, and any other end is an ERROR (JA018) with the job's
// diagnostics.
func jobStatus(run *actions.Attempt, rep yarn.AppReport) actions.Status {
	st := actions.Status{
		ExternalID: rep.ID.String(), ExternalStatus: string(rep.State), TrackerURI: run.ResourceManager,
		ConsoleURL: rep.TrackingURL, ExternalChildIDs: []string{rep.ID.String()},
	}
	if !rep.Done() {
		if rep.State == yarn.StateRunning {
			st.ExternalStatus = externalRunning
		}
		return st
	}
	st.Done = true
	if rep.Succeeded() {
		st.ExternalStatus, st.Outcome = externalSucceeded, workflow.OutcomeOK
		return st
	}
	st.ExternalStatus, st.Outcome, st.ErrorCode = externalFailed, workflow.OutcomeError, launcher.CodeException
	st.ErrorMessage = fmt.Sprintf("%s [%s] ended %s/%s", childKind(rep), rep.ID, rep.State, rep.FinalStatus)
	if d := strings.TrimSpace(rep.Diagnostics); d != "" {
		st.ErrorMessage += ": " + d
	}
	return st
}

// resultStatus is the status of an ended run known only from its result
// file (the RM forgot the application).
// A map-reduce launcher's result sends the run on to its job.
func (e *Executor) resultStatus(ctx context.Context, run *actions.Attempt, appID string, res *launcher.Result) (actions.Status, error) {
	if res.Succeeded() && res.NewID != "" {
		if appID == res.NewID {
			// The RM forgot the job itself: its end is unknown.
			return actions.Status{
				ExternalID: appID, ExternalStatus: string(yarn.StateFailed), TrackerURI: run.ResourceManager,
				ExternalChildIDs: []string{appID}, Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: codeUnknownJob,
				ErrorMessage: fmt.Sprintf(unknownJobText, appID, run.ActionID),
			}, nil
		}
		return e.followJob(ctx, run, res.NewID)
	}
	st := actions.Status{
		ExternalID: appID, TrackerURI: run.ResourceManager, Done: true,
		ExternalChildIDs: res.ExternalChildIDs,
	}
	if res.Succeeded() {
		st.ExternalStatus, st.Outcome, st.Data = externalSucceeded, workflow.OutcomeOK, res.Output
		return st, nil
	}
	if cst, ok, err := e.failedChild(ctx, run, res); err != nil || ok {
		return cst, err
	}
	st.ExternalStatus, st.Outcome = externalFailed, workflow.OutcomeError
	st.ErrorCode, st.ErrorMessage = res.ErrorCode, res.ErrorMessage
	return st, nil
}

// readResult reads the run's result file; nil when there is none yet (or
// the run has no action directory).
func (e *Executor) readResult(ctx context.Context, run *actions.Attempt) (*launcher.Result, error) {
	if run.ActionDir == "" {
		return nil, nil
	}
	uri := strings.TrimSuffix(run.ActionDir, "/") + "/" + launcher.ResultFile
	b, err := e.cfg.FS.ReadFile(ctx, uri)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if refused := actions.SchemeRefused(err); refused != nil {
		return nil, refused // an action directory on a refused filesystem
	}
	if err != nil {
		return nil, actions.Errorf(actions.Transient, codeIO, "reading %s: %w", uri, err)
	}
	res, err := launcher.ParseResult(b)
	if err != nil {
		return nil, actions.Errorf(actions.ActionFailed, codeUnknownJob, "reading %s: %w", uri, err)
	}
	return res, nil
}
