package workflow

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// wf wraps node XML in a uri:oozie:workflow:1.0 document.
func wf(body string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="test-wf">` + body + `</workflow-app>`
}

// shell returns an action node running a shell command, with extra
// attributes on <action>.
func shell(name, ok, errTo, attrs string) string {
	return fmt.Sprintf(`<action name="%s"%s><shell xmlns="uri:oozie:shell-action:1.0">`+
		`<resource-manager>rm:8032</resource-manager><name-node>hdfs://nn:8020</name-node>`+
		`<exec>run.sh</exec><argument>%s</argument></shell><ok to="%s"/><error to="%s"/></action>`,
		name, attrs, name, ok, errTo)
}

// killNode returns a kill node whose message names the last error.
func killNode(name string) string {
	return `<kill name="` + name + `"><message>failed at [${wf:lastErrorNode()}]: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>`
}

// mustLoad parses and validates def with the default options.
func mustLoad(t testing.TB, def string) *App {
	t.Helper()
	app, err := Load([]byte(def), Options{})
	if err != nil {
		t.Fatalf("Load: %v\n%s", err, def)
	}
	return app
}

// wantCode fails unless err is an *Error with code.
func wantCode(t testing.TB, err error, code oozieerr.Code) *Error {
	t.Helper()
	var we *Error
	if !errors.As(err, &we) {
		t.Fatalf("error = %v, want *Error %s", err, code)
	}
	if we.Code != code {
		t.Fatalf("error code = %s (%v), want %s", we.Code, err, code)
	}
	return we
}

var t0 = time.Date(2025, 3, 9, 10, 0, 0, 0, time.UTC)

// sim runs one workflow job through Decide and applies every step the way
// the engine does, checking the compare-and-set contract of Step on the way.
type sim struct {
	t     testing.TB
	app   *App
	job   store.WorkflowJob
	rows  map[string]store.WorkflowAction // by id
	order []string                        // ids in creation order
	conf  map[string]string
	opts  Options
	now   time.Time
	last  Step
}

func newSim(t testing.TB, app *App, conf map[string]string) *sim {
	t.Helper()
	if conf == nil {
		conf = map[string]string{}
	}
	return &sim{
		t:    t,
		app:  app,
		job:  store.WorkflowJob{ID: "0000001-250309100000000-gozie-W", AppName: "test-wf", User: "alice", Status: store.WorkflowPrep, Version: 1},
		rows: map[string]store.WorkflowAction{},
		conf: conf,
		now:  t0,
	}
}

// input is what the engine would read.
func (s *sim) input() Input {
	actions := make([]store.WorkflowAction, 0, len(s.order))
	for _, id := range s.order {
		actions = append(actions, s.rows[id])
	}
	return Input{App: s.app, Job: s.job, Actions: actions, Conf: conf.PropertiesFromMap(s.conf), Now: s.now, Options: s.opts,
		CallbackURL: func(id, status string) string { return "http://gozie/callback?id=" + id + "&status=" + status }}
}

// decide runs Decide without applying.
func (s *sim) decide(ev Event) (Step, error) {
	return Decide(s.input(), ev)
}

// do runs Decide and applies the step; a hard error fails the test.
func (s *sim) do(ev Event) Step {
	s.t.Helper()
	st, err := s.decide(ev)
	if err != nil {
		s.t.Fatalf("Decide(%s %s): %v", ev.Kind, ev.Node, err)
	}
	s.apply(st)
	// Replaying the same event against the new state changes nothing.
	again, err := s.decide(ev)
	if err == nil && !again.Empty() && ev.Kind != EventRerun {
		s.t.Fatalf("replaying %s %s is not a no-op: %+v", ev.Kind, ev.Node, again)
	}
	s.last = st
	return st
}

