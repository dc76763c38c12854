package workflow

import "strings"

// cursor walks the child elements of one element in order, the way an XSD
// sequence does: optional and repeated elements are taken when they come
// next, and anything left at the end is a schema error. The first error is
// kept in err; later calls are no-ops that return zero values.
type cursor struct {
	parent *elem
	ns     string // the namespace the children must be in
	node   string // the workflow node, for error messages
	i      int
	err    *Error
}

func newCursor(parent *elem, ns, node string) *cursor {
	return &cursor{parent: parent, ns: ns, node: node}
}

// fail records a schema error at line unless one is recorded already.
func (c *cursor) fail(line int, format string, args ...any) {
	if c.err == nil {
		c.err = schemaErr(line, c.node, format, args...)
	}
}

// next returns the next child if it is called local (in the cursor's
// namespace) and advances past it.
func (c *cursor) next(local string) *elem {
	if c.err != nil || c.i >= len(c.parent.Children) {
		return nil
	}
	k := c.parent.Children[c.i]
	if k.Name.Local != local || k.Name.Space != c.ns {
		return nil
	}
	c.i++
	return k
}

// peekIs reports whether the next child is called local.
func (c *cursor) peekIs(local string) bool {
	if c.err != nil || c.i >= len(c.parent.Children) {
		return false
	}
	k := c.parent.Children[c.i]
	return k.Name.Local == local && k.Name.Space == c.ns
}

// opt returns the next child called local, or nil.
func (c *cursor) opt(local string) *elem { return c.next(local) }

// req returns the next child called local, recording an error if it is not
// there.
func (c *cursor) req(local string) *elem {
	e := c.next(local)
	if e == nil {
		c.missing("<" + local + ">")
	}
	return e
}

// missing records that what (such as "<end>" or "<script> or <query>") must
// come next: when another element stands there, the error names that element
// (a misspelled or misplaced one) and what was expected; when nothing is
// left, it says what is required.
func (c *cursor) missing(what string) {
	if c.err != nil {
		return
	}
	if c.i < len(c.parent.Children) {
		k := c.parent.Children[c.i]
		c.fail(k.Line, "unexpected element <%s> in <%s>, expected %s", qualified(k, c.ns), c.parent.Name.Local, what)
		return
	}
	c.fail(c.parent.Line, "element %s is required in <%s>", what, c.parent.Name.Local)
}

// many returns the run of next children called local.
func (c *cursor) many(local string) []*elem {
	var out []*elem
	for {
		e := c.next(local)
		if e == nil {
			return out
		}
		out = append(out, e)
	}
}

// text returns the text of an optional string element called local.
func (c *cursor) text(local string) string {
	e := c.opt(local)
	if e == nil {
		return ""
	}
	return c.stringValue(e)
}

// reqText returns the text of a required string element called local.
func (c *cursor) reqText(local string) string {
	e := c.req(local)
	if e == nil {
		return ""
	}
	return c.stringValue(e)
}

// texts returns the texts of a run of string elements called local.
func (c *cursor) texts(local string) []string {
	var out []string
	for _, e := range c.many(local) {
		out = append(out, c.stringValue(e))
	}
	return out
}

// flag reports whether an optional empty (FLAG) element called local is next,
// and takes it.
func (c *cursor) flag(local string) bool {
	e := c.opt(local)
	if e == nil {
		return false
	}
	c.checkEmpty(e)
	return true
}

// stringValue returns the trimmed text of an xs:string element, which must
// have no child elements and no attributes.
func (c *cursor) stringValue(e *elem) string {
	if len(e.Children) > 0 {
		c.fail(e.Children[0].Line, "element <%s> must not contain elements, found <%s>", e.Name.Local, e.Children[0].Name.Local)
	}
	if len(e.Attrs) > 0 {
		c.fail(e.Line, "element <%s> takes no attribute %q", e.Name.Local, e.Attrs[0].Name.Local)
	}
	return strings.TrimSpace(e.Text)
}

// checkEmpty records an error unless e has no children, attributes or text.
func (c *cursor) checkEmpty(e *elem) {
	switch {
	case len(e.Children) > 0:
		c.fail(e.Children[0].Line, "element <%s> must be empty, found <%s>", e.Name.Local, e.Children[0].Name.Local)
	case len(e.Attrs) > 0:
		c.fail(e.Line, "element <%s> takes no attribute %q", e.Name.Local, e.Attrs[0].Name.Local)
	case strings.TrimSpace(e.Text) != "":
		c.fail(e.Line, "element <%s> must be empty", e.Name.Local)
	}
}

// end records an error if children are left: an element that is unknown,
// misplaced or repeated. Text between child elements is an error too.
func (c *cursor) end() *Error {
	if c.err != nil {
		return c.err
	}
	if c.i < len(c.parent.Children) {
		k := c.parent.Children[c.i]
		c.fail(k.Line, "unexpected element <%s> in <%s>", qualified(k, c.ns), c.parent.Name.Local)
		return c.err
	}
	if len(c.parent.Children) > 0 && strings.TrimSpace(c.parent.Text) != "" {
		c.fail(c.parent.Line, "element <%s> must not contain text", c.parent.Name.Local)
	}
	return c.err
}

// qualified names e, with its namespace when that is not ns.
func qualified(e *elem, ns string) string {
	if e.Name.Space == ns || e.Name.Space == "" {
		return e.Name.Local
	}
	return "{" + e.Name.Space + "}" + e.Name.Local
}

// attrs checks e's attributes: every required one must be there and none
// may be outside allowed (required ones are allowed implicitly).
func (c *cursor) attrs(e *elem, required []string, optional ...string) {
	if c.err != nil {
		return
	}
	for _, r := range required {
		if _, ok := e.attr(r); !ok {
			c.fail(e.Line, "attribute %q is required on <%s>", r, e.Name.Local)
			return
		}
	}
	for _, a := range e.Attrs {
		if a.Name.Space != "" {
			c.fail(e.Line, "unexpected attribute %s:%s on <%s>", a.Name.Space, a.Name.Local, e.Name.Local)
			return
		}
		if !contains(required, a.Name.Local) && !contains(optional, a.Name.Local) {
			c.fail(e.Line, "unexpected attribute %q on <%s>", a.Name.Local, e.Name.Local)
			return
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
