package launch

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// status turns an application report into the run's status. An ended
// application is judged as Oozie does: it succeeded only with final status
// SUCCEEDED; anything else is an ERROR whose code and message come from the
// launcher's result file (e.g. "1" for a failed shell command), or the RM's
// diagnostics when the launcher never wrote one.
func (e *Executor) status(ctx context.Context, run *actions.Run, rep yarn.AppReport) (actions.Status, error) {
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
	st.Done = true
	if res != nil {
		st.ExternalChildIDs = res.ExternalChildIDs
	}
	if rep.FinalStatus == yarn.FinalSucceeded {
		st.ExternalStatus, st.Outcome = externalSucceeded, actions.OK
		if res != nil && res.Succeeded() {
			st.Data = res.Output
		} else {
			e.cfg.Logger.Warn("the launcher succeeded but left no result file; no captured output",
				"action_id", run.ActionID, "yarn_app_id", rep.ID.String())
		}
		return st, nil
	}
	st.ExternalStatus, st.Outcome = externalFailed, actions.Error
	if res != nil && !res.Succeeded() {
		st.ErrorCode, st.ErrorMessage = res.ErrorCode, res.ErrorMessage
	} else {
		st.ErrorMessage = strings.TrimSpace(rep.Diagnostics)
	}
	return st, nil
}

// resultStatus is the status of an ended run known only from its result
// file (the RM forgot the application).
func (e *Executor) resultStatus(run *actions.Run, appID string, res *launcher.Result) actions.Status {
	st := actions.Status{
		ExternalID: appID, TrackerURI: run.ResourceManager, Done: true,
		ExternalChildIDs: res.ExternalChildIDs,
	}
	if res.Succeeded() {
		st.ExternalStatus, st.Outcome, st.Data = externalSucceeded, actions.OK, res.Output
		return st
	}
	st.ExternalStatus, st.Outcome = externalFailed, actions.Error
	st.ErrorCode, st.ErrorMessage = res.ErrorCode, res.ErrorMessage
	return st
}

// readResult reads the run's result file; nil when there is none yet (or
// the run has no action directory).
func (e *Executor) readResult(ctx context.Context, run *actions.Run) (*launcher.Result, error) {
	if run.ActionDir == "" {
		return nil, nil
	}
	uri := strings.TrimSuffix(run.ActionDir, "/") + "/" + launcher.ResultFile
	b, err := e.cfg.FS.ReadFile(ctx, uri)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
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
