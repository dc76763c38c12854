package coordrun

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// BenchmarkDoneFlagToLaunch: how long after a done-flag appears its
// action's workflow is launched (its first action started), with 1,000
// actions waiting. 1,000 daily coordinators have one action each, waiting
// on its own flag; then the flags appear one at a time at a steady pace.
// The clock follows real time (a fake clock moved every millisecond), so
// every delay, the input checks' backoff included, is real. The default
// backoff checks an action again after a sixteenth of the time it has
// waited, 1 s to 60 s (longer when the server falls behind):
//
//   - fresh: the flags appear over the 20 s after the actions' nominal
//     time, so each action is checked every 1 to 1.25 s: 1,000 actions
//     cost 800 to 1,000 checks a second;
//   - waited: the actions have waited 10 minutes (the clock jumps there,
//     so their one check on the way is claimed late and the next waits
//     twice the 37.5 s backoff: 75 s), all in the same second since they
//     were made together; the flags appear over 60 s, so that they fall
//     at every point of that wait;
//
// and either
//
//   - polling: only the input checks see a flag;
//   - notify: each flag is announced at once (Runner.Notify, as PUT
//     /oozie/v2/dataset?action=notify does), and the polling goes on.
//
// It reports the p50, p99 and maximum of the delay in milliseconds. The
// real workflow runner launches the workflows (its fs action, the test
// executor's).
func BenchmarkDoneFlagToLaunch(b *testing.B) {
	for _, backend := range benchBackends {
		for _, waited := range []time.Duration{0, 10 * time.Minute} {
			for _, notify := range []bool{false, true} {
				name := backend + "/fresh"
				if waited > 0 {
					name = backend + "/waited"
				}
				if notify {
					name += "/notify"
				} else {
					name += "/polling"
				}
				b.Run(name, func(b *testing.B) {
					if b.N > 1 {
						b.Skip("one run of 1,000 flags; run with -benchtime 1x")
					}
					benchDoneFlagToLaunch(b, backend, waited, notify)
				})
			}
		}
	}
}

func benchDoneFlagToLaunch(b *testing.B, backend string, waited time.Duration, notify bool) {
	const jobs = 1000
	every := 20 * time.Millisecond
	if waited > 0 {
		every = 60 * time.Millisecond
	}
	t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	o := options{now: t0, auto: true, noStart: true}
	if backend == "postgres" {
		o.postgres, o.dsn = true, pgtest.NewDatabase(b)
	}
	w := setup(b, o)
	w.patience = 10 * time.Minute
	app := w.app("latency", feedCoordXML("${coord:days(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
		"<concurrency>1</concurrency>"))
	feedOf := map[string]int{} // job id → feed number
	for i := 0; i < jobs; i++ {
		feedOf[w.submit(w.props(app, "feed", fmt.Sprintf("feed%04d", i)))] = i
	}
	w.start()
	w.settle() // at the nominal time: materialized, checked once, waiting
	if waited > 0 {
		w.advance(waited) // checked once more, next in a minute
	}
	if n := w.countActionsIn(store.CoordActionWaiting); n != jobs {
		b.Fatalf("%d actions waiting, want %d", n, jobs)
	}

	// The data of each instance lands before its done-flag, as it does on
	// a cluster: only the flags are written while launches are timed.
	for i := 0; i < jobs; i++ {
		if err := os.MkdirAll(w.stack.Local(feedURI(w, fmt.Sprintf("feed%04d", i), t0)), 0o755); err != nil {
			b.Fatal(err)
		}
	}

	// From here the clock follows real time.
	stop := followRealTime(w)
	defer stop()
	b.ResetTimer()
	appeared := make([]time.Time, jobs)
	tick := time.NewTicker(every)
	for i := 0; i < jobs; i++ {
		<-tick.C
		uri := feedURI(w, fmt.Sprintf("feed%04d", i), t0) + "/_SUCCESS"
		w.touch(uri)
		appeared[i] = w.clock.Now()
		if notify {
			if _, err := w.coords.Notify(bg, uri); err != nil {
				b.Fatal(err)
			}
		}
	}
	tick.Stop()
	w.waitForLaunches(jobs)
	b.StopTimer()
	stop()

	// The delay of each flag: from its appearance to the start of its
	// workflow's action, both on the clock that followed real time.
	delays := launchDelays(b, w, appeared, feedOf)
	if len(delays) != jobs {
		b.Fatalf("%d workflows launched, want %d", len(delays), jobs)
	}
	reportDelays(b, delays)
}

// reportDelays reports the p50, p99 and maximum of delays in milliseconds.
func reportDelays(b *testing.B, delays []time.Duration) {
	slices.Sort(delays)
	b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(delays[len(delays)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(delays[len(delays)-1].Microseconds())/1000, "max-ms")
}

// followRealTime moves the world's fake clock with real time, every
// millisecond, until the returned stop is called.
func followRealTime(w *world) (stop func()) {
	base, real := w.clock.Now(), time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				w.clock.Set(base.Add(time.Since(real)))
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}

// waitForLaunches waits until n fs actions have started: first by the
// executor's count, which costs the server nothing while launches are being
// timed, then until the last starts are stored.
func (w *world) waitForLaunches(n int) {
	w.t.Helper()
	w.waitFor("every workflow to be launched", func() bool { return w.exec.StartCount() >= n })
	w.waitFor("every launch to be stored", func() bool { return w.fsActionsStarted() == n })
}

// fsActionsStarted counts the fs actions of workflows that have started.
func (w *world) fsActionsStarted() int {
	w.t.Helper()
	var acts []store.WorkflowAction
	err := w.store.Tx(bg, func(x store.Tx) (err error) {
		acts, err = x.ListActionsByStatus(bg, store.ActionStatuses, 0)
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
	n := 0
	for _, a := range acts {
		if a.Type == "fs" && !a.StartTime.IsZero() {
			n++
		}
	}
	return n
}
