package graph

import (
	"errors"
	"math"
	"sort"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// maxTitleLen bounds the title's length in characters.
const maxTitleLen = 120

// Layout lays out app for drawing, coloured by the run whose action rows
// are actions (rows are matched to nodes by name; the start node's row is
// StartName). See the package documentation for how. It fails only without
// an app: any parsed definition can be drawn, valid or not.
func Layout(app *workflow.App, actions []store.WorkflowAction, opts Options) (*Graph, error) {
	if app == nil {
		return nil, errors.New("laying out a workflow graph: no workflow app")
	}
	rows := rowsByName(actions)
	nodes := buildNodes(app, rows, opts.Kill)
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
	}
	edges := buildEdges(app, nodes, index, rows, opts.Kill)
	ends := make([][2]int, len(edges))
	for i, e := range edges {
		ends[i] = [2]int{index[e.From], index[e.To]}
	}

	lg := newLayered(nodes, ends)
	lg.order()
	lg.place()

	title := opts.Title
	if title == "" {
		title = app.Name
	}
	if r := []rune(title); len(r) > maxTitleLen {
		title = string(r[:maxTitleLen-3]) + "..."
	}
	g := &Graph{Name: app.Name, Title: title, Nodes: nodes, Edges: edges}
	layerY := g.arrange(lg)
	for i := range g.Edges {
		g.Edges[i].Back = lg.back[i]
	}
	g.route(lg, ends, layerY)
	return g, nil
}

// arrange turns the vertices' centres and layers into coordinates: content
// below the title, centred in the drawing, the legend under it. It returns
// the centre line of each layer.
func (g *Graph) arrange(lg *layered) []float64 {
	minX, maxX := math.Inf(1), math.Inf(-1)
	for i := range lg.v {
		minX = min(minX, lg.v[i].x-lg.v[i].w/2)
		maxX = max(maxX, lg.v[i].x+lg.v[i].w/2)
	}
	contentW := maxX - minX
	legendW := 0.0
	for _, s := range States {
		legendW += swatchW + 4 + legendText.width(s.String()) + legendItemSp
	}
	legendW -= legendItemSp
	g.Width = max(contentW, titleText.width(g.Title), legendW) + 2*margin
	shift := margin + (g.Width-2*margin-contentW)/2 - minX

	// Layer heights: the tallest node of each layer.
	y := margin + titleH
	layerY := make([]float64, len(lg.layers))
	for l, layer := range lg.layers {
		h := 0.0
		for _, v := range layer {
			h = max(h, lg.v[v].h)
		}
		layerY[l] = y + h/2
		y += h + layerGap
	}
	bottom := y - layerGap
	for i := range lg.v {
		lg.v[i].x += shift
		if n := lg.v[i].node; n >= 0 {
			g.Nodes[n].X, g.Nodes[n].Y = lg.v[i].x, layerY[lg.v[i].layer]
			g.Nodes[n].Layer = lg.v[i].layer
		}
	}

	g.TitleAt = Point{X: margin, Y: margin + titleText.capHeight()/2}
	x, ly := margin, bottom+16
	for _, s := range States {
		g.Legend = append(g.Legend, LegendItem{State: s, Label: s.String(), X: x, Y: ly})
		x += swatchW + 4 + legendText.width(s.String()) + legendItemSp
	}
	g.Height = ly + swatchH + margin
	return layerY
}

// route draws every edge as a polyline through its bend points, between
// ports spread along the bottom of the upper node and the top of the lower
// one, and places the edges' labels.
func (g *Graph) route(lg *layered, ends [][2]int, layerY []float64) {
	outPort, inPort := g.ports(lg)
	for i := range g.Edges {
		e := &g.Edges[i]
		chain := lg.route[i]
		if chain == nil {
			e.Points = selfLoop(&g.Nodes[ends[i][0]])
			e.LabelAt = Point{X: e.Points[1].X + labelText.width(e.Label)/2 + 4, Y: g.Nodes[ends[i][0]].Y}
			continue
		}
		pts := make([]Point, 0, len(chain))
		pts = append(pts, outPort[i])
		for _, v := range chain[1 : len(chain)-1] {
			pts = append(pts, Point{X: lg.v[v].x, Y: layerY[lg.v[v].layer]})
		}
		pts = append(pts, inPort[i])
		if e.Back {
			for a, b := 0, len(pts)-1; a < b; a, b = a+1, b-1 {
				pts[a], pts[b] = pts[b], pts[a]
			}
		}
		e.Points = pts
	}
	g.placeLabels()
}

// ports returns, for each edge, where it leaves its upper node and where it
// enters its lower one. Boxes and bars spread their edges along their
// width in the order of where the edges go; other shapes use the middle.
func (g *Graph) ports(lg *layered) (out, in []Point) {
	out = make([]Point, len(g.Edges))
	in = make([]Point, len(g.Edges))
	leaving := make(map[int][]int)  // node → edges whose route starts there
	entering := make(map[int][]int) // node → edges whose route ends there
	for i, chain := range lg.route {
		if chain == nil {
			continue
		}
		leaving[chain[0]] = append(leaving[chain[0]], i)
		entering[chain[len(chain)-1]] = append(entering[chain[len(chain)-1]], i)
	}
	spread := func(node int, edges []int, bottom bool, toward func(int) float64, into []Point) {
		n := &g.Nodes[node]
		sort.SliceStable(edges, func(a, b int) bool { return toward(edges[a]) < toward(edges[b]) })
		y := n.Y - n.H/2
		if bottom {
			y = n.Y + n.H/2
		}
		for j, e := range edges {
			x := n.X
			if (n.Shape == ShapeBox || n.Shape == ShapeBar) && len(edges) > 1 {
				x += n.W * 0.6 * (float64(j+1)/float64(len(edges)+1) - 0.5)
			}
			into[e] = Point{X: x, Y: y}
		}
	}
	for node, edges := range leaving {
		spread(node, edges, true, func(e int) float64 { return lg.v[lg.route[e][1]].x }, out)
	}
	for node, edges := range entering {
		spread(node, edges, false, func(e int) float64 { c := lg.route[e]; return lg.v[c[len(c)-2]].x }, in)
	}
	return out, in
}

// selfLoop routes an edge from a node to itself around its right side.
func selfLoop(n *Node) []Point {
	r := n.X + n.W/2
	return []Point{{r, n.Y - 6}, {r + 16, n.Y - 6}, {r + 16, n.Y + 6}, {r, n.Y + 6}}
}
