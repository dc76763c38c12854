package coordrun

import (
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/coordinator/coordrun/editwatch"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// BenchmarkDoneFlagToLaunchEditStream: done-flag → launch for 1,000
// actions that have waited 10 minutes (so that their input checks come
// once a minute, the backoff's cap), with no notify call: the flags are
// written to a MiniDFS through HDFS (a temporary file renamed into place,
// as hdfs dfs -put does), and the edit-stream watcher (package editwatch,
// reading as the NameNode's superuser) wakes their actions. The instance
// directories exist beforehand, as a producer writes its data before its
// flag. The flags appear one every 60 ms, so that they fall at every point
// of the minute between polls; the clock follows real time, as in
// BenchmarkDoneFlagToLaunch. It reports p50, p99 and the maximum in
// milliseconds.
func BenchmarkDoneFlagToLaunchEditStream(b *testing.B) {
	for _, backend := range benchBackends {
		b.Run(backend+"/waited/editstream", func(b *testing.B) {
			if b.N > 1 {
				b.Skip("one run of 1,000 flags; run with -benchtime 1x")
			}
			benchDoneFlagEditStream(b, backend)
		})
	}
}

func benchDoneFlagEditStream(b *testing.B, backend string) {
	const jobs = 1000
	const every = 60 * time.Millisecond
	t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	o := options{now: t0, auto: true, noStart: true, hdfs: true}
	if backend == "postgres" {
		o.postgres, o.dsn = true, pgtest.NewDatabase(b)
	}
	w := setup(b, o)
	w.patience = 10 * time.Minute
	app := w.app("latency", feedCoordXML("${coord:days(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
		"<concurrency>1</concurrency>"))
	feedOf := map[string]int{} // job id → feed number
	for i := 0; i < jobs; i++ {
		feed := fmt.Sprintf("feed%04d", i)
		feedOf[w.submit(w.props(app, "feed", feed))] = i
		if err := w.fs.MkdirAll(bg, feedURI(w, feed, t0), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	w.start()
	w.settle()
	w.advance(10 * time.Minute) // checked once more, next in a minute
	if n := w.countActionsIn(store.CoordActionWaiting); n != jobs {
		b.Fatalf("%d actions waiting, want %d", n, jobs)
	}

	stop := followRealTime(w)
	defer stop()
	stream, err := w.fs.EditStream(w.nn)
	if err != nil {
		b.Fatal(err)
	}
	defer stream.Close()
	watch, err := editwatch.New(editwatch.Config{FS: w.nn, Store: w.store, Stream: stream, Notifier: w.coords,
		Owner: "bench", Clock: w.clock})
	if err != nil {
		b.Fatal(err)
	}
	if err := watch.Start(bg); err != nil {
		b.Fatal(err)
	}
	defer watch.Stop()
	w.waitFor("the watcher to follow the stream", func() bool {
		return w.store.Tx(bg, func(x store.Tx) error {
			_, err := x.GetStreamPosition(bg, "edits "+w.nn)
			return err
		}) == nil
	})
	b.ResetTimer()
	appeared := make([]time.Time, jobs)
	tick := time.NewTicker(every)
	for i := 0; i < jobs; i++ {
		<-tick.C
		if err := w.fs.WriteFile(bg, feedURI(w, fmt.Sprintf("feed%04d", i), t0)+"/_SUCCESS", nil, 0o644); err != nil {
			b.Fatal(err)
		}
		appeared[i] = w.clock.Now()
	}
	tick.Stop()
	w.waitForLaunches(jobs)
	b.StopTimer()
	watch.Stop()
	stop()
	delays := launchDelays(b, w, appeared, feedOf)
	if len(delays) != jobs {
		b.Fatalf("%d workflows launched, want %d", len(delays), jobs)
	}
	reportDelays(b, delays)
}

// launchDelays returns, for each launched workflow, the time from its
// flag's appearance to the start of its fs action.
func launchDelays(b *testing.B, w *world, appeared []time.Time, feedOf map[string]int) []time.Duration {
	var delays []time.Duration
	err := w.store.Tx(bg, func(x store.Tx) error {
		wfs, _, err := x.ListWorkflowJobs(bg, store.JobFilter{})
		if err != nil {
			return err
		}
		for _, wf := range wfs {
			a, err := x.GetCoordAction(bg, wf.ParentID)
			if err != nil {
				return err
			}
			acts, err := x.ListWorkflowActions(bg, wf.ID)
			if err != nil {
				return err
			}
			for _, act := range acts {
				if act.Type == "fs" {
					delays = append(delays, act.StartTime.Sub(appeared[feedOf[a.JobID]]))
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return delays
}
