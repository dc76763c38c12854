package graph

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
)

// svgZoom is how much larger than the layout the SVG asks to be shown.
const svgZoom = 1.25

// SVG writes g as a self-contained SVG 1.1 document (no external style
// sheet, font or image; no ids, so that several can share an HTML page),
// made to be embedded inline too:
//
//   - the root has width and height (the layout zoomed by svgZoom) and a
//     viewBox in layout units;
//   - each node is a <g class="node" data-name="NAME" data-kind="KIND"
//     data-type="TYPE" data-status="STATUS" data-state="STATE"> holding a
//     <title> "NAME (TYPE or KIND): STATUS" (browsers show it as a
//     tooltip), its shape and its text. data-type is only on actions;
//     data-status is the row's status, empty when the run never reached
//     the node; data-state is State.Class;
//   - each edge is a <g class="edge" data-from="FROM" data-to="TO"
//     data-kind="KIND" data-taken="true|false"> with a <title>, its line,
//     arrowhead and label.
//
// Text names the Go font (svgFontFamily) and carries the textLength the
// layout measured in it, so boxes fit their labels whatever font the
// viewer has.
func SVG(w io.Writer, g *Graph) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="workflow-graph" `+
		`width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" font-family="%s" font-size="%s">`+"\n",
		num(math.Ceil(g.Width*svgZoom)), num(math.Ceil(g.Height*svgZoom)), num(g.Width), num(g.Height),
		esc(g.Title), svgFontFamily, num(nameText.size))
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(g.Title))
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="%s"/>`+"\n", num(g.Width), num(g.Height), hex(colorBackground))
	svgText(&b, titleText, g.TitleAt.X, g.TitleAt.Y, g.Title, `fill="`+hex(colorText)+`"`)
	b.WriteString("\n")

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
		svgText(&b, legendText, it.X+swatchW+4, it.Y+swatchH/2, it.Label, `fill="`+hex(colorText)+`"`)
		b.WriteString("\n")
	}
	b.WriteString("</g>\n</svg>\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing workflow graph svg: %w", err)
	}
	return nil
}

// svgText writes a <text> of s in style st, its capitals centred on y,
// starting at x (or centred on it when attrs ask for text-anchor="middle"),
// with textLength set to its measured width. attrs are written as they are.
func svgText(b *bytes.Buffer, st textStyle, x, y float64, s, attrs string) {
	fmt.Fprintf(b, `<text x="%s" y="%s"`, num(x), num(baseline(st, y)))
	if st.size != nameText.size {
		fmt.Fprintf(b, ` font-size="%s"`, num(st.size))
	}
	if st.bold {
		b.WriteString(` font-weight="bold"`)
	}
	if w := st.width(s); w > 0 {
		fmt.Fprintf(b, ` textLength="%s" lengthAdjust="spacingAndGlyphs"`, num(w))
	}
	fmt.Fprintf(b, ` %s>%s</text>`, attrs, esc(s))
}

// svgEdge writes one edge: its line, arrowhead and label.
func svgEdge(b *bytes.Buffer, e *Edge) {
	col := hex(edgeColor(e))
	fmt.Fprintf(b, `<g class="edge" data-from="%s" data-to="%s" data-kind="%s" data-taken="%t"><title>%s</title>`,
		esc(e.From), esc(e.To), e.Kind, e.Taken, esc(edgeTitle(e)))
	shaft, head := arrow(e.Points)
	dash := ""
	if e.Kind == EdgeError {
		dash = fmt.Sprintf(` stroke-dasharray="%s,%s"`, num(errorDash[0]), num(errorDash[1]))
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round"%s/>`,
		points(shaft), col, num(edgeWidth(e)), dash)
	if head != nil {
		fmt.Fprintf(b, `<polygon points="%s" fill="%s"/>`, points(head), col)
	}
	if e.Label != "" {
		svgText(b, labelText, e.LabelAt.X, e.LabelAt.Y, e.Label, fmt.Sprintf(
			`text-anchor="middle" fill="%s" stroke="%s" stroke-width="3" paint-order="stroke"`, hex(colorLabel), hex(colorBackground)))
	}
	b.WriteString("</g>\n")
}

// svgNode writes one node: its shape and text.
func svgNode(b *bytes.Buffer, n *Node) {
	fill, stroke := hex(n.State.Fill()), hex(n.State.Stroke())
	fmt.Fprintf(b, `<g class="node" data-name="%s" data-kind="%s"`, esc(n.Name), n.Kind)
	if n.Type != "" {
		fmt.Fprintf(b, ` data-type="%s"`, esc(n.Type))
	}
	fmt.Fprintf(b, ` data-status="%s" data-state="%s"><title>%s</title>`, esc(string(n.Status)), n.State.Class(), esc(nodeTitle(n)))
	paint := fmt.Sprintf(`fill="%s" stroke="%s" stroke-width="%s"`, fill, stroke, num(nodeStrokeW))
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
	middle := func(c color.RGBA) string { return fmt.Sprintf(`text-anchor="middle" fill="%s"`, hex(c)) }
	if n.Type == "" {
		svgText(b, nameText, n.X, n.Y, n.Label, middle(colorText))
	} else {
		svgText(b, nameText, n.X, n.Y+nameLineDY, n.Label, middle(colorText))
		svgText(b, typeText, n.X, n.Y+typeLineDY, n.Type, middle(colorLabel))
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

// baseline is where a line of text in style st whose capitals are centred
// on y sits.
func baseline(st textStyle, y float64) float64 { return y + st.capHeight()/2 }

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
