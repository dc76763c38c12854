package graph

import "math"

// Geometry shared by the SVG and PNG renderers, in layout units.

// ellipseSegments is how many sides approximate an ellipse when filled as a
// polygon.
const ellipseSegments = 48

// outline returns the border of n's shape as a closed polygon (the last
// point joins the first).
func outline(n *Node) []Point {
	x0, y0, x1, y1 := n.X-n.W/2, n.Y-n.H/2, n.X+n.W/2, n.Y+n.H/2
	switch n.Shape {
	case ShapeEllipse:
		pts := make([]Point, ellipseSegments)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / ellipseSegments
			pts[i] = Point{n.X + n.W/2*math.Cos(a), n.Y + n.H/2*math.Sin(a)}
		}
		return pts
	case ShapeOctagon:
		c := min(n.W, n.H) * 0.3
		return []Point{{x0 + c, y0}, {x1 - c, y0}, {x1, y0 + c}, {x1, y1 - c},
			{x1 - c, y1}, {x0 + c, y1}, {x0, y1 - c}, {x0, y0 + c}}
	case ShapeDiamond:
		return []Point{{n.X, y0}, {x1, n.Y}, {n.X, y1}, {x0, n.Y}}
	case ShapeBox:
		return roundedRect(x0, y0, x1, y1, boxRadius)
	case ShapeBar:
		return roundedRect(x0, y0, x1, y1, barRadius)
	}
	return []Point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

// Corner radii of boxes and bars.
const (
	boxRadius = 4.0
	barRadius = 2.0
)

// roundedRect is a rectangle whose corners are quarter circles of radius r,
// each drawn with a few straight sides.
func roundedRect(x0, y0, x1, y1, r float64) []Point {
	const steps = 4
	corners := [4]struct{ cx, cy, from float64 }{
		{x1 - r, y0 + r, -math.Pi / 2}, // top right
		{x1 - r, y1 - r, 0},            // bottom right
		{x0 + r, y1 - r, math.Pi / 2},  // bottom left
		{x0 + r, y0 + r, math.Pi},      // top left
	}
	pts := make([]Point, 0, 4*(steps+1))
	for _, c := range corners {
		for s := 0; s <= steps; s++ {
			a := c.from + math.Pi/2*float64(s)/steps
			pts = append(pts, Point{c.cx + r*math.Cos(a), c.cy + r*math.Sin(a)})
		}
	}
	return pts
}

// arrow returns the shaft of an edge (its points with the last one pulled
// back so a thick line does not poke through the tip) and the three corners
// of its arrowhead, tip first. Edges with fewer than two distinct points
// have no head.
func arrow(pts []Point) (shaft []Point, head []Point) {
	if len(pts) < 2 {
		return pts, nil
	}
	tip, from := pts[len(pts)-1], pts[len(pts)-2]
	dx, dy := tip.X-from.X, tip.Y-from.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return pts, nil
	}
	ux, uy := dx/l, dy/l
	back := min(arrowLen, l)
	base := Point{tip.X - ux*back, tip.Y - uy*back}
	shaft = append(append(make([]Point, 0, len(pts)), pts[:len(pts)-1]...),
		Point{tip.X - ux*back*0.7, tip.Y - uy*back*0.7})
	head = []Point{tip, {base.X - uy*arrowHalfW, base.Y + ux*arrowHalfW}, {base.X + uy*arrowHalfW, base.Y - ux*arrowHalfW}}
	return shaft, head
}

// Vertical offsets of the two text lines of an action box from its centre.
const (
	nameLineDY = -6.5
	typeLineDY = 7.5
)
