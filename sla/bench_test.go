package sla_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gozie/gozie/engine"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/store/sqlite"
)

// benchArmed is how many registrations wait on deadlines far ahead while
// the measured ones pass theirs.
const benchArmed = 10_000

// BenchmarkDeadlineToMiss measures how long after a deadline passes the
// miss is recorded, with 10,000 other registrations armed: one op is one
// never-started job whose should-start passes; its START_MISS's lateness
// (judgment time minus expected start) is the latency. Reports p50 and p99
// in milliseconds. Runs on SQLite, and on PostgreSQL when
// GOZIE_TEST_POSTGRES is set.
func BenchmarkDeadlineToMiss(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "gozie.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchDeadlines(b, st)
	})
	b.Run("postgres", func(b *testing.B) {
		if pgtestURL() == "" {
			b.Skip("GOZIE_TEST_POSTGRES is not set")
		}
		st, err := postgres.Open(context.Background(), pgtest.NewDatabase(b))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchDeadlines(b, st)
	})
}

func benchDeadlines(b *testing.B, st store.Store) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	insert := func(prefix string, n int, expectedStart func(i int) time.Time) {
		for from := 0; from < n; from += 1000 {
			err := st.Tx(ctx, func(x store.Tx) error {
				for i := from; i < min(n, from+1000); i++ {
					id := fmt.Sprintf("%s%07d-W", prefix, i)
					if err := x.InsertWorkflowJob(ctx, &store.WorkflowJob{ID: id, AppName: "bench", Status: store.WorkflowPrep,
						CreatedTime: now}); err != nil {
						return err
					}
					es := expectedStart(i)
					if err := sla.Insert(ctx, x, &store.SLA{ID: id, AppName: "bench", AppType: store.AppWorkflowJob,
						NominalTime: es, ExpectedStart: es, ExpectedEnd: es.Add(time.Hour), ExpectedDuration: -1,
						ActualDuration: -1, SLAStatus: store.SLANotStarted, CreatedTime: now}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	insert("armed", benchArmed, func(int) time.Time { return now.Add(24 * time.Hour) })
	svc, err := sla.New(sla.Config{Store: st, Logger: testLog()})
	if err != nil {
		b.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: st, Logger: testLog(), Workers: 4})
	svc.Register(eng)
	// The measured registrations' deadlines pass 20 ms apart (50 a second), starting once
	// the engine runs.
	first := time.Now().Add(500 * time.Millisecond)
	insert("late", b.N, func(i int) time.Time { return first.Add(time.Duration(i) * 20 * time.Millisecond) })
	b.ResetTimer()
	if err := eng.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer eng.Stop()
	var lat []float64
	// Polling the outcome; the figure comes from the events.
	poll := testwait.Poll{Timeout: time.Minute + time.Duration(b.N)*20*time.Millisecond, Every: 20 * time.Millisecond}
	poll.WaitForLast(b, "every miss to be recorded", func() (bool, string) {
		var evs []store.SLAEvent
		err := st.Tx(ctx, func(x store.Tx) (err error) {
			evs, err = x.QuerySLAEvents(ctx, store.SLAEventFilter{Statuses: []store.SLAEventStatus{store.SLAStartMiss}})
			return
		})
		if err != nil {
			b.Fatal(err)
		}
		lat = lat[:0]
		for _, e := range evs {
			lat = append(lat, float64(e.Lateness)/float64(time.Millisecond))
		}
		return len(lat) >= b.N, fmt.Sprintf("%d of %d misses recorded", len(lat), b.N)
	})
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[min(len(lat)-1, len(lat)*99/100)], "p99-ms")
}
