// Package testwait is the one way gozie's tests wait for a condition: a
// short poll bounded by a deadline, failing the test with what it waited
// for. No test sleeps to synchronise; the only sleep is the poll interval
// here (STYLE.md, "waits on conditions instead of sleeps").
package testwait

import (
	"testing"
	"time"
)

// Timeout is the deadline most waits use: long enough for a loaded CI
// machine, short enough that a hung test fails in reasonable time.
const Timeout = 30 * time.Second

// Interval is the pause between two evaluations of a condition.
const Interval = 5 * time.Millisecond

// WaitFor evaluates cond every Interval until it holds, failing t (from
// the caller's line) with what and the timeout once timeout has passed.
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	Poll{Timeout: timeout}.WaitFor(t, what, cond)
}

// WaitForLast is WaitFor for a condition that also describes what it saw
// last; the failure names that description, so a timed-out wait says
// where the state stopped.
func WaitForLast(t testing.TB, timeout time.Duration, what string, cond func() (ok bool, last string)) {
	t.Helper()
	Poll{Timeout: timeout}.WaitForLast(t, what, cond)
}

// Until evaluates cond every Interval until it holds or timeout passes,
// and reports whether it held. It is for waits that must not fail the
// test themselves (a goroutine, or a caller that explains the failure
// better).
func Until(timeout time.Duration, cond func() bool) bool {
	return Poll{Timeout: timeout}.Until(cond)
}

// Poll is a wait with its own bounds, for the few waits that need others
// than WaitFor's: a benchmark that looks less often so as not to steal
// the CPU it measures.
type Poll struct {
	Timeout time.Duration // zero: the package's Timeout
	Every   time.Duration // zero: the package's Interval
}

// WaitFor is the package's WaitFor with p's bounds.
func (p Poll) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	p.WaitForLast(t, what, func() (bool, string) { return cond(), "" })
}

// WaitForLast is the package's WaitForLast with p's bounds.
func (p Poll) WaitForLast(t testing.TB, what string, cond func() (ok bool, last string)) {
	t.Helper()
	ok, last := p.poll(cond)
	switch {
	case ok:
	case last == "":
		t.Fatalf("timed out after %v waiting for %s", p.timeout(), what)
	default:
		t.Fatalf("timed out after %v waiting for %s (last: %s)", p.timeout(), what, last)
	}
}

// Until is the package's Until with p's bounds.
func (p Poll) Until(cond func() bool) bool {
	ok, _ := p.poll(func() (bool, string) { return cond(), "" })
	return ok
}

func (p Poll) timeout() time.Duration {
	if p.Timeout <= 0 {
		return Timeout
	}
	return p.Timeout
}

// poll runs cond until it holds or the deadline passes, returning whether
// it held and the last description cond gave.
func (p Poll) poll(cond func() (bool, string)) (bool, string) {
	every := p.Every
	if every <= 0 {
		every = Interval
	}
	deadline := time.Now().Add(p.timeout())
	for {
		ok, last := cond()
		if ok {
			return true, ""
		}
		if time.Now().After(deadline) {
			return false, last
		}
		time.Sleep(every) // the bounded poll: the deadline above ends it
	}
}
