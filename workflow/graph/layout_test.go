package graph

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// checkLayout asserts the properties every layout must have: each node to
// draw placed once, inside the drawing and apart from the others; exactly
// the app's transitions between drawn nodes as edges (into kill nodes, only
// those opts.Kill draws for the run rows), going down the layers unless
// marked Back; routes that start and end on the nodes' borders.
func checkLayout(t *testing.T, app *workflow.App, rows []store.WorkflowAction, g *Graph, opts Options) {
	t.Helper()
	// What the run reached and took, computed here from the rows.
	hasRow, goesTo, status := map[string]bool{}, map[string][]string{}, map[string]store.ActionStatus{}
	for _, r := range rows {
		hasRow[r.Name] = true
		goesTo[r.Name] = strings.Split(r.Transition, ",")
		status[r.Name] = r.Status
	}
	// The nodes to draw.
	want := map[string]workflow.NodeKind{StartName: workflow.KindStart}
	for _, n := range app.Nodes {
		if n.Kind == workflow.KindKill && (opts.Kill == KillNone || (opts.Kill == KillReached && !hasRow[n.Name])) {
			continue
		}
		want[n.Name] = n.Kind
	}
	byName := map[string]*Node{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if byName[n.Name] != nil {
			t.Errorf("node %q placed twice", n.Name)
		}
		byName[n.Name] = n
		if kind, ok := want[n.Name]; !ok || kind != n.Kind {
			t.Errorf("node %q (%s) drawn, want kind %q (drawn: %v)", n.Name, n.Kind, kind, ok)
		}
		if !finite(n.X, n.Y, n.W, n.H) || n.W <= 0 || n.H <= 0 {
			t.Errorf("node %q has geometry %v,%v %vx%v", n.Name, n.X, n.Y, n.W, n.H)
		}
		if n.X-n.W/2 < 0 || n.X+n.W/2 > g.Width || n.Y-n.H/2 < 0 || n.Y+n.H/2 > g.Height {
			t.Errorf("node %q at %v,%v %vx%v outside the %vx%v drawing", n.Name, n.X, n.Y, n.W, n.H, g.Width, g.Height)
		}
	}
	if len(byName) != len(want) {
		t.Errorf("%d nodes drawn, want %d", len(byName), len(want))
	}
	// No two nodes overlap.
	nodes := slices.Clone(g.Nodes)
	sort.Slice(nodes, func(a, b int) bool { return nodes[a].X-nodes[a].W/2 < nodes[b].X-nodes[b].W/2 })
	for i := range nodes {
		a := &nodes[i]
		for j := i + 1; j < len(nodes) && nodes[j].X-nodes[j].W/2 < a.X+a.W/2; j++ {
			b := &nodes[j]
			if a.Y-a.H/2 < b.Y+b.H/2 && b.Y-b.H/2 < a.Y+a.H/2 {
				t.Errorf("nodes %q and %q overlap", a.Name, b.Name)
			}
		}
	}
	// Edges: every transition between drawn nodes, once per transition;
	// into a kill node without KillAll, only the ones taken.
	var wantEdges, gotEdges []string
	addWant := func(from, to string, taken bool) {
		if _, ok := byName[from]; !ok {
			return
		}
		n, ok := byName[to]
		if !ok || (n.Kind == workflow.KindKill && opts.Kill != KillAll && !taken) {
			return
		}
		wantEdges = append(wantEdges, from+"->"+to)
	}
	addWant(StartName, app.Start, slices.Contains(goesTo[StartName], app.Start))
	for _, n := range app.Nodes {
		ts := n.Transitions()
		for k, to := range ts {
			taken := slices.Contains(goesTo[n.Name], to)
			if n.Kind == workflow.KindAction && ts[0] == ts[1] && taken {
				// ok and error to one node: the status says which.
				taken = (k == 1) == (status[n.Name] == store.ActionError)
			}
			addWant(n.Name, to, taken)
		}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		gotEdges = append(gotEdges, e.From+"->"+e.To)
		from, to := byName[e.From], byName[e.To]
		if from == nil || to == nil {
			t.Errorf("edge %s->%s between nodes not drawn", e.From, e.To)
			continue
		}
		switch {
		case e.From == e.To:
		case e.Back:
			if to.Layer >= from.Layer {
				t.Errorf("back edge %s->%s goes from layer %d to %d", e.From, e.To, from.Layer, to.Layer)
			}
		default:
			if to.Layer <= from.Layer {
				t.Errorf("edge %s->%s goes from layer %d to %d", e.From, e.To, from.Layer, to.Layer)
			}
		}
		if len(e.Points) < 2 {
			t.Errorf("edge %s->%s has route %v", e.From, e.To, e.Points)
			continue
		}
		for _, p := range e.Points {
			if !finite(p.X, p.Y) || p.X < 0 || p.X > g.Width || p.Y < 0 || p.Y > g.Height {
				t.Errorf("edge %s->%s leaves the drawing at %v", e.From, e.To, p)
			}
		}
		first, last := e.Points[0], e.Points[len(e.Points)-1]
		if e.From != e.To && !e.Back && (first.Y != from.Y+from.H/2 || last.Y != to.Y-to.H/2) {
			t.Errorf("edge %s->%s runs from y %v to %v, want the bottom of %s (%v) and the top of %s (%v)",
				e.From, e.To, first.Y, last.Y, e.From, from.Y+from.H/2, e.To, to.Y-to.H/2)
		}
		if first.X < from.X-from.W/2 || first.X > from.X+from.W/2+20 || last.X < to.X-to.W/2 || last.X > to.X+to.W/2 {
			t.Errorf("edge %s->%s does not start and end on its nodes: %v", e.From, e.To, e.Points)
		}
	}
	slices.Sort(wantEdges)
	slices.Sort(gotEdges)
	if !slices.Equal(gotEdges, wantEdges) {
		t.Errorf("edges\n got %v\nwant %v", gotEdges, wantEdges)
	}
	if len(g.Legend) != len(States) {
		t.Errorf("legend has %d items, want %d", len(g.Legend), len(States))
	}
}

