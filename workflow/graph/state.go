package graph

import (
	"fmt"
	"image/color"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// State is the colour class of a node: what its status means to someone
// looking at the run.
type State int

// Node states, in the order the legend lists them.
const (
	StateDone       State = iota // OK, DONE
	StateActive                  // PREP, RUNNING, START_RETRY, END_RETRY
	StateWaiting                 // USER_RETRY, START_MANUAL, END_MANUAL
	StateFailed                  // ERROR, FAILED, KILLED; a kill node reached
	StateNotReached              // no row: the run never got there
)

// States lists every state, in legend order.
var States = []State{StateDone, StateActive, StateWaiting, StateFailed, StateNotReached}

// StateOf returns the state of a node of kind k whose row has status s
// (empty when there is no row). A kill node the run reached is a failure
// whatever its row says: it is where the job was killed.
func StateOf(k workflow.NodeKind, s store.ActionStatus) State {
	if s == "" {
		return StateNotReached
	}
	if k == workflow.KindKill {
		return StateFailed
	}
	switch s {
	case store.ActionOK, store.ActionDone:
		return StateDone
	case store.ActionPrep, store.ActionRunning, store.ActionStartRetry, store.ActionEndRetry:
		return StateActive
	case store.ActionUserRetry, store.ActionStartManual, store.ActionEndManual:
		return StateWaiting
	case store.ActionError, store.ActionFailed, store.ActionKilled:
		return StateFailed
	}
	// A status this package does not know still means the run got here.
	return StateActive
}

// String returns the legend's text for s.
func (s State) String() string {
	switch s {
	case StateDone:
		return "OK/DONE"
	case StateActive:
		return "running"
	case StateWaiting:
		return "retry/manual"
	case StateFailed:
		return "error/killed"
	case StateNotReached:
		return "not reached"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// palette holds the fill and outline colours of each state.
var palette = map[State][2]color.RGBA{
	StateDone:       {rgb(0xa5, 0xdb, 0xa0), rgb(0x2e, 0x7d, 0x32)},
	StateActive:     {rgb(0x9c, 0xc8, 0xf2), rgb(0x1f, 0x63, 0xb5)},
	StateWaiting:    {rgb(0xff, 0xd2, 0x7a), rgb(0xc4, 0x7f, 0x00)},
	StateFailed:     {rgb(0xf4, 0xa1, 0x9a), rgb(0xc0, 0x39, 0x2b)},
	StateNotReached: {rgb(0xe6, 0xe6, 0xe6), rgb(0xa0, 0xa0, 0xa0)},
}

// Colours of everything that is not a node.
var (
	colorBackground = rgb(0xff, 0xff, 0xff)
	colorText       = rgb(0x1a, 0x1a, 0x1a)
	colorTaken      = rgb(0x3a, 0x3a, 0x3a)
	colorNotTaken   = rgb(0xa8, 0xa8, 0xa8)
	colorErrTaken   = rgb(0xb3, 0x26, 0x1e) // an error transition the run took
	colorErrPending = rgb(0xe8, 0x9e, 0x97) // one it did not take
	colorLabel      = rgb(0x55, 0x55, 0x55) // edge labels and action types
)

// Fill returns the colour a node of state s is filled with.
func (s State) Fill() color.RGBA { return palette[s.known()][0] }

// Stroke returns the colour of the outline of a node of state s.
func (s State) Stroke() color.RGBA { return palette[s.known()][1] }

// Class returns a short lower-case name of s for markup: done, running,
// waiting, failed or not-reached.
func (s State) Class() string {
	switch s {
	case StateDone:
		return "done"
	case StateActive:
		return "running"
	case StateWaiting:
		return "waiting"
	case StateFailed:
		return "failed"
	case StateNotReached:
		return "not-reached"
	}
	return "unknown"
}

// known maps states outside the list to StateNotReached.
func (s State) known() State {
	if _, ok := palette[s]; ok {
		return s
	}
	return StateNotReached
}

// edgeColor is the colour of an edge: red for error transitions, dark
// when the run took it and light when not.
func edgeColor(e *Edge) color.RGBA {
	switch {
	case e.Kind == EdgeError && e.Taken:
		return colorErrTaken
	case e.Kind == EdgeError:
		return colorErrPending
	case e.Taken:
		return colorTaken
	}
	return colorNotTaken
}

// edgeWidth is the stroke width of an edge: thick when the run took it.
func edgeWidth(e *Edge) float64 {
	if e.Taken {
		return 2.2
	}
	return 1.2
}

// rgb is an opaque colour.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 0xff} }

// hex writes c as #rrggbb.
func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
