package slaapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres"
	"github.com/gozie/gozie/store/postgres/pgtest"
	"github.com/gozie/gozie/store/sqlite"
)

// benchRows is how many registrations (each with one event) the listing
// benchmark stores; GOZIE_SLA_BENCH_ROWS overrides the default million.
func benchRows() int {
	if v, err := strconv.Atoi(os.Getenv("GOZIE_SLA_BENCH_ROWS")); err == nil && v > 0 {
		return v
	}
	return 1_000_000
}

// seedBench stores n ended coordinator-action registrations of 1,000 apps
// and n/100 coordinators, a minute apart, every tenth an END_MISS, each
// with its event.
func seedBench(b *testing.B, st store.Store, n int) {
	ctx := context.Background()
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	const batch = 5000
	for from := 0; from < n; from += batch {
		err := st.Tx(ctx, func(x store.Tx) error {
			for i := from; i < min(n, from+batch); i++ {
				nt := t0.Add(time.Duration(i) * time.Minute)
				r := store.SLA{ID: fmt.Sprintf("%07d-240101000000000-gozie-bench-C@%d", i/100, i%100+1),
					ParentID: fmt.Sprintf("%07d-240101000000000-gozie-bench-C", i/100), AppName: fmt.Sprintf("app-%03d", i%1000),
					AppType: store.AppCoordinatorAction, User: "bench", NominalTime: nt, ExpectedStart: nt.Add(5 * time.Minute),
					ExpectedEnd: nt.Add(30 * time.Minute), ExpectedDuration: 25 * 60000, ActualStart: nt.Add(4 * time.Minute),
					ActualEnd: nt.Add(20 * time.Minute), ActualDuration: 16 * 60000, JobStatus: "SUCCEEDED",
					SLAStatus: store.SLAMet, EventStatus: "START_MET,DURATION_MET,END_MET", CreatedTime: nt, LastModified: nt}
				ev := store.SLAEvent{SLAID: r.ID, AppName: r.AppName, EventStatus: store.SLAEndMet, Lateness: -10 * time.Minute,
					EventTime: r.ActualEnd, SLAStatus: store.SLAMet}
				if i%10 == 0 {
					r.ActualEnd, r.ActualDuration = nt.Add(45*time.Minute), 41*60000
					r.SLAStatus, r.EventStatus = store.SLAMiss, "START_MET,DURATION_MISS,END_MISS"
					ev.EventStatus, ev.Lateness, ev.EventTime, ev.SLAStatus = store.SLAEndMiss, 15*time.Minute, r.ActualEnd, store.SLAMiss
				}
				if err := x.InsertSLA(ctx, &r); err != nil {
					return err
				}
				if err := x.InsertSLAEvent(ctx, &ev); err != nil {
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

// BenchmarkSLAList measures GET /oozie/v2/sla over HTTP with a million
// registrations and a million events stored, for the dashboard's and
// monitors' typical filters; one op is one request. Reports p50 and p99 in
// milliseconds.
func BenchmarkSLAList(b *testing.B) {
	n := benchRows()
	b.Run("sqlite", func(b *testing.B) {
		st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "gozie.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchList(b, st, n)
	})
	b.Run("postgres", func(b *testing.B) {
		if os.Getenv(pgtest.EnvVar) == "" {
			b.Skip("GOZIE_TEST_POSTGRES is not set")
		}
		st, err := postgres.Open(context.Background(), pgtest.NewDatabase(b))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchList(b, st, n)
	})
}

func benchList(b *testing.B, st store.Store, n int) {
	start := time.Now()
	seedBench(b, st, n)
	b.Logf("seeded %d registrations and events in %v", n, time.Since(start).Round(time.Second))
	srv := server.New(server.Config{})
	if err := slaapi.Register(srv, slaapi.Deps{Store: st, Clock: clock.Real{}}); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	base := hs.URL + server.ContextPath + "/v2/sla?"
	mid := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n/2) * time.Minute)
	queries := []struct{ name, query string }{
		{"app+event", "filter=" + url.QueryEscape("app_name=app-040;event_status=END_MISS") + "&len=100"},
		{"status+nominal-day", "filter=" + url.QueryEscape("sla_status=MISS;nominal_start="+mid.Format("2006-01-02T15:04Z")+
			";nominal_end="+mid.Add(24*time.Hour).Format("2006-01-02T15:04Z")) + "&len=100"},
		{"parent", "filter=" + url.QueryEscape(fmt.Sprintf("parent_id=%07d-240101000000000-gozie-bench-C", n/200))},
		{"id", "filter=" + url.QueryEscape(fmt.Sprintf("id=%07d-240101000000000-gozie-bench-C@7", n/300))},
		{"newest-misses", "filter=event_status=END_MISS&order=desc&len=50"},
	}
	for _, q := range queries {
		b.Run(q.name, func(b *testing.B) {
			lat := make([]float64, 0, b.N)
			for i := 0; i < b.N; i++ {
				t := time.Now()
				resp, err := http.Get(base + q.query)
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || len(body) < 30 {
					b.Fatalf("%s: %s %s", q.query, resp.Status, body)
				}
				lat = append(lat, float64(time.Since(t))/float64(time.Millisecond))
			}
			slices.Sort(lat)
			b.ReportMetric(lat[len(lat)/2], "p50-ms")
			b.ReportMetric(lat[min(len(lat)-1, len(lat)*99/100)], "p99-ms")
		})
	}
}
