package jobsbench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"
)

// OpenLoad is a fixed number of GET requests sent at a fixed arrival rate, each at its
// own time whatever the answers to the earlier ones (an open loop, as many independent
// dashboards and scripts would send them). Unlike a closed Load, whose clients wait for
// each answer, it measures the latency a request meets at a given rate rather than the
// queue of a fixed number of clients.
type OpenLoad struct {
	// Rate is how many requests are sent per second.
	Rate float64
	// Requests is how many requests are sent in all.
	Requests int
	// MaxInFlight bounds the requests awaiting an answer (default 1,000): a run that
	// reaches it fails, for the rate is above what the server answers.
	MaxInFlight int
	// Client sends the requests (NewClient).
	Client *http.Client
	// Next returns the URL of the next request, drawing from the load's random source.
	Next func(rng *rand.Rand) string
	// Check, if set, judges the body of every 200 answer.
	Check func(url string, body []byte) error
	// Seed makes the random source, and so the URLs, repeatable.
	Seed uint64
}

// errOverloaded is the failure of an open load whose answers fall behind its rate.
var errOverloaded = errors.New("jobsbench: too many requests in flight: the server does not keep up with the rate")

// Run sends the requests at their times and waits for every answer. A request's latency
// runs from the time it was due to be sent (not from when it was sent), so that a stall
// of the sender counts against the server as it would for a real caller. It stops at the
// first failure and returns it.
func (l *OpenLoad) Run(ctx context.Context) (Result, error) {
	if l.Rate <= 0 || l.Requests < 1 || l.Client == nil || l.Next == nil {
		return Result{}, errors.New("jobsbench: an open load needs a rate, requests, an HTTP client and Next")
	}
	maxInFlight := l.MaxInFlight
	if maxInFlight <= 0 {
		maxInFlight = 1000
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		lat      = make([]time.Duration, 0, l.Requests)
		slots    = make(chan struct{}, maxInFlight)
		sender   = Load{Client: l.Client, Check: l.Check}
		rng      = rand.New(rand.NewPCG(l.Seed, 0))
		interval = time.Duration(float64(time.Second) / l.Rate)
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	start := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for i := range l.Requests {
		due := start.Add(time.Duration(i) * interval)
		if wait := time.Until(due); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
			case <-timer.C:
			}
		}
		if ctx.Err() != nil {
			break
		}
		select {
		case slots <- struct{}{}:
		default:
			fail(fmt.Errorf("%w (%d at %.0f/s)", errOverloaded, maxInFlight, l.Rate))
			continue
		}
		u := l.Next(rng)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if _, err := sender.get(ctx, u); err != nil {
				fail(err)
				return
			}
			d := time.Since(due)
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res := Result{Elapsed: time.Since(start)}
	if firstErr != nil {
		return res, firstErr
	}
	slices.Sort(lat)
	res.Latencies = lat
	return res, nil
}