func TestLayoutProperties(t *testing.T) {
	t.Parallel()
	valid := []struct {
		name, def string
	}{
		{"start to end", wf("end", end("end"))},
		{"chain", wf("a", fsAction("a", "b", "fail")+fsAction("b", "c", "fail")+shellAction("c", "end", "fail")+kill("fail")+end("end"))},
		{"fork and join", wf("f", fork("f", "a", "b", "c")+fsAction("a", "j", "fail")+fsAction("b", "j", "fail")+
			fsAction("c", "j", "fail")+join("j", "end")+kill("fail")+end("end"))},
		{"nested forks", wf("f1", fork("f1", "a", "f2")+fsAction("a", "j1", "fail")+fork("f2", "b", "c")+
			fsAction("b", "j2", "fail")+fsAction("c", "j2", "fail")+join("j2", "j1")+join("j1", "end")+kill("fail")+end("end"))},
		{"decision", wf("d", decision("d", "end", "a", "b", "a")+fsAction("a", "b", "fail")+fsAction("b", "end", "fail")+
			kill("fail")+end("end"))},
		{"decision into kill", wf("d", decision("d", "fail", "end")+kill("fail")+end("end"))},
		{"ok and error to one node", wf("a", fsAction("a", "end", "end")+end("end"))},
		{"unreachable nodes", wf("a", fsAction("a", "end", "fail")+fsAction("lost", "lost2", "fail")+
			fsAction("lost2", "end", "end")+kill("fail")+end("end"))},
		{"two kill nodes", wf("a", fsAction("a", "b", "k1")+fsAction("b", "end", "k2")+kill("k1")+kill("k2")+end("end"))},
		{"long workflow", chainApp(120)},
	}
	for _, tt := range valid {
		for _, kill := range []KillNodes{KillReached, KillNone, KillAll} {
			t.Run(fmt.Sprintf("%s/kill=%v", tt.name, kill), func(t *testing.T) {
				t.Parallel()
				app := load(t, tt.def)
				opts := Options{Kill: kill}
				g := layout(t, app, nil, opts)
				checkLayout(t, app, nil, g, opts)
				for _, e := range g.Edges {
					if e.Back {
						t.Errorf("valid workflow has a back edge %s->%s", e.From, e.To)
					}
				}
			})
		}
	}

	// Definitions that parse but do not validate still lay out.
	invalid := []struct {
		name, def string
		back      int // edges that must be drawn going back up
	}{
		{"loop", wf("a", fsAction("a", "b", "end")+fsAction("b", "a", "end")+end("end")), 1},
		{"self transition", wf("a", fsAction("a", "a", "end")+end("end")), 0},
		{"missing target", wf("a", fsAction("a", "nowhere", "end")+end("end")), 0},
		{"start to nowhere", wf("nowhere", end("end")), 0},
		{"unreachable end", wf("a", fsAction("a", "b", "b")+fsAction("b", "a", "a")+end("end")), 2},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			app := parse(t, tt.def)
			g := layout(t, app, nil, Options{Kill: KillAll})
			checkLayout(t, app, nil, g, Options{Kill: KillAll})
			back := 0
			for _, e := range g.Edges {
				if e.Back {
					back++
				}
			}
			if back != tt.back {
				t.Errorf("%d back edges, want %d", back, tt.back)
			}
		})
	}
}

