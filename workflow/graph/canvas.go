package graph

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// canvas is an RGBA image drawn in layout units times scale. Shapes are
// filled by golang.org/x/image/vector (exact anti-aliasing, non-zero
// winding: polygons of one orientation add up, an opposite one cuts a
// hole) and text is drawn in the Go fonts by font.Drawer.
type canvas struct {
	img   *image.RGBA
	scale float64
	ras   vector.Rasterizer
	mask  image.Alpha // the rasterizer's coverage, reused
	faces map[textStyle]font.Face
}

// Stroking limits, in pixels.
const (
	// minDashPeriod is the shortest dash pattern drawn as dashes: shorter
	// ones would only blur into a grey line.
	minDashPeriod = 4.0
	// maxBatchArea bounds the bounding box of the pieces of a line filled
	// at once: the rasterizer's work is proportional to that area, and a
	// long diagonal line's box would be most of the picture.
	maxBatchArea = 128 * 128
	// maxPiece is the longest straight piece a line is cut into, so that
	// a batch's box stays small.
	maxPiece = 64.0
	// batchOverlap is how far a batch reaches back over the previous one,
	// so that no seam of partly covered pixels shows where they meet.
	batchOverlap = 1.0
	// joinSides is the number of sides of the disc rounding a joint.
	joinSides = 12
)

// newCanvas returns a w×h canvas filled with bg.
func newCanvas(w, h int, scale float64, bg color.RGBA) *canvas {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	return &canvas{img: img, scale: scale, faces: map[textStyle]font.Face{}}
}

// dev converts layout points to device (pixel) coordinates.
func (c *canvas) dev(pts []Point) []Point {
	out := make([]Point, len(pts))
	for i, p := range pts {
		out[i] = Point{p.X * c.scale, p.Y * c.scale}
	}
	return out
}

// fill fills the union of polygons given in device coordinates (each
// closed implicitly) with col. Polygons wound the other way round cut
// holes.
func (c *canvas) fill(col color.RGBA, polys ...[]Point) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pts := range polys {
		for _, p := range pts {
			if !finite(p.X, p.Y) {
				return
			}
			minX, maxX = min(minX, p.X), max(maxX, p.X)
			minY, maxY = min(minY, p.Y), max(maxY, p.Y)
		}
	}
	if minX > maxX {
		return
	}
	// Clamp before converting: a coordinate far outside the image must not
	// overflow int.
	b := c.img.Bounds()
	x0 := int(math.Floor(max(minX, float64(b.Min.X))))
	y0 := int(math.Floor(max(minY, float64(b.Min.Y))))
	x1 := int(math.Ceil(min(maxX, float64(b.Max.X))))
	y1 := int(math.Ceil(min(maxY, float64(b.Max.Y))))
	r := image.Rect(x0, y0, x1, y1).Intersect(b)
	if r.Empty() {
		return
	}
	c.ras.Reset(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	for _, pts := range polys {
		if len(pts) < 3 {
			continue
		}
		c.ras.MoveTo(float32(pts[0].X-ox), float32(pts[0].Y-oy))
		for _, p := range pts[1:] {
			c.ras.LineTo(float32(p.X-ox), float32(p.Y-oy))
		}
		c.ras.ClosePath()
	}
	c.paint(r, col)
}

// paint composites col through the rasterizer's coverage onto the image
// rectangle r, which has the rasterizer's size. The coverage goes to an
// alpha mask first (the rasterizer's fastest path), so that the many
// uncovered pixels of a shape's bounding box cost only a look.
func (c *canvas) paint(r image.Rectangle, col color.RGBA) {
	w, h := r.Dx(), r.Dy()
	if n := w * h; cap(c.mask.Pix) < n {
		c.mask.Pix = make([]uint8, n)
	} else {
		c.mask.Pix = c.mask.Pix[:n]
	}
	c.mask.Stride, c.mask.Rect = w, image.Rect(0, 0, w, h)
	c.ras.DrawOp = draw.Src
	c.ras.Draw(&c.mask, c.mask.Rect, image.Opaque, image.Point{})
	for y := range h {
		cov := c.mask.Pix[y*w : (y+1)*w]
		pix := c.img.Pix[c.img.PixOffset(r.Min.X, r.Min.Y+y):]
		for x, a := range cov {
			if a == 0 {
				continue
			}
			p := pix[4*x : 4*x+4 : 4*x+4]
			if a == 0xff {
				p[0], p[1], p[2], p[3] = col.R, col.G, col.B, 0xff
				continue
			}
			k := uint32(a)
			mix := func(d, s uint8) uint8 { return uint8((uint32(d)*(0xff-k) + uint32(s)*k + 0x7f) / 0xff) }
			p[0], p[1], p[2], p[3] = mix(p[0], col.R), mix(p[1], col.G), mix(p[2], col.B), 0xff
		}
	}
}

