package coordinator

import (
	"encoding/xml"
	"sync"
	"unicode/utf8"
)

// The stored documents are written without encoding/xml's reflection, following the rules by
// which encoding/xml's MarshalIndent writes the types of docxml.go:
//
//   - an element's name is its struct's XMLName when that has a local name (with
//     ` xmlns="space"` after the name when it has a space), else the field's tag name, else,
//     for an ",any" field, the Go field name, and for the root the type name;
//   - an element with an XMLName field but no namespace, inside an element with one, gets the
//     attribute xmlns="" after its other attributes;
//   - attributes come first, in field order; omitempty ones are left out when empty;
//   - nil pointers are left out, other fields are always written, slices once per item;
//   - every start tag begins a new line indented two spaces a level; an end tag follows its
//     text directly unless the element had child elements;
//   - text and attribute values are escaped as xml.EscapeText escapes them; names are
//     written as they are.

// docIndent is the indentation of one level.
const docIndent = "  "

// docBuffers holds the scratch buffers documents are written into.
var docBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// maxPooledBuffer is the largest buffer kept for reuse.
const maxPooledBuffer = 64 << 10

// docEncoder writes one document, keeping the indentation state of encoding/xml's printer.
type docEncoder struct {
	// buf is the document written so far.
	buf []byte
	// depth is the number of open elements.
	depth int
	// started is whether a start tag was written: every later tag begins a new line.
	started bool
	// leaf is whether no element started since the innermost open one did.
	leaf bool
}

// encodeDoc renders a document: it writes, byte for byte, what xml.MarshalIndent(doc, "", "  ")
// writes for these types, and docxml_encode_test.go holds the two to each other (hand-made
// cases, the package's own documents and a fuzz test).
func encodeDoc(doc *xApp) string {
	if doc == nil {
		return ""
	}
	bp := docBuffers.Get().(*[]byte)
	e := docEncoder{buf: (*bp)[:0]}
	e.app(doc)
	out := string(e.buf)
	if cap(e.buf) <= maxPooledBuffer {
		*bp = e.buf
		docBuffers.Put(bp)
	}
	return out
}

// elementName is the name encoding/xml gives an element of a type with an XMLName field:
// that name when it has a local name, else fallback with no namespace.
func elementName(name xml.Name, fallback string) xml.Name {
	if name.Local != "" {
		return name
	}
	return xml.Name{Local: fallback}
}

// app writes the coordinator-app element.
func (e *docEncoder) app(doc *xApp) {
	name := elementName(doc.XMLName, "xApp")
	e.openNamed(name)
	e.attr("name", doc.Name)
	e.attr("frequency", doc.Frequency)
	e.optionalAttr("start", doc.Start)
	e.optionalAttr("end", doc.End)
	e.attr("timezone", doc.TimeZone)
	e.attr("freq_timeunit", doc.FreqTimeUnit)
	e.attr("end_of_duration", doc.EndOfDuration)
	e.optionalAttr("instance-number", doc.InstanceNumber)
	e.optionalAttr("action-nominal-time", doc.NominalTime)
	e.optionalAttr("action-actual-time", doc.ActualTime)
	e.endStart()
	if doc.Controls != nil {
		e.controls(doc.Controls)
	}
	if doc.InputEvents != nil {
		e.events("input-events", "data-in", doc.InputEvents.DataIns)
	}
	if doc.InputLogic != nil {
		e.logic(doc.InputLogic)
	}
	if doc.OutputEvents != nil {
		e.events("output-events", "data-out", doc.OutputEvents.DataOuts)
	}
	e.action(&doc.Action)
	e.close(name.Local)
}

// controls writes the controls element.
func (e *docEncoder) controls(c *xControls) {
	e.open("controls")
	e.textElement("timeout", c.Timeout)
	e.textElement("concurrency", c.Concurrency)
	e.textElement("execution", c.Execution)
	e.textElement("throttle", c.Throttle)
	e.close("controls")
}

