package storetest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
)

// BenchOpener opens a handle on a fresh benchmark database.
type BenchOpener func(b *testing.B) store.Store

// Bench runs the store benchmarks: trigger claim+release throughput and
// compare-and-set transitions, serial and parallel.
func Bench(b *testing.B, open BenchOpener) {
	for _, batch := range []int{1, 50} {
		b.Run(fmt.Sprintf("ClaimRelease/batch=%d", batch), func(b *testing.B) { benchClaim(b, open(b), batch) })
	}
	b.Run("CASTransition/serial", func(b *testing.B) { benchCAS(b, open(b), false) })
	b.Run("CASTransition/parallel", func(b *testing.B) { benchCAS(b, open(b), true) })
}

// benchClaim measures one op = one trigger scheduled, claimed and released,
// claims taken batch at a time and released in one transaction per batch.
func benchClaim(b *testing.B, s store.Store, batch int) {
	now := time.Now()
	const chunk = 5000
	seeded := 0
	seed := func(n int) {
		if err := s.Tx(ctx, func(x store.Tx) error {
			for i := 0; i < n; i++ {
				if err := x.Schedule(ctx, "bench", fmt.Sprintf("e%09d", seeded+i), now, ""); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		seeded += n
	}
	b.ResetTimer()
	start := time.Now()
	for done := 0; done < b.N; {
		if done == seeded {
			b.StopTimer()
			seed(min(chunk, b.N-seeded))
			b.StartTimer()
		}
		ts, err := s.ClaimTriggers(ctx, store.ClaimRequest{Owner: "bench", Now: now, LeaseUntil: now.Add(time.Minute), Limit: min(batch, b.N-done)})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Tx(ctx, func(x store.Tx) error {
			for _, t := range ts {
				if err := x.Release(ctx, t, time.Time{}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		done += len(ts)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "triggers/s")
}

// benchCAS measures one op = one guarded status transition of a workflow
// job in its own transaction (read, then compare-and-set write).
func benchCAS(b *testing.B, s store.Store, parallel bool) {
	const rows = 64
	if err := s.Tx(ctx, func(x store.Tx) error {
		for i := 0; i < rows; i++ {
			j := wfJob(fmt.Sprintf("W%03d", i), store.WorkflowRunning, t0)
			if err := x.InsertWorkflowJob(ctx, &j); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	flip := func(id string) error {
		return s.Tx(ctx, func(x store.Tx) error {
			j, err := x.GetWorkflowJob(ctx, id)
			if err != nil {
				return err
			}
			from := j.Status
			j.Status = store.WorkflowSuspended
			if from == store.WorkflowSuspended {
				j.Status = store.WorkflowRunning
			}
			return x.UpdateWorkflowJob(ctx, &j, from)
		})
	}
	start := time.Now()
	b.ResetTimer()
	if parallel {
		var next atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			id := fmt.Sprintf("W%03d", next.Add(1)%rows)
			for pb.Next() {
				if err := flip(id); err != nil {
					b.Error(err)
					return
				}
			}
		})
	} else {
		for i := 0; i < b.N; i++ {
			if err := flip(fmt.Sprintf("W%03d", i%rows)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "transitions/s")
}