// fillPolygon fills the polygon pts, in layout units, with col.
func (c *canvas) fillPolygon(pts []Point, col color.RGBA) { c.fill(col, c.dev(pts)) }

// shape fills the convex polygon pts (layout units) and draws its outline
// width units wide, centred on the border.
func (c *canvas) shape(pts []Point, fill, stroke color.RGBA, width float64) {
	d := dedupe(c.dev(pts))
	if len(d) < 3 {
		return
	}
	c.fill(fill, d)
	h := max(width*c.scale, 0.8) / 2
	outer, inner := offsetConvex(d, h), offsetConvex(d, -h)
	c.fill(stroke, wind(outer, true), wind(inner, false))
}

// strokePolyline draws the polyline pts (layout units) width units wide,
// with round joints and flat ends. A dash pattern alternates drawn and
// skipped lengths along the line.
func (c *canvas) strokePolyline(pts []Point, width float64, col color.RGBA, dash []float64) {
	d := dedupe(c.dev(pts))
	w := max(width*c.scale, 0.8)
	pattern := devDash(dash, c.scale)
	b := batch{c: c, col: col}
	phase, on, left := 0, true, math.Inf(1)
	if len(pattern) > 0 {
		left = pattern[0]
	}
	for i := 0; i+1 < len(d); i++ {
		a, z := d[i], d[i+1]
		l := math.Hypot(z.X-a.X, z.Y-a.Y)
		if i > 0 && on {
			b.joint(a, w)
		}
		for t := 0.0; t < l; {
			step := min(left, l-t, maxPiece)
			if on {
				b.line(lerp(a, z, t/l), lerp(a, z, (t+step)/l), w)
			}
			t += step
			left -= step
			if left <= 0 {
				phase = (phase + 1) % len(pattern)
				on = !on
				left = pattern[phase]
			}
		}
	}
	b.flush()
}

// devDash returns a dash pattern in pixels, or nil to draw a full line: for
// no pattern, one with empty pieces, or one too fine to show.
func devDash(dash []float64, scale float64) []float64 {
	var pattern []float64
	period := 0.0
	for _, v := range dash {
		if v <= 0 {
			return nil
		}
		pattern = append(pattern, v*scale)
		period += v * scale
	}
	if period < minDashPeriod {
		return nil
	}
	return pattern
}

// batch gathers pieces of one line to fill them together, which joins them
// without seams, up to maxBatchArea of bounding box.
type batch struct {
	c      *canvas
	col    color.RGBA
	polys  [][]Point
	x0, y0 float64
	x1, y1 float64
	// last is where the last straight piece ended.
	last    Point
	hasLast bool
}

// line adds the straight piece a→z, w pixels wide. A piece that opens a
// new batch where the last one ended reaches back over it a little.
func (b *batch) line(a, z Point, w float64) {
	if b.put(quad(a, z, w)) && b.hasLast && math.Hypot(a.X-b.last.X, a.Y-b.last.Y) < 1e-6 {
		l := math.Hypot(z.X-a.X, z.Y-a.Y)
		back := Point{a.X - (z.X-a.X)/l*batchOverlap, a.Y - (z.Y-a.Y)/l*batchOverlap}
		b.polys[0] = quad(back, z, w)
	}
	b.last, b.hasLast = z, true
}

// joint adds a round joint at p of a line w pixels wide.
func (b *batch) joint(p Point, w float64) { b.put(disc(p, w/2)) }

// put adds a polygon (device units, wound positively), filling the ones
// gathered first when the batch would grow too large. It reports whether
// the polygon opens a new batch.
func (b *batch) put(poly []Point) bool {
	if len(poly) < 3 {
		return false
	}
	x0, y0, x1, y1 := bounds(poly)
	if len(b.polys) > 0 {
		nx0, ny0, nx1, ny1 := min(b.x0, x0), min(b.y0, y0), max(b.x1, x1), max(b.y1, y1)
		if (nx1-nx0)*(ny1-ny0) <= maxBatchArea {
			b.polys = append(b.polys, poly)
			b.x0, b.y0, b.x1, b.y1 = nx0, ny0, nx1, ny1
			return false
		}
		b.flush()
	}
	b.polys = append(b.polys, poly)
	b.x0, b.y0, b.x1, b.y1 = x0, y0, x1, y1
	return true
}

// flush fills the gathered pieces.
func (b *batch) flush() {
	if len(b.polys) > 0 {
		b.c.fill(b.col, b.polys...)
	}
	b.polys = b.polys[:0]
}

