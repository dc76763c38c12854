package gcbudget

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
)

func TestLimitFor(t *testing.T) {
	for _, c := range []struct{ live, budget, want int64 }{
		{10 << 20, 192 << 20, 192 << 20}, // a small live heap: the budget
		{96 << 20, 192 << 20, 192 << 20},
		{150 << 20, 192 << 20, 300 << 20}, // outgrown: Go's default goal
	} {
		if got := LimitFor(c.live, c.budget); got != c.want {
			t.Errorf("LimitFor(%d, %d) = %d, want %d", c.live, c.budget, got, c.want)
		}
	}
}

// current reads the GC percent and memory limit without changing them.
func current() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1) // a negative limit only reads it
}

func TestStartAppliesAndRestores(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	p0, l0 := current()
	stop := Start(context.Background(), 192<<20)
	p, l := current()
	if p != Percent || l < 192<<20 || l == math.MaxInt64 {
		t.Errorf("under a budget: GOGC %d, limit %d; want %d and at least the budget", p, l, Percent)
	}
	stop()
	if p, l := current(); p != p0 || l != l0 {
		t.Errorf("after stop: GOGC %d, limit %d; want %d, %d", p, l, p0, l0)
	}
}

func TestStartLeavesTheOperatorsChoice(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			p0, l0 := current()
			defer Start(context.Background(), 192<<20)()
			if p, l := current(); p != p0 || l != l0 {
				t.Errorf("with %s set: GOGC %d, limit %d changed from %d, %d", env, p, l, p0, l0)
			}
		})
	}
	p0, l0 := current()
	defer Start(context.Background(), 0)()
	if p, l := current(); p != p0 || l != l0 {
		t.Errorf("with no budget: GOGC %d, limit %d changed from %d, %d", p, l, p0, l0)
	}
}
