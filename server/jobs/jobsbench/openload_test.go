package jobsbench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// blockingServer answers no request until n have arrived (or the request is given up),
// so that only a load that sends without waiting for answers gets any.
func blockingServer(t *testing.T, n int64) *httptest.Server {
	t.Helper()
	var (
		arrived atomic.Int64
		all     = make(chan struct{})
		once    sync.Once
	)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if arrived.Add(1) >= n {
			once.Do(func() { close(all) })
		}
		select {
		case <-all:
			fmt.Fprint(w, `{"ok":true}`)
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { once.Do(func() { close(all) }); hs.Close() })
	return hs
}

func TestOpenLoadSendsWithoutWaitingForAnswers(t *testing.T) {
	t.Parallel()
	hs := blockingServer(t, 20)
	var next atomic.Int64
	l := OpenLoad{Rate: 2000, Requests: 20, Client: NewClient(20), Check: checkShape,
		Next: func(*rand.Rand) string { return fmt.Sprintf("%s/?n=%d", hs.URL, next.Add(1)) }}
	res, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Latencies) != 20 || !slices.IsSorted(res.Latencies) || res.Latencies[0] <= 0 {
		t.Fatalf("%d latencies (want 20, sorted, positive): %v", len(res.Latencies), res.Latencies)
	}
}

func TestOpenLoadFailsWhenAnswersFallBehind(t *testing.T) {
	t.Parallel()
	hs := blockingServer(t, 1000) // never answers within this load
	l := OpenLoad{Rate: 2000, Requests: 10, MaxInFlight: 3, Client: NewClient(10),
		Next: func(*rand.Rand) string { return hs.URL + "/" }}
	if _, err := l.Run(context.Background()); !errors.Is(err, errOverloaded) {
		t.Fatalf("err = %v, want %v", err, errOverloaded)
	}
}

func TestOpenLoadRefusesAnEmptyLoad(t *testing.T) {
	t.Parallel()
	for _, l := range []OpenLoad{{}, {Rate: 1, Requests: 1}, {Rate: 0, Requests: 1, Client: NewClient(1),
		Next: func(*rand.Rand) string { return "" }}} {
		if _, err := l.Run(context.Background()); err == nil {
			t.Errorf("%+v: no error", l)
		}
	}
}
