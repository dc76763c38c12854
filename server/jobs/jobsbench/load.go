package jobsbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Load is a fixed number of GET requests sent by concurrent clients, each client sending
// its next request as soon as it has read the previous answer (a closed loop, as 100
// dashboards or scripts polling the server would).
type Load struct {
	// Clients is how many requests are in flight at once.
	Clients int
	// Requests is how many requests are sent in all.
	Requests int
	// Client sends the requests; it should keep at least Clients idle connections to
	// the host (NewClient), or the load measures TCP set-ups.
	Client *http.Client
	// Next returns the URL of a client's next request, drawing from the client's own
	// random source.
	Next func(rng *rand.Rand) string
	// Check, if set, judges the body of every 200 answer.
	Check func(url string, body []byte) error
	// Seed makes the clients' random sources, and so the URLs, repeatable.
	Seed uint64
}

// Result is what a Load measured.
type Result struct {
	// Latencies holds every request's time from sending to the last byte of its answer,
	// in increasing order.
	Latencies []time.Duration
	// Elapsed is the time from the first request sent to the last answer read.
	Elapsed time.Duration
}

// NewClient returns an HTTP client that keeps up to clients idle connections per host.
func NewClient(clients int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = clients
	t.MaxIdleConnsPerHost = clients
	return &http.Client{Transport: t, Timeout: time.Minute}
}

// Run sends the requests and waits for every answer. It stops at the first failure (an
// error, a status other than 200, or a body Check refuses) and returns it.
func (l *Load) Run(ctx context.Context) (Result, error) {
	if l.Clients < 1 || l.Requests < 1 || l.Client == nil || l.Next == nil {
		return Result{}, errors.New("jobsbench: a load needs clients, requests, an HTTP client and Next")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		sent     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
		perCli   = make([][]time.Duration, l.Clients)
	)
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err })
		cancel()
	}
	start := time.Now()
	for c := range l.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(l.Seed, uint64(c)))
			lat := make([]time.Duration, 0, l.Requests/l.Clients+1)
			for ctx.Err() == nil && sent.Add(1) <= int64(l.Requests) {
				u := l.Next(rng)
				d, err := l.get(ctx, u)
				if err != nil {
					fail(err)
					break
				}
				lat = append(lat, d)
			}
			perCli[c] = lat
		}()
	}
	wg.Wait()
	res := Result{Elapsed: time.Since(start)}
	if firstErr != nil {
		return res, firstErr
	}
	for _, lat := range perCli {
		res.Latencies = append(res.Latencies, lat...)
	}
	slices.Sort(res.Latencies)
	return res, nil
}

// bodies keeps the buffers answers are read into, so that a load's client spends its CPU
// on the answers, not on growing a new buffer for each (the server shares the machine).
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// get sends one request and reads its answer; it returns the time that took.
func (l *Load) get(ctx context.Context, u string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, fmt.Errorf("jobsbench: %w", err)
	}
	t0 := time.Now()
	resp, err := l.Client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("jobsbench: GET %s: %w", u, err)
	}
	buf := bodies.Get().(*bytes.Buffer)
	defer bodies.Put(buf)
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	resp.Body.Close()
	d := time.Since(t0)
	body := buf.Bytes()
	if err != nil {
		return 0, fmt.Errorf("jobsbench: GET %s: reading the answer: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("jobsbench: GET %s: %s: %.300s", u, resp.Status, body)
	}
	if l.Check != nil {
		if err := l.Check(u, body); err != nil {
			return 0, fmt.Errorf("jobsbench: GET %s: %w", u, err)
		}
	}
	return d, nil
}

// Quantile returns the latency below or at which a fraction q (0..1) of the requests
// answered (nearest rank), or 0 without requests.
func (r Result) Quantile(q float64) time.Duration {
	n := len(r.Latencies)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(q*float64(n))) - 1 // the 1-based rank ceil(q·n), as an index
	return r.Latencies[min(max(rank, 0), n-1)]
}

// PerSecond is the requests answered per second of Elapsed.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(len(r.Latencies)) / r.Elapsed.Seconds()
}
