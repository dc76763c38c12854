package xmltree

import (
	"errors"
	"fmt"
	"testing"
)

// codedErr stands for a caller package's coded error.
type codedErr struct{ code, msg string }

func (e *codedErr) Error() string { return e.code + ": " + e.msg }

func codeOf(err error) string {
	var c *codedErr
	if errors.As(err, &c) {
		return c.code
	}
	return ""
}

// TestCoded checks the codes of the two kinds (E0700, E0701) and that
// other errors and coded ones pass through unchanged.
func TestCoded(t *testing.T) {
	t.Parallel()
	wrap := func(code string, te *Error) error { return &codedErr{code: code, msg: te.Error()} }
	for kind, want := range map[Kind]string{Malformed: "E0700", Invalid: "E0701"} {
		err := fmt.Errorf("reading: %w", &Error{Kind: kind, Where: "line 3", Msg: "bad"})
		got := Coded(err, codeOf, wrap)
		if c := codeOf(got); c != want || got.Error() != want+": line 3: bad" {
			t.Errorf("%s: got %v (code %q), want code %s", kind, got, c, want)
		}
	}
	plain := errors.New("not a tree error")
	if got := Coded(plain, codeOf, wrap); got != plain {
		t.Errorf("a plain error became %v", got)
	}
	coded := &codedErr{code: "E0702", msg: "already coded"}
	if got := Coded(fmt.Errorf("%w: %w", coded, &Error{Kind: Invalid}), codeOf, wrap); codeOf(got) != "E0702" {
		t.Errorf("a coded error was converted again: %v", got)
	}
}
