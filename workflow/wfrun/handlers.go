package wfrun

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// loaded is an action with its job, read for a handler.
type loaded struct {
	job  store.WorkflowJob
	act  store.WorkflowAction
	conf *conf.Properties
}

func (r *Runner) load(ctx context.Context, actionID string) (*loaded, error) {
	var l loaded
	err := r.cfg.Store.View(ctx, func(x store.Tx) (err error) {
		if l.act, err = x.GetWorkflowAction(ctx, actionID); err != nil {
			return err
		}
		l.job, err = x.GetWorkflowJob(ctx, l.act.JobID)
		return err
	})
	if err != nil {
		return nil, err
	}
	p, err := r.parsed(&l.job)
	if err != nil {
		return nil, err
	}
	l.conf = p.conf
	return &l, nil
}

// handleStart launches one action. Its YARN tag is recorded on the row
// before the executor is called, and the executor looks the tag up before it
// launches, so a crash at any point never launches the action twice.
func (r *Runner) handleStart(ctx context.Context, run *engine.Claim) error {
	l, err := r.load(ctx, run.Trigger.EntityID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !store.ActionStatus.Startable(l.act.Status) || l.job.Status != store.WorkflowRunning {
		return nil // stale: already launched, killed, or the job is suspended (resume starts it)
	}
	exec := r.cfg.Executors[l.act.Type]
	if exec == nil {
		return r.end(ctx, run, l.act.ID, actions.Status{Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: oozieerr.E0723,
			ErrorMessage: fmt.Sprintf("Unsupported action type [%s]", l.act.Type)})
	}
	ar := r.actionAttempt(&l.job, &l.act, l.conf)
	if l.act.LaunchTag != ar.Tag || l.act.StartTime.IsZero() {
		// The row's version guards this write: of two servers that race to
		// start the action, one records the tag and the other reloads.
		newTag := l.act.LaunchTag != ar.Tag
		act := l.act
		act.LaunchTag = ar.Tag
		if act.StartTime.IsZero() {
			act.StartTime = r.now()
		}
		act.LastModified = r.now()
		if err := r.cfg.Store.Tx(ctx, func(x store.Tx) error {
			if err := x.UpdateWorkflowAction(ctx, &act, l.act.Status); err != nil {
				return err
			}
			if err := r.attemptStarted(ctx, x, &act); err != nil {
				return err
			}
			return r.changed(ctx, x, &l.job, false, false, []store.WorkflowAction{act})
		}); err != nil {
			return err
		}
		l.act = act
		ar.NewTag = newTag
	}
	// Everything the executor does (staging, HDFS, YARN) acts for the
	// job's user.
	st, err := exec.Start(hadoop.AsUser(ctx, l.job.User), ar)
	if err != nil {
		return r.startFailed(ctx, run, l, err)
	}
	if st.Done {
		return r.end(ctx, run, l.act.ID, st)
	}
	r.observeLaunch(run.Trigger.Payload)
	_, batch := exec.(actions.BatchChecker)
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		act, err := x.GetWorkflowAction(ctx, l.act.ID)
		if err != nil {
			return err
		}
		if !store.ActionStatus.Startable(act.Status) {
			return nil
		}
		from := act.Status
		act.Status = store.ActionRunning
		act.ErrorCode, act.ErrorMessage = "", ""
		setExternal(&act, st)
		act.LastModified = r.now()
		if err := x.UpdateWorkflowAction(ctx, &act, from); err != nil {
			return err
		}
		if err := r.changed(ctx, x, &l.job, false, false, []store.WorkflowAction{act}); err != nil {
			return err
		}
		if batch {
			// The batched poll finds it, a callback sooner, and a slow
			// check of its own covers a run the batch misses.
			if err := x.Schedule(ctx, KindPoll, pollEntity, r.now().Add(r.cfg.PollInterval), ""); err != nil {
				return err
			}
		}
		// One check right away: a callback that came while the start was
		// being recorded found the action not yet RUNNING and was dropped
		// (handleCheck), so the run may have ended already; that check
		// then sets the next one (CheckInterval, or FallbackCheckInterval
		// behind the batched poll).
		return x.Schedule(ctx, KindActionCheck, act.ID, r.now(), "")
	})
}

