package workflow

import (
	"math/rand/v2"
	"testing"

	"github.com/gozie/gozie/store"
)

// checkMoves checks a step against the state machines of store: the job's
// new status is a move of store.WorkflowMachine, every created row starts
// in an initial status and every updated row moves along
// store.ActionMachine.
func checkMoves(t *testing.T, s *sim, ev Event, st Step) {
	t.Helper()
	if st.Job != nil && !store.WorkflowMachine.Allows(s.job.Status, st.Job.Status) {
		t.Errorf("%s moved the job %s -> %s, not in store.WorkflowMachine", ev.Kind, s.job.Status, st.Job.Status)
	}
	for _, a := range st.Create {
		if !store.ActionMachine.Creates(a.Status) {
			t.Errorf("%s created action %s in %s, not a status store.ActionMachine creates", ev.Kind, a.Name, a.Status)
		}
	}
	for _, a := range st.Update {
		if from := s.rows[a.ID].Status; !store.ActionMachine.Allows(from, a.Status) {
			t.Errorf("%s moved action %s %s -> %s, not in store.ActionMachine", ev.Kind, a.Name, from, a.Status)
		}
	}
}

// runnerMove does to a startable action what the runner does when it
// launches it: RUNNING, or START_RETRY or START_MANUAL for a failed launch.
func runnerMove(t *testing.T, s *sim, r *rand.Rand) {
	t.Helper()
	var startable []string
	for _, id := range s.order {
		if a := s.rows[id]; !isControlType(a.Type) && a.Status.Startable() {
			startable = append(startable, id)
		}
	}
	if len(startable) == 0 {
		return
	}
	a := s.rows[startable[r.IntN(len(startable))]]
	to := []store.ActionStatus{store.ActionRunning, store.ActionRunning, store.ActionStartRetry, store.ActionStartManual}[r.IntN(4)]
	if !store.ActionMachine.Allows(a.Status, to) {
		t.Errorf("the runner moves action %s %s -> %s, not in store.ActionMachine", a.Name, a.Status, to)
	}
	a.Status = to
	a.Version++
	s.rows[a.ID] = a
}

// randomEvent picks an event for the job, whatever its state: events that
// do not apply must be ignored or refused, never make an illegal move.
func randomEvent(s *sim, r *rand.Rand) Event {
	var nodes []string
	for _, id := range s.order {
		if a := s.rows[id]; !isControlType(a.Type) {
			nodes = append(nodes, a.Name)
		}
	}
	node := "nosuch"
	if len(nodes) > 0 {
		node = nodes[r.IntN(len(nodes))]
	}
	switch k := r.IntN(20); {
	case k < 2:
		return Event{Kind: EventStart}
	case k < 3:
		return Event{Kind: EventKill}
	case k < 5:
		return Event{Kind: EventSuspend}
	case k < 7:
		return Event{Kind: EventResume}
	case k < 8:
		return Event{Kind: EventRerun, FailNodes: r.IntN(2) == 0}
	case k < 10:
		return Event{Kind: EventRetryDue, Node: node}
	}
	ev := Event{Kind: EventActionEnd, Node: node, Outcome: OutcomeOK}
	switch x := r.IntN(10); {
	case x < 3:
		ev.Outcome, ev.ErrorCode, ev.ErrorMessage = OutcomeError, "JA018", "exit code [-1]"
	case x < 4:
		ev.Outcome, ev.ErrorCode, ev.ErrorMessage = OutcomeFailed, "JA020", "credentials"
	}
	return ev
}

// TestDecideMovesAreInTheTables drives random workflows with random events
// (in any order, applicable or not, the runner's launches in between) and
// checks that every status change Decide makes to the job or an action is a
// move of store.WorkflowMachine or store.ActionMachine.
func TestDecideMovesAreInTheTables(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 150; seed++ {
		r := rand.New(rand.NewPCG(seed, 19))
		g := &dagGen{r: r, conf: map[string]string{}}
		app, _ := g.app(t)
		s := newSim(t, app, g.conf)
		for i := 0; i < 200; i++ {
			if r.IntN(3) == 0 {
				runnerMove(t, s, r)
				continue
			}
			if r.IntN(4) == 0 {
				s.now = s.now.Add(10 * 60e9)
			}
			ev := randomEvent(s, r)
			st, err := s.decide(ev)
			if err != nil {
				continue // refused (a rerun of a job that runs, an unknown node)
			}
			checkMoves(t, s, ev, st)
			s.apply(st)
		}
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}