// events writes an input-events or output-events element with its events.
func (e *docEncoder) events(tag, eventTag string, events []xEvent) {
	e.open(tag)
	for i := range events {
		e.event(eventTag, &events[i])
	}
	e.close(tag)
}

// event writes a data-in or data-out.
func (e *docEncoder) event(tag string, ev *xEvent) {
	e.startTag(tag)
	e.attr("name", ev.Name)
	e.attr("dataset", ev.DatasetName)
	e.optionalAttr("nocleanup", ev.NoCleanup)
	e.endStart()
	e.dataset(&ev.Dataset)
	e.pointerElement("uris", ev.URIs)
	e.pointerElement("unresolved-instances", ev.Unresolved)
	for _, instance := range ev.Instances {
		e.textElement("instance", instance)
	}
	e.pointerElement("start-instance", ev.StartInstance)
	e.pointerElement("end-instance", ev.EndInstance)
	e.close(tag)
}

// dataset writes an event's dataset copy.
func (e *docEncoder) dataset(d *xDataset) {
	e.startTag("dataset")
	e.attr("name", d.Name)
	e.attr("frequency", d.Frequency)
	e.attr("initial-instance", d.InitialInstance)
	e.attr("timezone", d.TimeZone)
	e.attr("freq_timeunit", d.FreqTimeUnit)
	e.attr("end_of_duration", d.EndOfDuration)
	e.endStart()
	e.textElement("uri-template", d.URITemplate)
	e.pointerElement("done-flag", d.DoneFlag)
	e.close("dataset")
}

// logic writes the input-logic element.
func (e *docEncoder) logic(l *xLogic) {
	e.open("input-logic")
	for i := range l.Nodes {
		e.logicNode(&l.Nodes[i], "Nodes", "")
	}
	e.close("input-logic")
}

// logicNode writes an input-logic node; field names it when its XMLName has no local name,
// and parentSpace is the namespace of the element it is in.
func (e *docEncoder) logicNode(n *xLogicNode, field, parentSpace string) {
	name := elementName(n.XMLName, field)
	e.openNamed(name)
	e.optionalAttr("name", n.Name)
	e.optionalAttr("min", n.Min)
	e.optionalAttr("wait", n.Wait)
	e.optionalAttr("dataset", n.Dataset)
	e.resetNamespace(name, parentSpace)
	e.endStart()
	for i := range n.Children {
		e.logicNode(&n.Children[i], "Children", name.Space)
	}
	e.close(name.Local)
}

// action writes the action element.
func (e *docEncoder) action(a *xAction) {
	e.open("action")
	e.workflow(&a.Workflow)
	if a.SLA != nil {
		e.sla(a.SLA)
	}
	e.close("action")
}

// workflow writes the workflow element.
func (e *docEncoder) workflow(w *xWorkflow) {
	e.open("workflow")
	e.textElement("app-path", w.AppPath)
	if c := w.Configuration; c != nil {
		e.open("configuration")
		for i := range c.Properties {
			e.property(&c.Properties[i])
		}
		e.close("configuration")
	}
	e.close("workflow")
}

// property writes a configuration property.
func (e *docEncoder) property(p *xProperty) {
	e.open("property")
	e.textElement("name", p.Name)
	e.textElement("value", p.Value)
	e.close("property")
}

// sla writes the SLA block; the element it is in (action) has no namespace.
func (e *docEncoder) sla(s *xSLA) {
	name := elementName(s.XMLName, "info")
	e.openNamed(name)
	e.endStart()
	for i := range s.Fields {
		e.field(&s.Fields[i], name.Space)
	}
	e.close(name.Local)
}

// field writes an SLA field in an element of namespace parentSpace.
func (e *docEncoder) field(f *xField, parentSpace string) {
	name := elementName(f.XMLName, "Fields")
	e.openNamed(name)
	e.resetNamespace(name, parentSpace)
	e.endStart()
	e.text(f.Value)
	e.close(name.Local)
}

