package coordrun

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
)

// materializeBatch is how many coord-materialize triggers the engine hands
// to one materialization pass (see handleMaterializeBatch).
const materializeBatch = 200

// handleMaterialize is handleMaterializeBatch for one trigger, for engines
// that register the kind with Handle.
func (r *Runner) handleMaterialize(ctx context.Context, run *engine.Claim) error {
	return r.handleMaterializeBatch(ctx, []*engine.Claim{run})
}

// handleMaterializeBatch creates the next actions of many jobs
// (coord-materialize, one trigger per job, claimed up to materializeBatch
// at a time) in one transaction with the triggers' release, a few
// statements for the whole batch: the jobs are locked together, their
// queued actions counted together, their actions, waits and triggers
// written with multi-row statements. Each job row moves by compare-and-set
// on its version and the actions are inserted under UNIQUE(job_id,
// action_number), so an engine that took a trigger over from a dead or
// stalled one never creates an action twice, and the stalled one's commit
// fails. If the batch's transaction fails (a conflict, a lost lease, a job
// whose materialization errs), engine.FinishBatch materializes the jobs one
// by one, so one job never holds the others back.
//
// A trigger stays due at its job's next materialization time minus the
// look-ahead. A job held back by its throttle (throttle actions queued,
// WAITING or READY, see coordinator.Queued) has no due time: an action
// leaving the queue schedules it again (see moves.add), so a backfill
// advances as its actions start, never further than throttle actions ahead
// of them.
//
// New actions whose nominal time has come are checked in the same pass
// when that needs no filesystem call inside the transaction: those that
// depend on no dataset, and those whose dependencies were all found to
// exist just before the transaction (see checkAtOnce and lookAhead).
func (r *Runner) handleMaterializeBatch(ctx context.Context, runs []*engine.Claim) error {
	now := r.now()
	la := r.lookAhead(ctx, runs, now)
	created := map[string]int{}
	written := map[string]store.CoordJob{}
	err := engine.FinishBatch(ctx, runs, func(x store.Tx, part []*engine.Claim) ([]time.Time, error) {
		for _, run := range part {
			delete(written, run.Trigger.EntityID) // what an attempt that failed wrote
		}
		return r.materializeTx(ctx, x, part, now, la, created, written)
	})
	for _, run := range runs {
		if !run.Finished() {
			continue
		}
		if n := created[run.Trigger.EntityID]; n > 0 {
			r.log.Debug("coordinator actions materialized", "coord_job_id", run.Trigger.EntityID, "actions", n)
		}
		// A finished run's last attempt committed: its job rows are what
		// the store now holds, for the input checks that read them next.
		if j, ok := written[run.Trigger.EntityID]; ok {
			r.rows.put([]store.CoordJob{j})
		}
	}
	return err
}

// hookMaterialized is the test hook's point in the middle of a
// materialization: the job row updated and the actions inserted, nothing
// committed yet.
const hookMaterialized = "materialize:inserted"

// materializeTx materializes the jobs of runs inside x and returns when
// each run's trigger is due again (zero: never, unless scheduled
// meanwhile), which the trigger's release writes: the trigger row is
// written once, not moved by an upsert and then released. created
// receives the number of actions each job got and written each job's row
// as written (both valid once x commits).
func (r *Runner) materializeTx(ctx context.Context, x store.Tx, runs []*engine.Claim, now time.Time, la *lookahead,
	created map[string]int, written map[string]store.CoordJob) ([]time.Time, error) {
	next, err := r.materializeJobs(ctx, x, runs, now, la, created, written)
	if err != nil {
		return nil, err
	}
	out := make([]time.Time, len(runs))
	for i, run := range runs {
		out[i] = next[run.Trigger.EntityID]
	}
	return out, nil
}

