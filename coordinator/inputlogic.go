package coordinator

import (
	"strconv"
	"strings"
	"time"
)

// logicStatus is the outcome of an input-logic node.
type logicStatus int

const (
	logicFalse   logicStatus = iota // not satisfied
	logicTrue                       // satisfied
	logicWaiting                    // not satisfied yet, but still within its wait time
)

// logicResult is the outcome of a node with the URIs it selected (joined by ",").
type logicResult struct {
	status logicStatus
	uris   string
}

// truthy is Oozie's isTrue: a node still waiting counts as true for and/or, so an <or> keeps
// waiting for its first child instead of falling through.
func (r logicResult) truthy() bool { return r.status == logicTrue || r.status == logicWaiting }

// checkLogic decides an action with <input-logic>: unresolved latest/future instances are
// resolved first (an event that stays unresolved counts as unavailable), then the tree is
// evaluated (§1.8): and needs every child, or takes the first child that is satisfied or
// still waiting, combine fills missing instances of its first data-in from the others; min
// accepts partial input, wait (minutes since max(nominal, created)) delays the decision. The
// missing list holds every dependency not found to exist.
func (c *inputChecker) checkLogic() (bool, []string, error) {
	for i, ev := range c.doc.DataIns {
		if len(ev.Unresolved) == 0 {
			continue
		}
		uris, ok, err := c.resolveEvent(ev)
		if err != nil {
			return false, c.logicMissing(), err
		}
		if ok {
			ev.URIs = append(uris, ev.URIs...)
			ev.Unresolved = nil
			c.doc.DataIns[i] = ev
		}
	}
	r, err := c.evalLogic(c.req.Job.InputLogic, -1, -1)
	if err != nil {
		return false, c.logicMissing(), err
	}
	if r.status == logicTrue {
		return true, nil, nil
	}
	return false, c.logicMissing(), nil
}

// logicMissing lists the dependencies not known to exist, in data-in order, followed by the
// instances still unresolved.
func (c *inputChecker) logicMissing() []string {
	var out []string
	for _, ev := range c.doc.DataIns {
		for _, d := range ev.Dependencies() {
			if !c.exists[d] {
				out = append(out, d)
			}
		}
	}
	return out
}

// logicInt reads a resolved min or wait attribute; -1 when absent.
func logicInt(s string, inherited int) int {
	if s == "" {
		return inherited
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return inherited
	}
	return n
}

// evalLogic evaluates one node with the min and wait inherited from its ancestors.
func (c *inputChecker) evalLogic(n *LogicNode, min, wait int) (logicResult, error) {
	min, wait = logicInt(n.Min, min), logicInt(n.Wait, wait)
	switch n.Op {
	case "data-in":
		return c.evalInput(n.Dataset, min, wait)
	case "combine":
		names := make([]string, len(n.Children))
		for i, ch := range n.Children {
			names[i] = ch.Dataset
		}
		return c.evalCombine(names, min, wait)
	case "or":
		var r logicResult
		for _, ch := range n.Children {
			var err error
			if r, err = c.evalLogic(ch, min, wait); err != nil || r.truthy() {
				return r, err
			}
		}
		return r, nil
	}
	// and: Oozie folds left to right; the URIs of the right operand come first.
	var acc logicResult
	for i, ch := range n.Children {
		r, err := c.evalLogic(ch, min, wait)
		if err != nil {
			return r, err
		}
		if i == 0 {
			acc = r
			if acc.status != logicTrue {
				return acc, nil
			}
			continue
		}
		if r.status != logicTrue {
			return r, nil
		}
		r.uris = joinNonEmpty(dirSeparator, r.uris, acc.uris)
		acc = r
	}
	return acc, nil
}

// event returns the resolved data-in called name.
func (c *inputChecker) event(name string) (ResolvedEvent, bool) {
	for _, ev := range c.doc.DataIns {
		if ev.Name == name {
			return ev, true
		}
	}
	return ResolvedEvent{}, false
}

// evalInput evaluates a data-in leaf: its instances are checked in order (stopping at the
// first missing one unless min is set).
func (c *inputChecker) evalInput(name string, min, wait int) (logicResult, error) {
	ev, ok := c.event(name)
	if !ok || len(ev.Unresolved) > 0 {
		return c.logicOutcome(false, min, wait, nil), nil
	}
	deps := ev.Dependencies()
	var avail []string
	all := true
	for i, d := range deps {
		ok, err := c.exist(d)
		if err != nil {
			return logicResult{}, err
		}
		if ok {
			avail = append(avail, ev.URIs[i])
			continue
		}
		all = false
		if min < 0 {
			break
		}
	}
	return c.logicOutcome(all, min, wait, avail), nil
}

// evalCombine evaluates a combine node: each instance of the first data-in that is missing
// is looked up at the same position in the others.
func (c *inputChecker) evalCombine(names []string, min, wait int) (logicResult, error) {
	events := make([]ResolvedEvent, len(names))
	for i, n := range names {
		ev, ok := c.event(n)
		if !ok || len(ev.Unresolved) > 0 {
			return logicResult{status: logicWaiting}, nil
		}
		events[i] = ev
	}
	var avail []string
	for i, d := range events[0].Dependencies() {
		ok, err := c.exist(d)
		if err != nil {
			return logicResult{}, err
		}
		found := ok
		if ok {
			avail = append(avail, events[0].URIs[i])
		} else {
			for _, other := range events[1:] {
				if i >= len(other.URIs) {
					continue
				}
				ok, err := c.exist(other.Dataset.WithDoneFlag(other.URIs[i]))
				if err != nil {
					return logicResult{}, err
				}
				if ok {
					avail = append(avail, other.URIs[i])
					found = true
				}
			}
		}
		if min < 0 && !found {
			break
		}
	}
	return c.logicOutcome(len(avail) == len(events[0].URIs), min, wait, avail), nil
}

// logicOutcome applies min and wait to a leaf's findings, as Oozie does: while the wait time
// runs the leaf waits, then it is satisfied when everything or at least min instances were
// found (min 0 is always satisfied).
func (c *inputChecker) logicOutcome(found bool, min, wait int, avail []string) logicResult {
	if !found && wait > 0 && !c.waitElapsed(wait) {
		return logicResult{status: logicWaiting}
	}
	var r logicResult
	if found || (min > 0 && len(avail) >= min) {
		r = logicResult{status: logicTrue, uris: strings.Join(avail, dirSeparator)}
	}
	if min == 0 {
		r.status = logicTrue
	}
	return r
}

// waitElapsed reports whether wait minutes have passed since max(nominal, created).
func (c *inputChecker) waitElapsed(wait int) bool {
	a := c.req.Action
	since := a.NominalTime
	if a.CreatedTime.After(since) {
		since = a.CreatedTime
	}
	return int64(c.req.Now.Sub(since)/time.Minute) >= int64(wait)
}

// logicDataIn is coord:dataIn of an input-logic node name: the URIs the node selects.
func (c *inputChecker) logicDataIn(name string) (string, bool, error) {
	n := findLogicNode(c.req.Job.InputLogic, name)
	if n == nil {
		return "", false, nil
	}
	r, err := c.evalLogic(n, -1, -1)
	if err != nil || !r.truthy() {
		return "", false, err
	}
	return r.uris, true, nil
}

// findLogicNode finds the node called name.
func findLogicNode(n *LogicNode, name string) *LogicNode {
	if n == nil {
		return nil
	}
	if n.Name == name {
		return n
	}
	for _, ch := range n.Children {
		if f := findLogicNode(ch, name); f != nil {
			return f
		}
	}
	return nil
}

// joinNonEmpty joins the non-empty strings with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
