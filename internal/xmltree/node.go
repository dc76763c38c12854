package xmltree

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
)

// XSINamespace is the XML Schema instance namespace. Its attributes
// (xsi:schemaLocation, xsi:noNamespaceSchemaLocation, ...) are hints to a
// schema validator that every XSD allows on every element, so Oozie's
// validation accepts them anywhere.
const XSINamespace = "http://www.w3.org/2001/XMLSchema-instance"

// Node is one element of a parsed document.
type Node struct {
	name     xml.Name
	attrs    []xml.Attr
	children []*Node
	text     strings.Builder // character data directly inside the element
	line     int
}

// Name returns the element's namespace and local name.
func (n *Node) Name() xml.Name { return n.name }

// Line returns the line on which the element starts.
func (n *Node) Line() int { return n.line }

// Children returns the child elements in document order. The slice is the node's own;
// callers must not modify it.
func (n *Node) Children() []*Node { return n.children }

// Where names the element for error messages: "line 12 <dataset>".
func (n *Node) Where() string {
	return fmt.Sprintf("line %d <%s>", n.line, n.name.Local)
}

// Attr returns the value of the unqualified attribute name and whether it is present.
func (n *Node) Attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// CheckAttrs verifies that the required attributes are present and that no other
// attribute appears, except namespace declarations and the schema-instance attributes
// (xsi:schemaLocation, ...) that every schema allows. An attribute in any other namespace
// is refused, naming its namespace.
func (n *Node) CheckAttrs(required, optional []string) error {
	for _, r := range required {
		if _, ok := n.Attr(r); !ok {
			return n.invalid("attribute %q is required", r)
		}
	}
	for _, a := range n.attrs {
		switch {
		case isNamespaceDecl(a) || a.Name.Space == XSINamespace:
		case a.Name.Space != "":
			return n.invalid("attribute %q in namespace %q is not allowed", a.Name.Local, a.Name.Space)
		case !slices.Contains(required, a.Name.Local) && !slices.Contains(optional, a.Name.Local):
			return n.invalid("attribute %q is not allowed", a.Name.Local)
		}
	}
	return nil
}

// isNamespaceDecl reports whether a declares a namespace (xmlns="..." or xmlns:p="...").
func isNamespaceDecl(a xml.Attr) bool {
	return a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns")
}

// Text returns the text of a simple-content element as written, untrimmed, refusing child
// elements. Callers trim where Oozie does.
func (n *Node) Text() (string, error) {
	if len(n.children) > 0 {
		return "", n.children[0].invalid("no element is allowed inside <%s>", n.name.Local)
	}
	return n.text.String(), nil
}

// ElementsOnly refuses non-blank text directly inside an element-only element.
func (n *Node) ElementsOnly() error {
	if strings.TrimSpace(n.text.String()) != "" {
		return n.invalid("text is not allowed inside <%s>", n.name.Local)
	}
	return nil
}

// invalid builds an Invalid error located at n.
func (n *Node) invalid(format string, args ...any) *Error {
	return &Error{Kind: Invalid, Where: n.Where(), Msg: fmt.Sprintf(format, args...)}
}