// startFailed handles a failed launch by the error's kind, as Oozie's
// ActionStartXCommand does: an ERROR or FAILED kind ends the action; a
// transient failure is retried as cfg.StartRetry says, the reason shown on
// the action (START_RETRY); a non-transient one, or a transient one out of
// retries, needs a person (startManual).
func (r *Runner) startFailed(ctx context.Context, run *engine.Claim, l *loaded, err error) error {
	var code, msg = "", err.Error()
	var ee *actions.ExecError
	if errors.As(err, &ee) {
		code, msg = ee.Code, ee.Err.Error()
	}
	switch actions.KindOf(err) {
	case actions.ActionError:
		return r.end(ctx, run, l.act.ID, actions.Status{Done: true, Outcome: workflow.OutcomeError, ErrorCode: code, ErrorMessage: msg})
	case actions.ActionFailed:
		return r.end(ctx, run, l.act.ID, actions.Status{Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: code, ErrorMessage: msg})
	case actions.NonTransient:
		r.log.Warn("action launch failed; suspending the job", "action_id", l.act.ID, "err", err)
		return r.startManual(ctx, run, l, code, msg)
	}
	retry := r.cfg.StartRetry
	if l.act.Retries >= retry.Max {
		r.log.Warn("action launch failed; out of retries, suspending the job", "action_id", l.act.ID, "err", err,
			"retries", l.act.Retries)
		return r.startManual(ctx, run, l, code, msg)
	}
	delay := workflow.RetryDelay(retry.Policy, retry.Interval, l.act.Retries)
	r.log.Warn("action launch failed; will retry", "action_id", l.act.ID, "err", err, "retry_in", delay)
	return r.finish(ctx, run, r.now().Add(delay), func(x store.Tx) error {
		act, err := x.GetWorkflowAction(ctx, l.act.ID)
		if err != nil {
			return err
		}
		if !act.Status.Startable() {
			return nil
		}
		from := act.Status
		act.Status = store.ActionStartRetry
		act.Retries++
		act.ErrorCode, act.ErrorMessage = code, msg
		act.LastModified = r.now()
		if err := x.UpdateWorkflowAction(ctx, &act, from); err != nil {
			return err
		}
		return r.changed(ctx, x, &l.job, false, false, []store.WorkflowAction{act})
	})
}

// startManual leaves an action whose start needs a person in START_MANUAL,
// with the failure's code and message, and suspends its job (and the job's
// running sub-workflows, as a suspend command does), in one transaction with
// the trigger's release, as Oozie's handleNonTransient does. Its retries
// start afresh and its start time is cleared; resuming the job starts it
// again.
func (r *Runner) startManual(ctx context.Context, run *engine.Claim, l *loaded, code, msg string) error {
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		act, err := x.GetWorkflowAction(ctx, l.act.ID)
		if err != nil {
			return err
		}
		if !act.Status.Startable() {
			return nil
		}
		from := act.Status
		act.Status = store.ActionStartManual
		act.Retries = 0
		act.StartTime = time.Time{}
		act.ErrorCode, act.ErrorMessage = code, msg
		act.LastModified = r.now()
		if err := x.UpdateWorkflowAction(ctx, &act, from); err != nil {
			return err
		}
		if err := r.changed(ctx, x, &l.job, false, false, []store.WorkflowAction{act}); err != nil {
			return err
		}
		st, err := r.decide(ctx, x, act.JobID, workflow.Event{Kind: workflow.EventSuspend})
		if err != nil || st.Ignored != nil {
			return err // not RUNNING: already suspended by a person, or ended
		}
		if err := r.apply(ctx, x, st, ""); err != nil {
			return err
		}
		return r.cascade(ctx, x, act.JobID, workflow.Event{Kind: workflow.EventSuspend}, 0)
	})
}

