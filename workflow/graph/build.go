package graph

import (
	"strconv"
	"strings"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// buildNodes returns the nodes to draw, start first and then the app's
// nodes in document order (kill nodes as mode says), sized for their
// labels, with the state of their rows.
func buildNodes(app *workflow.App, rows map[string]*store.WorkflowAction, mode KillNodes) []Node {
	nodes := make([]Node, 0, len(app.Nodes)+1)
	nodes = append(nodes, sized(Node{Name: StartName, Label: "start", Kind: workflow.KindStart}))
	seen := map[string]bool{StartName: true}
	for _, n := range app.Nodes {
		// Parse refuses duplicate names; should one come anyway, the first
		// node of a name is the one drawn.
		if n == nil || seen[n.Name] {
			continue
		}
		if n.Kind == workflow.KindKill && !drawsKill(mode, rows[n.Name] != nil) {
			continue
		}
		seen[n.Name] = true
		nd := Node{Name: n.Name, Label: shorten(n.Name), Kind: n.Kind}
		if n.Kind == workflow.KindAction && n.Action != nil {
			nd.Type = shorten(n.Action.Type)
		}
		nodes = append(nodes, sized(nd))
	}
	for i := range nodes {
		if r := rows[nodes[i].Name]; r != nil {
			nodes[i].Status = r.Status
		}
		nodes[i].State = StateOf(nodes[i].Kind, nodes[i].Status)
	}
	return nodes
}

// drawsKill reports whether a kill node is drawn in mode; reached says
// whether the run got to it.
func drawsKill(mode KillNodes, reached bool) bool {
	switch mode {
	case KillAll:
		return true
	case KillReached:
		return reached
	case KillNone:
	}
	return false
}

// drawsEdgeInto reports whether a transition into a node of kind to is
// drawn in mode, given whether the run took it. Only transitions into kill
// nodes depend on the mode.
func drawsEdgeInto(to workflow.NodeKind, mode KillNodes, taken bool) bool {
	if to != workflow.KindKill {
		return true
	}
	return drawsKill(mode, taken)
}

// sized sets n's shape and size from its kind and label.
func sized(n Node) Node {
	tw := nameText.width(n.Label)
	switch n.Kind {
	case workflow.KindStart, workflow.KindEnd:
		n.Shape, n.W, n.H = ShapeEllipse, max(tw*1.25+20, 56), 26
	case workflow.KindKill:
		n.Shape, n.W, n.H = ShapeOctagon, max(tw+26, 56), 28
	case workflow.KindDecision:
		// The label sits across the middle, where the diamond is widest.
		n.Shape, n.W, n.H = ShapeDiamond, max(tw/0.8+20, 72), 40
	case workflow.KindFork, workflow.KindJoin:
		n.Shape, n.W, n.H = ShapeBar, max(tw+24, 84), 18
	case workflow.KindAction:
		n.Shape, n.W, n.H = ShapeBox, max(tw, typeText.width(n.Type))+20, 36
		n.W = max(n.W, 72)
	default:
		n.Shape, n.W, n.H = ShapeBox, max(tw+20, 72), 26
	}
	return n
}

// buildEdges returns the transitions between drawn nodes, in document
// order, marking those the run took. index maps names to drawn nodes;
// transitions to other names (missing or hidden nodes) are dropped, and so
// are transitions into kill nodes that mode leaves out.
func buildEdges(app *workflow.App, nodes []Node, index map[string]int, rows map[string]*store.WorkflowAction, mode KillNodes) []Edge {
	var edges []Edge
	add := func(from, to string, kind EdgeKind, label, detail string, taken bool) {
		i, ok := index[to]
		if !ok || !drawsEdgeInto(nodes[i].Kind, mode, taken) {
			return
		}
		edges = append(edges, Edge{From: from, To: to, Kind: kind, Label: label, Detail: detail, Taken: taken})
	}
	add(StartName, app.Start, EdgeStart, "", "", took(rows[StartName], app.Start))
	done := map[string]bool{StartName: true}
	for _, n := range app.Nodes {
		if n == nil || done[n.Name] {
			continue
		}
		done[n.Name] = true
		if _, ok := index[n.Name]; !ok {
			continue
		}
		row := rows[n.Name]
		switch n.Kind {
		case workflow.KindAction:
			if n.Action != nil {
				okTaken, errTaken := actionTook(row, n.Action)
				add(n.Name, n.Action.OK, EdgeOK, "", "", okTaken)
				add(n.Name, n.Action.Error, EdgeError, "error", "", errTaken)
			}
		case workflow.KindDecision:
			for i, c := range n.Cases {
				add(n.Name, c.To, EdgeCase, "case "+strconv.Itoa(i+1), c.Predicate, took(row, c.To))
			}
			add(n.Name, n.Default, EdgeDefault, "default", "", took(row, n.Default))
		case workflow.KindFork:
			for _, p := range n.Paths {
				add(n.Name, p, EdgeFork, "", "", took(row, p))
			}
		case workflow.KindJoin:
			add(n.Name, n.To, EdgeJoin, "", "", took(row, n.To))
		case workflow.KindStart, workflow.KindEnd, workflow.KindKill:
		}
	}
	return edges
}

// actionTook reports whether an action whose row is row took its ok and
// its error transition. When both name one node, the status tells which:
// the engine records ERROR with the error transition, OK with the ok one.
func actionTook(row *store.WorkflowAction, a *workflow.Action) (ok, err bool) {
	ok, err = took(row, a.OK), took(row, a.Error)
	if a.OK == a.Error && ok {
		err = row.Status == store.ActionError
		ok = !err
	}
	return ok, err
}

// took reports whether row's recorded transition goes to to. A fork's row
// lists all its paths, comma-separated.
func took(row *store.WorkflowAction, to string) bool {
	if row == nil || row.Transition == "" {
		return false
	}
	for _, t := range strings.Split(row.Transition, ",") {
		if strings.TrimSpace(t) == to {
			return true
		}
	}
	return false
}

// rowsByName indexes a run's action rows by node name. Should a name appear
// twice, the later row wins.
func rowsByName(actions []store.WorkflowAction) map[string]*store.WorkflowAction {
	m := make(map[string]*store.WorkflowAction, len(actions))
	for i := range actions {
		m[actions[i].Name] = &actions[i]
	}
	return m
}
