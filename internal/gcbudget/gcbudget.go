// Package gcbudget lets Go's garbage collector spend memory the server may
// use to save CPU. By default Go collects whenever the heap has doubled
// since the last collection; a server whose live heap is small (about 9 MB
// while answering REST requests) then collects every ~9 MB allocated, about
// a tenth of its CPU in the REST benchmark's profile.
// Under a budget the collector lets the heap grow to five times the live
// heap (GOGC=400) while that stays under the budget, and never collects
// sooner than Go's default would (a limit of at least twice the live heap,
// so a server whose live heap outgrows the budget is collected as by
// default, never continuously).
package gcbudget

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// DefaultMB is the server's budget in MiB unless configured
// (gozie.heap.budget.mb): with it a server holding 10,000 active
// coordinators stays under 300 MB resident.
const DefaultMB = 192

// Percent is the collector's GOGC while the heap is under the budget.
const Percent = 400

// Interval is how often the live heap is read to move the limit.
const Interval = time.Second

// liveHeap is the runtime metric of the heap the last collection kept.
const liveHeap = "/gc/heap/live:bytes"

// Start applies the budget (bytes; 0 leaves Go's defaults) and follows the
// live heap every Interval until ctx ends or stop is called, which restores
// the settings found at the start. GOGC or GOMEMLIMIT in the environment
// are the operator's choice: Start then changes nothing.
func Start(ctx context.Context, budget int64) (stop func()) {
	if budget <= 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prevPercent := debug.SetGCPercent(Percent)
	prevLimit := debug.SetMemoryLimit(LimitFor(readLive(), budget))
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(Interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				debug.SetMemoryLimit(LimitFor(readLive(), budget))
			}
		}
	}()
	return func() {
		cancel()
		<-done
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}
}

// LimitFor is the memory limit for a live heap: the budget, or twice the
// live heap when that is more (Go's default goal, so that the limit never
// makes the collector run more often than GOGC=100 would).
func LimitFor(live, budget int64) int64 {
	return max(budget, 2*live)
}

func readLive() int64 {
	s := []metrics.Sample{{Name: liveHeap}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
