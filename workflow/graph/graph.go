package graph

import (
	"fmt"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// StartName is the name of the start node, as its action row calls it.
const StartName = ":start:"

// Point is a position in layout units, y growing downward. One unit is one
// pixel of the SVG drawing before its zoom (svgZoom), and of the PNG at
// scale 1.
type Point struct{ X, Y float64 }

// Shape is how a node is drawn.
type Shape int

// Node shapes.
const (
	ShapeEllipse Shape = iota // start and end
	ShapeOctagon              // kill
	ShapeBox                  // action, with its type under the name
	ShapeDiamond              // decision
	ShapeBar                  // fork and join
)

// EdgeKind is the kind of transition an edge stands for.
type EdgeKind string

// Edge kinds.
const (
	EdgeStart   EdgeKind = "start"   // start → its target
	EdgeOK      EdgeKind = "ok"      // an action's ok transition
	EdgeError   EdgeKind = "error"   // an action's error transition
	EdgeCase    EdgeKind = "case"    // a decision case
	EdgeDefault EdgeKind = "default" // a decision's default
	EdgeFork    EdgeKind = "fork"    // a fork path
	EdgeJoin    EdgeKind = "join"    // join → the node after it
)

// Node is one drawn node.
type Node struct {
	// Name is the node's name in the definition; StartName for start.
	Name string
	// Label is the text drawn for the node: its name, shortened when very
	// long, or "start".
	Label string
	// Type is an action's type (shell, hive2, fs, ...), drawn under the
	// label; empty for control nodes.
	Type  string
	Kind  workflow.NodeKind
	Shape Shape
	// Status is the status of the node's row in the run; empty when the run
	// never reached the node.
	Status store.ActionStatus
	State  State
	// Layer is the node's row in the drawing, 0 at the top.
	Layer int
	// X and Y are the centre; W and H the size of the shape's bounding box.
	X, Y, W, H float64
}

// Edge is one drawn transition.
type Edge struct {
	From, To string
	Kind     EdgeKind
	// Label is drawn beside the edge: "error", "default" or "case N".
	Label string
	// Detail is what the label stands for in full: a case's predicate.
	Detail string
	// Taken reports whether the run went this way (the From row's
	// transition names To).
	Taken bool
	// Back marks an edge that closes a cycle; it goes up the drawing.
	// Validated workflows have none.
	Back bool
	// Points is the route from From's border to To's border (at least two
	// points); the arrowhead is at the last point.
	Points []Point
	// LabelAt is the centre of the label, when there is one.
	LabelAt Point
}

// LegendItem is one entry of the legend: a colour swatch and its meaning.
type LegendItem struct {
	State State
	Label string
	// X and Y are the top-left corner of the swatch.
	X, Y float64
}

// Graph is a laid-out workflow drawing. Renderers draw it as it is.
type Graph struct {
	// Name is the workflow app's name.
	Name string
	// Title is drawn at the top, its left end at TitleAt.
	Title   string
	TitleAt Point
	// Width and Height are the size of the drawing in layout units.
	Width, Height float64
	Nodes         []Node
	Edges         []Edge
	Legend        []LegendItem
}

// Options change what Layout draws.
type Options struct {
	// Kill says which kill nodes, and which transitions into them, are
	// drawn; the zero value draws those the run reached.
	Kill KillNodes
	// Title is drawn above the graph; empty means the app's name.
	Title string
}

// KillNodes says which kill nodes a drawing shows. Oozie's show-kill
// parameter is KillAll (true) or KillNone (false); without it gozie draws
// KillReached, so that a failed run shows where it ended.
type KillNodes int

// Kill node modes.
const (
	// KillReached draws the kill nodes the run reached (the engine writes
	// a row for a kill node when the job ends through it) and, into them,
	// only the transitions the run took.
	KillReached KillNodes = iota
	// KillNone leaves out every kill node and every transition into one.
	KillNone
	// KillAll draws every kill node and every transition into one.
	KillAll
)

// String returns the mode as the show-kill parameter would ask for it.
func (k KillNodes) String() string {
	switch k {
	case KillReached:
		return "reached"
	case KillNone:
		return "false"
	case KillAll:
		return "true"
	}
	return fmt.Sprintf("KillNodes(%d)", int(k))
}

// Spacing of the layout, in layout units. Text is measured in the Go fonts
// (text.go).
const (
	maxLabelLen  = 32    // longer names are shortened with "..."
	margin       = 16.0  // around the drawing
	titleH       = 22.0  // the title's band
	legendH      = 26.0  // the legend's band
	layerGap     = 40.0  // vertical space between layers
	nodeGap      = 28.0  // horizontal space between nodes of a layer
	dummyGap     = 10.0  // horizontal space next to an edge's bend point
	dummyBudget  = 20000 // bend points for all long edges together
	orderSweeps  = 8     // barycenter sweeps of the ordering
	placeSweeps  = 8     // sweeps of the horizontal placement
	arrowLen     = 8.0
	arrowHalfW   = 3.5
	swatchW      = 16.0
	swatchH      = 10.0
	legendItemSp = 14.0
	nodeStrokeW  = 1.5 // a node's outline
)

// errorDash is the dash pattern of error transitions: drawn and skipped
// lengths.
var errorDash = []float64{5, 3}

// shorten cuts labels longer than maxLabelLen characters.
func shorten(s string) string {
	r := []rune(s)
	if len(r) <= maxLabelLen {
		return s
	}
	return string(r[:maxLabelLen-3]) + "..."
}