// quad is the rectangle of a straight piece of line w wide from a to z,
// wound positively.
func quad(a, z Point, w float64) []Point {
	l := math.Hypot(z.X-a.X, z.Y-a.Y)
	if l == 0 {
		return nil
	}
	nx, ny := -(z.Y-a.Y)/l*w/2, (z.X-a.X)/l*w/2
	return wind([]Point{{a.X + nx, a.Y + ny}, {z.X + nx, z.Y + ny}, {z.X - nx, z.Y - ny}, {a.X - nx, a.Y - ny}}, true)
}

// disc is a polygon of joinSides sides around a circle of radius r,
// wound positively.
func disc(at Point, r float64) []Point {
	pts := make([]Point, joinSides)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / joinSides
		pts[i] = Point{at.X + r*math.Cos(a), at.Y + r*math.Sin(a)}
	}
	return wind(pts, true)
}

// bounds returns the bounding box of pts.
func bounds(pts []Point) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, x1 = min(x0, p.X), max(x1, p.X)
		y0, y1 = min(y0, p.Y), max(y1, p.Y)
	}
	return x0, y0, x1, y1
}

// signedArea is the shoelace area of the polygon pts: positive when its
// inside lies left of its edges (x right, y up).
func signedArea(pts []Point) float64 {
	a := 0.0
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		a += p.X*q.Y - q.X*p.Y
	}
	return a / 2
}

// wind returns pts wound positively (signedArea > 0) or negatively.
func wind(pts []Point, positive bool) []Point {
	if (signedArea(pts) > 0) != positive {
		for a, b := 0, len(pts)-1; a < b; a, b = a+1, b-1 {
			pts[a], pts[b] = pts[b], pts[a]
		}
	}
	return pts
}

// dedupe drops points equal to the one before them (and a last one equal
// to the first), which have no direction.
func dedupe(pts []Point) []Point {
	out := make([]Point, 0, len(pts))
	for _, p := range pts {
		if len(out) == 0 || p != out[len(out)-1] {
			out = append(out, p)
		}
	}
	if len(out) > 2 && out[0] == out[len(out)-1] {
		out = out[:len(out)-1]
	}
	return out
}

// offsetConvex returns the convex polygon pts with every side moved d
// outward (inward when d is negative), corners mitred.
func offsetConvex(pts []Point, d float64) []Point {
	n := len(pts)
	sign := 1.0
	if signedArea(pts) < 0 {
		sign = -1
	}
	// The outward normal of side a→b of a positively wound polygon is
	// (dy, -dx) over its length.
	normal := func(a, b Point) Point {
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		return Point{sign * dy / l, -sign * dx / l}
	}
	out := make([]Point, n)
	for i, p := range pts {
		n1, n2 := normal(pts[(i+n-1)%n], p), normal(p, pts[(i+1)%n])
		mx, my := n1.X+n2.X, n1.Y+n2.Y
		ml := math.Hypot(mx, my)
		if ml < 1e-9 {
			out[i] = Point{p.X + n1.X*d, p.Y + n1.Y*d}
			continue
		}
		mx, my = mx/ml, my/ml
		// The mitre is d over the cosine of half the corner's turn, capped
		// for very sharp corners.
		k := max(mx*n1.X+my*n1.Y, 0.25)
		out[i] = Point{p.X + mx*d/k, p.Y + my*d/k}
	}
	return out
}

// Text alignment of canvas.text.
const (
	alignStart  = false
	alignMiddle = true
)

// text draws s in style st with ink, its capitals centred vertically on
// y, starting at x (alignStart) or centred on it (alignMiddle), all in
// layout units. The baseline sits on a whole pixel, so stems and bowls
// stay sharp. Below minTextScale nothing is drawn: the letters would be
// too small to read.
func (c *canvas) text(st textStyle, x, y float64, s string, ink color.RGBA, middle bool) {
	if c.scale < minTextScale || s == "" {
		return
	}
	face, ok := c.faces[st]
	if !ok {
		var err error
		if face, err = st.face(c.scale); err != nil {
			// Only a size opentype refuses gets here; the text is left out.
			c.faces[st] = nil
			return
		}
		c.faces[st] = face
	}
	if face == nil {
		return
	}
	x0 := x * c.scale
	if middle {
		x0 -= st.width(s) * c.scale / 2
	}
	baseline := math.Round((y + st.capHeight()/2) * c.scale)
	if !finite(x0, baseline) || math.Abs(x0) > 1e6 || math.Abs(baseline) > 1e6 {
		return
	}
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(ink), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(x0 * 64)), Y: fixed.I(int(baseline))}}
	d.DrawString(s)
}

// finite reports whether every value is a finite number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// lerp is the point a fraction t of the way from a to b.
func lerp(a, b Point, t float64) Point {
	return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
}