// apply writes a step as the engine does, with the version checks.
func (s *sim) apply(st Step) {
	s.t.Helper()
	if st.Empty() {
		return
	}
	if st.Job == nil {
		s.t.Fatalf("non-empty step without a job update: %+v", st)
	}
	if st.Job.Version != s.job.Version {
		s.t.Fatalf("step built on job version %d, store has %d", st.Job.Version, s.job.Version)
	}
	job := *st.Job
	job.Version++
	s.job = job
	for _, id := range st.Delete {
		if _, ok := s.rows[id]; !ok {
			s.t.Fatalf("delete of missing row %s", id)
		}
		delete(s.rows, id)
		for i, o := range s.order {
			if o == id {
				s.order = append(s.order[:i], s.order[i+1:]...)
				break
			}
		}
	}
	for _, a := range st.Create {
		if _, ok := s.rows[a.ID]; ok {
			s.t.Fatalf("create of existing row %s", a.ID)
		}
		a.Version = 1
		s.rows[a.ID] = a
		s.order = append(s.order, a.ID)
	}
	for _, a := range st.Update {
		cur, ok := s.rows[a.ID]
		if !ok || cur.Version != a.Version {
			s.t.Fatalf("update of %s on version %d, store has %d (exists %v)", a.ID, a.Version, cur.Version, ok)
		}
		a.Version++
		s.rows[a.ID] = a
	}
	for _, id := range st.Start {
		if _, ok := s.rows[id]; !ok {
			s.t.Fatalf("start of missing row %s", id)
		}
	}
}

// launch does what an executor does when it starts an action.
func (s *sim) launch(node string) {
	s.t.Helper()
	a := s.row(node)
	if a.Status != store.ActionPrep && a.Status != store.ActionUserRetry {
		s.t.Fatalf("launch of %s in status %s", node, a.Status)
	}
	a.Status = store.ActionRunning
	a.ExternalID = "application_1_" + node
	a.StartTime = s.now
	a.Version++
	s.rows[a.ID] = a
}

// launchStarted launches every action of the last step's Start list.
func (s *sim) launchStarted() {
	for _, id := range s.last.Start {
		s.launch(strings.TrimPrefix(id, s.job.ID+"@"))
	}
}

// row returns the row of node.
func (s *sim) row(node string) store.WorkflowAction {
	s.t.Helper()
	a, ok := s.rows[s.job.ID+"@"+node]
	if !ok {
		s.t.Fatalf("no row for node %s; rows: %v", node, s.nodes())
	}
	return a
}

// hasRow reports whether node has a row.
func (s *sim) hasRow(node string) bool {
	_, ok := s.rows[s.job.ID+"@"+node]
	return ok
}

// nodes lists the node names with rows, in creation order.
func (s *sim) nodes() []string {
	var out []string
	for _, id := range s.order {
		out = append(out, s.rows[id].Name)
	}
	return out
}

// startedNodes lists the node names of the last step's Start list.
func (s *sim) startedNodes() []string {
	var out []string
	for _, id := range s.last.Start {
		out = append(out, strings.TrimPrefix(id, s.job.ID+"@"))
	}
	return out
}

// end reports the end of a running action.
func (s *sim) end(node string, outcome Outcome, code string) Step {
	s.t.Helper()
	return s.do(Event{Kind: EventActionEnd, Node: node, Outcome: outcome, ErrorCode: code,
		ErrorMessage: map[bool]string{true: "", false: "exit code [" + code + "]"}[outcome == OutcomeOK]})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// readExample reads the workflow.xml of the example app called app under
// apps (testapps.Dir for gozie's own, testapps.Oozie for Oozie's).
func readExample(t testing.TB, apps, app string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(apps, app, "workflow.xml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseActionCase parses def, a workflow with one action named node. When
// errMsg is set, the parse must fail with E0701 naming it, and it returns
// a nil action; otherwise it returns the app and the node's action, whose
// type must be typ.
func parseActionCase(t *testing.T, def, errMsg, node, typ string) (*App, *Action) {
	t.Helper()
	app, err := Parse([]byte(def))
	if errMsg != "" {
		we := wantCode(t, err, oozieerr.E0701)
		if !strings.Contains(we.Msg, errMsg) {
			t.Fatalf("error %v, want one naming %q", err, errMsg)
		}
		return nil, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	n := app.Node(node)
	if n == nil || n.Action == nil || n.Action.Type != typ {
		t.Fatalf("node %s: %+v, want a %s action", node, n, typ)
	}
	return app, n.Action
}
