package workflow

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gozie/gozie/internal/xmltree"
	"github.com/gozie/gozie/oozieerr"
)

// elem is one XML element of a definition: its resolved name, attributes
// without namespace declarations, child elements, text and the line it starts
// on. It is the neutral form the schema checks, the EL resolution and the
// serializer work on.
type elem struct {
	Name     xml.Name
	Attrs    []xml.Attr
	Children []*elem
	Text     string // character data directly inside the element, concatenated
	Line     int
}

// attr returns the value of the unqualified attribute local and whether it is
// present.
func (e *elem) attr(local string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// clone returns a deep copy of e.
func (e *elem) clone() *elem {
	c := &elem{Name: e.Name, Text: e.Text, Line: e.Line}
	c.Attrs = append([]xml.Attr(nil), e.Attrs...)
	c.Children = make([]*elem, len(e.Children))
	for i, k := range e.Children {
		c.Children[i] = k.clone()
	}
	return c
}

// xmlNamespace is the namespace the xml: prefix is bound to.
const xmlNamespace = "http://www.w3.org/XML/1998/namespace"

// open is an element being read: the raw name to match its end tag and the
// namespace bindings in scope inside it.
type open struct {
	e      *elem
	raw    xml.Name
	scopes map[string]string // prefix ("" = default) -> namespace
}

// parseTree reads one XML document into an element tree, resolving
// namespace prefixes itself so that an undeclared prefix is an error (Go's
// decoder would keep the prefix as the namespace). DOCTYPE and other
// directives are refused (as Oozie does), so are a second root element and
// text outside the root. Errors are *Error with code E0700.
func parseTree(data []byte) (*elem, *Error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.CharsetReader = charsetReader
	var root *elem
	stack := []open{{scopes: map[string]string{"": "", "xml": xmlNamespace}}}
	for {
		line, _ := dec.InputPos()
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, xmlError(err, line)
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			scopes, copied := top.scopes, false
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					if !copied {
						scopes, copied = copyScopes(top.scopes), true
					}
					if a.Name.Space == "xmlns" {
						scopes[a.Name.Local] = a.Value
					} else {
						scopes[""] = a.Value
					}
				}
			}
			name, ok := resolveName(t.Name, scopes, true)
			if !ok {
				return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, undeclared namespace prefix " + t.Name.Space + " of <" + t.Name.Space + ":" + t.Name.Local + ">", Line: line}
			}
			e := &elem{Name: name, Line: line}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				an, ok := resolveName(a.Name, scopes, false)
				if !ok {
					return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, undeclared namespace prefix " + a.Name.Space + " of attribute " + a.Name.Local, Line: line}
				}
				if an.Space == xmltree.XSINamespace {
					// Schema-instance hints (xsi:schemaLocation, ...) are allowed on
					// every element, as in Oozie's XSD validation; no schema check
					// needs to see them.
					continue
				}
				e.Attrs = append(e.Attrs, xml.Attr{Name: an, Value: a.Value})
			}
			if len(stack) == 1 {
				if root != nil {
					return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, more than one root element", Line: line}
				}
				root = e
			} else {
				top.e.Children = append(top.e.Children, e)
			}
			stack = append(stack, open{e: e, raw: t.Name, scopes: scopes})
		case xml.EndElement:
			if len(stack) == 1 || t.Name != top.raw {
				return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, unexpected end element </" + rawName(t.Name) + ">", Line: line}
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 1 {
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, text outside the root element", Line: line}
				}
				continue
			}
			top.e.Text += string(t)
		case xml.Directive:
			return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, DOCTYPE and other directives are not allowed", Line: line}
		case xml.Comment, xml.ProcInst:
		}
	}
	if len(stack) > 1 {
		return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, unexpected end of document in <" + rawName(stack[len(stack)-1].raw) + ">"}
	}
	if root == nil {
		return nil, &Error{Code: oozieerr.E0700, Msg: "XML error, no root element"}
	}
	return root, nil
}

