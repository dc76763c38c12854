package graph

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// DOT writes g as Graphviz text: the nodes with their shapes, colours and
// tooltips, the edges with their labels and styles, and the legend as a
// cluster. Positions are left to Graphviz (dot -Tsvg lays it out again).
func DOT(w io.Writer, g *Graph) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "digraph %s {\n", quote(g.Name))
	fmt.Fprintf(&b, "  graph [label=%s, labelloc=t, labeljust=l, fontname=\"monospace\", fontsize=12, nodesep=0.4, ranksep=0.5];\n", quote(g.Title))
	b.WriteString("  node [fontname=\"monospace\", fontsize=10, style=filled, penwidth=1.5];\n")
	b.WriteString("  edge [fontname=\"monospace\", fontsize=9, arrowsize=0.7];\n")
	for i := range g.Nodes {
		n := &g.Nodes[i]
		label := n.Label
		if n.Type != "" {
			label += "\n" + n.Type
		}
		shape, style, extra := "box", "filled", ""
		switch n.Shape {
		case ShapeEllipse:
			shape = "ellipse"
		case ShapeOctagon:
			shape = "octagon"
		case ShapeDiamond:
			shape = "diamond"
		case ShapeBox:
			style = "filled,rounded"
		case ShapeBar:
			extra = ", height=0.25" // a flat bar
		}
		fmt.Fprintf(&b, "  %s [label=%s, shape=%s, style=\"%s\"%s, fillcolor=\"%s\", color=\"%s\", tooltip=%s];\n",
			quote(n.Name), quote(label), shape, style, extra, hex(n.State.Fill()), hex(n.State.Stroke()), quote(nodeTitle(n)))
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		attrs := []string{fmt.Sprintf("color=\"%s\"", hex(edgeColor(e))), fmt.Sprintf("penwidth=%s", num(edgeWidth(e)))}
		if e.Label != "" {
			attrs = append(attrs, "label="+quote(e.Label))
		}
		if e.Kind == EdgeError {
			attrs = append(attrs, "style=dashed")
		}
		if e.Detail != "" {
			attrs = append(attrs, "tooltip="+quote(e.Detail))
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", quote(e.From), quote(e.To), strings.Join(attrs, ", "))
	}
	b.WriteString("  subgraph cluster_legend {\n    label=\"legend\"; fontsize=10; style=dashed; color=\"#a0a0a0\";\n")
	b.WriteString("    node [shape=box, fontsize=9, height=0.2];\n")
	for i, it := range g.Legend {
		// Node names never contain spaces, so these ids cannot clash.
		fmt.Fprintf(&b, "    %s [label=%s, fillcolor=\"%s\", color=\"%s\"];\n",
			quote(fmt.Sprintf("legend %d", i)), quote(it.Label), hex(it.State.Fill()), hex(it.State.Stroke()))
	}
	b.WriteString("  }\n}\n")
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("writing workflow graph dot: %w", err)
	}
	return nil
}

// quote writes s as a Graphviz double-quoted string; line breaks become
// Graphviz's \n.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)
	return `"` + r.Replace(s) + `"`
}
