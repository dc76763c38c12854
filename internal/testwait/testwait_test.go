package testwait

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a testing.TB that records a Fatalf instead of stopping.
type recorder struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msg = fmt.Sprintf(format, args...)
}

func TestWaitForReturnsOnceTheConditionHolds(t *testing.T) {
	t.Parallel()
	n := 0
	r := &recorder{TB: t}
	WaitFor(r, Timeout, "the third call", func() bool { n++; return n == 3 })
	if r.msg != "" || n != 3 {
		t.Fatalf("calls %d, failure %q; want 3 calls and no failure", n, r.msg)
	}
}

func TestWaitForFailsNamingWhatAndTheTimeout(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	WaitFor(r, time.Millisecond, "a miracle", func() bool { return false })
	if !strings.Contains(r.msg, "a miracle") || !strings.Contains(r.msg, "1ms") {
		t.Fatalf("failure %q does not name the wait and its timeout", r.msg)
	}
}

func TestWaitForLastNamesTheLastState(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	WaitForLast(r, time.Millisecond, "RUNNING", func() (bool, string) { return false, "PREP" })
	if !strings.Contains(r.msg, "RUNNING") || !strings.Contains(r.msg, "last: PREP") {
		t.Fatalf("failure %q does not name the last state", r.msg)
	}
}

func TestUntilReportsWhetherTheConditionHeld(t *testing.T) {
	t.Parallel()
	if Until(time.Millisecond, func() bool { return false }) {
		t.Fatal("Until reported a condition that never held")
	}
	if !Until(Timeout, func() bool { return true }) {
		t.Fatal("Until missed a condition that held at once")
	}
}

func TestPollDefaultsToThePackageBounds(t *testing.T) {
	t.Parallel()
	if got := (Poll{}).timeout(); got != Timeout {
		t.Fatalf("zero Poll times out after %v, want %v", got, Timeout)
	}
	r := &recorder{TB: t}
	Poll{Timeout: time.Millisecond, Every: time.Millisecond}.WaitFor(r, "never", func() bool { return false })
	if !strings.Contains(r.msg, "never") {
		t.Fatalf("failure %q does not name the wait", r.msg)
	}
}
