package coordrun

import (
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// BenchmarkInputChecks: input checks per second against MiniDFS, through
// the hadoop filesystem layer (Hadoop IPC to an in-process NameNode), the
// real engine and store. 1,000 hourly coordinators have one action each
// waiting on its own dataset instance on HDFS. One operation moves the
// clock past every action's next check, so that all 1,000 checks run at
// once, and waits until they are done:
//
//   - missing: the done-flags are not there; each check asks the NameNode
//     and the action keeps waiting (the steady cost of polling);
//   - found: the done-flags appeared; each check finds its flag and the
//     action becomes READY (concurrency 0 keeps workflows out).
//
// It reports checks/s of wall time.
func BenchmarkInputChecks(b *testing.B) {
	for _, backend := range benchBackends {
		for _, found := range []bool{false, true} {
			name := backend + "/missing"
			if found {
				name = backend + "/found"
			}
			b.Run(name, func(b *testing.B) {
				if found && b.N > 1 {
					b.Skip("an action is found once; run with -benchtime 1x")
				}
				benchInputChecks(b, backend, found)
			})
		}
	}
}

func benchInputChecks(b *testing.B, backend string, found bool) {
	const jobs = 1000
	t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	o := options{now: t0.Add(time.Minute), hdfs: true, noStart: true}
	if backend == "postgres" {
		o.postgres, o.dsn = true, pgtest.NewDatabase(b)
	}
	w := setup(b, o)
	w.patience, w.pollEvery = 30*time.Minute, 10*time.Millisecond
	app := w.app("checks", feedCoordXML("${coord:days(1)}", "2010-01-01T00:00Z", "2010-01-02T00:00Z",
		"<concurrency>0</concurrency>"))
	for i := 0; i < jobs; i++ {
		w.submit(w.props(app, "feed", fmt.Sprintf("feed%04d", i)))
	}
	w.start()
	w.settle() // materialized, checked once, waiting
	if n := w.countActionsIn(store.CoordActionWaiting); n != jobs {
		b.Fatalf("%d actions waiting, want %d", n, jobs)
	}
	if found {
		for i := 0; i < jobs; i++ {
			w.touch(feedURI(w, fmt.Sprintf("feed%04d", i), t0) + "/_SUCCESS")
		}
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		// Past the longest check interval: every action is checked once.
		w.advance(time.Minute)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	want, st := jobs, store.CoordActionWaiting
	if found {
		st = store.CoordActionReady
	}
	if n := w.countActionsIn(st); n != want {
		b.Fatalf("%d actions %s, want %d", n, st, want)
	}
	b.ReportMetric(float64(jobs*b.N)/elapsed.Seconds(), "checks/s")
}

// feedCoordXML is a coordinator app whose one input is the instance of a
// daily dataset named by the job's feed property, under the cluster's
// /data/<feed>, so that every job submitted with its own feed waits on its
// own done-flag.
func feedCoordXML(freq, start, end, controls string) string {
	return fmt.Sprintf(`<coordinator-app name="feed-coord" frequency="%s" start="%s" end="%s" timezone="UTC"
    xmlns="uri:oozie:coordinator:0.4">
  <controls>%s</controls>
  <datasets>
    <dataset name="feed" frequency="${coord:days(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">
      <uri-template>${nameNode}/data/${feed}/${YEAR}${MONTH}${DAY}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="in" dataset="feed"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>${wfApp}</app-path>
    <configuration><property><name>nominal</name><value>${coord:nominalTime()}</value></property></configuration>
  </workflow></action>
</coordinator-app>`, freq, start, end, controls)
}

// feedURI is the instance of a job's feed dataset at t.
func feedURI(w *world, feed string, t time.Time) string {
	return w.nn + "/data/" + feed + "/" + t.UTC().Format("20060102")
}
