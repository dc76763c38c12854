package oozie

import (
	"context"
	"strings"
	"testing"
	"time"
)

// memSource serves actions from memory.
type memSource struct {
	coord map[string][]CoordAction
	wf    map[string][]WorkflowAction
}

func (m memSource) CoordActions(_ context.Context, id string) ([]CoordAction, error) {
	return m.coord[id], nil
}
func (m memSource) WorkflowActions(_ context.Context, id string) ([]WorkflowAction, error) {
	return m.wf[id], nil
}

const wfDef = `<workflow-app xmlns="uri:oozie:workflow:0.5" name="w"><start to="a"/>
<action name="a"><fs/><ok to="end"/><error to="k"/></action><kill name="k"><message>m</message></kill><end name="end"/></workflow-app>`

func runningWF(id string, acts ...WorkflowAction) (WorkflowJob, []WorkflowAction) {
	return WorkflowJob{ID: id, Status: "RUNNING", Definition: wfDef, Conf: "<configuration/>"}, acts
}

// Running workflows are refused where gozie cannot take them over: an
// action in a step Oozie is in the middle of, a path inside a fork; a
// finished job older than -since is skipped; a bundle is refused with its
// coordinator.
func TestPlanVerdicts(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	src := memSource{coord: map[string][]CoordAction{}, wf: map[string][]WorkflowAction{}}
	s := &Snapshot{BundleActions: map[string][]BundleAction{}, SLAs: map[string]SLA{}}
	add := func(w WorkflowJob, acts []WorkflowAction) {
		s.Workflows = append(s.Workflows, w)
		src.wf[w.ID] = acts
	}
	add(runningWF("w-transient", WorkflowAction{ID: "w-transient@a", Name: "a", Type: "fs", Status: "END_RETRY"}))
	add(runningWF("w-fork", WorkflowAction{ID: "w-fork@a", Name: "a", Type: "fs", Status: "PREP",
		ExecutionPath: "/f1/a/"}))
	add(runningWF("w-ok", WorkflowAction{ID: "w-ok@:start:", Name: ":start:", Type: ":START:", Status: "OK",
		ExecutionPath: "/"}, WorkflowAction{ID: "w-ok@a", Name: "a", Type: "fs", Status: "PREP", ExecutionPath: "/"}))
	add(runningWF("w-between", WorkflowAction{ID: "w-between@a", Name: "a", Type: "fs", Status: "OK"}))
	add(WorkflowJob{ID: "w-old", Status: "SUCCEEDED", Definition: wfDef, LastModified: now.AddDate(0, 0, -40)}, nil)
	s.Bundles = []BundleJob{{ID: "b", Status: "RUNNING"}}
	s.Coords = []CoordJob{{ID: "c-in-b", BundleID: "b", Status: "RUNNIG"}}

	units, err := Plan(context.Background(), s, src, Options{Since: now.AddDate(0, 0, -30)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		v      Verdict
		reason string
	}{
		"w-transient": {Refuse, "END_RETRY"},
		"w-fork":      {Refuse, "fork path"},
		"w-ok":        {Import, ""},
		"w-between":   {Refuse, "between nodes"},
		"w-old":       {Skip, "before -since"},
		"b":           {Refuse, "coordinator c-in-b: E0303"},
	}
	for _, u := range units {
		w, ok := want[u.ID]
		if !ok {
			t.Errorf("unexpected unit %s", u.ID)
			continue
		}
		if u.Verdict != w.v || !strings.Contains(u.Reason, w.reason) {
			t.Errorf("%s: %s %q, want %s containing %q", u.ID, u.Verdict, u.Reason, w.v, w.reason)
		}
		delete(want, u.ID)
	}
	for id := range want {
		t.Errorf("no unit for %s", id)
	}
	for _, u := range units {
		if u.ID == "w-ok" && (len(u.Workflows) != 1 || len(u.Workflows[0].Rerun) != 1 || u.Workflows[0].Rerun[0] != "w-ok@a") {
			t.Errorf("w-ok: the PREP action is not started: %+v", u.Workflows)
		}
	}
}

func TestSLAConfig(t *testing.T) {
	t.Parallel()
	ev, c := slaConfig("{alert_events=START_MISS,END_MISS},{alert_contact=a@b.c},")
	if ev != "START_MISS,END_MISS" || c != "a@b.c" {
		t.Errorf("%q %q", ev, c)
	}
}
