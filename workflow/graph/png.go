package graph

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
)

// Size limits of PNG output. A graph drawn larger than these at
// DefaultPNGScale is scaled down to fit.
const (
	// DefaultPNGScale is the number of pixels per layout unit.
	DefaultPNGScale = 2.0
	// MaxPNGSide bounds the width and the height, in pixels.
	MaxPNGSide = 4000
	// MaxPNGPixels bounds width × height.
	MaxPNGPixels = 6_000_000
	// minTextScale is the scale below which text is left out: glyph pixels
	// would be a third of a pixel, unreadable anyway.
	minTextScale = 0.35
)

// PNGScale returns the pixels per layout unit PNG draws g with:
// DefaultPNGScale, or less for a graph that would exceed MaxPNGSide or
// MaxPNGPixels.
func PNGScale(g *Graph) float64 {
	s := DefaultPNGScale
	if g.Width > 0 {
		s = min(s, MaxPNGSide/g.Width)
	}
	if g.Height > 0 {
		s = min(s, MaxPNGSide/g.Height)
	}
	if area := g.Width * g.Height * s * s; area > MaxPNGPixels {
		s *= math.Sqrt(MaxPNGPixels / area)
	}
	return s
}

// PNGSize returns the width and height in pixels of g's PNG.
func PNGSize(g *Graph) (w, h int) {
	s := PNGScale(g)
	return max(1, int(math.Floor(g.Width*s))), max(1, int(math.Floor(g.Height*s)))
}

// Raster draws g into an image of PNGSize pixels.
func Raster(g *Graph) *image.RGBA {
	w, h := PNGSize(g)
	c := newCanvas(w, h, PNGScale(g), colorBackground)
	for i := range g.Edges {
		c.edge(&g.Edges[i])
	}
	for i := range g.Edges {
		if e := &g.Edges[i]; e.Label != "" {
			c.label(e.LabelAt, e.Label)
		}
	}
	for i := range g.Nodes {
		c.node(&g.Nodes[i])
	}
	c.text(Point{g.TitleAt.X + textWidth(g.Title)/2, g.TitleAt.Y}, g.Title, colorText)
	for _, it := range g.Legend {
		sw := []Point{{it.X, it.Y}, {it.X + swatchW, it.Y}, {it.X + swatchW, it.Y + swatchH}, {it.X, it.Y + swatchH}}
		c.fillPolygon(sw, it.State.Fill())
		c.strokePolyline(append(sw, sw[0]), 1, it.State.Stroke(), nil)
		c.text(Point{it.X + swatchW + 4 + textWidth(it.Label)/2, it.Y + swatchH/2}, it.Label, colorText)
	}
	return c.img
}

// PNG writes g as a PNG image drawn by Raster.
func PNG(w io.Writer, g *Graph) error {
	// Drawings are mostly flat colour: the fastest compression keeps them
	// small enough, and encoding is most of the time spent.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(w, Raster(g)); err != nil {
		return fmt.Errorf("writing workflow graph png: %w", err)
	}
	return nil
}

// edge draws an edge's line and arrowhead.
func (c *canvas) edge(e *Edge) {
	col := edgeColor(e)
	var dash []float64
	if e.Kind == EdgeError {
		dash = []float64{5, 3}
	}
	shaft, head := arrow(e.Points)
	c.strokePolyline(shaft, edgeWidth(e), col, dash)
	if head != nil {
		c.fillPolygon(head, col)
	}
}

// label draws an edge label on a patch of background so lines do not run
// through it.
func (c *canvas) label(at Point, s string) {
	w := textWidth(s)
	c.fillPolygon([]Point{{at.X - w/2 - 2, at.Y - glyphH/2 - 2}, {at.X + w/2 + 2, at.Y - glyphH/2 - 2},
		{at.X + w/2 + 2, at.Y + glyphH/2 + 2}, {at.X - w/2 - 2, at.Y + glyphH/2 + 2}}, colorBackground)
	c.text(at, s, colorLabel)
}

// node draws a node's shape, outline and text.
func (c *canvas) node(n *Node) {
	o := outline(n)
	c.fillPolygon(o, n.State.Fill())
	c.strokePolyline(append(o, o[0]), 1.5, n.State.Stroke(), nil)
	if n.Type == "" {
		c.text(Point{n.X, n.Y}, n.Label, colorText)
		return
	}
	c.text(Point{n.X, n.Y + nameLineDY}, n.Label, colorText)
	c.text(Point{n.X, n.Y + typeLineDY}, n.Type, colorLabel)
}

// text draws s in the bitmap font, centred on at. A glyph pixel is a whole
// number of device pixels at scales of 1 and more, so text stays crisp;
// below, it is drawn smaller and smoothed, and below minTextScale not at
// all.
func (c *canvas) text(at Point, s string, ink color.RGBA) {
	if c.scale < minTextScale || s == "" {
		return
	}
	px := c.scale
	if px >= 1 {
		px = math.Floor(px)
	}
	runes := []rune(s)
	w := float64(len(runes)*glyphAdv-1) * px
	x0 := at.X*c.scale - w/2
	y0 := at.Y*c.scale - glyphRows*px/2
	if px >= 1 {
		x0, y0 = math.Round(x0), math.Round(y0)
	}
	for i, r := range runes {
		g := glyphFor(r)
		gx := x0 + float64(i*glyphAdv)*px
		for row := range glyphRows {
			bits := g[row]
			for col := range glyphCols {
				if bits&(1<<(glyphCols-1-col)) == 0 {
					continue
				}
				x, y := gx+float64(col)*px, y0+float64(row)*px
				c.fillRectDevice(x, y, x+px, y+px, ink)
			}
		}
	}
}
