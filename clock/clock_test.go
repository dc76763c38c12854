package clock

import (
	"testing"
	"time"
)

func TestFakeTimersFireInOrder(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := NewFake(t0)
	a := f.NewTimer(2 * time.Second)
	b := f.NewTimer(time.Second)
	c := f.NewTimer(time.Hour)
	if got, ok := f.NextDeadline(); !ok || !got.Equal(t0.Add(time.Second)) {
		t.Fatalf("next deadline %v", got)
	}
	f.Advance(1500 * time.Millisecond)
	select {
	case <-b.C():
	default:
		t.Fatal("1s timer did not fire at 1.5s")
	}
	select {
	case <-a.C():
		t.Fatal("2s timer fired at 1.5s")
	default:
	}
	if !c.Stop() || c.Stop() {
		t.Fatal("Stop must report true once")
	}
	f.Advance(time.Second)
	<-a.C()
	if f.Waiters() != 0 {
		t.Fatalf("%d timers left", f.Waiters())
	}
	if !f.Now().Equal(t0.Add(2500 * time.Millisecond)) {
		t.Fatalf("now %v", f.Now())
	}
	z := f.NewTimer(0)
	<-z.C()
}

func TestFakeChangedSignalsNewTimers(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	ch := f.Changed()
	go f.NewTimer(time.Minute)
	<-ch
	if f.Waiters() != 1 {
		t.Fatal("Changed closed before the timer was armed")
	}
}

// TestNewTimerAtKeepsItsDeadline: a wait computed before the fake clock
// moved still ends at its deadline (NewTimer would anchor it at the moved
// time and fire late); a deadline already passed fires at once.
func TestNewTimerAtKeepsItsDeadline(t *testing.T) {
	t0 := time.Date(2026, 3, 8, 9, 0, 0, 0, time.UTC)
	f := NewFake(t0)
	deadline := t0.Add(time.Minute) // computed at t0
	f.Advance(30 * time.Second)     // another goroutine moves the clock
	at := f.NewTimerAt(deadline)
	late := f.NewTimer(deadline.Sub(t0))
	f.Advance(30 * time.Second)
	select {
	case got := <-at.C():
		if !got.Equal(deadline) {
			t.Errorf("fired at %v, want %v", got, deadline)
		}
	default:
		t.Fatal("the timer at the deadline did not fire when the clock reached it")
	}
	select {
	case <-late.C():
		t.Fatal("NewTimer fired at the deadline although the clock had moved before it was made")
	default:
	}
	past := f.NewTimerAt(t0)
	select {
	case <-past.C():
	default:
		t.Fatal("a timer at a passed deadline did not fire at once")
	}
}
