package yarn_test

import (
	"testing"

	"github.com/gozie/gozie/yarn"
)

// Oozie's tag is "oozie-" and the MD5 of its launcher tag as Java's
// BigInteger.toString(16) writes it (no leading zeros); the launcher tag is
// "<parent>@<node>" for a workflow with a parent, else the action id.
func TestOozieTag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ parent, action, node, want string }{
		{"0000004-260101000000000-oozie-oozi-C@3", "0000043-260101000000000-oozie-oozi-W@work", "work",
			"oozie-985303a2a198936b905e41b98ba485ba"},
		{"", "a27", "work", "oozie-7ae153a4f9e087201edbdd5a4c12d5e"}, // MD5 07ae…: the leading zero dropped
	} {
		got := yarn.OozieTag(yarn.OozieLauncherTag(c.parent, c.action, c.node))
		if got != c.want || !yarn.IsOozieTag(got) {
			t.Errorf("%q %q: %q, want %q", c.parent, c.action, got, c.want)
		}
	}
	if yarn.IsOozieTag(yarn.ActionTag("x@y#0.0")) {
		t.Error("a tag of gozie's own taken for Oozie's")
	}
}
