package jobs

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// xmlNode is an element of a generated proxy workflow: attributes, then
// either text or child elements. Rendering escapes every text and attribute
// value, so configuration values cannot break out of their element.
type xmlNode struct {
	name  string
	attrs []xmlAttr
	text  string
	kids  []*xmlNode
}

// xmlAttr is one attribute of an xmlNode.
type xmlAttr struct{ name, value string }

func attr(name, value string) xmlAttr { return xmlAttr{name, value} }

func elem(name string, attrs ...xmlAttr) *xmlNode { return &xmlNode{name: name, attrs: attrs} }

func textElem(name, text string) *xmlNode { return &xmlNode{name: name, text: text} }

// add appends children and returns n.
func (n *xmlNode) add(kids ...*xmlNode) *xmlNode {
	n.kids = append(n.kids, kids...)
	return n
}

// document renders n as an XML document indented by two spaces per level.
func (n *xmlNode) document() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	n.write(&b, 0)
	return b.Bytes()
}

func (n *xmlNode) write(b *bytes.Buffer, depth int) {
	indent := strings.Repeat("  ", depth)
	b.WriteString(indent + "<" + n.name)
	for _, a := range n.attrs {
		b.WriteString(" " + a.name + `="`)
		escape(b, a.value)
		b.WriteString(`"`)
	}
	switch {
	case len(n.kids) > 0:
		b.WriteString(">\n")
		for _, k := range n.kids {
			k.write(b, depth+1)
		}
		b.WriteString(indent + "</" + n.name + ">\n")
	case n.text != "":
		b.WriteString(">")
		escape(b, n.text)
		b.WriteString("</" + n.name + ">\n")
	default:
		b.WriteString("/>\n")
	}
}

// escape writes s with XML's special characters escaped; characters XML
// cannot hold become U+FFFD.
func escape(b *bytes.Buffer, s string) {
	// EscapeText writes to a bytes.Buffer, which never fails.
	_ = xml.EscapeText(b, []byte(s))
}
