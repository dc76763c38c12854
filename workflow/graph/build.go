package graph

import (
	"strconv"
	"strings"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// buildNodes returns the nodes to draw, start first and then the app's
// nodes in document order (kill nodes only with showKill), sized for their
// labels, with the state of their rows.
func buildNodes(app *workflow.App, rows map[string]*store.WorkflowAction, showKill bool) []Node {
	nodes := make([]Node, 0, len(app.Nodes)+1)
	nodes = append(nodes, sized(Node{Name: StartName, Label: "start", Kind: workflow.KindStart}))
	seen := map[string]bool{StartName: true}
	for _, n := range app.Nodes {
		// Parse refuses duplicate names; should one come anyway, the first
		// node of a name is the one drawn.
		if n == nil || seen[n.Name] || (n.Kind == workflow.KindKill && !showKill) {
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

// sized sets n's shape and size from its kind and label.
func sized(n Node) Node {
	tw := textWidth(n.Label)
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
		n.Shape, n.W, n.H = ShapeBox, max(tw, textWidth(n.Type))+20, 36
		n.W = max(n.W, 72)
	default:
		n.Shape, n.W, n.H = ShapeBox, max(tw+20, 72), 26
	}
	return n
}

// buildEdges returns the transitions between drawn nodes, in document
// order, marking those the run took. index maps names to drawn nodes;
// transitions to other names (missing or hidden nodes) are dropped.
func buildEdges(app *workflow.App, index map[string]int, rows map[string]*store.WorkflowAction) []Edge {
	var edges []Edge
	add := func(from, to string, kind EdgeKind, label, detail string) {
		if _, ok := index[to]; !ok {
			return
		}
		edges = append(edges, Edge{From: from, To: to, Kind: kind, Label: label, Detail: detail,
			Taken: took(rows[from], to)})
	}
	add(StartName, app.Start, EdgeStart, "", "")
	done := map[string]bool{StartName: true}
	for _, n := range app.Nodes {
		if n == nil || done[n.Name] {
			continue
		}
		done[n.Name] = true
		if _, ok := index[n.Name]; !ok {
			continue
		}
		switch n.Kind {
		case workflow.KindAction:
			if n.Action != nil {
				add(n.Name, n.Action.OK, EdgeOK, "", "")
				add(n.Name, n.Action.Error, EdgeError, "error", "")
			}
		case workflow.KindDecision:
			for i, c := range n.Cases {
				add(n.Name, c.To, EdgeCase, "case "+strconv.Itoa(i+1), c.Predicate)
			}
			add(n.Name, n.Default, EdgeDefault, "default", "")
		case workflow.KindFork:
			for _, p := range n.Paths {
				add(n.Name, p, EdgeFork, "", "")
			}
		case workflow.KindJoin:
			add(n.Name, n.To, EdgeJoin, "", "")
		case workflow.KindStart, workflow.KindEnd, workflow.KindKill:
		}
	}
	return edges
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
