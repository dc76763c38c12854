package bundle

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxDepth bounds element nesting; a bundle is four levels deep.
const maxDepth = 32

// node is one element of a parsed document.
type node struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*node
	text     strings.Builder // character data directly inside the element
	line     int
}

// readTree parses a whole document into a tree of elements. Comments and processing
// instructions are dropped; a DOCTYPE is refused, as Oozie's parser refuses it, which
// rules out entity expansion.
func readTree(data []byte) (*node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.CharsetReader = charsetReader
	var root *node
	var stack []*node
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
			if len(stack) >= maxDepth {
				return nil, newError(CodeParse, fmt.Sprintf("line %d", line), "elements nested too deeply")
			}
			n := &node{name: t.Name, attrs: t.Attr, line: line}
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

// where names an element for error messages: "line 12 <coordinator>".
func (n *node) where() string {
	return fmt.Sprintf("line %d <%s>", n.line, n.name.Local)
}

// attr returns the value of the unqualified attribute name and whether it is present.
func (n *node) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// checkAttrs verifies that the required attributes are present and that no other
// unqualified attribute appears (namespace declarations and xsi:* are ignored).
func (n *node) checkAttrs(required, optional []string) error {
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

// textOnly returns the text of a simple-content element, refusing child elements. The text
// is returned as written; callers trim where Oozie does.
func (n *node) textOnly() (string, error) {
	if len(n.children) > 0 {
		return "", newError(CodeInvalidDefinition, n.children[0].where(), "no element is allowed inside <%s>", n.name.Local)
	}
	return n.text.String(), nil
}

// rule is one position of a schema sequence: an element name and its occurrence bounds
// (max < 0 means unbounded).
type rule struct {
	name     string
	min, max int
}

// sequence matches the children of n, all in namespace ns, against rules in order and
// returns them grouped by name. It reports the first child out of place and the first
// required element that is missing, naming what was expected.
func (n *node) sequence(ns string, rules []rule) (map[string][]*node, error) {
	if strings.TrimSpace(n.text.String()) != "" {
		return nil, newError(CodeInvalidDefinition, n.where(), "text is not allowed inside <%s>", n.name.Local)
	}
	out := make(map[string][]*node, len(rules))
	ri := 0
	for _, c := range n.children {
		if c.name.Space != ns {
			return nil, newError(CodeInvalidDefinition, c.where(), "element is in namespace %q, expected %q", c.name.Space, ns)
		}
		for ri < len(rules) && rules[ri].name != c.name.Local {
			if r := rules[ri]; len(out[r.name]) < r.min {
				return nil, newError(CodeInvalidDefinition, c.where(), "element <%s> is expected before <%s>", r.name, c.name.Local)
			}
			ri++
		}
		if ri == len(rules) {
			return nil, newError(CodeInvalidDefinition, c.where(), "element <%s> is not allowed here in <%s>", c.name.Local, n.name.Local)
		}
		if r := rules[ri]; r.max >= 0 && len(out[r.name]) >= r.max {
			return nil, newError(CodeInvalidDefinition, c.where(), "too many <%s> elements in <%s>", c.name.Local, n.name.Local)
		}
		out[rules[ri].name] = append(out[rules[ri].name], c)
	}
	for _, r := range rules[ri:] {
		if len(out[r.name]) < r.min {
			return nil, newError(CodeInvalidDefinition, n.where(), "element <%s> is missing in <%s>", r.name, n.name.Local)
		}
	}
	return out, nil
}

// first returns the first node of a group, or nil.
func first(ns []*node) *node {
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
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
