package xmltree

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Read parses a whole document into a tree of elements and returns its root. Comments and
// processing instructions are dropped; character data is kept as written. maxDepth is the
// deepest element nesting accepted, the root being at depth 1.
//
// Errors are *Error of kind Malformed: the decoder's own error (in Err), a DOCTYPE or other
// directive, nesting deeper than maxDepth, a second root element, text outside the root, or
// no root at all.
func Read(data []byte, maxDepth int) (*Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.CharsetReader = charsetReader
	var root *Node
	var stack []*Node
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &Error{Kind: Malformed, Msg: "malformed XML", Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, malformed(line, "more than one root element")
			}
			if len(stack) >= maxDepth {
				return nil, malformed(line, "elements nested too deeply")
			}
			n := &Node{name: t.Name, attrs: t.Attr, line: line}
			if len(stack) == 0 {
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			// The strict decoder has already matched it with its start element.
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			} else if len(bytes.TrimSpace(t)) > 0 {
				return nil, malformed(line, "text outside the root element")
			}
		case xml.Directive:
			return nil, malformed(line, "DOCTYPE and other directives are not allowed")
		}
	}
	if root == nil {
		return nil, &Error{Kind: Malformed, Msg: "empty document"}
	}
	return root, nil
}

// malformed builds a Malformed error at a line.
func malformed(line int, msg string) *Error {
	return &Error{Kind: Malformed, Where: fmt.Sprintf("line %d", line), Msg: msg}
}

// charsetReader accepts the encodings Oozie's documents are written in besides UTF-8.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return input, nil
	case "iso-8859-1", "latin1", "latin-1":
		data, err := io.ReadAll(input)
		if err != nil {
			return nil, fmt.Errorf("reading ISO-8859-1 input: %w", err)
		}
		// Every ISO-8859-1 byte is the code point of the same value.
		var b strings.Builder
		b.Grow(len(data))
		for _, c := range data {
			b.WriteRune(rune(c))
		}
		return strings.NewReader(b.String()), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", charset)
}
