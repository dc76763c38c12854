package coordrun

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// updateAction writes an action whose status moved from `from`, guarded by
// its version and that status, and schedules in the same transaction the
// work the move makes due (see moves.add). The caller holds the job's lock.
func (r *Runner) updateAction(ctx context.Context, x store.Tx, job *store.CoordJob, from store.CoordActionStatus, a *store.CoordAction) error {
	if err := x.UpdateCoordAction(ctx, a, from); err != nil {
		return err
	}
	ms := r.newMoves()
	ms.add(job, from, a.Status, a.ID, move{hadWaits: true})
	return ms.flush(ctx, x)
}

// move says what an action leaving WAITING leaves behind.
type move struct {
	// hadWaits: the action may have URIs in the waits index.
	hadWaits bool
	// byCheck: the action's own input check moves it, and its trigger goes
	// with the check's release.
	byCheck bool
}

// moves gathers the follow-ups of several actions' moves and writes them
// together (flush): a statement or two for a whole batch of input checks
// instead of a few for each action. The caller holds the locks of the
// jobs of every move until the flush.
type moves struct {
	r         *Runner
	waits     map[string][]string        // actions whose waits go
	checks    []string                   // actions whose input checks go
	leftQueue map[string]*store.CoordJob // jobs whose throttle may have held materialization
	maybe     map[string]*store.CoordJob // jobs whose ready/start step is due if mayStartMany says so
	freed     map[string]bool            // jobs whose ready/start step is due if they have READY actions
	start     map[string]bool            // jobs whose ready/start step is due
	status    map[string]bool            // jobs whose roll-up is due
}

func (r *Runner) newMoves() *moves {
	return &moves{r: r, waits: map[string][]string{}, leftQueue: map[string]*store.CoordJob{},
		maybe: map[string]*store.CoordJob{}, freed: map[string]bool{}, start: map[string]bool{}, status: map[string]bool{}}
}

// add records what an action's move from one status to another makes due:
//   - leaving WAITING: its waits and input check go;
//   - leaving the queue (WAITING or READY, see coordinator.Queued) for a
//     status out of it: materialization may continue if the throttle held it;
//   - leaving WAITING (an action about to be READY holds its place in the
//     execution order, see withImminent) or becoming READY while a slot may
//     be free (mayStartMany), or freeing a concurrency slot while the job
//     has READY actions (withReady): the ready/start step, unless the job is
//     KILLED or FAILED (it starts nothing);
//   - any move that the job's status depends on: the roll-up (not a move
//     between live statuses, coordinator.RollupUnchangedBy, nor one to
//     READY or SUBMITTED).
func (ms *moves) add(job *store.CoordJob, from, to store.CoordActionStatus, actionID string, m move) {
	if from == to {
		return
	}
	if from == store.CoordActionWaiting {
		if m.hadWaits {
			ms.waits[actionID] = nil
		}
		if !m.byCheck {
			ms.checks = append(ms.checks, actionID)
		}
	}
	if coordinator.Queued(from) && !coordinator.Queued(to) {
		ms.leftQueue[job.ID] = job
	}
	freed := occupiesSlot(from) && !occupiesSlot(to)
	stopped := job.Status == store.JobKilled || job.Status == store.JobFailed // starts nothing (StartReady)
	switch {
	case stopped:
	case freed:
		ms.freed[job.ID] = true
	case from == store.CoordActionWaiting || to == store.CoordActionReady:
		ms.maybe[job.ID] = job
	}
	if to != store.CoordActionReady && to != store.CoordActionSubmitted && !coordinator.RollupUnchangedBy(from, to) {
		ms.status[job.ID] = true
	}
}