func TestLayoutNilApp(t *testing.T) {
	t.Parallel()
	if g, err := Layout(nil, nil, Options{}); err == nil || g != nil {
		t.Errorf("Layout(nil) = %v, %v; want an error", g, err)
	}
}

func TestLayoutKillNodes(t *testing.T) {
	t.Parallel()
	// a fails to "fail"; the decision d may end in "fail2".
	app := load(t, wf("a", fsAction("a", "d", "fail")+decision("d", "end", "fail2")+
		kill("fail")+kill("fail2")+end("end")))
	running := []store.WorkflowAction{row(StartName, store.ActionOK, "a"), row("a", store.ActionRunning, "")}
	failed := []store.WorkflowAction{row(StartName, store.ActionOK, "a"), row("a", store.ActionError, "fail"),
		row("fail", store.ActionOK, "")}
	// The error transition recorded, but no row for the kill node.
	noKillRow := failed[:2]
	decided := []store.WorkflowAction{row(StartName, store.ActionOK, "a"), row("a", store.ActionOK, "d"),
		row("d", store.ActionOK, "fail2"), row("fail2", store.ActionOK, "")}
	all := []string{"a->fail", "d->fail2"}
	tests := []struct {
		name  string
		rows  []store.WorkflowAction
		kill  KillNodes
		kills []string // kill nodes drawn
		into  []string // edges into them
		taken []string // of which taken
	}{
		{"running/reached", running, KillReached, nil, nil, nil},
		{"running/none", running, KillNone, nil, nil, nil},
		{"running/all", running, KillAll, []string{"fail", "fail2"}, all, nil},
		{"failed/reached", failed, KillReached, []string{"fail"}, []string{"a->fail"}, []string{"a->fail"}},
		{"failed/none", failed, KillNone, nil, nil, nil},
		{"failed/all", failed, KillAll, []string{"fail", "fail2"}, all, []string{"a->fail"}},
		{"no kill row/reached", noKillRow, KillReached, nil, nil, nil},
		{"decided/reached", decided, KillReached, []string{"fail2"}, []string{"d->fail2"}, []string{"d->fail2"}},
		{"decided/all", decided, KillAll, []string{"fail", "fail2"}, all, []string{"d->fail2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := Options{Kill: tt.kill}
			g := layout(t, app, tt.rows, opts)
			checkLayout(t, app, tt.rows, g, opts)
			var kills, into, taken []string
			for _, n := range g.Nodes {
				if n.Kind == workflow.KindKill {
					kills = append(kills, n.Name)
					want := StateNotReached
					if slices.ContainsFunc(tt.rows, func(r store.WorkflowAction) bool { return r.Name == n.Name }) {
						want = StateFailed
					}
					if n.State != want {
						t.Errorf("kill node %s drawn %v, want %v", n.Name, n.State, want)
					}
				}
			}
			for _, e := range g.Edges {
				if strings.HasPrefix(e.To, "fail") {
					into = append(into, e.From+"->"+e.To)
					if e.Taken {
						taken = append(taken, e.From+"->"+e.To)
					}
				}
			}
			if !slices.Equal(kills, tt.kills) || !slices.Equal(into, tt.into) || !slices.Equal(taken, tt.taken) {
				t.Errorf("kill nodes %v, edges into them %v, taken %v; want %v, %v, %v",
					kills, into, taken, tt.kills, tt.into, tt.taken)
			}
		})
	}
}

func TestLayoutTakenWhenOKAndErrorMeet(t *testing.T) {
	t.Parallel()
	// Both transitions of a go to end: the status tells which was taken.
	app := load(t, wf("a", fsAction("a", "end", "end")+end("end")))
	for status, want := range map[store.ActionStatus]EdgeKind{store.ActionOK: EdgeOK, store.ActionError: EdgeError} {
		g := layout(t, app, []store.WorkflowAction{row("a", status, "end")}, Options{})
		var taken []EdgeKind
		for _, e := range g.Edges {
			if e.From == "a" && e.Taken {
				taken = append(taken, e.Kind)
			}
		}
		if !slices.Equal(taken, []EdgeKind{want}) {
			t.Errorf("a %s: taken %v, want only %s", status, taken, want)
		}
	}
	// Into a kill node the run reached, only the transition taken is drawn.
	app = load(t, wf("a", fsAction("a", "fail", "fail")+kill("fail")+end("end")))
	rows := []store.WorkflowAction{row(StartName, store.ActionOK, "a"), row("a", store.ActionError, "fail"), row("fail", store.ActionOK, "")}
	g := layout(t, app, rows, Options{})
	checkLayout(t, app, rows, g, Options{})
	var into []string
	for _, e := range g.Edges {
		if e.To == "fail" {
			into = append(into, string(e.Kind)+fmt.Sprint(e.Taken))
		}
	}
	if !slices.Equal(into, []string{"errortrue"}) {
		t.Errorf("edges into the kill node: %v, want the error edge, taken", into)
	}
}

