package graph

import (
	"fmt"
	"image"
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
	// minTextScale is the scale below which text is left out: letters
	// would be three or four pixels tall, unreadable anyway.
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
	c.text(titleText, g.TitleAt.X, g.TitleAt.Y, g.Title, colorText, alignStart)
	for _, it := range g.Legend {
		sw := []Point{{it.X, it.Y}, {it.X + swatchW, it.Y}, {it.X + swatchW, it.Y + swatchH}, {it.X, it.Y + swatchH}}
		c.shape(sw, it.State.Fill(), it.State.Stroke(), 1)
		c.text(legendText, it.X+swatchW+4, it.Y+swatchH/2, it.Label, colorText, alignStart)
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
		dash = errorDash
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
	w, h := labelBox(s)
	c.fillPolygon([]Point{{at.X - w/2, at.Y - h/2}, {at.X + w/2, at.Y - h/2},
		{at.X + w/2, at.Y + h/2}, {at.X - w/2, at.Y + h/2}}, colorBackground)
	c.text(labelText, at.X, at.Y, s, colorLabel, alignMiddle)
}

// node draws a node's shape, outline and text.
func (c *canvas) node(n *Node) {
	c.shape(outline(n), n.State.Fill(), n.State.Stroke(), nodeStrokeW)
	if n.Type == "" {
		c.text(nameText, n.X, n.Y, n.Label, colorText, alignMiddle)
		return
	}
	c.text(nameText, n.X, n.Y+nameLineDY, n.Label, colorText, alignMiddle)
	c.text(typeText, n.X, n.Y+typeLineDY, n.Type, colorLabel, alignMiddle)
}