// copyScopes copies a namespace scope for an element that declares more.
func copyScopes(m map[string]string) map[string]string {
	c := make(map[string]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// resolveName binds a raw name's prefix. Unprefixed element names take the
// default namespace; unprefixed attributes have none.
func resolveName(n xml.Name, scopes map[string]string, element bool) (xml.Name, bool) {
	if n.Space == "" {
		if element {
			return xml.Name{Space: scopes[""], Local: n.Local}, true
		}
		return xml.Name{Local: n.Local}, true
	}
	ns, ok := scopes[n.Space]
	if !ok || ns == "" {
		return xml.Name{}, false
	}
	return xml.Name{Space: ns, Local: n.Local}, true
}

// rawName renders a raw (unresolved) name.
func rawName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// xmlError turns a decoder error into an E0700 *Error.
func xmlError(err error, line int) *Error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return &Error{Code: oozieerr.E0700, Msg: "XML error, " + se.Msg, Line: se.Line, Err: err}
	}
	return &Error{Code: oozieerr.E0700, Msg: "XML error, " + err.Error(), Line: line, Err: err}
}

// charsetReader accepts the encodings a definition may declare besides UTF-8.
func charsetReader(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "latin1", "iso8859-1":
		b, err := io.ReadAll(in)
		if err != nil {
			return nil, fmt.Errorf("reading %s text: %w", charset, err)
		}
		out := make([]byte, 0, len(b))
		for _, c := range b {
			out = utf8.AppendRune(out, rune(c))
		}
		return bytes.NewReader(out), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", charset)
}

// serialize writes e as a standalone document fragment: the root declares
// its namespace as the default one, descendants in another namespace declare
// theirs, and text is escaped. Elements without children and text are
// written self-closed.
func serialize(e *elem) string {
	var b strings.Builder
	writeElem(&b, e, "\x00", 0)
	return b.String()
}

func writeElem(b *strings.Builder, e *elem, parentNS string, depth int) {
	indent(b, depth)
	b.WriteByte('<')
	b.WriteString(e.Name.Local)
	if e.Name.Space != parentNS {
		b.WriteString(` xmlns="`)
		escapeAttr(b, e.Name.Space)
		b.WriteByte('"')
	}
	prefixes := map[string]string{}
	for _, a := range e.Attrs {
		b.WriteByte(' ')
		if a.Name.Space != "" {
			p, ok := prefixes[a.Name.Space]
			if !ok {
				p = fmt.Sprintf("ns%d", len(prefixes)+1)
				prefixes[a.Name.Space] = p
				b.WriteString("xmlns:" + p + `="`)
				escapeAttr(b, a.Name.Space)
				b.WriteString(`" `)
			}
			b.WriteString(p + ":")
		}
		b.WriteString(a.Name.Local)
		b.WriteString(`="`)
		escapeAttr(b, a.Value)
		b.WriteByte('"')
	}
	text := e.Text
	if len(e.Children) > 0 {
		text = strings.TrimSpace(text)
	}
	if len(e.Children) == 0 && text == "" {
		b.WriteString("/>")
		return
	}
	b.WriteByte('>')
	if text != "" {
		escape(b, text, false)
	}
	for _, k := range e.Children {
		b.WriteByte('\n')
		writeElem(b, k, e.Name.Space, depth+1)
	}
	if len(e.Children) > 0 {
		b.WriteByte('\n')
		indent(b, depth)
	}
	b.WriteString("</")
	b.WriteString(e.Name.Local)
	b.WriteByte('>')
}

func indent(b *strings.Builder, depth int) {
	for i := 0; i < depth; i++ {
		b.WriteString("  ")
	}
}

func escapeAttr(b *strings.Builder, s string) { escape(b, s, true) }

// escape writes s as XML character data; inside attributes line breaks and
// quotes are escaped too. Characters XML cannot carry become U+FFFD.
func escape(b *strings.Builder, s string, attr bool) {
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case r == '\n' && attr:
			b.WriteString("&#xA;")
		case r == '\t' && attr:
			b.WriteString("&#x9;")
		case r == '\r':
			b.WriteString("&#xD;")
		case r == '\t' || r == '\n' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) ||
			(r >= 0x10000 && r <= 0x10FFFF):
			b.WriteRune(r)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
}