// flush writes the follow-ups gathered, after the moves themselves.
func (ms *moves) flush(ctx context.Context, x store.Tx) error {
	if err := x.SetCoordWaitsMany(ctx, ms.waits); err != nil {
		return err
	}
	for _, id := range ms.checks {
		if err := x.Unschedule(ctx, KindInputCheck, id); err != nil {
			return err
		}
	}
	for _, id := range slices.Sorted(maps.Keys(ms.leftQueue)) {
		if err := ms.r.wakeThrottled(ctx, x, ms.leftQueue[id]); err != nil {
			return err
		}
	}
	var maybe []store.CoordJob
	for _, id := range slices.Sorted(maps.Keys(ms.maybe)) {
		if !ms.start[id] {
			maybe = append(maybe, *ms.maybe[id])
		}
	}
	start, err := mayStartMany(ctx, x, maybe)
	if err != nil {
		return err
	}
	for _, id := range start {
		ms.start[id] = true
	}
	var freed []string
	for _, id := range slices.Sorted(maps.Keys(ms.freed)) {
		if !ms.start[id] {
			freed = append(freed, id)
		}
	}
	if start, err = withReady(ctx, x, freed); err != nil {
		return err
	}
	for _, id := range start {
		ms.start[id] = true
	}
	now := ms.r.now()
	var rs []store.ScheduleRequest
	for _, id := range slices.Sorted(maps.Keys(ms.start)) {
		rs = append(rs, store.ScheduleRequest{Kind: KindStart, EntityID: id, Due: now})
	}
	for _, id := range slices.Sorted(maps.Keys(ms.status)) {
		rs = append(rs, store.ScheduleRequest{Kind: KindStatus, EntityID: id, Due: now})
	}
	return x.ScheduleTriggers(ctx, rs)
}

// mayStartMany reports which of the jobs' ready/start steps could start or
// skip something now: not that of a FIFO or LIFO job whose concurrency
// slots are all taken, since the step then does nothing and the slot's
// release schedules it again (as do a concurrency change, a resume and an
// unpause). A job that queues many READY actions behind a running one so
// costs no step per action. The jobs' active actions are counted with one
// statement. The caller holds the jobs' locks.
func mayStartMany(ctx context.Context, x store.Tx, jobs []store.CoordJob) ([]string, error) {
	var start, count []string
	counted := map[string]bool{}
	for _, job := range jobs {
		exec := coordinator.Execution(job.ExecutionOrder)
		if job.Concurrency < 0 || (exec != coordinator.FIFO && exec != coordinator.LIFO && exec != "") {
			start = append(start, job.ID)
		} else {
			count = append(count, job.ID)
			counted[job.ID] = true
		}
	}
	if len(count) == 0 {
		return start, nil
	}
	active, err := x.CountCoordActionsByJob(ctx, count, []store.CoordActionStatus{store.CoordActionSubmitted,
		store.CoordActionRunning})
	if err != nil {
		return nil, err
	}
	for _, job := range jobs {
		if counted[job.ID] && active[job.ID] < job.Concurrency {
			start = append(start, job.ID)
		}
	}
	return start, nil
}

// withReady returns the jobs among ids that have READY actions: a freed
// concurrency slot makes the ready/start step due only for those, since the
// step starts or skips only READY actions (an action that becomes READY later
// makes it due then, see add). One statement counts them all. The caller
// holds the jobs' locks.
func withReady(ctx context.Context, x store.Tx, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ready, err := x.CountCoordActionsByJob(ctx, ids, []store.CoordActionStatus{store.CoordActionReady})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		if ready[id] > 0 {
			out = append(out, id)
		}
	}
	return out, nil
}

// wakeThrottled schedules the materialization of a job that its throttle
// held back. Such a job has no materialization trigger (see
// handleMaterialize); since the materialization and this caller both hold
// the job's lock, the check cannot miss one being dropped.
func (r *Runner) wakeThrottled(ctx context.Context, x store.Tx, job *store.CoordJob) error {
	if job.DoneMaterialization || !materializable(job.Status) {
		return nil
	}
	_, err := x.GetTrigger(ctx, KindMaterialize, job.ID)
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return x.Schedule(ctx, KindMaterialize, job.ID, r.now(), "")
}

// scheduleStatus makes the job's roll-up due now.
func (r *Runner) scheduleStatus(ctx context.Context, x store.Tx, jobID string) error {
	return x.Schedule(ctx, KindStatus, jobID, r.now(), "")
}

// scheduleTimeout makes the job's timeout check due at the earliest
// deadline of the given waiting actions.
func scheduleTimeout(ctx context.Context, x store.Tx, jobID string, actions []store.CoordAction) error {
	var first time.Time
	for _, a := range actions {
		if d, ok := timeoutDeadline(a); ok && (first.IsZero() || d.Before(first)) {
			first = d
		}
	}
	if first.IsZero() {
		return nil
	}
	return x.Schedule(ctx, KindTimeout, jobID, first, "")
}
