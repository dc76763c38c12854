package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gozie/gozie/server/auth"
)

// slowServer returns a server whose GET /oozie/v2/jobs blocks until release is closed,
// signalling started when a request is inside the handler.
func slowServer(t *testing.T, shutdown time.Duration) (s *Server, started chan struct{}, release chan struct{}) {
	t.Helper()
	started, release = make(chan struct{}, 1), make(chan struct{})
	s = setup(t, Config{ShutdownTimeout: shutdown}).srv
	s.Handle(http.MethodGet, "/v2/jobs", auth.PermRead, func(w http.ResponseWriter, r *http.Request) error {
		started <- struct{}{}
		<-release
		return WriteJSON(w, http.StatusOK, map[string]int{"total": 0})
	})
	return s, started, release
}

// serveLoopback starts s.Serve on a random loopback port.
func serveLoopback(t *testing.T, s *Server) (addr string, cancel context.CancelFunc, done chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(cancel)
	return ln.Addr().String(), cancel, done
}

// waitRefused polls until addr refuses connections, failing after a deadline.
func waitRefused(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s still accepts connections", addr)
}

func TestServeDrainsInFlightRequests(t *testing.T) {
	t.Parallel()
	s, started, release := slowServer(t, time.Minute)
	addr, cancel, done := serveLoopback(t, s)

	type result struct {
		status int
		body   string
		err    error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/oozie/v2/jobs")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{resp.StatusCode, string(b), err}
	}()
	<-started
	cancel()
	waitRefused(t, addr)
	select {
	case err := <-done:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	r := <-got
	if r.err != nil || r.status != http.StatusOK || r.body != "{\"total\":0}\n" {
		t.Errorf("in-flight request: %+v", r)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve = %v, want nil after a clean shutdown", err)
	}
}

func TestServeShutdownTimeout(t *testing.T) {
	t.Parallel()
	s, started, release := slowServer(t, 50*time.Millisecond)
	defer close(release)
	addr, cancel, done := serveLoopback(t, s)
	go func() {
		resp, err := http.Get("http://" + addr + "/oozie/v2/jobs")
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Serve = %v, want the drain deadline", err)
	}
}

func TestServeListenerError(t *testing.T) {
	t.Parallel()
	s := setup(t, Config{}).srv
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := s.Serve(context.Background(), ln); err == nil {
		t.Error("Serve on a closed listener returned nil")
	}
	if err := s.ListenAndServe(context.Background(), "127.0.0.1:-1"); err == nil {
		t.Error("ListenAndServe on a bad address returned nil")
	}
}
