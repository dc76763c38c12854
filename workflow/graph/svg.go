package graph

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// svgZoom is how much larger than the layout the SVG asks to be shown:
// the 10-unit font reads better at 12.5 pixels.
const svgZoom = 1.25

// SVG writes g as an SVG 1.1 document. Every node and edge is a group with a
// <title> (the full name and status, or a case's predicate), so browsers
// show them as tooltips.
func SVG(w io.Writer, g *Graph) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8" standalone="no"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" `+
		`font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="10">`+"\n",
		num(math.Ceil(g.Width*svgZoom)), num(math.Ceil(g.Height*svgZoom)), num(g.Width), num(g.Height))
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(g.Title))
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="%s"/>`+"\n", num(g.Width), num(g.Height), hex(colorBackground))
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-weight="bold" fill="%s">%s</text>`+"\n",
		num(g.TitleAt.X), num(baseline(g.TitleAt.Y)), hex(colorText), esc(g.Title))

	b.WriteString(`<g class="edges">` + "\n")
	for i := range g.Edges {
		svgEdge(&b, &g.Edges[i])
	}
	b.WriteString("</g>\n" + `<g class="nodes">` + "\n")
	for i := range g.Nodes {
		svgNode(&b, &g.Nodes[i])
	}
	b.WriteString("</g>\n" + `<g class="legend">` + "\n")
	for _, it := range g.Legend {
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s"/>`,
			num(it.X), num(it.Y), num(swatchW), num(swatchH), hex(it.State.Fill()), hex(it.State.Stroke()))
		fmt.Fprintf(&b, `<text x="%s" y="%s" fill="%s">%s</text>`+"\n",
			num(it.X+swatchW+4), num(baseline(it.Y+swatchH/2)), hex(colorText), esc(it.Label))
	}
	b.WriteString("</g>\n</svg>\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing workflow graph svg: %w", err)
	}
	return nil
}

// svgEdge writes one edge: its line, arrowhead and label.
func svgEdge(b *bytes.Buffer, e *Edge) {
	class := "edge " + string(e.Kind)
	if e.Taken {
		class += " taken"
	}
	col := hex(edgeColor(e))
	fmt.Fprintf(b, `<g class="%s"><title>%s</title>`, class, esc(edgeTitle(e)))
	shaft, head := arrow(e.Points)
	dash := ""
	if e.Kind == EdgeError {
		dash = ` stroke-dasharray="5,3"`
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`,
		points(shaft), col, num(edgeWidth(e)), dash)
	if head != nil {
		fmt.Fprintf(b, `<polygon points="%s" fill="%s"/>`, points(head), col)
	}
	if e.Label != "" {
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="%s" stroke="%s" stroke-width="3" paint-order="stroke">%s</text>`,
			num(e.LabelAt.X), num(baseline(e.LabelAt.Y)), hex(colorLabel), hex(colorBackground), esc(e.Label))
	}
	b.WriteString("</g>\n")
}

// svgNode writes one node: its shape and text.
func svgNode(b *bytes.Buffer, n *Node) {
	fill, stroke := hex(n.State.Fill()), hex(n.State.Stroke())
	fmt.Fprintf(b, `<g class="node %s"><title>%s</title>`, n.Kind, esc(nodeTitle(n)))
	paint := fmt.Sprintf(`fill="%s" stroke="%s" stroke-width="1.5"`, fill, stroke)
	switch n.Shape {
	case ShapeEllipse:
		fmt.Fprintf(b, `<ellipse cx="%s" cy="%s" rx="%s" ry="%s" %s/>`, num(n.X), num(n.Y), num(n.W/2), num(n.H/2), paint)
	case ShapeBox, ShapeBar:
		r := boxRadius
		if n.Shape == ShapeBar {
			r = barRadius
		}
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" rx="%s" %s/>`,
			num(n.X-n.W/2), num(n.Y-n.H/2), num(n.W), num(n.H), num(r), paint)
	case ShapeOctagon, ShapeDiamond:
		fmt.Fprintf(b, `<polygon points="%s" %s/>`, points(outline(n)), paint)
	}
	if n.Type == "" {
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="%s">%s</text>`,
			num(n.X), num(baseline(n.Y)), hex(colorText), esc(n.Label))
	} else {
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="%s">%s</text>`,
			num(n.X), num(baseline(n.Y+nameLineDY)), hex(colorText), esc(n.Label))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="%s" font-style="italic">%s</text>`,
			num(n.X), num(baseline(n.Y+typeLineDY)), hex(colorLabel), esc(n.Type))
	}
	b.WriteString("</g>\n")
}

// nodeTitle is a node's tooltip: its full name, kind or type, and status.
func nodeTitle(n *Node) string {
	what := string(n.Kind)
	if n.Type != "" {
		what = n.Type
	}
	status := string(n.Status)
	if status == "" {
		status = "not reached"
	}
	return fmt.Sprintf("%s (%s): %s", n.Name, what, status)
}

// edgeTitle is an edge's tooltip.
func edgeTitle(e *Edge) string {
	s := fmt.Sprintf("%s → %s (%s)", e.From, e.To, e.Kind)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// baseline is where a line of text whose middle is at y sits in SVG.
func baseline(y float64) float64 { return y + glyphH/2 }

// points formats a list of points for a points attribute.
func points(pts []Point) string {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.X))
		b.WriteByte(',')
		b.WriteString(num(p.Y))
	}
	return b.String()
}

// num formats a coordinate with at most one decimal.
func num(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// esc escapes text for XML character data and attribute values. Characters
// XML does not allow are replaced.
func esc(s string) string {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return ""
	}
	return b.String()
}
