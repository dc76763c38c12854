package graph

import "math"

// box is an axis-aligned rectangle, for keeping labels apart.
type box struct{ x0, y0, x1, y1 float64 }

// overlaps reports whether a and b share some area.
func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// boxGrid holds boxes in horizontal bands, so that a query only looks at
// the boxes near it.
type boxGrid map[int][]box

// gridBand is the height of a band of boxGrid.
const gridBand = 40.0

// bands returns the first and last band b covers.
func bands(b box) (int, int) {
	return int(math.Floor(b.y0 / gridBand)), int(math.Floor(b.y1 / gridBand))
}

func (g boxGrid) add(b box) {
	lo, hi := bands(b)
	for i := lo; i <= hi; i++ {
		g[i] = append(g[i], b)
	}
}

func (g boxGrid) free(b box) bool {
	lo, hi := bands(b)
	for i := lo; i <= hi; i++ {
		for _, o := range g[i] {
			if o.overlaps(b) {
				return false
			}
		}
	}
	return true
}

// labelBox is the size of the patch an edge label takes: its text and a
// margin of two units around.
func labelBox(s string) (w, h float64) {
	return labelText.width(s) + 4, labelText.capHeight() + 4
}

// Where along the first segment of an edge its label may go, best first.
var labelSpots = []float64{0.5, 0.3, 0.7, 0.15, 0.85}

// placeLabels puts each edge label beside the first segment of its edge,
// on the side the segment leans to, at the first of a few spots along it
// that covers no node and no other label (the middle when none is free).
// Labels of edges fanning out of one node so end up apart.
func (g *Graph) placeLabels() {
	grid := boxGrid{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		grid.add(box{n.X - n.W/2, n.Y - n.H/2, n.X + n.W/2, n.Y + n.H/2})
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if e.Label == "" || len(e.Points) < 2 {
			continue
		}
		w, h := labelBox(e.Label)
		a, b := e.Points[0], e.Points[1]
		if e.From == e.To {
			// A self loop: right of the loop.
			e.LabelAt = Point{X: e.Points[1].X + w/2 + 2, Y: (e.Points[1].Y + e.Points[2].Y) / 2}
			continue
		}
		side := 1.0
		if b.X < a.X {
			side = -1
		}
		var first box
		placed := false
		for k, t := range labelSpots {
			for _, sd := range []float64{side, -side} {
				m := lerp(a, b, t)
				c := Point{X: m.X + sd*(w/2+2), Y: m.Y}
				bx := box{c.X - w/2, c.Y - h/2, c.X + w/2, c.Y + h/2}
				if k == 0 && sd == side {
					first, e.LabelAt = bx, c
				}
				if bx.x0 >= 0 && bx.x1 <= g.Width && grid.free(bx) {
					e.LabelAt, first, placed = c, bx, true
					break
				}
			}
			if placed {
				break
			}
		}
		grid.add(first)
	}
}
