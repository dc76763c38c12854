package graph

import "sort"

// vertex is a vertex of the layered graph: a drawn node, or a bend point
// of an edge that crosses a layer.
type vertex struct {
	node     int // index of the drawn node; -1 for a bend point
	layer    int
	w, h     float64
	x        float64
	up, down []int // neighbours in the layers above and below
}

// layered is the graph the layout works on. The first len(nodes) vertices
// are the drawn nodes, in the same order; bend points follow.
type layered struct {
	v      []vertex
	layers [][]int // vertex indices of each layer, left to right
	// route is, for each edge, the chain of vertices it passes from the
	// upper end to the lower one; nil for a self loop.
	route [][]int
	// back marks edges laid out reversed to break a cycle; straight marks
	// long edges left without bend points (over the budget).
	back, straight []bool
}

// newLayered assigns layers to the nodes for edges ends (pairs of node
// indices) and adds the bend points of long edges.
func newLayered(nodes []Node, ends [][2]int) *layered {
	n := len(nodes)
	lg := &layered{route: make([][]int, len(ends)), straight: make([]bool, len(ends))}
	lg.back = backEdges(n, ends)
	upper := func(i int) (int, int) {
		if lg.back[i] {
			return ends[i][1], ends[i][0]
		}
		return ends[i][0], ends[i][1]
	}
	layer := longestPath(n, ends, upper)
	lg.v = make([]vertex, n, n+64)
	for i := range nodes {
		lg.v[i] = vertex{node: i, layer: layer[i], w: nodes[i].W, h: nodes[i].H}
	}

	// Long edges get bend points, shortest first, while the budget lasts.
	idx := make([]int, 0, len(ends))
	for i, e := range ends {
		if e[0] != e[1] {
			idx = append(idx, i)
		}
	}
	span := func(i int) int {
		t, b := upper(i)
		return layer[b] - layer[t]
	}
	sort.SliceStable(idx, func(a, b int) bool { return span(idx[a]) < span(idx[b]) })
	budget := dummyBudget
	for _, i := range idx {
		t, b := upper(i)
		s := span(i)
		if s-1 > budget {
			lg.route[i] = []int{t, b}
			lg.straight[i] = true
			continue
		}
		budget -= s - 1
		chain := make([]int, 0, s+1)
		chain = append(chain, t)
		for l := layer[t] + 1; l < layer[b]; l++ {
			lg.v = append(lg.v, vertex{node: -1, layer: l})
			chain = append(chain, len(lg.v)-1)
		}
		chain = append(chain, b)
		for k := 0; k+1 < len(chain); k++ {
			a, c := chain[k], chain[k+1]
			lg.v[a].down = append(lg.v[a].down, c)
			lg.v[c].up = append(lg.v[c].up, a)
		}
		lg.route[i] = chain
	}

	depth := 0
	for i := range lg.v {
		depth = max(depth, lg.v[i].layer+1)
	}
	lg.layers = make([][]int, depth)
	for i := range lg.v {
		l := lg.v[i].layer
		lg.layers[l] = append(lg.layers[l], i)
	}
	return lg
}

// backEdges finds edges that close a cycle: a depth-first search from node
// 0 (start), then from every node not yet seen, in order, marks the edges
// that lead back to a node on the current path. Reversing them leaves a
// DAG. Self loops are not marked; the layout leaves them aside.
func backEdges(n int, ends [][2]int) []bool {
	back := make([]bool, len(ends))
	out := make([][]int, n)
	for i, e := range ends {
		if e[0] != e[1] {
			out[e[0]] = append(out[e[0]], i)
		}
	}
	const (
		white = iota
		grey
		black
	)
	state := make([]uint8, n)
	type frame struct{ v, next int }
	var stack []frame
	for root := range n {
		if state[root] != white {
			continue
		}
		state[root] = grey
		stack = append(stack[:0], frame{v: root})
		for len(stack) > 0 {
			top := len(stack) - 1
			v := stack[top].v
			if stack[top].next == len(out[v]) {
				state[v] = black
				stack = stack[:top]
				continue
			}
			ei := out[v][stack[top].next]
			stack[top].next++
			switch w := ends[ei][1]; state[w] {
			case white:
				state[w] = grey
				stack = append(stack, frame{v: w})
			case grey:
				back[ei] = true
			}
		}
	}
	return back
}

// longestPath layers the DAG whose edges run upper(i): every node sits one
// layer below the lowest of its predecessors, sources in layer 0.
func longestPath(n int, ends [][2]int, upper func(int) (int, int)) []int {
	layer := make([]int, n)
	indeg := make([]int, n)
	out := make([][]int, n)
	for i, e := range ends {
		if e[0] == e[1] {
			continue
		}
		t, b := upper(i)
		out[t] = append(out[t], b)
		indeg[b]++
	}
	queue := make([]int, 0, n)
	for v := range n {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for k := 0; k < len(queue); k++ {
		v := queue[k]
		for _, w := range out[v] {
			layer[w] = max(layer[w], layer[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	return layer
}