func TestLayoutStatesAndTakenEdges(t *testing.T) {
	t.Parallel()
	app := load(t, wf("f", fork("f", "a", "b")+fsAction("a", "j", "fail")+fsAction("b", "j", "fail")+
		join("j", "d")+decision("d", "end", "c")+fsAction("c", "end", "fail")+kill("fail")+end("end")))
	rows := []store.WorkflowAction{
		row(StartName, store.ActionOK, "f"),
		row("f", store.ActionOK, "a,b"),
		row("a", store.ActionOK, "j"),
		row("b", store.ActionError, "fail"),
		row("fail", store.ActionOK, ""),
	}
	g := layout(t, app, rows, Options{Kill: KillAll})
	wantState := map[string]State{StartName: StateDone, "f": StateDone, "a": StateDone, "b": StateFailed,
		"fail": StateFailed, "j": StateNotReached, "d": StateNotReached, "c": StateNotReached, "end": StateNotReached}
	for _, n := range g.Nodes {
		if n.State != wantState[n.Name] {
			t.Errorf("node %s: state %v, want %v", n.Name, n.State, wantState[n.Name])
		}
	}
	var taken []string
	for _, e := range g.Edges {
		if e.Taken {
			taken = append(taken, e.From+"->"+e.To)
		}
	}
	slices.Sort(taken)
	want := []string{":start:->f", "a->j", "b->fail", "f->a", "f->b"}
	if !slices.Equal(taken, want) {
		t.Errorf("taken edges %v, want %v", taken, want)
	}
	// Labels and kinds of the decision's and actions' edges.
	kinds := map[string]string{}
	for _, e := range g.Edges {
		kinds[e.From+"->"+e.To] = string(e.Kind) + ":" + e.Label
	}
	for edge, want := range map[string]string{"d->c": "case:case 1", "d->end": "default:default", "a->fail": "error:error",
		"a->j": "ok:", "f->a": "fork:", "j->d": "join:", ":start:->f": "start:"} {
		if kinds[edge] != want {
			t.Errorf("edge %s: kind:label %q, want %q", edge, kinds[edge], want)
		}
	}
}

func TestStateOf(t *testing.T) {
	t.Parallel()
	want := map[store.ActionStatus]State{
		store.ActionOK: StateDone, store.ActionDone: StateDone,
		store.ActionPrep: StateActive, store.ActionRunning: StateActive,
		store.ActionStartRetry: StateActive, store.ActionEndRetry: StateActive,
		store.ActionUserRetry: StateWaiting, store.ActionStartManual: StateWaiting, store.ActionEndManual: StateWaiting,
		store.ActionError: StateFailed, store.ActionFailed: StateFailed, store.ActionKilled: StateFailed,
	}
	for _, s := range store.ActionStatuses {
		w, ok := want[s]
		if !ok {
			t.Errorf("status %s has no expected state in this test", s)
			continue
		}
		if got := StateOf(workflow.KindAction, s); got != w {
			t.Errorf("StateOf(action, %s) = %v, want %v", s, got, w)
		}
	}
	if got := StateOf(workflow.KindAction, ""); got != StateNotReached {
		t.Errorf("StateOf(action, \"\") = %v", got)
	}
	if got := StateOf(workflow.KindKill, store.ActionOK); got != StateFailed {
		t.Errorf("a kill node reached is %v, want %v", got, StateFailed)
	}
	// Every state has its own fill colour.
	seen := map[string]State{}
	for _, s := range States {
		if other, dup := seen[hex(s.Fill())]; dup {
			t.Errorf("states %v and %v share the fill %s", s, other, hex(s.Fill()))
		}
		seen[hex(s.Fill())] = s
	}
}

