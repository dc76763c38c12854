package graph

import (
	"testing"

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
	f.Fuzz(func(t *testing.T, def string) {
		app, err := workflow.Parse([]byte(def))
		if err != nil {
			return
		}
		for _, showKill := range []bool{false, true} {
			opts := Options{ShowKill: showKill}
			g, err := Layout(app, nil, opts)
			if err != nil {
				t.Fatalf("Layout: %v", err)
			}
			checkLayout(t, app, g, opts)
			renderAll(t, g)
		}
	})
}
