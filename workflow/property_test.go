package workflow

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// dagGen builds random workflows that are valid by construction: blocks
// (actions, sequences, decisions whose branches meet again, forks whose
// paths meet at their join) nested to a limited depth, errors going to a
// kill node or on along the block.
type dagGen struct {
	r     *rand.Rand
	nodes []string
	conf  map[string]string
	n     int
}

func (g *dagGen) name(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

// block adds a sub-graph whose paths all continue at next and returns its
// entry node.
func (g *dagGen) block(next string, depth int) string {
	switch k := g.r.IntN(10); {
	case depth > 0 && k < 2:
		first := g.block(next, depth-1)
		return g.block(first, depth-1)
	case depth > 0 && k < 4:
		d := g.name("d")
		var cases strings.Builder
		for i := 0; i <= g.r.IntN(3); i++ {
			target := next
			if g.r.IntN(4) > 0 {
				target = g.block(next, depth-1)
			}
			v := g.name("c")
			g.conf[v] = fmt.Sprint(g.r.IntN(2) == 0)
			fmt.Fprintf(&cases, `<case to="%s">${wf:conf('%s') eq 'true'}</case>`, target, v)
		}
		def := next
		if g.r.IntN(2) == 0 {
			def = g.block(next, depth-1)
		}
		g.nodes = append(g.nodes, `<decision name="`+d+`"><switch>`+cases.String()+`<default to="`+def+`"/></switch></decision>`)
		return d
	case depth > 0 && k < 6:
		f, j := g.name("f"), g.name("j")
		g.nodes = append(g.nodes, join(j, next))
		var paths []string
		for i := 0; i < 2+g.r.IntN(2); i++ {
			paths = append(paths, g.block(j, depth-1))
		}
		g.nodes = append(g.nodes, fork(f, paths...))
		return f
	}
	a := g.name("a")
	errTo := "k"
	if g.r.IntN(3) == 0 {
		errTo = next
	}
	attrs := ""
	if g.r.IntN(3) == 0 {
		attrs = fmt.Sprintf(` retry-max="%d" retry-interval="%d"`, g.r.IntN(3), 1+g.r.IntN(5))
		if g.r.IntN(2) == 0 {
			attrs += ` retry-policy="exponential"`
		}
	}
	g.nodes = append(g.nodes, shell(a, next, errTo, attrs))
	return a
}

func (g *dagGen) app(t *testing.T) (*App, string) {
	first := g.block("end", 4)
	def := wf(`<start to="` + first + `"/>` + strings.Join(g.nodes, "") + killNode("k") + `<end name="end"/>`)
	app, err := Load([]byte(def), Options{})
	if err != nil {
		t.Fatalf("generated workflow is invalid: %v\n%s", err, def)
	}
	return app, def
}

// TestRandomWorkflowsTerminate runs random valid workflows with random
// action outcomes, suspends, resumes and kills, and checks that every run
// ends in a terminal status with nothing left active, and that fork and join
// bookkeeping balances.
func TestRandomWorkflowsTerminate(t *testing.T) {
	t.Parallel()
	const runs = 300
	seen := map[store.WorkflowStatus]int{}
	for seed := uint64(1); seed <= runs; seed++ {
		r := rand.New(rand.NewPCG(seed, 42))
		g := &dagGen{r: r, conf: map[string]string{}}
		app, def := g.app(t)
		s := newSim(t, app, g.conf)
		status := simulate(t, s, r)
		seen[status]++
		if t.Failed() {
			t.Fatalf("seed %d failed; workflow:\n%s", seed, def)
		}
	}
	for _, st := range []store.WorkflowStatus{store.WorkflowSucceeded, store.WorkflowKilled, store.WorkflowFailed} {
		if seen[st] == 0 {
			t.Errorf("no run ended %s: %v (the generator is too narrow)", st, seen)
		}
	}
}

// simulate drives one job to its end and checks the invariants.
func simulate(t *testing.T, s *sim, r *rand.Rand) store.WorkflowStatus {
	t.Helper()
	due := map[string]time.Time{} // user retries scheduled
	note := func(st Step) {
		for _, rt := range st.Retry {
			due[rt.Node] = rt.At
		}
		s.launchStarted()
	}
	note(s.do(Event{Kind: EventStart}))
	for i := 0; !s.job.Status.Terminal(); i++ {
		if i > 10000 {
			t.Fatalf("no end after %d events; rows %v", i, s.nodes())
		}
		switch {
		case r.IntN(200) == 0:
			note(s.do(Event{Kind: EventKill}))
			continue
		case s.job.Status == store.WorkflowRunning && r.IntN(25) == 0:
			note(s.do(Event{Kind: EventSuspend}))
			continue
		case s.job.Status == store.WorkflowSuspended && r.IntN(3) == 0:
			note(s.do(Event{Kind: EventResume}))
			continue
		}
		var running, retrying []string
		for _, id := range s.order {
			a := s.rows[id]
			switch a.Status {
			case store.ActionRunning:
				running = append(running, a.Name)
			case store.ActionUserRetry:
				retrying = append(retrying, a.Name)
			}
		}
		if len(running) > 0 && (len(retrying) == 0 || r.IntN(3) > 0) {
			node := running[r.IntN(len(running))]
			ev := Event{Kind: EventActionEnd, Node: node, Outcome: OutcomeOK, Data: "k=v"}
			switch x := r.IntN(100); {
			case x < 12:
				ev.Outcome, ev.ErrorCode, ev.ErrorMessage = OutcomeError, "JA018", "exit code [-1]"
			case x < 20:
				ev.Outcome, ev.ErrorCode, ev.ErrorMessage = OutcomeError, "1", "exit code [1]"
			case x < 22:
				ev.Outcome, ev.ErrorCode, ev.ErrorMessage = OutcomeFailed, "JA020", "credentials"
			}
			note(s.do(ev))
			continue
		}
		if len(retrying) > 0 {
			node := retrying[r.IntN(len(retrying))]
			at, ok := due[node]
			if !ok {
				t.Fatalf("action %s waits for a retry nobody scheduled", node)
			}
			if at.After(s.now) {
				s.now = at
			}
			st := s.do(Event{Kind: EventRetryDue, Node: node})
			if s.job.Status == store.WorkflowRunning {
				delete(due, node)
			}
			note(st)
			continue
		}
		if s.job.Status == store.WorkflowSuspended {
			note(s.do(Event{Kind: EventResume}))
			continue
		}
		t.Fatalf("job %s is stuck: nothing running, nothing to retry; rows %v", s.job.Status, s.nodes())
	}
	checkFinished(t, s)
	return s.job.Status
}

// checkFinished checks a terminal job's rows and instance.
func checkFinished(t *testing.T, s *sim) {
	t.Helper()
	in, err := DecodeInstance(s.job.Instance)
	if err != nil {
		t.Fatal(err)
	}
	forks, joins := 0, 0
	for _, id := range s.order {
		a := s.rows[id]
		if !a.Status.Terminal() {
			t.Errorf("job %s but action %s is %s", s.job.Status, a.Name, a.Status)
		}
		switch a.Type {
		case TypeFork:
			forks++
		case TypeJoin:
			joins++
		}
		if s.job.Status == store.WorkflowSucceeded && (a.Status == store.ActionKilled || a.Status == store.ActionFailed) {
			t.Errorf("job SUCCEEDED but %s is %s", a.Name, a.Status)
		}
	}
	if forks != len(in.Forks) {
		t.Errorf("%d fork rows, %d fork activations", forks, len(in.Forks))
	}
	complete := 0
	for _, key := range sortedKeys(in.Forks) {
		arrived := append([]int(nil), in.Joined[key]...)
		sort.Ints(arrived)
		for i, b := range arrived {
			if b < 0 || b >= in.Forks[key] || (i > 0 && arrived[i-1] == b) {
				t.Errorf("fork %s of %d paths: paths arrived %v", key, in.Forks[key], arrived)
			}
		}
		if len(arrived) > in.Forks[key] {
			t.Errorf("fork %s: %d arrivals for %d paths", key, len(arrived), in.Forks[key])
		}
		if len(arrived) == in.Forks[key] {
			complete++
		} else if s.job.Status == store.WorkflowSucceeded {
			t.Errorf("job SUCCEEDED with fork %s half joined (%v of %d)", key, arrived, in.Forks[key])
		}
	}
	if joins != complete {
		t.Errorf("%d join rows, %d completed forks", joins, complete)
	}
	if len(in.Pending) != 0 || len(in.RetryAt) != 0 {
		t.Errorf("terminal job keeps pending %v retries %v", in.Pending, in.RetryAt)
	}
	switch s.job.Status {
	case store.WorkflowSucceeded:
		if !s.hasRow("end") {
			t.Error("SUCCEEDED without an end row")
		}
	case store.WorkflowFailed:
		if s.job.ErrorCode == "" {
			t.Error("FAILED without an error code")
		}
	case store.WorkflowKilled:
	default:
		t.Errorf("job ended %s", s.job.Status)
	}
}
