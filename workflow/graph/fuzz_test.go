package graph

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// FuzzLayout lays out and renders whatever workflow definition parses,
// valid or not (loops, missing targets, unreachable nodes): nothing may
// panic, every layout keeps its properties and every rendering is
// well-formed.
func FuzzLayout(f *testing.F) {
	f.Add(wf("end", end("end")))
	f.Add(wf("a", fsAction("a", "b", "fail")+fsAction("b", "a", "end")+kill("fail")+end("end")))
	f.Add(wf("f", fork("f", "a", "b")+fsAction("a", "j", "fail")+fsAction("b", "j", "fail")+join("j", "end")+kill("fail")+end("end")))
	f.Add(wf("d", decision("d", "end", "a", "d")+fsAction("a", "a", "nowhere")+end("end")))
	f.Add(wf("a", fsAction("a", "fail", "fail")+kill("fail")+end("end")))
	f.Fuzz(func(t *testing.T, def string) {
		app, err := workflow.Parse([]byte(def))
		if err != nil {
			return
		}
		for _, rows := range [][]store.WorkflowAction{nil, someRun(app)} {
			for _, kill := range []KillNodes{KillReached, KillNone, KillAll} {
				opts := Options{Kill: kill}
				g, err := Layout(app, rows, opts)
				if err != nil {
					t.Fatalf("Layout: %v", err)
				}
				checkLayout(t, app, rows, g, opts)
				renderAll(t, g)
			}
		}
	})
}

// someRun makes up rows for app: every other node reached, an action in
// ERROR through its error transition, other nodes OK through their last
// transition (a fork through all of its paths), kill nodes with a row.
func someRun(app *workflow.App) []store.WorkflowAction {
	rows := []store.WorkflowAction{row(StartName, store.ActionOK, app.Start)}
	for i, n := range app.Nodes {
		if i%2 == 1 && n.Kind != workflow.KindKill {
			continue
		}
		ts := n.Transitions()
		status, transition := store.ActionOK, ""
		switch {
		case n.Kind == workflow.KindFork:
			transition = strings.Join(ts, ",")
		case n.Kind == workflow.KindAction:
			status, transition = store.ActionError, ts[1]
		case len(ts) > 0:
			transition = ts[len(ts)-1]
		}
		rows = append(rows, row(n.Name, status, transition))
	}
	return rows
}
