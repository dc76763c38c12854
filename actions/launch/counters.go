package launch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// StatsActionType is the ACTION_TYPE entry of a map-reduce action's stats
// (Oozie's ActionStats.ActionType.MAP_REDUCE).
const StatsActionType = "MAP_REDUCE"

// statsActionTypeKey names the entry (Oozie's MRStats.ACTION_TYPE_LABEL).
const statsActionTypeKey = "ACTION_TYPE"

// MRStats writes a job's counters as Oozie writes a map-reduce action's
// stats (MRStats.toJSON): one JSON object holding ACTION_TYPE ("MAP_REDUCE")
// and, for each counter group by its name, an object of the group's
// counters by name with their job totals. hadoop:counters reads it back
// (workflow.ParseCounters).
func MRStats(c JobCounters) (string, error) {
	out := make(map[string]any, len(c.Groups)+1)
	out[statsActionTypeKey] = StatsActionType
	for _, g := range c.Groups {
		group := make(map[string]int64, len(g.Counters))
		for _, cn := range g.Counters {
			group[cn.Name] = cn.Total
		}
		out[g.Name] = group
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("writing the stats of job %s: %w", c.ID, err)
	}
	return string(b), nil
}

// MRJobID is the MapReduce job id of the job's YARN application
// (application_<ts>_<n> is job_<ts>_<n>), as MapReduce's TypeConverter
// names it.
func MRJobID(app yarn.ApplicationID) string {
	return "job_" + strings.TrimPrefix(app.String(), "application_")
}

// countersWait is how long after a job ended its counters are waited for:
// a JobHistory server picks a job up seconds after it ends; one that still
// cannot answer after this (down, or misconfigured) does not hold the
// action, which ends without counters, as Oozie's does when it finds none.
const countersWait = 5 * time.Minute

// endedJobStatus is jobStatus with, for a job that succeeded, its counters
// as the run's Stats, read from Config.JobHistory as Oozie's
// MapReduceActionExecutor.end reads them (only for an OK end). Without a
// JobHistory server configured, the run has no stats and hadoop:counters
// says they are not available. Counters that cannot be read yet (the
// server is down, or has not picked the job up) are a transient error
// for countersWait after the job ended: the run is checked again, as Oozie
// retries a failed end (END_RETRY); after that the run ends without them.
func (e *Executor) endedJobStatus(ctx context.Context, run *actions.Attempt, rep yarn.AppReport) (actions.Status, error) {
	st := jobStatus(run, rep)
	if !st.Done || st.Outcome != workflow.OutcomeOK || e.cfg.JobHistory == nil || strings.EqualFold(rep.ApplicationType, ApplicationTypeSpark) {
		return st, nil
	}
	jobID := MRJobID(rep.ID)
	c, err := e.cfg.JobHistory.Counters(ctx, jobID)
	if err == nil {
		st.Stats, err = MRStats(c)
	}
	if err == nil {
		return st, nil
	}
	if !rep.FinishedTime.IsZero() && e.cfg.Clock.Now().Sub(rep.FinishedTime) > countersWait {
		e.cfg.Logger.Warn("the job's counters could not be read; the action ends without them",
			"action_id", run.ActionID, "job_id", jobID, "err", err)
		return st, nil
	}
	if errors.Is(err, ErrJobNotInHistory) {
		e.cfg.Logger.Info("the JobHistory server does not know the job yet; checking again",
			"action_id", run.ActionID, "job_id", jobID)
	}
	return actions.Status{}, actions.Errorf(actions.Transient, codeIO, "action %s: reading the counters of %s: %w", run.ActionID, jobID, err)
}