// handleCheck asks the executor whether a running action ended.
func (r *Runner) handleCheck(ctx context.Context, run *engine.Claim) error {
	l, err := r.load(ctx, run.Trigger.EntityID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if l.act.Status != store.ActionRunning && l.act.Status != store.ActionEndRetry {
		return nil
	}
	exec := r.cfg.Executors[l.act.Type]
	if exec == nil {
		return nil
	}
	st, err := exec.Check(hadoop.AsUser(ctx, l.job.User), r.actionAttempt(&l.job, &l.act, l.conf))
	if err != nil {
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind == actions.Transient {
			return err // the engine retries with backoff and records why (actions.KindOf)
		}
		return r.end(ctx, run, l.act.ID, actions.Status{Done: true, Outcome: workflow.OutcomeFailed, ErrorCode: ee.Code, ErrorMessage: ee.Err.Error()})
	}
	if st.Done {
		return r.end(ctx, run, l.act.ID, st)
	}
	_, batch := exec.(actions.BatchChecker)
	next := r.now().Add(r.cfg.CheckInterval)
	if batch && !adopted(&l.act) {
		next = r.now().Add(r.cfg.FallbackCheckInterval) // the batched poll looks at it sooner
	}
	return r.finish(ctx, run, next, func(x store.Tx) error {
		// A changed external id is a run that now follows another
		// application (a map-reduce action's job).
		if st.ExternalStatus == l.act.ExternalStatus && (st.ExternalID == "" || st.ExternalID == l.act.ExternalID) {
			return nil
		}
		act := l.act
		setExternal(&act, st)
		act.LastCheckTime = r.now()
		return x.UpdateWorkflowAction(ctx, &act)
	})
}

// end records an action's end and lets the decision core move the job on,
// in one transaction with the trigger's release.
func (r *Runner) end(ctx context.Context, run *engine.Claim, actionID string, st actions.Status) error {
	if id, err := ids.Parse(actionID); err == nil {
		ctx = r.prefetch(ctx, id.JobID(), endEvent(id.Child, st))
	}
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		return r.endIn(ctx, x, actionID, st, run.Trigger.Payload)
	})
}

// endIn records an action's end in x and applies what the decision core makes of it.
func (r *Runner) endIn(ctx context.Context, x store.Tx, actionID string, st actions.Status, payload string) error {
	act, err := x.GetWorkflowAction(ctx, actionID)
	if err != nil {
		return err
	}
	if act.Status.Terminal() {
		return nil // already ended (a replayed check)
	}
	setExternal(&act, st)
	act.EndTime = r.now()
	act.LastModified = r.now()
	if err := x.UpdateWorkflowAction(ctx, &act); err != nil {
		return err
	}
	step, err := r.decide(ctx, x, act.JobID, endEvent(act.Name, st))
	if err != nil {
		return err
	}
	return r.apply(ctx, x, step, payload)
}

// endEvent is the decision core's event for the end of node's action with
// status st. Executors report the core's outcome type; one that ends without
// naming an outcome ended OK.
func endEvent(node string, st actions.Status) workflow.Event {
	outcome := st.Outcome
	if outcome == "" {
		outcome = workflow.OutcomeOK
	}
	return workflow.Event{Kind: workflow.EventActionEnd, Node: node, Outcome: outcome, ErrorCode: st.ErrorCode,
		ErrorMessage: st.ErrorMessage, ExternalStatus: st.ExternalStatus, Data: st.Data}
}

