package cli

import (
	"bytes"
	"context"
	"errors"
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
	// Each retry is noted on stderr, as Oozie's client notes it.
	if want := "Connection to " + addr + " failed (connection refused); trying again in 0s (retry 2 of 3)\n"; !strings.Contains(errOut, want) {
		t.Errorf("retry notes %q, want a line %q", errOut, want)
	}
}

// TestUnreachableServer: a server that never answers is tried 4 times in all (Oozie's
// oozie.connection.retry.count), then the error names the URL and says what to check,
// instead of a Go dial error.
func TestUnreachableServer(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/oozie"
	l.Close()
	for _, args := range [][]string{
		{"admin", "-status"},
		{"jobs", "-oozie", dead},
		{"job", "-info", "0000000-000000000000000-gozie-joe-W", "-oozie", dead},
		{"sla", "-filter", "app_name=a", "-oozie", dead},
	} {
		var waits []int
		_, errOut, code := runWith(t, map[string]string{"OOZIE_URL": dead}, func(n int) time.Duration {
			waits = append(waits, n)
			return 0
		}, args...)
		last := "Error: IO_ERROR : cannot connect to the server at " + dead + " (tried 4 times): connection refused\n" +
			"is the server running at " + dead + "? set -oozie or $OOZIE_URL\n"
		if code != 255 || len(waits) != connectTries-1 || !strings.HasSuffix(errOut, last) || strings.Contains(errOut, "dial tcp") {
			t.Errorf("%v: exit %d, retries %v, stderr %q", args, code, waits, errOut)
		}
	}
}

// TestOozieBackoff: without a test's backoff, the waits are Oozie's exponential ones.
func TestOozieBackoff(t *testing.T) {
	t.Parallel()
	tr := &wsTransport{}
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second} {
		if got := tr.wait(n); got != want {
			t.Errorf("wait after failure %d: %s, want %s", n, got, want)
		}
	}
}

// TestServerURLWithoutContextPath: a URL without Oozie's /oozie path gets the
// server's 404 and a hint to add the path; with the path, a 404 of the API (a job
// that does not exist) gets no hint.
func TestServerURLWithoutContextPath(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	root := strings.TrimSuffix(f.URL, "/oozie")
	hint := "the server URL " + root + " has no /oozie path, where the REST API is: try -oozie " + f.URL + " (or $OOZIE_URL)\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"jobs", "-oozie", root}, "Error: E0301 : E0301: Invalid resource [/v2/jobs]\n" + hint},
		{[]string{"job", "-info", "0000000-000000000000000-gozie-joe-W", "-oozie", root + "/"},
			"Error: E0301 : E0301: Invalid resource [/v2/job/0000000-000000000000000-gozie-joe-W]\n" +
				strings.Replace(hint, "URL "+root, "URL "+root+"/", 1)},
	} {
		out, errOut, code := f.run(t, tc.args...)
		if code != 255 || out != "" || errOut != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want %q", tc.args, code, out, errOut, tc.want)
		}
	}
	_, errOut, code := f.run(t, "job", "-info", "0000000-000000000000000-gozie-joe-W")
	if code != 255 || strings.Contains(errOut, "/oozie path") || !strings.Contains(errOut, "E0604") {
		t.Errorf("a job that does not exist: exit %d, stderr %q", code, errOut)
	}
}

// roundTripFunc is a RoundTripper of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestUnknownHostIsNotRetried: a host name that does not exist is not tried again (nor
// is it by Oozie's client), and the error names the host.
func TestUnknownHostIsNotRetried(t *testing.T) {
	t.Parallel()
	calls := 0
	tr := &wsTransport{server: "http://nosuchhost.invalid:11000/oozie", tries: connectTries,
		backoff: func(int) time.Duration { return 0 },
		base: roundTripFunc(func(*http.Request) (*http.Response, error) {
			calls++
			return nil, &net.OpError{Op: "dial", Net: "tcp",
				Err: &net.DNSError{Name: "nosuchhost.invalid", Err: "no such host", IsNotFound: true}}
		})}
	req, err := http.NewRequest(http.MethodGet, "http://nosuchhost.invalid:11000/oozie/v2/admin/status", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.RoundTrip(req)
	var ue *unreachableError
	if calls != 1 || !errors.As(err, &ue) || ue.userMessage() != "IO_ERROR : cannot connect to the server at "+
		"http://nosuchhost.invalid:11000/oozie (tried once): no such host nosuchhost.invalid\n"+
		"is the server running at http://nosuchhost.invalid:11000/oozie? set -oozie or $OOZIE_URL" {
		t.Fatalf("%d calls, error %v", calls, err)
	}
}
