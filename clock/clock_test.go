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