// giveUp ends an action whose start the engine gave up on (engine.Config.MaxAttempts):
// its handler kept failing, or kept taking the server down, for reasons of the server's own
// (launch failures of the cluster are retried inside the handler and never count). The
// action ends in ERROR with the engine's cause, and the workflow follows its error
// transition, so that no workflow is left RUNNING on work that will never happen.
func (r *Runner) giveUp(ctx context.Context, x store.Tx, t store.Trigger, cause string) error {
	err := r.endIn(ctx, x, t.EntityID, actions.Status{Done: true, Outcome: workflow.OutcomeError, ErrorCode: string(oozieerr.E0902),
		ErrorMessage: cause}, t.Payload)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// finish releases the trigger (due again at next, or deleted) together with
// fn's writes, retrying when a concurrent change of the same job wins.
func (r *Runner) finish(ctx context.Context, run *engine.Claim, next time.Time, fn func(store.Tx) error) error {
	return r.retryConflicts(ctx, func() error { return run.Finish(ctx, next, fn) })
}

func setExternal(act *store.WorkflowAction, st actions.Status) {
	if st.ExternalID != "" {
		act.ExternalID = st.ExternalID
	}
	if st.ExternalStatus != "" {
		act.ExternalStatus = st.ExternalStatus
	}
	if st.TrackerURI != "" {
		act.TrackerURI = st.TrackerURI
	}
	if st.ConsoleURL != "" {
		act.ConsoleURL = st.ConsoleURL
	}
	if len(st.ExternalChildIDs) > 0 {
		act.ExternalChildIDs = strings.Join(st.ExternalChildIDs, ",")
	}
	if st.Stats != "" {
		act.Stats = st.Stats // a map-reduce run's counters (hadoop:counters)
	}
}

// handleKill kills an action's external work.
func (r *Runner) handleKill(ctx context.Context, run *engine.Claim) error {
	l, err := r.load(ctx, run.Trigger.EntityID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	exec := r.cfg.Executors[l.act.Type]
	if exec == nil || (l.act.ExternalID == "" && l.act.LaunchTag == "") {
		return nil
	}
	return exec.Kill(hadoop.AsUser(ctx, l.job.User), r.actionAttempt(&l.job, &l.act, l.conf))
}

// handleRetry starts a user retry whose delay has passed.
func (r *Runner) handleRetry(ctx context.Context, run *engine.Claim) error {
	var jobID, node string
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) error {
		act, err := x.GetWorkflowAction(ctx, run.Trigger.EntityID)
		jobID, node = act.JobID, act.Name
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return r.finish(ctx, run, time.Time{}, func(x store.Tx) error {
		st, err := r.decide(ctx, x, jobID, workflow.Event{Kind: workflow.EventRetryDue, Node: node})
		if err != nil {
			return err
		}
		return r.apply(ctx, x, st, "")
	})
}

// handlePoll looks at every running action of batch-checkable executors
// with one query each, and checks at once those that ended.
func (r *Runner) handlePoll(ctx context.Context, run *engine.Claim) error {
	var running []store.WorkflowAction
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) (err error) {
		running, err = x.ListActionsByStatus(ctx, []store.ActionStatus{store.ActionRunning}, 100000)
		return err
	})
	if err != nil {
		return err
	}
	byExec := map[actions.BatchChecker][]*actions.Attempt{}
	for i := range running {
		act := &running[i]
		if bc, ok := r.cfg.Executors[act.Type].(actions.BatchChecker); ok {
			// The tag recorded at launch identifies the run, and the tracker
			// URI the ResourceManager it was sent to; no job read needed.
			byExec[bc] = append(byExec[bc], &actions.Attempt{ActionID: act.ID, JobID: act.JobID, Node: act.Name,
				Type: act.Type, Tag: act.LaunchTag, ExternalID: act.ExternalID, ResourceManager: act.TrackerURI})
		}
	}
	var ended []string
	for bc, runs := range byExec {
		res, err := bc.CheckAll(ctx, runs)
		if err != nil {
			return err
		}
		for id := range res {
			ended = append(ended, id)
		}
	}
	next := time.Time{}
	if len(byExec) > 0 {
		next = r.now().Add(r.cfg.PollInterval)
	}
	return run.Finish(ctx, next, func(x store.Tx) error {
		for _, id := range ended {
			if err := x.Schedule(ctx, KindActionCheck, id, r.now(), ""); err != nil {
				return err
			}
		}
		return nil
	})
}

// observeLaunch records the latency from the callback that led to this
// launch, when there was one.
func (r *Runner) observeLaunch(origin string) {
	if origin == "" {
		return
	}
	ns, err := strconv.ParseInt(origin, 10, 64)
	if err != nil {
		return
	}
	if d := r.now().Sub(time.Unix(0, ns)); d >= 0 {
		r.nextLaunch.Observe(d.Seconds())
	}
}
