package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
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
	testwait.WaitFor(t, 5*time.Second, addr+" to refuse connections", func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
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

// TestServeDropsSlowAndIdleClients: a client that never finishes its body, one that never
// finishes its headers and a kept-alive connection with no next request are all closed by
// the server once their timeouts pass, and oversized headers are refused.
func TestServeDropsSlowAndIdleClients(t *testing.T) {
	t.Parallel()
	s := setup(t, Config{ReadHeaderTimeout: 300 * time.Millisecond, ReadTimeout: 300 * time.Millisecond,
		IdleTimeout: 300 * time.Millisecond, MaxHeaderBytes: 4 << 10}).srv
	s.Handle(http.MethodPut, "/v2/jobs", auth.PermRead, func(w http.ResponseWriter, r *http.Request) error {
		_, err := io.Copy(io.Discard, r.Body)
		return err
	})
	addr, _, _ := serveLoopback(t, s)
	closedByServer := func(name, send string, readResponse bool) {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, send); err != nil {
			t.Fatal(err)
		}
		// The deadline is far beyond the server's timeouts: reaching it means the server
		// kept the connection.
		if err := c.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if readResponse {
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		_, err = io.Copy(io.Discard, c)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("%s: the server still holds the connection", name)
		}
	}
	closedByServer("slow body", "PUT /oozie/v2/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\npart", false)
	closedByServer("slow headers", "GET /oozie/versions HTTP/1.1\r\nHost: x\r\n", false)
	closedByServer("idle keep-alive", "GET /oozie/versions HTTP/1.1\r\nHost: x\r\n\r\n", true)

	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/oozie/versions", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Big", strings.Repeat("x", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("64 KiB of headers: %s, want 431", resp.Status)
	}
}
