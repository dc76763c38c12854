package coordinator

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxXMLDepth bounds element nesting; input-logic trees are the only deep part of a
// coordinator and never come close.
const maxXMLDepth = 64

// xnode is one element of a parsed XML document.
type xnode struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*xnode
	text     strings.Builder // character data directly inside the element
	line     int
}

// readTree parses a whole document into a tree of elements. Comments and processing
// instructions are dropped; a DOCTYPE is refused (Oozie's parser refuses them too, which
// rules out entity expansion tricks).
func readTree(data []byte) (*xnode, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.CharsetReader = charsetReader
	var root *xnode
	var stack []*xnode
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, newError(CodeParse, "", "malformed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, newError(CodeParse, fmt.Sprintf("line %d", line), "more than one root element")
			}
			if len(stack) >= maxXMLDepth {
				return nil, newError(CodeParse, fmt.Sprintf("line %d", line), "elements nested too deeply")
			}
			n := &xnode{name: t.Name, attrs: t.Attr, line: line}
			if len(stack) == 0 {
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			} else if len(bytes.TrimSpace(t)) > 0 {
				return nil, newError(CodeParse, fmt.Sprintf("line %d", line), "text outside the root element")
			}
		case xml.Directive:
			return nil, newError(CodeParse, fmt.Sprintf("line %d", line), "DOCTYPE and other directives are not allowed")
		}
	}
	if root == nil {
		return nil, newError(CodeParse, "", "empty document")
	}
	return root, nil
}

// where names an element for error messages: "line 12 <dataset>".
func (n *xnode) where() string {
	return fmt.Sprintf("line %d <%s>", n.line, n.name.Local)
}

// attr returns the value of the unqualified attribute name and whether it is present.
func (n *xnode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// checkAttrs verifies that the required attributes are present and that no other
// unqualified attribute appears (qualified ones, such as xmlns or xsi:*, are ignored).
func (n *xnode) checkAttrs(required, optional []string) error {
	for _, r := range required {
		if _, ok := n.attr(r); !ok {
			return newError(CodeInvalidDefinition, n.where(), "attribute %q is required", r)
		}
	}
	for _, a := range n.attrs {
		if a.Name.Space != "" || a.Name.Local == "xmlns" {
			continue
		}
		if !contains(required, a.Name.Local) && !contains(optional, a.Name.Local) {
			return newError(CodeInvalidDefinition, n.where(), "attribute %q is not allowed", a.Name.Local)
		}
	}
	return nil
}

// textOnly returns the trimmed text of a simple-content element, refusing child elements.
func (n *xnode) textOnly() (string, error) {
	if len(n.children) > 0 {
		return "", newError(CodeInvalidDefinition, n.children[0].where(), "no element is allowed inside <%s>", n.name.Local)
	}
	return strings.TrimSpace(n.text.String()), nil
}

// elementsOnly refuses non-blank text in an element-only element.
func (n *xnode) elementsOnly() error {
	if strings.TrimSpace(n.text.String()) != "" {
		return newError(CodeInvalidDefinition, n.where(), "text is not allowed inside <%s>", n.name.Local)
	}
	return nil
}

// seqRule is one position of an XML schema sequence: an element name with its occurrence
// bounds (max < 0 means unbounded).
type seqRule struct {
	name     string
	min, max int
}

// sequence matches the children of n, all in namespace ns, against rules in order and
// returns them grouped by name. It reports the first child that is out of place and the
// first required element that is missing, naming what was expected.
func (n *xnode) sequence(ns string, rules []seqRule) (map[string][]*xnode, error) {
	if err := n.elementsOnly(); err != nil {
		return nil, err
	}
	out := make(map[string][]*xnode, len(rules))
	ri := 0
	for _, c := range n.children {
		if c.name.Space != ns {
			return nil, newError(CodeInvalidDefinition, c.where(), "element is in namespace %q, expected %q",
				c.name.Space, ns)
		}
		for ri < len(rules) && rules[ri].name != c.name.Local {
			r := rules[ri]
			if len(out[r.name]) < r.min {
				return nil, newError(CodeInvalidDefinition, c.where(), "element <%s> is expected before <%s>",
					r.name, c.name.Local)
			}
			ri++
		}
		if ri == len(rules) {
			return nil, newError(CodeInvalidDefinition, c.where(), "element <%s> is not allowed here in <%s>",
				c.name.Local, n.name.Local)
		}
		r := rules[ri]
		if r.max >= 0 && len(out[r.name]) >= r.max {
			return nil, newError(CodeInvalidDefinition, c.where(), "too many <%s> elements in <%s>",
				c.name.Local, n.name.Local)
		}
		out[r.name] = append(out[r.name], c)
	}
	for _, r := range rules[min(ri, len(rules)):] {
		if len(out[r.name]) < r.min {
			return nil, newError(CodeInvalidDefinition, n.where(), "element <%s> is missing in <%s>", r.name, n.name.Local)
		}
	}
	return out, nil
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// charsetReader accepts the encodings Oozie's documents are written in besides UTF-8.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return input, nil
	case "iso-8859-1", "latin1", "latin-1":
		data, err := io.ReadAll(input)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, c := range data {
			b.WriteRune(rune(c))
		}
		return strings.NewReader(b.String()), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", charset)
}
