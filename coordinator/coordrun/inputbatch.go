package coordrun

import (
	"context"
	"errors"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// inputCheckBatch is how many coord-input-check triggers the engine hands
// to one pass of handleInputCheckBatch.
const inputCheckBatch = 200

// pendingCheck is one action's input check within a batch.
type pendingCheck struct {
	run     *engine.Claim
	act     store.CoordAction
	job     store.CoordJob
	def     *coordinator.Job
	runConf *conf.Properties
	doc     *coordinator.ActionDoc
	ex      *existence
	res     coordinator.InputCheckResult
	checked bool // decided by the coordinator core (res holds the decision)
	row     store.CoordAction
	write   bool      // row differs from act: written under the job's lock
	next    time.Time // when the trigger is due again (zero: deleted)
	err     error     // the check could not run (an unreadable definition, say)
}

// readChecks reads the actions of runs and their jobs in one transaction,
// without locking them, and sorts out the checks that need no decision: an
// action gone, no longer WAITING, or of a job that checks nothing now (a
// resume checks it again) is dropped; one whose nominal time is still ahead
// is checked then.
func (r *Runner) readChecks(ctx context.Context, runs []*engine.Claim, now time.Time) ([]*pendingCheck, error) {
	ids := make([]string, len(runs))
	for i, run := range runs {
		ids[i] = run.Trigger.EntityID
	}
	acts := map[string]store.CoordAction{}
	jobs := map[string]store.CoordJob{}
	err := r.cfg.Store.View(ctx, func(x store.Tx) error {
		r.hook(hookInputCheckRead)
		clear(acts)
		clear(jobs)
		as, err := x.GetCoordActions(ctx, ids)
		if err != nil {
			return err
		}
		var jobIDs []string
		for _, a := range as {
			acts[a.ID] = a
			jobIDs = append(jobIDs, a.JobID)
		}
		js, err := r.rows.jobs(ctx, x, jobIDs)
		for _, j := range js {
			jobs[j.ID] = j
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	cs := make([]*pendingCheck, len(runs))
	for i, run := range runs {
		c := &pendingCheck{run: run}
		cs[i] = c
		a, ok := acts[run.Trigger.EntityID]
		job, jobOK := jobs[a.JobID]
		if !ok || !jobOK || a.Status != store.CoordActionWaiting || !inputCheckable(job.Status) {
			continue // dropped: not waiting any more, or suspended
		}
		c.act, c.job = a, job
		if a.NominalTime.After(now) {
			c.next = a.NominalTime
			continue
		}
		var jobConf *conf.Properties
		if c.def, jobConf, c.err = r.definition(&job); c.err != nil {
			continue
		}
		c.runConf, c.doc, c.err = r.parsed(&a, &job, jobConf)
		c.checked = c.err == nil
	}
	return cs, nil
}

// lookUpChecks looks up the dependencies of the checks to decide, each
// job's as its user sees them, all at once (see lookUpAll), and gives each
// check its answers.
func (r *Runner) lookUpChecks(ctx context.Context, cs []*pendingCheck) {
	byUser := map[string][]string{}
	for _, c := range cs {
		if c.checked {
			byUser[c.job.User] = append(byUser[c.job.User], resolvedDependencies(c.act.MissingDependencies)...)
		}
	}
	found := make(map[string]map[string]answer, len(byUser))
	for user, uris := range byUser {
		found[user] = r.lookUpAll(hadoop.AsUser(ctx, user), uris)
	}
	for _, c := range cs {
		if !c.checked {
			continue
		}
		uctx := hadoop.AsUser(ctx, c.job.User)
		c.ex = &existence{r: r, ctx: uctx, ok: map[string]bool{}, err: map[string]error{}}
		for _, u := range resolvedDependencies(c.act.MissingDependencies) {
			if a, ok := found[c.job.User][u]; ok {
				if a.err != nil {
					c.ex.err[u] = a.err
				} else {
					c.ex.ok[u] = a.ok
				}
			}
		}
	}
}

// decideCheck asks the coordinator core about one action, and works out
// the row it leaves and when the action is checked again.
func (r *Runner) decideCheck(c *pendingCheck, now time.Time) {
	act := c.act
	set := r.set
	set.InputCheckInterval = checkInterval(act, now, c.run.Now.Sub(c.run.Trigger.DueAt),
		r.cfg.InputCheckMinInterval, r.cfg.InputCheckMaxInterval)
	res := coordinator.CheckInputs(coordinator.InputCheckRequest{Job: c.def, JobID: c.job.ID, Row: c.job, Action: act,
		RunConf: c.runConf, Doc: c.doc, Timeout: act.Timeout, Exists: c.ex.Exists, Now: now, Settings: set})
	if res.Status == store.CoordActionWaiting && refusedScheme(res.Err) {
		// A dataset on a filesystem the server refuses never appears:
		// the action fails with E0904 rather than wait for its timeout.
		res.Status, res.Reason = store.CoordActionFailed, "input check"
	}
	if res.Err != nil {
		r.log.Warn("coordinator input check could not complete", "action_id", act.ID, "err", res.Err)
	}
	c.res = res
	c.row, c.write = checkedRow(c.def, act, res, c.ex, now)
	if res.Status == store.CoordActionWaiting {
		c.next = nextCheck(act, res.NextCheckAt)
	}
}

// nextCheck is when a waiting action is checked again: when its backoff
// asks (due), but never after its timeout deadline, so that the check
// itself times it out on time and no coord-timeout trigger is needed for it
// (see armTimeout).
func nextCheck(a store.CoordAction, due time.Time) time.Time {
	if deadline, ok := timeoutDeadline(a); ok && deadline.Before(due) {
		return deadline
	}
	return due
}

// checkedRow returns the action's row as its check leaves it, and whether
// that differs from the row as read: a WAITING action whose dependencies,
// document and error are unchanged is not written.
func checkedRow(def *coordinator.Job, act store.CoordAction, res coordinator.InputCheckResult, ex *existence,
	now time.Time) (store.CoordAction, bool) {
	a := act
	a.LastModified = now
	switch res.Status {
	case store.CoordActionWaiting:
		missing := res.MissingDependencies
		if def.InputLogic == nil {
			missing = pruneAvailable(missing, ex.available())
		}
		code, msg := "", ""
		if res.Err != nil {
			code, msg = oozieerr.E1021, "input check: "+res.Err.Error()
		}
		if missing == act.MissingDependencies && res.ActionXML == act.ActionXML && code == act.ErrorCode && msg == act.ErrorMessage {
			return act, false
		}
		a.MissingDependencies, a.ActionXML, a.ErrorCode, a.ErrorMessage = missing, res.ActionXML, code, msg
		return a, true
	case store.CoordActionReady:
		a.MissingDependencies, a.ActionXML, a.ErrorCode, a.ErrorMessage = "", res.ActionXML, "", ""
	case store.CoordActionFailed:
		a.ErrorCode = string(ErrorCode(res.Err))
		if a.ErrorCode == "" {
			a.ErrorCode = oozieerr.E1021
		}
		a.ErrorMessage = res.Reason
		if res.Err != nil {
			a.ErrorMessage += ": " + res.Err.Error()
		}
	case store.CoordActionTimedOut, store.CoordActionSkipped:
		a.MissingDependencies = res.MissingDependencies
		a.ErrorCode, a.ErrorMessage = "", ""
	}
	a.Status = res.Status
	return a, true
}

// applyChecks writes the checks of runs that change their action, under
// their jobs' locks taken together, and returns every run's next due
// time. An action changed since it was read (killed, rerun, checked by
// another server) is not written: still WAITING, it is checked again at
// once on fresh rows; otherwise its check is dropped.
func (r *Runner) applyChecks(ctx context.Context, x store.Tx, runs []*engine.Claim, byRun map[*engine.Claim]*pendingCheck,
	now time.Time) ([]time.Time, error) {
	next := make([]time.Time, len(runs))
	var writers []*pendingCheck
	var at []int
	var jobIDs, actIDs []string
	for i, run := range runs {
		c := byRun[run]
		next[i] = c.next
		if c.write {
			writers, at = append(writers, c), append(at, i)
			jobIDs, actIDs = append(jobIDs, c.job.ID), append(actIDs, c.act.ID)
		}
	}
	if len(writers) == 0 {
		return next, nil
	}
	read := make(map[string]*store.CoordJob, len(writers))
	for _, c := range writers {
		read[c.job.ID] = &c.job
	}
	jobs, err := lockJobs(ctx, x, jobIDs, read)
	if err != nil {
		return nil, err
	}
	locked := make(map[string]*store.CoordJob, len(jobs))
	for i := range jobs {
		locked[jobs[i].ID] = &jobs[i]
	}
	current, err := x.GetCoordActionStates(ctx, actIDs)
	if err != nil {
		return nil, err
	}
	var rows []*store.CoordAction
	var apply []*pendingCheck
	for k, c := range writers {
		job, cur := locked[c.job.ID], current[c.act.ID]
		switch {
		case job == nil || cur.Status != store.CoordActionWaiting || !inputCheckable(job.Status): // gone, or moved
			next[at[k]] = time.Time{}
			continue
		case cur.Version != c.act.Version:
			next[at[k]] = now
			continue
		}
		row := c.row // a copy: the write advances its version, and a retry writes it again
		rows, apply = append(rows, &row), append(apply, c)
	}
	if err := x.UpdateCheckedCoordActions(ctx, rows, store.CoordActionWaiting); err != nil {
		return nil, err
	}
	return next, r.checksApplied(ctx, x, locked, apply)
}

// checksApplied writes what the checks written make due, for them all
// together: an action still WAITING on other data has its waits replaced; an
// action that moved has the follow-ups of its move (moves). The caller
// holds the jobs' locks.
func (r *Runner) checksApplied(ctx context.Context, x store.Tx, locked map[string]*store.CoordJob, cs []*pendingCheck) error {
	waits := map[string][]string{}
	ms := r.newMoves()
	for _, c := range cs {
		a, act := c.row, c.act
		if a.Status != store.CoordActionWaiting {
			ms.add(locked[c.job.ID], store.CoordActionWaiting, a.Status, a.ID,
				move{hadWaits: len(resolvedDependencies(act.MissingDependencies)) > 0, byCheck: true})
			continue
		}
		// Still WAITING: no move (store.CoordActionMachine), only what it waits for.
		if a.MissingDependencies == act.MissingDependencies {
			continue
		}
		doc := c.doc
		if a.ActionXML != act.ActionXML || doc == nil {
			var err error
			if doc, err = coordinator.ParseActionXML(a.ActionXML, c.runConf, r.cfg.Format); err != nil {
				doc = nil // the URIs themselves are still indexed
			}
		}
		waits[a.ID] = waitURIs(doc, a.MissingDependencies)
	}
	if err := x.SetCoordWaitsMany(ctx, waits); err != nil {
		return err
	}
	return ms.flush(ctx, x)
}

// checksOf returns the runs to finish and the errors of those that cannot
// run.
func checksOf(cs []*pendingCheck) ([]*engine.Claim, map[*engine.Claim]*pendingCheck, error) {
	var open []*engine.Claim
	byRun := make(map[*engine.Claim]*pendingCheck, len(cs))
	var errs []error
	for _, c := range cs {
		if c.err != nil {
			errs = append(errs, c.err)
			continue
		}
		open = append(open, c.run)
		byRun[c.run] = c
	}
	return open, byRun, errors.Join(errs...)
}
