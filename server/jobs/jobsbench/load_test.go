package jobsbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLoadSendsEveryRequestOnce(t *testing.T) {
	t.Parallel()
	var (
		mu   sync.Mutex
		seen = map[string]int{}
	)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Query().Get("n")]++
		mu.Unlock()
		fmt.Fprint(w, `{"ok":true}`)
	}))
	defer hs.Close()
	var next atomic.Int64
	l := Load{Clients: 7, Requests: 250, Client: NewClient(7), Check: checkShape,
		Next: func(*rand.Rand) string { return fmt.Sprintf("%s/?n=%d", hs.URL, next.Add(1)) }}
	res, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Latencies) != 250 || len(seen) != 250 {
		t.Fatalf("%d latencies, %d distinct requests; want 250 each", len(res.Latencies), len(seen))
	}
	for n, k := range seen {
		if k != 1 {
			t.Errorf("request %s sent %d times", n, k)
		}
	}
	if !slices.IsSorted(res.Latencies) || res.Latencies[0] <= 0 || res.Elapsed < res.Latencies[len(res.Latencies)-1] {
		t.Errorf("latencies not sorted, not positive or longer than the run (%v)", res.Elapsed)
	}
	if res.PerSecond() <= 0 {
		t.Errorf("PerSecond = %v", res.PerSecond())
	}
}

func TestLoadStopsAtFirstFailure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		check   func(string, []byte) error
		want    string
	}{
		{"status", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "E0603: no database", http.StatusInternalServerError)
		}, nil, "500 Internal Server Error"},
		{"check", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "<html>")
		}, checkShape, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int64
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				tt.handler(w, r)
			}))
			defer hs.Close()
			l := Load{Clients: 2, Requests: 1000, Client: NewClient(2), Check: tt.check,
				Next: func(*rand.Rand) string { return hs.URL }}
			_, err := l.Run(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			// Each client stops at its first failure or when the other cancels it.
			if n := hits.Load(); n > 2 {
				t.Errorf("%d requests after the first failure, want at most one per client", n)
			}
		})
	}
}

func TestLoadNeedsClientsAndRequests(t *testing.T) {
	t.Parallel()
	next := func(*rand.Rand) string { return "http://127.0.0.1:1/" }
	for _, l := range []Load{
		{Clients: 0, Requests: 1, Client: http.DefaultClient, Next: next},
		{Clients: 1, Requests: 0, Client: http.DefaultClient, Next: next},
		{Clients: 1, Requests: 1, Next: next},
		{Clients: 1, Requests: 1, Client: http.DefaultClient},
	} {
		if _, err := l.Run(context.Background()); err == nil {
			t.Errorf("Run(%+v) succeeded", l)
		}
	}
}

func TestResultQuantile(t *testing.T) {
	t.Parallel()
	var r Result
	for i := 1; i <= 200; i++ {
		r.Latencies = append(r.Latencies, time.Duration(i)*time.Millisecond)
	}
	r.Elapsed = 2 * time.Second
	tests := []struct {
		q    float64
		want time.Duration
	}{
		{0, time.Millisecond},
		{0.5, 100 * time.Millisecond},
		{0.99, 198 * time.Millisecond},
		{0.999, 200 * time.Millisecond},
		{1, 200 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := r.Quantile(tt.q); got != tt.want {
			t.Errorf("Quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	if got := r.PerSecond(); got != 100 {
		t.Errorf("PerSecond = %v, want 100", got)
	}
	if got := (Result{}).Quantile(0.5); got != 0 {
		t.Errorf("Quantile of no requests = %v, want 0", got)
	}
}
