package coordrun

import (
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres/pgtest"
)

// The benchmarks run the real engine on a real store with a fake clock,
// and report actions materialized per second of wall time (actions/s).
// They are part of `make bench`; run one with
//
//	go test -run '^$' -bench Materialize -benchtime 3x ./coordinator/coordrun/
//
// PostgreSQL ones need GOZIE_TEST_POSTGRES (make bench starts a server).

var benchBackends = []string{"sqlite", "postgres"}

func benchWorld(b *testing.B, backend string, now time.Time, kinds ...store.TriggerKind) *world {
	b.Helper()
	o := options{now: now, noStart: true, only: kinds}
	if backend == "postgres" {
		o.postgres = true
		o.dsn = pgtest.NewDatabase(b)
	}
	w := setup(b, o)
	// Look rarely, so that the looks cost the engine little.
	w.patience, w.pollEvery = 30*time.Minute, 50*time.Millisecond
	return w
}

// countActions counts every coordinator action in the store.
func (w *world) countActions() int {
	w.t.Helper()
	return w.countActionsIn()
}

// countActionsIn counts the coordinator actions of every job in one of
// statuses (in any status when none are given).
func (w *world) countActionsIn(statuses ...store.CoordActionStatus) int {
	w.t.Helper()
	n := 0
	err := w.store.Tx(bg, func(x store.Tx) error {
		jobs, _, err := x.ListCoordJobs(bg, store.JobFilter{})
		if err != nil {
			return err
		}
		ids := make([]string, len(jobs))
		for i, j := range jobs {
			ids[i] = j.ID
		}
		counts, err := x.CountCoordActionsByJob(bg, ids, statuses)
		for _, c := range counts {
			n += c
		}
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return n
}

// manyHourlyJobs stores jobs copies of one hourly coordinator with an input
// dataset and concurrency 0 (which keeps workflows out of the measure; a
// throttle of 100 lets the READY actions of the benchmarks' 48 hours
// queue), each with its first materialization due at due. It returns the
// job ids. On PostgreSQL the database is then analyzed (pgtest.Analyze),
// as autovacuum would have done by the time a server has that many jobs.
func manyHourlyJobs(b *testing.B, w *world, jobs int, due time.Time) []string {
	b.Helper()
	app := w.app("many", coordXML("${coord:hours(1)}", "2010-01-01T00:00Z", "2011-01-01T00:00Z",
		"<concurrency>0</concurrency><throttle>100</throttle>", true))
	p, err := w.coords.Prepare(bg, w.props(app), SubmitOptions{})
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, 0, jobs)
	for i := 0; i < jobs; i += 500 {
		err := w.store.Tx(bg, func(x store.Tx) error {
			for j := i; j < min(i+500, jobs); j++ {
				row := p.Row()
				row.ID = fmt.Sprintf("%07d-100101000000000-bench-C", j)
				if err := x.InsertCoordJob(bg, &row); err != nil {
					return err
				}
				if err := x.Schedule(bg, KindMaterialize, row.ID, due, ""); err != nil {
					return err
				}
				ids = append(ids, row.ID)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if w.dsn != "" {
		pgtest.Analyze(b, w.dsn)
	}
	return ids
}

// BenchmarkMaterializeManyCoordinators: 10,000 hourly coordinators, each
// with an input dataset whose instances exist; one operation is one hour of
// the clock, in which every coordinator materializes its next action and
// the action becomes READY: 10,000 actions per operation. The clock jumps
// a whole hour at once, so each action's nominal time has come when it is
// materialized and its data is already there (a catch-up): the
// materialization looks the data up before its transaction and stores the
// action READY at once, without an input check of its own.
// BenchmarkMaterializeManyCoordinatorsAhead is the real-time case.
func BenchmarkMaterializeManyCoordinators(b *testing.B) {
	for _, backend := range benchBackends {
		b.Run(backend, func(b *testing.B) {
			const jobs, hours = 10000, 48
			if b.N > hours {
				b.Skip("the dataset has 48 hours of instances")
			}
			t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			w := benchWorld(b, backend, t0.Add(-10*time.Minute))
			for h := 0; h < hours; h++ {
				w.touch(w.logURI(t0.Add(time.Duration(h)*time.Hour)) + "/_SUCCESS")
			}
			manyHourlyJobs(b, w, jobs, t0.Add(-5*time.Minute))
			w.start()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				w.advance(time.Hour)
			}
			elapsed := time.Since(start)
			b.StopTimer()
			if n := w.countActions(); n != jobs*b.N {
				b.Fatalf("%d actions after %d hours, want %d", n, b.N, jobs*b.N)
			}
			if n := w.countActionsIn(store.CoordActionReady); n != jobs*b.N {
				b.Fatalf("%d READY actions after %d hours, want %d", n, b.N, jobs*b.N)
			}
			b.ReportMetric(float64(jobs*b.N)/elapsed.Seconds(), "actions/s")
		})
	}
}

// BenchmarkMaterializeManyCoordinatorsAhead: the same 10,000 hourly
// coordinators in real time. One operation is one hour of the clock in two
// steps: five minutes before the hour every coordinator materializes its
// next action ahead of its nominal time (WAITING, its waits indexed, its
// input check due at the hour); at the hour
// every action's input check runs, finds the data and makes it READY. It
// reports both rates and the whole (actions/s: materialized and checked).
// The first hour is not measured: it is the server's first sight of the
// jobs (definitions parsed, rows read in full), not its steady state.
func BenchmarkMaterializeManyCoordinatorsAhead(b *testing.B) {
	for _, backend := range benchBackends {
		b.Run(backend, func(b *testing.B) {
			const jobs, hours = 10000, 48
			if b.N+1 > hours {
				b.Skip("the dataset has 48 hours of instances")
			}
			t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			w := benchWorld(b, backend, t0.Add(-time.Hour))
			for h := 0; h < hours; h++ {
				w.touch(w.logURI(t0.Add(time.Duration(h)*time.Hour)) + "/_SUCCESS")
			}
			manyHourlyJobs(b, w, jobs, t0.Add(-5*time.Minute))
			w.start()
			w.advance(time.Hour)
			b.ResetTimer()
			var materializing, checking time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				w.advance(55 * time.Minute)
				materializing += time.Since(start)
				b.StopTimer()
				if n := w.countActionsIn(store.CoordActionWaiting); n != jobs {
					b.Fatalf("hour %d: %d WAITING actions after materialization, want %d", i, n, jobs)
				}
				b.StartTimer()
				start = time.Now()
				w.advance(5 * time.Minute)
				checking += time.Since(start)
			}
			b.StopTimer()
			if n := w.countActionsIn(store.CoordActionReady); n != jobs*(b.N+1) {
				b.Fatalf("%d READY actions after %d hours, want %d", n, b.N+1, jobs*(b.N+1))
			}
			n := float64(jobs * b.N)
			b.ReportMetric(n/materializing.Seconds(), "materialized/s")
			b.ReportMetric(n/checking.Seconds(), "checked/s")
			b.ReportMetric(n/(materializing+checking).Seconds(), "actions/s")
		})
	}
}

// BenchmarkMaterializeMinutelyCoordinator: one coordinator with a year of
// one-minute actions; one operation is one day of the clock (1,440
// actions). Its actions have no inputs, so they are READY at once, and
// start without a concurrency limit; their workflows end at once.
// Materialization catches up in passes of up to the throttle (500) as the
// starts drain the queued actions.
func BenchmarkMaterializeMinutelyCoordinator(b *testing.B) {
	for _, backend := range benchBackends {
		b.Run(backend, func(b *testing.B) {
			if b.N > 360 {
				b.Skip("one year of actions is the limit")
			}
			t0 := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
			o := options{now: t0.Add(-10 * time.Minute), noStart: true, auto: true,
				only: []store.TriggerKind{KindMaterialize, KindInputCheck, KindStart}}
			if backend == "postgres" {
				o.postgres, o.dsn = true, pgtest.NewDatabase(b)
			}
			w := setup(b, o)
			w.patience, w.pollEvery = 30*time.Minute, 50*time.Millisecond
			app := w.app("minutely", coordXML("1", "2010-01-01T00:00Z", "2011-01-01T00:00Z",
				"<concurrency>-1</concurrency><throttle>500</throttle>", false))
			id := w.submit(w.props(app))
			w.start()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				w.advance(24 * time.Hour)
			}
			elapsed := time.Since(start)
			b.StopTimer()
			n := w.countActions()
			if want := 1440 * b.N; n < want {
				b.Fatalf("%d actions after %d days, want at least %d", n, b.N, want)
			}
			if j := w.job(id); j.LastActionNumber != n {
				b.Fatalf("job's last action %d, %d actions", j.LastActionNumber, n)
			}
			b.ReportMetric(float64(n)/elapsed.Seconds(), "actions/s")
		})
	}
}
