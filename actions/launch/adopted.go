package launch

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// checkAdopted checks a run adopted from Apache Oozie at the migration (its
// tag is Oozie's, see yarn.IsOozieTag): an Oozie launcher that gozie did not
// start and that writes no result file of gozie's. Its outcome is the YARN
// application's final status alone: SUCCEEDED is OK, anything else
// (FAILED, KILLED) an ERROR with the ResourceManager's diagnostics; an
// application the ResourceManager no longer knows is failed with JA017.
func (e *Executor) checkAdopted(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	rep, ok, err := e.adoptedApp(ctx, run)
	if err != nil {
		return actions.Status{}, err
	}
	if !ok {
		return actions.Status{
			ExternalID: run.ExternalID, ExternalStatus: string(yarn.StateFailed), TrackerURI: run.ResourceManager,
			Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: codeUnknownJob,
			ErrorMessage: fmt.Sprintf(unknownJobText, run.ExternalID, run.ActionID),
		}, nil
	}
	return adoptedStatus(run, rep), nil
}

// adoptedStatus is an adopted run's status from its application's report.
func adoptedStatus(run *actions.Attempt, rep yarn.AppReport) actions.Status {
	st := actions.Status{ExternalID: rep.ID.String(), ExternalStatus: string(rep.State), TrackerURI: run.ResourceManager,
		ConsoleURL: rep.TrackingURL}
	settled := rep.FinalStatus != "" && rep.FinalStatus != yarn.FinalUndefined
	if !rep.Done() && !settled {
		if rep.State == yarn.StateRunning {
			st.ExternalStatus = externalRunning
		}
		return st
	}
	st.Done = true
	if rep.FinalStatus == yarn.FinalSucceeded {
		st.ExternalStatus, st.Outcome = externalSucceeded, workflow.OutcomeOK
		return st
	}
	st.ExternalStatus, st.Outcome, st.ErrorCode = externalFailed, workflow.OutcomeError, launcher.CodeException
	st.ErrorMessage = fmt.Sprintf("Oozie launcher [%s] ended %s/%s", rep.ID, rep.State, rep.FinalStatus)
	if d := strings.TrimSpace(rep.Diagnostics); d != "" {
		st.ErrorMessage += ": " + d
	}
	return st
}

// adoptedApp finds an adopted run's application: by the external id Oozie
// recorded (an application id, or the job id of Oozie 4's MapReduce
// launcher, which names the same application), else by Oozie's tag.
func (e *Executor) adoptedApp(ctx context.Context, run *actions.Attempt) (yarn.AppReport, bool, error) {
	if id, err := yarn.ParseApplicationID(oozieAppID(run.ExternalID)); err == nil {
		rep, err := e.cfg.YARN.App(ctx, id)
		if err == nil {
			return rep, true, nil
		}
		if !errors.Is(err, yarn.ErrAppNotFound) {
			return yarn.AppReport{}, false, yarnError(err, "reading the report of %s", id)
		}
	}
	reps, err := e.cfg.YARN.Apps(ctx, yarn.AppsFilter{Tags: []string{run.Tag}})
	if err != nil {
		return yarn.AppReport{}, false, yarnError(err, "looking for the application tagged %s", run.Tag)
	}
	var found *yarn.AppReport
	for i := range reps {
		r := &reps[i]
		if r.HasTag(run.Tag) && (found == nil || r.ID.Sequence < found.ID.Sequence && r.ID.ClusterTimestamp == found.ID.ClusterTimestamp) {
			found = r // the first submitted: the launcher, not a job it started
		}
	}
	if found == nil {
		return yarn.AppReport{}, false, nil
	}
	return *found, true, nil
}

// oozieAppID turns the job id Oozie 4 records for a launcher
// (job_<cluster>_<n>) into its application's id.
func oozieAppID(id string) string {
	if rest, ok := strings.CutPrefix(id, "job_"); ok {
		return "application_" + rest
	}
	return id
}
