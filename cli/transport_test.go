package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSplitHeaders(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args          []string
		rest, headers string
		err           string
	}{
		{[]string{"-status"}, "-status", "map[]", ""},
		{[]string{"-Dheader:X-Team=etl", "-status", "-D", "header:X-Trace=a=b"}, "-status", "map[X-Team:[etl] X-Trace:[a=b]]", ""},
		{[]string{"-run", "-D", "queue=x", "-Dname=y"}, "-run -D queue=x -Dname=y", "map[]", ""},
		{[]string{"-Dheader:x-team=", "-D"}, "-D", "map[X-Team:[]]", ""},
		{[]string{"-Dheader:novalue"}, "", "", `invalid header definition "header:novalue": want -Dheader:NAME=VALUE`},
		{[]string{"-D", "header:=v"}, "", "", `invalid header definition "header:=v": want -Dheader:NAME=VALUE`},
	} {
		rest, headers, err := splitHeaders(tt.args)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error %v, want %s", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(rest, " ") != tt.rest || fmt.Sprint(headers) != tt.headers {
			t.Errorf("%q: %q %v %v, want %q %s", tt.args, rest, headers, err, tt.rest, tt.headers)
		}
	}
}

// statusServer answers GET admin/status and remembers the headers of each call.
type statusServer struct {
	mu      sync.Mutex
	headers []http.Header
}

func (s *statusServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"systemMode":"NORMAL"}`))
}

func runWith(t *testing.T, env map[string]string, backoff func(int) time.Duration, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, Env{
		Stdout: &out, Stderr: &errOut, HTTPClient: &http.Client{},
		Getenv:  func(k string) string { return env[k] },
		User:    func() (string, error) { return "joe", nil },
		backoff: backoff,
	})
	return out.String(), errOut.String(), code
}

func TestHeadersAndDebug(t *testing.T) {
	t.Parallel()
	s := &statusServer{}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	out, errOut, code := runWith(t, map[string]string{"OOZIE_URL": srv.URL + "/oozie"}, nil,
		"admin", "-Dheader:X-Team=etl", "-status", "-D", "header:X-Trace=a=b", "-debug")
	if code != 0 || out != "System mode: NORMAL\n" {
		t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
	}
	if len(s.headers) != 1 || s.headers[0].Get("X-Team") != "etl" || s.headers[0].Get("X-Trace") != "a=b" {
		t.Errorf("headers sent: %v", s.headers)
	}
	want := "GET " + srv.URL + "/oozie/v2/admin/status\n  -> 200 OK\n"
	if errOut != want {
		t.Errorf("debug trace %q, want %q", errOut, want)
	}
	// OOZIE_DEBUG=1 traces too; without either nothing is printed.
	if _, errOut, _ := runWith(t, map[string]string{"OOZIE_URL": srv.URL + "/oozie", "OOZIE_DEBUG": "1"}, nil, "admin", "-status"); errOut != want {
		t.Errorf("OOZIE_DEBUG trace %q", errOut)
	}
	if _, errOut, _ := runWith(t, map[string]string{"OOZIE_URL": srv.URL + "/oozie"}, nil, "admin", "-status"); errOut != "" {
		t.Errorf("no debug, but stderr %q", errOut)
	}
}

func TestConnectionRetries(t *testing.T) {
	t.Parallel()
	// A port with no server yet: the first calls are refused; before the second retry
	// the server starts on it, and the command succeeds.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var waits []int
	backoff := func(n int) time.Duration {
		waits = append(waits, n)
		if n == 2 {
			l, err := net.Listen("tcp", addr)
			if err != nil {
				t.Fatalf("port %s taken meanwhile: %v", addr, err)
			}
			srv := &http.Server{Handler: &statusServer{}, ReadHeaderTimeout: time.Second}
			go func() { _ = srv.Serve(l) }()
			t.Cleanup(func() { _ = srv.Close() })
		}
		return 0
	}
	out, errOut, code := runWith(t, map[string]string{"OOZIE_URL": "http://" + addr + "/oozie"}, backoff, "admin", "-status")
	if code != 0 || out != "System mode: NORMAL\n" || len(waits) != 2 {
		t.Fatalf("exit %d, out %q, err %q, retries %v", code, out, errOut, waits)
	}

	// A server that never comes: the call is tried 1 + 4 times, then the error is printed.
	l, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	waits = nil
	_, errOut, code = runWith(t, map[string]string{"OOZIE_URL": "http://" + dead + "/oozie"}, func(n int) time.Duration {
		waits = append(waits, n)
		return 0
	}, "admin", "-status")
	if code == 0 || len(waits) != connectRetries || !strings.Contains(errOut, "connection refused") {
		t.Errorf("dead server: exit %d, retries %v, err %q", code, waits, errOut)
	}
}
