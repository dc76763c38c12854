package ids

import (
	"strings"
	"testing"
)

// TestKindTests checks EndsWithKind and HasActionOf against the text tests Oozie uses
// (strings.HasSuffix and strings.Contains), odd inputs included.
func TestKindTests(t *testing.T) {
	t.Parallel()
	inputs := []string{
		"", "-", "W", "-W", "W-", "--W", "@", "-W@", "-C@", "-C@3", "@-W",
		"0000001-250127091857123-oozie-oozi-W", "0000001-250127091857123-oozie-oozi-C",
		"0000001-250127091857123-oozie-oozi-B", "0000001-250127091857123-oozie-oozi-C@3",
		"0000001-250127091857123-oozie-oozi-W@load-C", "0000001-250127091857123-oozie-oozi-B@x-W",
		"0000099-000000000000000-none-C", "a@b-W@c", "x-w", "x-c@1", "x-\u00e9W",
	}
	for _, s := range inputs {
		for _, kind := range []byte{Workflow, Coordinator, Bundle} {
			if got, want := EndsWithKind(s, kind), strings.HasSuffix(s, "-"+string(kind)); got != want {
				t.Errorf("EndsWithKind(%q, %c) = %v, want %v", s, kind, got, want)
			}
			if got, want := HasActionOf(s, kind), strings.Contains(s, "-"+string(kind)+"@"); got != want {
				t.Errorf("HasActionOf(%q, %c) = %v, want %v", s, kind, got, want)
			}
		}
	}
}

// FuzzKindTests checks the same on any input.
func FuzzKindTests(f *testing.F) {
	for _, s := range []string{"", "-W", "x-C@3", "a@b-W@c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, kind := range []byte{Workflow, Coordinator, Bundle} {
			if EndsWithKind(s, kind) != strings.HasSuffix(s, "-"+string(kind)) ||
				HasActionOf(s, kind) != strings.Contains(s, "-"+string(kind)+"@") {
				t.Fatalf("kind tests of %q disagree with Oozie's text tests", s)
			}
		}
	})
}
