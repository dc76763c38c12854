package graph

import (
	"image"
	"image/color"
	"math"
	"slices"
)

// canvas is an RGBA image drawn in layout units times scale, with
// anti-aliased filling: each pixel row is sampled on subRows scan lines and
// the horizontal coverage of every span is measured exactly.
type canvas struct {
	img   *image.RGBA
	scale float64
	cov   []float64 // coverage of the current row, reused
	xs    []float64 // crossings of the current scan line, reused
}

// subRows is the number of scan lines per pixel row.
const subRows = 4

// minDashPeriod is the shortest dash pattern, in pixels, drawn as dashes.
const minDashPeriod = 4.0

// newCanvas returns a w×h canvas filled with bg.
func newCanvas(w, h int, scale float64, bg color.RGBA) *canvas {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, bg.A
	}
	return &canvas{img: img, scale: scale, cov: make([]float64, w+2)}
}

// dev converts layout points to device (pixel) coordinates.
func (c *canvas) dev(pts []Point) []Point {
	out := make([]Point, len(pts))
	for i, p := range pts {
		out[i] = Point{p.X * c.scale, p.Y * c.scale}
	}
	return out
}

// fillPolygon fills the polygon pts (layout units, closed implicitly) with
// col, by the even-odd rule.
func (c *canvas) fillPolygon(pts []Point, col color.RGBA) {
	c.fillDevice(c.dev(pts), col)
}

// fillDevice fills a polygon given in device coordinates.
func (c *canvas) fillDevice(pts []Point, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	b := c.img.Bounds()
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) {
			return
		}
		minX, maxX = min(minX, p.X), max(maxX, p.X)
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	x0, x1 := max(b.Min.X, int(math.Floor(minX))), min(b.Max.X, int(math.Ceil(maxX)))
	y0, y1 := max(b.Min.Y, int(math.Floor(minY))), min(b.Max.Y, int(math.Ceil(maxY)))
	if x0 >= x1 || y0 >= y1 {
		return
	}
	cov := c.cov[:x1-x0+1]
	clear(cov)
	for y := y0; y < y1; y++ {
		// Only the columns between lo and hi (absolute) were touched.
		lo, hi := x1, x0-1
		for s := range subRows {
			sy := float64(y) + (float64(s)+0.5)/subRows
			c.xs = c.xs[:0]
			for i, a := range pts {
				z := pts[(i+1)%len(pts)]
				if (a.Y <= sy) != (z.Y <= sy) {
					c.xs = append(c.xs, a.X+(sy-a.Y)*(z.X-a.X)/(z.Y-a.Y))
				}
			}
			slices.Sort(c.xs)
			for k := 0; k+1 < len(c.xs); k += 2 {
				if a, b, ok := addSpan(cov, c.xs[k], c.xs[k+1], x0, x1); ok {
					lo, hi = min(lo, a), max(hi, b)
				}
			}
		}
		for x := lo; x <= hi; x++ {
			c.blend(x, y, col, cov[x-x0])
			cov[x-x0] = 0
		}
	}
}

// addSpan adds the coverage of one scan line's span [xa, xb) to cov, whose
// first cell is pixel column x0, and returns the columns it touched.
func addSpan(cov []float64, xa, xb float64, x0, x1 int) (first, last int, ok bool) {
	xa, xb = max(xa, float64(x0)), min(xb, float64(x1))
	if xb <= xa {
		return 0, 0, false
	}
	const w = 1.0 / subRows
	ia, ib := int(math.Floor(xa)), int(math.Floor(xb))
	if ia == ib {
		cov[ia-x0] += (xb - xa) * w
		return ia, ia, true
	}
	cov[ia-x0] += (float64(ia+1) - xa) * w
	for p := ia + 1; p < ib; p++ {
		cov[p-x0] += w
	}
	if ib < x1 {
		cov[ib-x0] += (xb - float64(ib)) * w
		return ia, ib, true
	}
	return ia, ib - 1, true
}

// fillRectDevice fills the device rectangle [x0,x1)×[y0,y1), covering
// pixels on its edges in proportion.
func (c *canvas) fillRectDevice(x0, y0, x1, y1 float64, col color.RGBA) {
	b := c.img.Bounds()
	px0, px1 := max(b.Min.X, int(math.Floor(x0))), min(b.Max.X, int(math.Ceil(x1)))
	py0, py1 := max(b.Min.Y, int(math.Floor(y0))), min(b.Max.Y, int(math.Ceil(y1)))
	for y := py0; y < py1; y++ {
		cy := min(y1, float64(y+1)) - max(y0, float64(y))
		for x := px0; x < px1; x++ {
			cx := min(x1, float64(x+1)) - max(x0, float64(x))
			c.blend(x, y, col, cx*cy)
		}
	}
}

// blend paints col over pixel (x, y) with opacity a.
func (c *canvas) blend(x, y int, col color.RGBA, a float64) {
	if a <= 0 {
		return
	}
	i := c.img.PixOffset(x, y)
	p := c.img.Pix[i : i+4 : i+4]
	if a >= 1 {
		p[0], p[1], p[2], p[3] = col.R, col.G, col.B, 0xff
		return
	}
	mix := func(d, s uint8) uint8 { return uint8(math.Round(float64(d)*(1-a) + float64(s)*a)) }
	p[0], p[1], p[2], p[3] = mix(p[0], col.R), mix(p[1], col.G), mix(p[2], col.B), 0xff
}

// strokePolyline draws the polyline pts (layout units) width units wide.
// A non-empty dash alternates drawn and skipped lengths along the line.
func (c *canvas) strokePolyline(pts []Point, width float64, col color.RGBA, dash []float64) {
	d := c.dev(pts)
	w := max(width*c.scale, 0.8)
	var pattern []float64
	period := 0.0
	for _, v := range dash {
		if v <= 0 {
			pattern = nil // a pattern with empty pieces draws a full line
			break
		}
		pattern = append(pattern, v*c.scale)
		period += v * c.scale
	}
	if period < minDashPeriod {
		// Dashes this small would only blur into a grey line, at the cost
		// of a polygon each: draw the line.
		pattern = nil
	}
	phase, on, left := 0, true, 0.0
	if len(pattern) > 0 {
		left = pattern[0]
	}
	for i := 0; i+1 < len(d); i++ {
		a, b := d[i], d[i+1]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if l == 0 {
			continue
		}
		if len(pattern) == 0 {
			c.segment(a, b, w, col)
			continue
		}
		for t := 0.0; t < l; {
			step := min(left, l-t)
			if on {
				c.segment(lerp(a, b, t/l), lerp(a, b, (t+step)/l), w, col)
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
}

// segment fills a straight piece of line of width w (device units) from a
// to b, extended by half its width at both ends so pieces join.
func (c *canvas) segment(a, b Point, w float64, col color.RGBA) {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	if l == 0 {
		return
	}
	ux, uy := (b.X-a.X)/l, (b.Y-a.Y)/l
	h := w / 2
	nx, ny := -uy*h, ux*h
	a = Point{a.X - ux*h*0.5, a.Y - uy*h*0.5}
	b = Point{b.X + ux*h*0.5, b.Y + uy*h*0.5}
	c.fillDevice([]Point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}}, col)
}

// lerp is the point a fraction t of the way from a to b.
func lerp(a, b Point, t float64) Point {
	return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
}
