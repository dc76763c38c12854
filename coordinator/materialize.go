package coordinator

import (
	"strings"
	"time"

	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// MaterializeRequest is one materialization pass over a coordinator job.
type MaterializeRequest struct {
	// Job is the resolved definition (LoadJob of the row's Definition).
	Job *Job
	// JobID is the coordinator job id, for action ids.
	JobID string
	// Row is the job's current state: status, start, end, pause, last action number and
	// time, next materialized time, done flag, throttle, timeout, execution and conf.
	Row store.CoordJob
	// Queued is the number of the job's actions materialized and not yet running, WAITING or
	// READY: the throttle counts them (see Queued).
	Queued int
	// Now is the current time.
	Now time.Time
	// Settings are the server defaults (window, look-ahead, batch size, SLA horizon).
	Settings Settings
}

// QueuedStatuses are the statuses Queued holds for, in the order a count lists them.
var QueuedStatuses = []store.CoordActionStatus{store.CoordActionWaiting, store.CoordActionReady}

// Queued reports whether an action in status s counts against its job's throttle: it is
// materialized and not yet running, WAITING for its inputs or READY for a concurrency slot.
// Oozie's throttle counts WAITING actions only, so a job whose inputs are all there (or
// that has none) catches up without limit and piles up READY actions behind its
// concurrency; counting both keeps every job to at most throttle actions ahead of its
// running ones, however far back it starts.
func Queued(s store.CoordActionStatus) bool {
	return s == store.CoordActionWaiting || s == store.CoordActionReady
}

// NewAction is an action created by Materialize, ready to be inserted.
type NewAction struct {
	// Row is the action row: id, job id, number, WAITING (or SKIPPED, see Materialize),
	// nominal and creation times, the action XML, the missing dependencies and the
	// configuration.
	Row store.CoordAction
	// Timeout is the action timeout in minutes, copied from the job.
	Timeout int
	// SLA is the SLA registration of the action, nil without sla:info.
	SLA *store.SLA
	// CheckAt is when the first input check is due: the nominal time, or now if that passed.
	CheckAt time.Time
	// Doc is the materialized action (events, SLA values) the XML was rendered from.
	Doc *ActionDoc
}

// MaterializeResult is the outcome of Materialize.
type MaterializeResult struct {
	// Actions are the new actions, in action-number order.
	Actions []NewAction
	// Job is the updated job row (last action number and time, next materialized time, done
	// flag, PREP → RUNNING); equal to the request's row when nothing ran.
	Job store.CoordJob
	// Ran reports whether materialization ran; Reason says why not.
	Ran    bool
	Reason string
	// Throttled is set when the throttle stopped materialization early; the job can continue
	// once one of its queued actions (WAITING or READY) leaves that state.
	Throttled bool
	// NextAt is the earliest time another pass can create actions (the next materialized time
	// minus the look-ahead), zero when materialization is done.
	NextAt time.Time
}

// Materialize creates the job's next actions, as Oozie's materialization command does for
// one window:
//
//   - preconditions: status PREP, RUNNING or RUNNINGWITHERROR, not done, the next
//     materialization (or the start) within the look-ahead of now, before the end and before
//     the pause time; otherwise nothing happens and Reason says why;
//   - the window runs from the next materialized time (or the start) for Settings.Window,
//     extended to catch up when it lies in the past: to now for LAST_ONLY/NONE, to the end for
//     cron, else up to throttle frequencies ahead; it never passes the end (exclusive);
//   - the throttle holds every catch-up: at most throttle − Queued actions are created to
//     wait (see Queued), so that a backfill advances as its actions start; an action that
//     LAST_ONLY or NONE would skip as soon as it is checked (its window has passed, see
//     skipReason) is created SKIPPED instead, outside the throttle, at most the batch size
//     of them per pass; nominal times are start + k×frequency in the job zone
//     (start moved to the end of its day, week or month for endOf* frequencies), or cron fire
//     times in the processing zone with Oozie's daylight-saving correction for gaps of a day or
//     more; no action at or after the pause time;
//   - each action gets its events resolved, missing dependencies, SLA registration and
//     action XML.
//
// An error means the job must become FAILED and no action is kept; the returned row already
// says so.
func Materialize(req MaterializeRequest) (MaterializeResult, error) {
	m := materializer{req: req, s: req.Settings.WithDefaults(), row: req.Row}
	return m.run(false)
}

// DryRun lists the actions a new job would materialize first: nominal times from the start
// over one window (capped at the end), with their resolved URIs, without look-ahead,
// catch-up or skips (Oozie's -dryrun). Queued actions do not exist yet, so the throttle is
// the limit.
func DryRun(job *Job, jobID string, now time.Time, s Settings) ([]NewAction, error) {
	row := job.Row()
	row.ID = jobID
	m := materializer{req: MaterializeRequest{Job: job, JobID: jobID, Row: row, Now: now, Settings: s},
		s: s.WithDefaults(), row: row}
	res, err := m.run(true)
	return res.Actions, err
}

// FormatDryRun renders a dry run as Oozie's -dryrun prints it: the job definition, then
// "***actions for instance***" and, for each action, "action for new instance" followed by
// the action XML. When materializing the first window fails (matErr, from DryRun), the
// submission is still accepted, as Oozie's is, and its first materialization fails the
// job: the text says so in place of the actions.
func FormatDryRun(job *Job, actions []NewAction, matErr error) string {
	var b strings.Builder
	b.WriteString(job.DefinitionXML())
	b.WriteString("\n***actions for instance***")
	if matErr != nil {
		b.WriteString("\nthe first materialization would fail the job: ")
		b.WriteString(matErr.Error())
		b.WriteString("\n")
		return b.String()
	}
	for _, a := range actions {
		b.WriteString("action for new instance")
		b.WriteString(a.Row.ActionXML)
	}
	return b.String()
}

// materializer carries one materialization.
type materializer struct {
	req  MaterializeRequest
	s    Settings
	row  store.CoordJob
	from time.Time // window start
	to   time.Time // window end (exclusive)
}

// run checks the preconditions (unless dryRun) and materializes the window.
func (m *materializer) run(dryRun bool) (MaterializeResult, error) {
	res := MaterializeResult{Job: m.row}
	m.from = m.row.NextMaterializedTime
	if m.from.IsZero() {
		m.from = m.row.StartTime
	}
	if dryRun {
		m.to = minTime(m.from.Add(m.s.Window), m.row.EndTime)
	} else {
		m.to = minTime(m.catchUp(m.from.Add(m.s.Window)), m.row.EndTime)
		if reason := m.precondition(); reason != "" {
			res.Reason = reason
			res.NextAt = m.nextAt(m.row)
			return res, nil
		}
	}
	actions, next, throttled, err := m.create(dryRun)
	if err != nil {
		failed := m.row
		failed.Status = store.JobFailed
		return MaterializeResult{Job: failed, Ran: true, Reason: err.Error()}, err
	}
	if next.After(store.MaxTime) {
		next = m.row.EndTime // the next time is past every date the store holds: the job is done
	}
	job := m.row
	job.LastActionNumber += len(actions)
	job.LastActionTime = next
	job.NextMaterializedTime = next
	if job.Status == store.JobPrep {
		job.Status = store.JobRunning
	}
	if !job.EndTime.After(next) {
		job.DoneMaterialization = true
	}
	job.LastModified = m.req.Now
	return MaterializeResult{Actions: actions, Job: job, Ran: true, Throttled: throttled, NextAt: m.nextAt(job)}, nil
}

// nextAt returns when another pass can create actions.
func (m *materializer) nextAt(job store.CoordJob) time.Time {
	if job.DoneMaterialization || (!job.NextMaterializedTime.IsZero() && !job.NextMaterializedTime.Before(job.EndTime)) {
		return time.Time{}
	}
	next := job.NextMaterializedTime
	if next.IsZero() {
		next = job.StartTime
	}
	at := next.Add(-m.s.LookupInterval)
	if at.Before(m.req.Now) {
		return m.req.Now
	}
	return at
}

// precondition returns why the job must not be materialized now, or "".
func (m *materializer) precondition() string {
	r, now := m.row, m.req.Now
	horizon := now.Add(m.s.LookupInterval)
	switch {
	case r.Status != store.JobPrep && r.Status != store.JobRunning && r.Status != store.JobRunningWithError:
		return "job is not in PREP or RUNNING but in " + string(r.Status)
	case r.DoneMaterialization:
		return "job is already materialized"
	case !r.NextMaterializedTime.IsZero() && !r.NextMaterializedTime.Before(r.EndTime):
		return "job is already materialized up to its end time"
	case r.NextMaterializedTime.IsZero() && r.StartTime.After(horizon):
		return "job's start time is not reached yet - nothing to materialize"
	case !r.NextMaterializedTime.IsZero() && r.NextMaterializedTime.After(horizon):
		return "request is for future time: next materialization is beyond the look-ahead"
	case !r.LastActionTime.IsZero() && !r.LastActionTime.Before(r.EndTime):
		return "all actions have been materialized up to the end time"
	case !r.LastActionTime.IsZero() && !r.LastActionTime.Before(m.to):
		return "actions are already materialized for this window"
	case !r.PauseTime.IsZero() && !m.from.Before(r.PauseTime):
		return "materialization start time is at or after the pause time"
	}
	return ""
}

// catchUp extends a window end that lies in the past, as Oozie does for jobs behind.
func (m *materializer) catchUp(end time.Time) time.Time {
	now := m.req.Now
	if end.After(now) {
		return end
	}
	exec := Execution(m.row.ExecutionOrder)
	if exec == LastOnly || exec == None {
		return now
	}
	f := m.req.Job.Frequency
	if f.Unit == oozietime.Cron {
		return m.row.EndTime
	}
	loc := m.req.Job.Location
	prev, last := m.from, time.Time{}
	for i := 1; i <= m.row.Throttle; i++ {
		last = oozietime.AddUnits(m.from, f.Unit, i*f.N, loc)
		if !last.Before(now) {
			if prev.After(end) {
				return prev
			}
			return end
		}
		prev = last
	}
	if last.IsZero() {
		return end
	}
	return last
}

// budget is what one pass may create: actions that will wait, counted by the throttle, and
// actions created SKIPPED, counted by the batch size.
type budget struct {
	queued  int // throttle − Queued; none when ≤ 0
	skipped int // the batch size; negative is unlimited
	// throttled says that the throttle stopped the pass.
	throttled bool
}

// newBudget returns the budget of a pass.
func (m *materializer) newBudget(dryRun bool) *budget {
	queued := m.req.Queued
	if dryRun {
		queued = 0
	}
	return &budget{queued: m.row.Throttle - queued, skipped: m.s.ActionBatchSize}
}

// take spends one action of the budget, a skipped one or one that waits, and reports
// whether there was one to spend.
func (b *budget) take(skipped bool) bool {
	switch {
	case skipped && b.skipped == 0:
		return false // the next pass goes on at once (NextAt is now)
	case skipped:
		if b.skipped > 0 {
			b.skipped--
		}
		return true
	case b.queued <= 0:
		b.throttled = true
		return false
	}
	b.queued--
	return true
}

// skips reports whether action number k at a nominal time is created SKIPPED: LAST_ONLY or
// NONE would skip it at its first check (skipReason), which a dry run never runs.
func (m *materializer) skips(dryRun bool, k int, nominal time.Time) bool {
	exec := Execution(m.row.ExecutionOrder)
	if dryRun || (exec != LastOnly && exec != None) {
		return false
	}
	a := store.CoordAction{ActionNumber: k, NominalTime: nominal}
	return skipReason(m.req.Job, m.row, a, m.req.Now, m.s) != ""
}

// create walks the nominal times of the window and builds the actions. It returns the next
// materialized time (the nominal time of the first action not created, or the next cron fire
// time) and whether the throttle stopped it.
func (m *materializer) create(dryRun bool) ([]NewAction, time.Time, bool, error) {
	job, r := m.req.Job, m.row
	b := m.newBudget(dryRun)
	number := r.LastActionNumber
	var actions []NewAction
	add := func(nominal time.Time, skipped bool) error {
		number++
		a, err := m.action(number, nominal)
		if err != nil {
			return err
		}
		if skipped {
			a.Row.Status = store.CoordActionSkipped
		}
		actions = append(actions, a)
		return nil
	}
	paused := func(t time.Time) bool { return !r.PauseTime.IsZero() && !t.Before(r.PauseTime) }

	if job.Frequency.Unit != oozietime.Cron {
		eff := job.nominalTime(r.StartTime, number+1)
		for eff.Before(m.to) && !paused(eff) {
			skipped := m.skips(dryRun, number+1, eff)
			if !b.take(skipped) {
				break
			}
			if err := add(eff, skipped); err != nil {
				return nil, time.Time{}, false, err
			}
			eff = job.nominalTime(r.StartTime, number+1)
		}
		return actions, eff, b.throttled, nil
	}

	loc := job.Format.Location()
	eff := oozietime.MoveToEnd(m.from, job.Frequency.EndOf, job.Location)
	first := true
	for eff.Before(m.to) && !paused(eff) {
		from := eff
		if first && from.Equal(m.from) {
			from = from.Add(-time.Minute)
		}
		next, ok := job.Frequency.Cron.Next(from, loc)
		if !ok {
			eff = r.EndTime
			break
		}
		nominal := next
		if next.Sub(from) >= 24*time.Hour {
			nominal = next.Add(oozietime.DSTOffset(job.Location, r.StartTime, next))
		}
		if !next.Before(m.to) || paused(next) {
			eff = next
			break
		}
		skipped := m.skips(dryRun, number+1, nominal)
		if !b.take(skipped) {
			if !first {
				eff = next // the first fire time not created
			}
			break
		}
		first = false
		eff = next
		if err := add(nominal, skipped); err != nil {
			return nil, time.Time{}, false, err
		}
	}
	return actions, eff, b.throttled, nil
}

// action materializes action number k at a nominal time.
func (m *materializer) action(k int, nominal time.Time) (NewAction, error) {
	job, now := m.req.Job, m.req.Now
	ctx := job.actionContextFor(m.req.JobID, k, nominal, now)
	ins, outs, err := job.resolveEvents(ctx, m.s.MaxInstances)
	if err != nil {
		return NewAction{}, err
	}
	sla, err := job.evaluateSLA(ctx, outs)
	if err != nil {
		return NewAction{}, err
	}
	reg, err := job.slaRegistration(sla, m.req.JobID, ctx.ID, k, now, m.s)
	if err != nil {
		return NewAction{}, err
	}
	if reg != nil {
		reg.BundleID = m.req.Row.BundleID
	}
	doc := &ActionDoc{Job: job, Number: k, NominalTime: nominal, ActualTime: now, DataIns: ins, DataOuts: outs, SLA: sla}
	row := store.CoordAction{
		ID:                  ctx.ID,
		JobID:               m.req.JobID,
		ActionNumber:        k,
		Status:              store.CoordActionWaiting,
		NominalTime:         nominal,
		ActionXML:           doc.XML(),
		MissingDependencies: pullDependencies(ins),
		CreatedConf:         m.row.Conf,
		RunConf:             m.row.Conf,
		CreatedTime:         now,
		LastModified:        now,
	}
	checkAt := nominal
	if checkAt.Before(now) {
		checkAt = now
	}
	return NewAction{Row: row, Timeout: m.row.Timeout, SLA: reg, CheckAt: checkAt, Doc: doc}, nil
}

// minTime returns the earlier of two times.
func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
