package coordrun

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/store"
)

// machineWorld is a coordinator job and its actions as the pure decisions
// see them, with the status of each action's workflow.
type machineWorld struct {
	t       *testing.T
	r       *rand.Rand
	job     store.CoordJob
	actions []store.CoordAction
	wf      []store.WorkflowStatus
	now     time.Time
	hide    bool
}

// moveJob records a decision's new job status, checking it against
// store.CoordJobMachine.
func (w *machineWorld) moveJob(what string, next store.JobStatus) {
	w.t.Helper()
	if !store.CoordJobMachine.Allows(w.job.Status, next) {
		w.t.Errorf("%s moved the coordinator job %s -> %s, not in store.CoordJobMachine", what, w.job.Status, next)
	}
	w.job.Status = next
}

// moveAction records a decision's new action status, checking it against
// store.CoordActionMachine.
func (w *machineWorld) moveAction(what string, i int, next store.CoordActionStatus) {
	w.t.Helper()
	if !store.CoordActionMachine.Allows(w.actions[i].Status, next) {
		w.t.Errorf("%s moved action %d %s -> %s, not in store.CoordActionMachine", what, i, w.actions[i].Status, next)
	}
	w.actions[i].Status = next
}

// statuses lists the actions' statuses.
func (w *machineWorld) statuses() []store.CoordActionStatus {
	out := make([]store.CoordActionStatus, len(w.actions))
	for i, a := range w.actions {
		out[i] = a.Status
	}
	return out
}

// step applies one random event through the decision it goes to.
func (w *machineWorld) step() {
	r := w.r
	i := r.IntN(len(w.actions))
	switch k := r.IntN(12); k {
	case 0:
		if next, ok := w.job.Status.OnSuspend(); ok {
			w.moveJob("suspend", hide(next, w.hide))
		}
	case 1:
		if next, ok := w.job.Status.OnResume(); ok {
			w.moveJob("resume", hide(next, w.hide))
		}
	case 2:
		w.job.PauseTime = []time.Time{{}, w.now.Add(-time.Hour), w.now.Add(time.Hour)}[r.IntN(3)]
	case 3, 4:
		next := rollup(w.job, w.statuses(), r.IntN(2) == 0, w.now, w.hide)
		w.moveJob("the roll-up", next.Status)
	case 5:
		if w.job.Status == store.JobPrep || w.job.Status == store.JobIgnored {
			return // rerunSelection refuses
		}
		for j, a := range w.actions {
			if rerunnable(a.Status) && r.IntN(2) == 0 {
				w.moveAction("rerun", j, store.CoordActionWaiting)
			}
		}
		w.moveJob("rerun", hide(rerunStatus(w.job.Status), w.hide))
	case 6:
		if ignorable(w.actions[i].Status) {
			w.moveAction("ignore", i, store.CoordActionIgnored)
		}
	case 7:
		w.change()
	case 8, 9:
		w.wf[i] = store.WorkflowStatuses[r.IntN(len(store.WorkflowStatuses))]
		if next, ok := actionStatusForWorkflow(w.actions[i].Status, w.wf[i]); ok {
			w.moveAction("the workflow's status", i, next)
		}
	default:
		// What the effectful code does (input checks, starts, kills) moves
		// actions along the table; it drives the decisions above.
		if tos := store.CoordActionMachine.Moves[w.actions[i].Status]; len(tos) > 0 {
			w.actions[i].Status = tos[r.IntN(len(tos))]
		}
		w.job.DoneMaterialization = r.IntN(2) == 0
	}
}

// change applies a random change command through coordinator.ApplyChange.
func (w *machineWorld) change() {
	r := w.r
	var c coordinator.Change
	switch r.IntN(4) {
	case 0:
		c.Status = store.JobRunning
	case 1:
		c.Status = store.JobIgnored
	case 2:
		c.HasEndTime, c.EndTime = true, w.job.StartTime.Add(time.Duration(r.IntN(5)-1)*time.Hour)
	default:
		c.HasPauseTime = true
		if r.IntN(2) == 0 {
			c.PauseTime = w.now.Add(2 * time.Hour)
		}
	}
	res, err := coordinator.ApplyChange(w.job, r.IntN(3) == 0, nil, c, w.hide)
	if err != nil {
		return // refused
	}
	w.moveJob("change", res.Job.Status)
	w.job = res.Job
}

// TestDecisionsMoveAlongTheTables drives the coordinator's pure decisions
// (suspend, resume, pause, roll-up, rerun, ignore, change, following a
// workflow) with random events and checks that every status change they
// make to the job or an action is a move of store.CoordJobMachine or
// store.CoordActionMachine.
func TestDecisionsMoveAlongTheTables(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		w := &machineWorld{t: t, r: r, now: start.Add(3 * time.Hour), hide: r.IntN(2) == 0,
			job: store.CoordJob{ID: "0000001-250101000000000-gozie-C", Status: store.JobPrep, StartTime: start,
				EndTime: start.Add(24 * time.Hour)}}
		for n := 1 + r.IntN(4); n > 0; n-- {
			w.actions = append(w.actions, store.CoordAction{ActionNumber: len(w.actions) + 1, Status: store.CoordActionWaiting,
				ExternalID: "wf"})
			w.wf = append(w.wf, store.WorkflowPrep)
		}
		for i := 0; i < 100; i++ {
			w.step()
		}
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}