// openNamed begins the start tag of an element of a type with an XMLName field, named name;
// attributes follow, then endStart.
func (e *docEncoder) openNamed(name xml.Name) {
	e.startTag(name.Local)
	if name.Space != "" {
		e.buf = append(e.buf, ` xmlns="`...)
		e.buf = appendEscaped(e.buf, name.Space)
		e.buf = append(e.buf, '"')
	}
}

// resetNamespace writes the xmlns="" attribute encoding/xml adds, after the other attributes,
// to an element of a type with an XMLName field when it has no namespace and its parent has one.
func (e *docEncoder) resetNamespace(name xml.Name, parentSpace string) {
	if name.Space == "" && parentSpace != "" {
		e.buf = append(e.buf, ` xmlns=""`...)
	}
}

// open writes the start tag of an element without attributes.
func (e *docEncoder) open(tag string) {
	e.startTag(tag)
	e.endStart()
}

// startTag begins a start tag on its own line; attributes follow, then endStart.
func (e *docEncoder) startTag(tag string) {
	if e.started {
		e.buf = append(e.buf, '\n')
	}
	e.started = true
	e.indent()
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, tag...)
}

// endStart ends a start tag and enters the element.
func (e *docEncoder) endStart() {
	e.buf = append(e.buf, '>')
	e.depth++
	e.leaf = true
}

// close writes an end tag: after the element's text when it had no child elements, else on
// its own line.
func (e *docEncoder) close(tag string) {
	e.depth--
	if e.leaf {
		e.leaf = false
	} else {
		e.buf = append(e.buf, '\n')
		e.indent()
	}
	e.buf = append(e.buf, "</"...)
	e.buf = append(e.buf, tag...)
	e.buf = append(e.buf, '>')
}

// indent writes the indentation of the current depth.
func (e *docEncoder) indent() {
	for i := 0; i < e.depth; i++ {
		e.buf = append(e.buf, docIndent...)
	}
}

// attr writes an attribute.
func (e *docEncoder) attr(name, value string) {
	e.buf = append(e.buf, ' ')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, `="`...)
	e.buf = appendEscaped(e.buf, value)
	e.buf = append(e.buf, '"')
}

// optionalAttr writes an omitempty attribute: nothing when value is empty.
func (e *docEncoder) optionalAttr(name, value string) {
	if value != "" {
		e.attr(name, value)
	}
}

// text writes escaped character data.
func (e *docEncoder) text(s string) {
	e.buf = appendEscaped(e.buf, s)
}

// textElement writes an element holding text only.
func (e *docEncoder) textElement(tag, value string) {
	e.open(tag)
	e.text(value)
	e.close(tag)
}

// pointerElement writes a text element for a non-nil pointer, nothing for nil.
func (e *docEncoder) pointerElement(tag string, value *string) {
	if value != nil {
		e.textElement(tag, *value)
	}
}

// asciiEscapes holds the escape of each ASCII byte encoding/xml escapes, "" for the others.
var asciiEscapes = func() (t [utf8.RuneSelf]string) {
	for c := range t {
		if c < 0x20 {
			t[c] = "\uFFFD"
		}
	}
	t['"'], t['\''], t['&'], t['<'], t['>'] = "&#34;", "&#39;", "&amp;", "&lt;", "&gt;"
	t['\t'], t['\n'], t['\r'] = "&#x9;", "&#xA;", "&#xD;"
	return t
}()

// appendEscaped appends s escaped as xml.EscapeText escapes it: the five markup characters,
// tab, newline and carriage return as character references, and runes outside XML's
// character range and bytes that are not UTF-8 as U+FFFD. Runs needing no escape are copied.
func appendEscaped(buf []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			i++
			if esc := asciiEscapes[c]; esc != "" {
				buf = append(append(buf, s[last:i-1]...), esc...)
				last = i
			}
			continue
		}
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		if !isXMLChar(r) || r == utf8.RuneError && width == 1 {
			buf = append(append(buf, s[last:i-width]...), "\uFFFD"...)
			last = i
		}
	}
	return append(buf, s[last:]...)
}

// isXMLChar is whether r is in XML's character range (the Char production of XML 1.0).
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
