package xmltree_test

import (
	"errors"
	"testing"

	"github.com/gozie/gozie/internal/xmltree"
)

// testDepth is a depth limit no test document comes near unless it means to.
const testDepth = 16

// mustRead reads doc and fails the test if it is refused.
func mustRead(t *testing.T, doc string) *xmltree.Node {
	t.Helper()
	root, err := xmltree.Read([]byte(doc), testDepth)
	if err != nil {
		t.Fatalf("Read(%q): %v", doc, err)
	}
	return root
}

// wantError checks that err is an *xmltree.Error of the given kind, place and message.
func wantError(t *testing.T, err error, kind xmltree.Kind, where, msg string) {
	t.Helper()
	var e *xmltree.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *xmltree.Error", err, err)
	}
	if e.Kind != kind || e.Where != where || e.Msg != msg {
		t.Fatalf("error is {%v %q %q}, want {%v %q %q}", e.Kind, e.Where, e.Msg, kind, where, msg)
	}
}
