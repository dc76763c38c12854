package xmltree

import (
	"slices"
	"strings"
)

// Unbounded is the Max of a Rule whose element may repeat without limit
// (maxOccurs="unbounded").
const Unbounded = -1

// Rule is one position of a schema sequence: an element name with its occurrence bounds.
type Rule struct {
	// Name is the element's local name.
	Name string
	// Min is the fewest occurrences allowed (minOccurs).
	Min int
	// Max is the most occurrences allowed (maxOccurs), or Unbounded (any negative value).
	Max int
}

// Groups holds the children matched by Sequence, by local name, in document order.
type Groups map[string][]*Node

// First returns the first child named name, or nil when there is none.
func (g Groups) First(name string) *Node {
	if ns := g[name]; len(ns) > 0 {
		return ns[0]
	}
	return nil
}

// Sequence matches the children of n, all of which must be in namespace ns, against rules
// in order and returns them grouped by name. Text directly inside n is refused. It reports
// the first child that is out of place and the first required element that is missing,
// naming what was expected; a child that no rule names (a misspelled element) is reported
// as such, with the elements that could come in its place. Every error is of kind Invalid.
func (n *Node) Sequence(ns string, rules []Rule) (Groups, error) {
	if err := n.ElementsOnly(); err != nil {
		return nil, err
	}
	out := make(Groups, len(rules))
	ri := 0
	for _, c := range n.children {
		if c.name.Space != ns {
			return nil, c.invalid("element is in namespace %q, expected %q", c.name.Space, ns)
		}
		if !slices.ContainsFunc(rules, func(r Rule) bool { return r.Name == c.name.Local }) {
			next := expected(rules[ri:], out)
			if next == "" {
				return nil, c.invalid("unexpected element <%s> at the end of <%s>", c.name.Local, n.name.Local)
			}
			return nil, c.invalid("unexpected element <%s> in <%s>, expected %s", c.name.Local, n.name.Local, next)
		}
		// Skip the rules before c's, each of which must have had its minimum by now.
		for ri < len(rules) && rules[ri].Name != c.name.Local {
			r := rules[ri]
			if len(out[r.Name]) < r.Min {
				return nil, c.invalid("element <%s> is expected before <%s>", r.Name, c.name.Local)
			}
			ri++
		}
		if ri == len(rules) {
			return nil, c.invalid("element <%s> is not allowed here in <%s>", c.name.Local, n.name.Local)
		}
		r := rules[ri]
		if r.Max >= 0 && len(out[r.Name]) >= r.Max {
			return nil, c.invalid("too many <%s> elements in <%s>", c.name.Local, n.name.Local)
		}
		out[r.Name] = append(out[r.Name], c)
	}
	for _, r := range rules[ri:] {
		if len(out[r.Name]) < r.Min {
			return nil, n.invalid("element <%s> is missing in <%s>", r.Name, n.name.Local)
		}
	}
	return out, nil
}

// expected lists the elements that may come next, given the remaining rules and the
// children matched so far: every rule up to and including the first whose minimum is not
// met, without those that reached their maximum. It is "" when none may.
func expected(rules []Rule, got Groups) string {
	var names []string
	for _, r := range rules {
		if r.Max < 0 || len(got[r.Name]) < r.Max {
			names = append(names, "<"+r.Name+">")
		}
		if len(got[r.Name]) < r.Min {
			break
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