// materializeJobs is materializeTx's work; it returns each materialized
// job's next due time by job id.
func (r *Runner) materializeJobs(ctx context.Context, x store.Tx, runs []*engine.Claim, now time.Time, la *lookahead,
	created map[string]int, written map[string]store.CoordJob) (map[string]time.Time, error) {
	ids := make([]string, len(runs))
	for i, run := range runs {
		ids[i] = run.Trigger.EntityID
		created[ids[i]] = 0
	}
	jobs, err := lockJobs(ctx, x, ids, la.jobs())
	if err != nil {
		return nil, err
	}
	// A job that is gone has nothing to materialize; one that is not
	// materializable is scheduled again by a resume, a change or a status
	// change.
	var todo []store.CoordJob
	var todoIDs []string
	for _, job := range jobs {
		if materializable(job.Status) && !job.DoneMaterialization {
			todo = append(todo, job)
			todoIDs = append(todoIDs, job.ID)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	queued, err := x.CountCoordActionsByJob(ctx, todoIDs, coordinator.QueuedStatuses)
	if err != nil {
		return nil, err
	}
	w := &newWork{next: make(map[string]time.Time, len(todo))}
	for _, job := range todo {
		n, err := r.materializeJob(ctx, x, job, queued[job.ID], now, la, w)
		if err != nil {
			return nil, err
		}
		created[job.ID] = n
	}
	if err := x.UpdateCoordJobsProgress(ctx, w.progress); err != nil {
		return nil, err
	}
	for _, c := range w.changed {
		if err := r.jobChanged(ctx, x, c.before, *c.job); err != nil {
			return nil, err
		}
		written[c.job.ID] = c.job.AsStored() // its version advanced by the write
	}
	return w.next, r.writeNewWork(ctx, x, w, now)
}

// materializeJob writes one job's materialization, decided ahead when
// that still holds (see lookahead) and here otherwise, and collects its
// new actions and triggers into w. It returns how many actions the job
// gets.
func (r *Runner) materializeJob(ctx context.Context, x store.Tx, job store.CoordJob, queued int, now time.Time,
	la *lookahead, w *newWork) (int, error) {
	p, ok := la.plan(job, queued)
	if !ok {
		def, jobConf, err := r.definition(&job)
		if err != nil {
			return 0, r.failJob(ctx, x, job, err)
		}
		p = r.decide(def, jobConf, job, queued, now, la.existing(job.User))
	}
	res := p.res
	if p.err != nil {
		return 0, r.failJob(ctx, x, job, p.err)
	}
	if !res.Ran {
		r.log.Debug("coordinator not materialized", "coord_job_id", job.ID, "reason", res.Reason)
		if res.NextAt.After(now) {
			w.next[job.ID] = res.NextAt
		}
		return 0, nil // held by its pause time or status: a command schedules it again
	}
	updated := res.Job
	updated.LastModified = now
	if progressOnly(job, updated) {
		w.progress = append(w.progress, &updated) // written with the others' (materializeTx)
	} else if err := x.UpdateCoordJob(ctx, &updated, materializableStatuses...); err != nil {
		return 0, err
	}
	w.changed = append(w.changed, jobChange{before: job.Status, job: &updated})
	stillQueued := addActions(&updated, res.Actions, p.rows, now, w)
	progressed := len(res.Actions) > 0 || !updated.NextMaterializedTime.Equal(job.NextMaterializedTime)
	if rollupNeeded(job, updated) {
		w.schedule(KindStatus, job.ID, now)
	}
	switch {
	case res.Throttled && queued+stillQueued >= updated.Throttle:
		// woken when an action leaves the queue (moves.add)
	case res.NextAt.After(now) || (progressed && !res.NextAt.IsZero()):
		w.next[job.ID] = res.NextAt
	}
	return len(res.Actions), nil
}

// decide materializes a job (writing nothing) and checks its new actions
// at once where that needs no filesystem call (checkAtOnce).
func (r *Runner) decide(def *coordinator.Job, jobConf *conf.Properties, job store.CoordJob, queued int, now time.Time,
	exists map[string]bool) plan {
	res, err := coordinator.Materialize(coordinator.MaterializeRequest{Job: def, JobID: job.ID, Row: job,
		Queued: queued, Now: now, Settings: r.set})
	return r.planOf(def, jobConf, job, queued, now, exists, res, err)
}

// planOf is decide's plan for a materialization already decided: its new
// actions checked at once where possible.
func (r *Runner) planOf(def *coordinator.Job, jobConf *conf.Properties, job store.CoordJob, queued int, now time.Time,
	exists map[string]bool, res coordinator.MaterializeResult, err error) plan {
	p := plan{job: job, queued: queued, res: res, err: err}
	if err != nil || !res.Ran {
		return p
	}
	updated := res.Job
	updated.LastModified = now
	p.rows = make([]store.CoordAction, len(res.Actions))
	for i, na := range res.Actions {
		a := na.Row
		a.Timeout = na.Timeout
		if a.Status == store.CoordActionWaiting { // not created SKIPPED (LAST_ONLY, NONE)
			if checked, ok := r.checkAtOnce(def, updated, jobConf, a, now, exists); ok {
				a = checked
			}
		}
		p.rows[i] = a
	}
	return p
}

// rollupNeeded reports whether a materialization that moved a job from
// before to after makes its status roll-up due: when materialization is
// done, and when the status changed, except for a job's first pass (PREP
// to RUNNING, with no earlier action, no pending flag, no pause time),
// whose roll-up would keep RUNNING and change nothing: the job's only
// actions are the new ones, WAITING or READY (a new action that is
// already finished, SKIPPED, schedules the roll-up itself, see
// addActions). Skipping it spares a new coordinator one transaction.
func rollupNeeded(before, after store.CoordJob) bool {
	switch {
	case after.DoneMaterialization:
		return true
	case after.Status == before.Status:
		return false
	}
	first := before.Status == store.JobPrep && after.Status == store.JobRunning && before.LastActionNumber == 0 &&
		!before.Pending && before.PauseTime.IsZero()
	return !first
}

// progressOnly reports whether a materialization changed only the
// columns UpdateCoordJobsProgress writes, so that the job's row can be
// written with the others'.
func progressOnly(before, after store.CoordJob) bool {
	after.Status, after.LastActionNumber, after.LastActionTime = before.Status, before.LastActionNumber, before.LastActionTime
	after.NextMaterializedTime, after.DoneMaterialization = before.NextMaterializedTime, before.DoneMaterialization
	after.LastModified = before.LastModified
	return after == before
}

// jobChange is a job row a materialization moved, for the bundle hook.
type jobChange struct {
	before store.JobStatus
	job    *store.CoordJob
}

// newWork collects what a materialization pass writes besides the few
// rows it writes at once: the jobs' progress, every job's new actions with
// their SLA registrations and waits, and the triggers the actions make
// due.
type newWork struct {
	next      map[string]time.Time // each job's next materialization, for its trigger's release
	progress  []*store.CoordJob
	changed   []jobChange
	actions   []*store.CoordAction
	jobs      int // jobs that materialized, for the test hook
	slas      []store.SLA
	waits     map[string][]string
	ready     []store.CoordJob // jobs with new READY actions
	schedules []store.ScheduleRequest
}

func (w *newWork) schedule(kind store.TriggerKind, entityID string, due time.Time) {
	w.schedules = append(w.schedules, store.ScheduleRequest{Kind: kind, EntityID: entityID, Due: due})
}

// addActions collects a job's new actions (rows, as decide checked them)
// with their SLA registrations, waits and first input checks, and the
// job's timeout check where one is needed (armTimeout), and returns how many of them are queued (WAITING or
// READY: the throttle counts them). An action checked at once and SKIPPED
// is not queued.
func addActions(job *store.CoordJob, actions []coordinator.NewAction, rows []store.CoordAction, now time.Time,
	w *newWork) int {
	w.jobs++
	var ready, finished bool
	var first time.Time // the earliest timeout deadline of the waiting actions
	queued := 0
	for i, na := range actions {
		a := &rows[i]
		w.actions = append(w.actions, a)
		if na.SLA != nil {
			w.slas = append(w.slas, *na.SLA)
		}
		if coordinator.Queued(a.Status) {
			queued++
		}
		switch {
		case a.Status == store.CoordActionReady:
			ready = true
			continue
		case a.Status != store.CoordActionWaiting:
			finished = true
			continue
		}
		if uris := waitURIs(na.Doc, a.MissingDependencies); len(uris) > 0 {
			if w.waits == nil {
				w.waits = map[string][]string{}
			}
			w.waits[a.ID] = uris
		}
		w.schedule(KindInputCheck, a.ID, na.CheckAt)
		if d, ok := timeoutDeadline(*a); ok && armTimeout(d, na.CheckAt) && (first.IsZero() || d.Before(first)) {
			first = d
		}
	}
	if ready {
		w.ready = append(w.ready, *job)
	}
	if finished {
		w.schedule(KindStatus, job.ID, now)
	}
	if !first.IsZero() {
		w.schedule(KindTimeout, job.ID, first)
	}
	return queued
}

// armTimeout reports whether a new action's timeout needs the job's
// coord-timeout trigger: only when its deadline comes before its first
// input check. From then on every check of a waiting action is booked no
// later than its deadline (nextCheck), so the check itself times it out
// on time, and a timeout trigger would fire to find nothing to do.
func armTimeout(deadline, firstCheck time.Time) bool { return deadline.Before(firstCheck) }

// writeNewWork writes what the pass collected, with multi-row statements.
func (r *Runner) writeNewWork(ctx context.Context, x store.Tx, w *newWork, now time.Time) error {
	if err := x.InsertCoordActions(ctx, w.actions); err != nil {
		return err
	}
	for range w.jobs {
		r.hook(hookMaterialized)
	}
	for i := range w.slas {
		if err := sla.Insert(ctx, x, &w.slas[i]); err != nil {
			return err
		}
	}
	if err := x.SetCoordWaitsMany(ctx, w.waits); err != nil {
		return err
	}
	start, err := mayStartMany(ctx, x, w.ready)
	if err != nil {
		return err
	}
	for _, id := range start {
		w.schedule(KindStart, id, now)
	}
	return x.ScheduleTriggers(ctx, w.schedules)
}

// checkAtOnce runs the first input check of a new action whose nominal
// time has come, inside the materialization, when that needs no
// filesystem call: the action depends on no dataset, or every dependency
// it has was found to exist just before the transaction (exists, see
// lookAhead). The action is then stored READY (or SKIPPED by
// LAST_ONLY/NONE) without ever waiting for a check of its own. That is what
// the check would decide a moment later; such actions cost one trigger and
// two transactions less each. A READY action stays queued, so catching up
// is still held by the throttle. It returns false when the check must run
// as usual: an
// <input-logic> job, a dependency not known to exist, a coord:latest or
// coord:future instance still to resolve.
func (r *Runner) checkAtOnce(def *coordinator.Job, job store.CoordJob, jobConf *conf.Properties, a store.CoordAction,
	now time.Time, exists map[string]bool) (store.CoordAction, bool) {
	if def.InputLogic != nil || a.NominalTime.After(now) {
		return a, false
	}
	if a.MissingDependencies != "" && !allKnown(a.MissingDependencies, exists) {
		return a, false
	}
	res := coordinator.CheckInputs(coordinator.InputCheckRequest{Job: def, JobID: job.ID, Row: job, Action: a,
		RunConf: jobConf, Timeout: a.Timeout, Exists: knownOnly(exists), Now: now, Settings: r.set})
	switch res.Status {
	case store.CoordActionReady, store.CoordActionSkipped:
		a.Status, a.ActionXML, a.MissingDependencies = res.Status, res.ActionXML, res.MissingDependencies
		return a, true
	}
	return a, false
}

// allKnown reports whether a missing-dependency string has no unresolved
// part and every dependency in it is known to exist.
func allKnown(missing string, exists map[string]bool) bool {
	if strings.Contains(missing, unresolvedSeparator) {
		return false
	}
	deps := resolvedDependencies(missing)
	for _, u := range deps {
		if !exists[u] {
			return false
		}
	}
	return len(deps) > 0
}

// knownOnly is the existence check of checkAtOnce: it answers from what
// lookAhead found, and never calls the filesystem.
func knownOnly(exists map[string]bool) coordinator.ExistsFunc {
	return func(uri string) (bool, error) {
		if exists[uri] {
			return true, nil
		}
		return false, fmt.Errorf("checking %s needs the filesystem", uri)
	}
}

// lookahead is what a materialization pass decides before its
// transaction, so that the jobs' locks (and on SQLite the one connection)
// are held for the writes only: each job's materialization, decided on its
// row as read then, with its new actions checked at once where possible,
// and which of those actions' dependencies exist, looked up on the
// filesystem (never inside the transaction). Under the lock, a job whose
// row is unchanged (same version, same number of queued actions) is
// materialized as planned; any other is decided again there.
type lookahead struct {
	plans  map[string]plan
	exists map[string]map[string]bool // by job user: what that user sees
}

// plan is one job's materialization decided by decide.
type plan struct {
	job    store.CoordJob // the row it was decided on
	queued int
	res    coordinator.MaterializeResult
	err    error
	rows   []store.CoordAction // res.Actions' rows, checked at once where possible
}

// plan returns the job's plan if it still holds.
func (la *lookahead) plan(job store.CoordJob, queued int) (plan, bool) {
	if la == nil {
		return plan{}, false
	}
	p, ok := la.plans[job.ID]
	return p, ok && p.job.Version == job.Version && p.queued == queued
}

// jobs returns the rows the plans were decided on, by job id.
func (la *lookahead) jobs() map[string]*store.CoordJob {
	if la == nil {
		return nil
	}
	out := make(map[string]*store.CoordJob, len(la.plans))
	for id, p := range la.plans {
		out[id] = &p.job
	}
	return out
}

// existing returns the dependencies found to exist, as user sees them.
func (la *lookahead) existing(user string) map[string]bool {
	if la == nil {
		return nil
	}
	return la.exists[user]
}

// lookAhead reads the jobs of runs and their queued counts without
// locking them, materializes them (writing nothing), checks the
// dependencies of the new actions whose nominal time has come, all at once
// within the engine's bound on filesystem calls, and then decides which of
// those actions are READY at once. It is best effort: on an error it
// returns what it has, and the transaction decides on its own.
func (r *Runner) lookAhead(ctx context.Context, runs []*engine.Claim, now time.Time) *lookahead {
	la := &lookahead{plans: map[string]plan{}}
	ids := make([]string, len(runs))
	for i, run := range runs {
		ids[i] = run.Trigger.EntityID
	}
	var jobs []store.CoordJob
	var queued map[string]int
	err := r.cfg.Store.Tx(ctx, func(x store.Tx) error {
		all, err := r.rows.jobs(ctx, x, ids)
		if err != nil {
			return err
		}
		jobs = jobs[:0]
		var todo []string
		for _, job := range all {
			if materializable(job.Status) && !job.DoneMaterialization {
				jobs = append(jobs, job)
				todo = append(todo, job.ID)
			}
		}
		if len(todo) == 0 {
			return nil
		}
		queued, err = x.CountCoordActionsByJob(ctx, todo, coordinator.QueuedStatuses)
		return err
	})
	if err != nil || len(jobs) == 0 {
		return la
	}
	type decided struct {
		job     store.CoordJob
		def     *coordinator.Job
		jobConf *conf.Properties
		res     coordinator.MaterializeResult
		err     error
	}
	var ds []decided
	uris := map[string][]string{} // by job user: each job's dependencies are looked up as its user
	seen := map[[2]string]bool{}
	for _, job := range jobs {
		def, jobConf, err := r.definition(&job)
		if err != nil {
			continue // the transaction fails the job
		}
		res, err := coordinator.Materialize(coordinator.MaterializeRequest{Job: def, JobID: job.ID, Row: job,
			Queued: queued[job.ID], Now: now, Settings: r.set})
		ds = append(ds, decided{job, def, jobConf, res, err})
		if def.InputLogic != nil {
			continue
		}
		for _, na := range res.Actions {
			if na.Row.NominalTime.After(now) || strings.Contains(na.Row.MissingDependencies, unresolvedSeparator) {
				continue
			}
			for _, u := range resolvedDependencies(na.Row.MissingDependencies) {
				if k := [2]string{job.User, u}; !seen[k] {
					seen[k] = true
					uris[job.User] = append(uris[job.User], u)
				}
			}
		}
	}
	la.exists = make(map[string]map[string]bool, len(uris))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for user, us := range uris {
		wg.Go(func() {
			found := r.prefetch(hadoop.AsUser(ctx, user), us).available()
			mu.Lock()
			la.exists[user] = found
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, d := range ds {
		la.plans[d.job.ID] = r.planOf(d.def, d.jobConf, d.job, queued[d.job.ID], now, la.exists[d.job.User], d.res, d.err)
	}
	return la
}

// failJob marks a job FAILED after a materialization error, keeping no
// action of the failed pass, with the error's code (E1012 when it has none)
// and message on the job. Its earlier actions go on; their roll-up then
// applies Oozie's rules for a FAILED job.
func (r *Runner) failJob(ctx context.Context, x store.Tx, job store.CoordJob, cause error) error {
	r.log.Error("coordinator materialization failed; the job fails", "coord_job_id", job.ID, "err", cause)
	code, msg := errorFields(cause, oozieerr.E1012)
	return r.failJobWith(ctx, x, job, code, msg)
}

// failJobWith marks a job FAILED with an error code and message: it
// materializes nothing more, and its actions go on.
func (r *Runner) failJobWith(ctx context.Context, x store.Tx, job store.CoordJob, code, msg string) error {
	before := job.Status
	job.Status = store.JobFailed
	job.ErrorCode, job.ErrorMessage = code, rowMessage(msg)
	job.LastModified = r.now()
	if err := x.UpdateCoordJob(ctx, &job, before); err != nil {
		return err
	}
	return r.jobChanged(ctx, x, before, job)
}