// crossingsOf counts pairs of edge segments of g that cross, segments that
// share an end aside.
func crossingsOf(g *Graph) int {
	type seg struct{ a, b Point }
	var segs []seg
	for _, e := range g.Edges {
		for i := 0; i+1 < len(e.Points); i++ {
			segs = append(segs, seg{e.Points[i], e.Points[i+1]})
		}
	}
	cross := func(p, q seg) bool {
		d := func(a, b, c Point) float64 { return (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X) }
		d1, d2 := d(p.a, p.b, q.a), d(p.a, p.b, q.b)
		d3, d4 := d(q.a, q.b, p.a), d(q.a, q.b, p.b)
		return d1*d2 < 0 && d3*d4 < 0
	}
	n := 0
	for i := range segs {
		for j := i + 1; j < len(segs); j++ {
			if cross(segs[i], segs[j]) {
				n++
			}
		}
	}
	return n
}

func TestLayoutAvoidsCrossings(t *testing.T) {
	t.Parallel()
	// Paths of a fork that cross over in document order: the first path's
	// second action joins the third path, and so on. A planar drawing exists.
	def := wf("f", fork("f", "a1", "b1", "c1")+
		fsAction("c1", "c2", "fail")+fsAction("a1", "a2", "fail")+fsAction("b1", "b2", "fail")+
		fsAction("c2", "j", "fail")+fsAction("b2", "j", "fail")+fsAction("a2", "j", "fail")+
		join("j", "end")+kill("fail")+end("end"))
	g := layout(t, load(t, def), nil, Options{})
	if n := crossingsOf(g); n != 0 {
		t.Errorf("%d crossings, want 0", n)
	}
	// A fork's paths straight below it: each chain keeps one column.
	x := map[string]float64{}
	for _, n := range g.Nodes {
		x[n.Name] = n.X
	}
	for _, p := range []string{"a", "b", "c"} {
		if x[p+"1"] != x[p+"2"] {
			t.Errorf("path %s bends: %v then %v", p, x[p+"1"], x[p+"2"])
		}
	}
}

func TestOrderRemovesCrossings(t *testing.T) {
	t.Parallel()
	// Two layers of three vertices wired in reverse: 0-5, 1-4, 2-3.
	lg := &layered{v: make([]vertex, 6), layers: [][]int{{0, 1, 2}, {3, 4, 5}}}
	for i := range 3 {
		lg.v[i].layer, lg.v[3+i].layer = 0, 1
		lg.v[i].down = []int{5 - i}
		lg.v[5-i].up = []int{i}
	}
	pos := make([]float64, 6)
	lg.positions(pos)
	if n := lg.crossings(pos); n != 3 {
		t.Fatalf("crossings = %d, want 3", n)
	}
	lg.reorder(1, true, pos)
	if n := lg.crossings(pos); n != 0 || !slices.Equal(lg.layers[1], []int{5, 4, 3}) {
		t.Errorf("after a sweep down: %d crossings, layer %v", n, lg.layers[1])
	}
}

func TestIsotonic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		want, gaps, x []float64
	}{
		{[]float64{0}, nil, []float64{0}},
		{[]float64{0, 100, 200}, []float64{10, 10}, []float64{0, 100, 200}},
		{[]float64{0, 0}, []float64{10}, []float64{-5, 5}},
		{[]float64{0, 0, 0}, []float64{10, 20}, []float64{-40.0 / 3, -10.0 / 3, 50.0 / 3}},
		{[]float64{50, 0, 100}, []float64{10, 10}, []float64{20, 30, 100}},
	}
	for _, tt := range tests {
		got := isotonic(tt.want, tt.gaps)
		if len(got) != len(tt.x) {
			t.Fatalf("isotonic(%v, %v) = %v", tt.want, tt.gaps, got)
		}
		for i := range got {
			if d := got[i] - tt.x[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("isotonic(%v, %v) = %v, want %v", tt.want, tt.gaps, got, tt.x)
				break
			}
		}
		for i, g := range tt.gaps {
			if got[i+1]-got[i] < g-1e-9 {
				t.Errorf("isotonic(%v, %v) = %v breaks gap %d", tt.want, tt.gaps, got, i)
			}
		}
	}
}

func TestLargeWorkflow(t *testing.T) {
	t.Parallel()
	app := load(t, chainApp(400))
	for _, kill := range []KillNodes{KillReached, KillNone, KillAll} {
		opts := Options{Kill: kill}
		g := layout(t, app, nil, opts)
		checkLayout(t, app, nil, g, opts)
		w, h := PNGSize(g)
		if w > MaxPNGSide || h > MaxPNGSide || w*h > MaxPNGPixels {
			t.Errorf("kill=%v: PNG of %dx%d exceeds the bounds", kill, w, h)
		}
		if s := PNGScale(g); s >= DefaultPNGScale {
			t.Errorf("kill=%v: %vx%v drawing not scaled down (scale %v)", kill, g.Width, g.Height, s)
		}
	}
}
