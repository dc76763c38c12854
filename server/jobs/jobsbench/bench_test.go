package jobsbench

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/procstat"
)

// warmUp bounds the unmeasured requests before each measured load.
const warmUp = 1000

// benchClients is how many clients send requests at once: 100, or
// GOZIE_REST_BENCH_CLIENTS (1 measures each request's own service time).
func benchClients() int {
	if v, err := strconv.Atoi(os.Getenv("GOZIE_REST_BENCH_CLIENTS")); err == nil && v > 0 {
		return v
	}
	return 100
}

// benchSpec is DefaultSpec, or with GOZIE_REST_BENCH_COORDS coordinators (of 1,000
// actions each) for a quicker run.
func benchSpec() Spec {
	s := DefaultSpec()
	if v, err := strconv.Atoi(os.Getenv("GOZIE_REST_BENCH_COORDS")); err == nil && v > 0 {
		s.Coordinators = v
	}
	return s
}

// BenchmarkREST measures gozie's REST job endpoints on PostgreSQL holding a million
// coordinator actions (DefaultSpec), with 100 clients sending requests at once: a
// coordinator's info alone (v2 without len) and paged from the start, from the middle
// and newest first, one coordinator action, and coordinator and workflow listings
// filtered by status and user. GOZIE_REST_BENCH_COORDS and GOZIE_REST_BENCH_CLIENTS
// change the fixture's size and the number of clients. One op is one request; each
// sub-benchmark reports the process's CPU per request (the server and the clients, not
// PostgreSQL) and the machine's (PostgreSQL too), p50 and p99 latency in milliseconds
// and requests per second. The job info without len, one action and the listings are
// then sent in an open loop at half that rate (benchOpenLoop; GOZIE_REST_BENCH_OPEN=0
// leaves it out).
// Run it with a fixed count (-benchtime 3000x): every b.N runs the whole load again.
func BenchmarkREST(b *testing.B) {
	spec := benchSpec()
	srv := Serve(b, Database(b, spec))
	clients := benchClients()
	client := NewClient(clients)
	b.Cleanup(client.CloseIdleConnections)
	for _, q := range restQueries(spec, srv.URL) {
		b.Run(q.name, func(b *testing.B) {
			checkAnswers(b, client, q)
			load := Load{Clients: clients, Requests: b.N, Client: client, Seed: 1, Check: checkShape,
				Next: func(rng *rand.Rand) string { u, _ := q.draw(rng); return u }}
			// Up to warmUp requests unmeasured first, so that every query runs on warm
			// caches and pooled connections, whatever ran before it.
			warm := load
			warm.Requests = min(b.N, warmUp)
			if _, err := warm.Run(context.Background()); err != nil {
				b.Fatal(err)
			}
			load.Seed = 2
			b.ResetTimer()
			cpu0, all0 := processCPU(b), machineCPU(b)
			res, err := load.Run(context.Background())
			cpu, all := processCPU(b)-cpu0, machineCPU(b)-all0
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/req")
			b.ReportMetric(ms(all)/float64(b.N), "machine-cpu-ms/req")
			b.ReportMetric(ms(res.Quantile(0.50)), "p50-ms")
			b.ReportMetric(ms(res.Quantile(0.99)), "p99-ms")
			b.ReportMetric(res.PerSecond(), "req/s")
			if q.openLoop && openLoopOn() {
				benchOpenLoop(b, client, q, res.PerSecond()/2)
			}
		})
	}
}

// openLoopOn tells whether the queries marked openLoop are also measured in an open loop
// (GOZIE_REST_BENCH_OPEN=0 leaves it out).
func openLoopOn() bool { return os.Getenv("GOZIE_REST_BENCH_OPEN") != "0" }

// benchOpenLoop sends b.N requests of q at rate (half the closed loop's throughput: what
// a dashboard's and scripts' steady traffic meets, below saturation) and reports their
// p50 and p99 latency, from the time each was due, and the rate.
func benchOpenLoop(b *testing.B, client *http.Client, q restQuery, rate float64) {
	b.Helper()
	load := OpenLoad{Rate: rate, Requests: b.N, Client: client, Seed: 4, Check: checkShape,
		Next: func(rng *rand.Rand) string { u, _ := q.draw(rng); return u }}
	res, err := load.Run(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ms(res.Quantile(0.50)), "open-p50-ms")
	b.ReportMetric(ms(res.Quantile(0.99)), "open-p99-ms")
	b.ReportMetric(rate, "open-req/s")
}

// checkAnswers sends a few requests of q one at a time and checks their answers in full.
func checkAnswers(b *testing.B, client *http.Client, q restQuery) {
	b.Helper()
	rng := rand.New(rand.NewPCG(3, 0))
	for range 10 {
		u, check := q.draw(rng)
		resp, err := client.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %s: %s", u, resp.Status, body)
		}
		if err := check(body); err != nil {
			b.Fatalf("GET %s: %v", u, err)
		}
	}
}

// checkShape is the check of every answer under load: a JSON object (the full checks ran
// before, and decoding every answer would take the CPU the server needs).
func checkShape(_ string, body []byte) error {
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return errors.New("the answer is not a JSON object")
	}
	return nil
}

// processCPU is the user and system CPU time this process has used so far: the server
// and the load's clients, not PostgreSQL.
func processCPU(b *testing.B) time.Duration {
	b.Helper()
	d, err := procstat.ProcessCPU()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// machineCPU is the CPU time every core of the machine has spent working so far:
// gozie, its clients and PostgreSQL, which shares the machine, together with whatever
// else runs (the load average of each figure says how much).
func machineCPU(b *testing.B) time.Duration {
	b.Helper()
	d, err := procstat.MachineCPU()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
