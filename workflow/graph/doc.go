// Package graph draws a workflow application as a directed graph, coloured
// by the statuses of one run: the picture behind Oozie's
// GET job/<id>?show=graph (format png, svg or dot).
//
// Layout turns a parsed workflow.App and the job's action rows into a Graph:
// every node with its shape, status and position, every transition as an
// edge with a polyline route, a title and a legend. The renderers only draw
// what Layout decided:
//
//   - SVG writes a self-contained SVG document, made to be embedded inline
//     in a page: a viewBox, width and height, and per node a
//     <g class="node" data-name data-kind data-type data-status data-state>
//     with a <title> tooltip, per edge a
//     <g class="edge" data-from data-to data-kind data-taken> (see SVG);
//   - PNG rasterizes the same drawing with golang.org/x/image: shapes and
//     lines filled by x/image/vector (exact anti-aliasing), text drawn in
//     the Go fonts (gofont/goregular and gobold) by font.Drawer;
//   - DOT writes Graphviz text, leaving the layout to Graphviz.
//
// Text is measured for the layout with the same Go fonts' advance widths
// and kerning (text.go), so boxes fit their labels in the PNG; the SVG asks
// for the family "Go, DejaVu Sans, sans-serif" and pins every text's
// textLength to the measured width, so they fit there too whatever font
// the viewer has.
//
// # Layout
//
// The layout is a classic layered (Sugiyama-style) drawing, top to bottom:
//
//  1. Edges: start → its target, ok and error transitions of actions,
//     decision cases and default, fork paths and join → next. Kill nodes
//     follow Options.Kill: KillAll (show-kill=true) draws every kill node
//     and every transition into one; KillNone (show-kill=false, which
//     Oozie assumes when the parameter is absent) none of either; KillReached,
//     gozie's default when the client does not pass show-kill, draws the
//     kill nodes the run reached (they have a row, which the engine writes
//     when the job ends through one) and, into them, only the transitions
//     the run took, so that a failed run shows where it ended. Transitions
//     to nodes the app does not have are dropped.
//  2. Layers: the longest path from start (a node sits one layer below the
//     lowest of its predecessors). Validated workflows have no cycles; for a
//     definition that was only parsed, edges closing a cycle are found by a
//     depth-first search, laid out reversed and marked Back.
//  3. Edges that span several layers get a dummy point per crossed layer so
//     they bend around nodes (up to a budget, beyond which the longest edges
//     are drawn straight), then a few barycenter sweeps reorder each layer,
//     keeping the order with the fewest crossings.
//  4. Horizontal positions come from alternating sweeps that pull every node
//     toward the mean position of its neighbours, solved exactly under the
//     minimum spacing of its layer (isotonic regression by pool adjacent
//     violators).
//  5. Edges run from ports spread along the bottom of the upper node to the
//     top of the lower one, through their bend points. Labels ("error",
//     "case N", "default") go beside the first segment of their edge, at the
//     first of a few spots that covers no node and no other label.
//
// Node shapes: ellipse for start and end, octagon for kill, box for actions
// (the action type under the name), diamond for decision and a flat bar for
// fork and join. Colours come from State: green for OK/DONE, blue for
// running work (PREP, RUNNING, START_RETRY, END_RETRY), amber for actions
// waiting on a retry or a person (USER_RETRY, START_MANUAL, END_MANUAL), red
// for ERROR/FAILED/KILLED and for a kill node the run reached, grey for
// nodes the run never reached. Transitions the run took (the rows'
// Transition: an action's ok or error target, a decision's chosen case or
// default, every path of a fork, a join's next node) are drawn thick and
// dark, the others thin and light; error transitions are dashed and red
// (dark red when taken). When an action's ok and error transitions name
// the same node, its status tells which it took (ERROR: error). A
// decision whose cases share a target cannot tell which case matched: all
// of its edges to the chosen node are drawn taken.
//
// Workflows of hundreds of nodes lay out in linear-ish time; PNG output is
// scaled down to stay within MaxPNGSide pixels a side and MaxPNGPixels in
// all, dropping text when it would be too small to read.
package graph
