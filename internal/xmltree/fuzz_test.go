package xmltree_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gozie/gozie/internal/xmltree"
)

// fuzzDepth is the depth limit of FuzzRead: small, so that the limit is often reached.
const fuzzDepth = 8

// FuzzRead feeds arbitrary documents to Read and every Node method. Nothing may panic; Read
// either fails with a Malformed *Error or returns a tree within the depth limit whose lines
// are in document order, and the checks fail only with Invalid errors, exactly when the
// tree breaks them.
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := xmltree.Read(data, fuzzDepth)
		if err != nil {
			var e *xmltree.Error
			if !errors.As(err, &e) || e.Kind != xmltree.Malformed || e.Msg == "" || root != nil {
				t.Fatalf("Read failed with %v (%T), root %v", err, err, root)
			}
			return
		}
		maxLine := bytes.Count(data, []byte("\n")) + 1
		last := 0
		var walk func(n *xmltree.Node, depth int)
		walk = func(n *xmltree.Node, depth int) {
			if depth > fuzzDepth {
				t.Fatalf("%s is at depth %d, over the limit %d", n.Where(), depth, fuzzDepth)
			}
			if n.Line() < last || n.Line() > maxLine {
				t.Fatalf("%s follows line %d in a document of %d lines", n.Where(), last, maxLine)
			}
			last = n.Line()
			checkNode(t, n)
			for _, c := range n.Children() {
				walk(c, depth+1)
			}
		}
		walk(root, 1)
	})
}

// checkNode runs the checks of one node and compares their verdicts with the node itself.
func checkNode(t *testing.T, n *xmltree.Node) {
	t.Helper()
	wantInvalid := func(what string, err error) {
		t.Helper()
		var e *xmltree.Error
		if !errors.As(err, &e) || e.Kind != xmltree.Invalid || e.Where == "" {
			t.Fatalf("%s of %s failed with %v (%T)", what, n.Where(), err, err)
		}
	}
	if _, err := n.Text(); (err != nil) != (len(n.Children()) > 0) {
		t.Fatalf("Text of %s with %d children: %v", n.Where(), len(n.Children()), err)
	} else if err != nil {
		wantInvalid("Text", err)
	}
	if err := n.CheckAttrs(nil, nil); err != nil {
		wantInvalid("CheckAttrs", err)
	}
	// A sequence of the children's names in order of first appearance, each required and
	// unbounded, accepts the children exactly when n holds no text, all of them are in n's
	// namespace, and no name comes back after another one.
	var rules []xmltree.Rule
	seen := map[string]bool{}
	wantOK := n.ElementsOnly() == nil
	for i, c := range n.Children() {
		name := c.Name().Local
		if c.Name().Space != n.Name().Space {
			wantOK = false
		}
		if i > 0 && n.Children()[i-1].Name().Local == name {
			continue
		}
		if seen[name] {
			wantOK = false
			continue
		}
		seen[name] = true
		rules = append(rules, xmltree.Rule{Name: name, Min: 1, Max: xmltree.Unbounded})
	}
	groups, err := n.Sequence(n.Name().Space, rules)
	if (err == nil) != wantOK {
		t.Fatalf("Sequence of %s: %v, want success %v", n.Where(), err, wantOK)
	}
	if err != nil {
		wantInvalid("Sequence", err)
		return
	}
	total := 0
	for name, g := range groups {
		for _, c := range g {
			if c.Name().Local != name {
				t.Fatalf("%s grouped under %q", c.Where(), name)
			}
		}
		total += len(g)
	}
	if total != len(n.Children()) {
		t.Fatalf("Sequence grouped %d of the %d children of %s", total, len(n.Children()), n.Where())
	}
}
