package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/gozie/gozie/oozieerr"
)

// Oozie's CLI options that apply to every web-service call.
const (
	// envDebug set to 1 prints every call, as -debug does (Oozie: OOZIE_DEBUG).
	envDebug = "OOZIE_DEBUG"
	// headerDefine is the -D prefix of a custom HTTP header: -Dheader:NAME=VALUE.
	headerDefine = "header:"
	// connectTries is how many times in all a call whose connection could not
	// be made is tried, as Oozie's client does (oozie.connection.retry.count,
	// 4; ConnectionRetriableClient), waiting 2^(n-1) seconds after the n-th
	// failure (1, 2, 4 s) as Oozie's exponential backoff does. Oozie also
	// waits 8 s after the last failure before giving up; gozie does not.
	connectTries = 4
)

// splitHeaders takes Oozie's custom-header definitions out of a command line: the
// "-Dheader:NAME=VALUE" and "-D header:NAME=VALUE" arguments, wherever they stand. The
// other arguments are returned in order.
func splitHeaders(args []string) (rest []string, headers http.Header, err error) {
	headers = http.Header{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		var def string
		switch {
		case strings.HasPrefix(a, "-D"+headerDefine):
			def = strings.TrimPrefix(a, "-D")
		case a == "-D" && i+1 < len(args) && strings.HasPrefix(args[i+1], headerDefine):
			i++
			def = args[i]
		default:
			rest = append(rest, a)
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(def, headerDefine), "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, nil, &plainError{msg: fmt.Sprintf("invalid header definition %q: want -D%sNAME=VALUE", def, headerDefine)}
		}
		headers.Add(strings.TrimSpace(name), value)
	}
	return rest, headers, nil
}

// wsTransport is what the CLI adds to every call under the authentication: the custom
// headers, the -debug trace, retries of calls whose connection could not be made, and
// errors a user can act on when the server cannot be reached or is not at the URL.
type wsTransport struct {
	base    http.RoundTripper
	headers http.Header
	debug   io.Writer // nil: no trace
	// notes receives a line for each retry, as Oozie's client prints one; nil: none.
	notes io.Writer
	// server is the server URL the command was given (-oozie or the environment).
	server string
	// tries is how many times a call is tried while its connection cannot be made.
	tries int
	// backoff is the wait after failure n (1-based); nil means 2^(n-1) seconds.
	backoff func(n int) time.Duration
}

// RoundTrip sends req, trying again while the connection is refused or cannot be made
// (nothing reached the server, so every method is safe to repeat). A connection still
// failing after the last try is an *unreachableError; a 404 from a server URL without
// Oozie's /oozie path is a *contextPathError.
func (t *wsTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for name, values := range t.headers {
			for _, v := range values {
				req.Header.Add(name, v)
			}
		}
	}
	if t.debug != nil {
		fmt.Fprintf(t.debug, "%s %s\n", req.Method, req.URL.Redacted())
	}
	for n := 1; ; n++ {
		resp, err := t.base.RoundTrip(req)
		if err == nil {
			if t.debug != nil {
				fmt.Fprintf(t.debug, "  -> %s\n", resp.Status)
			}
			return t.checkContextPath(resp)
		}
		if !connectFailed(err) || req.Context().Err() != nil {
			return nil, err
		}
		if n >= t.tries || !worthRetrying(err) || (req.Body != nil && req.GetBody == nil) {
			return nil, &unreachableError{server: t.server, tries: n, err: err}
		}
		wait := t.wait(n)
		if t.notes != nil {
			fmt.Fprintf(t.notes, "Connection to %s failed (%s); trying again in %s (retry %d of %d)\n",
				req.URL.Host, connectCause(err), wait, n, t.tries-1)
		}
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(wait):
		}
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
	}
}

// wait is the pause after the n-th failed try (1-based).
func (t *wsTransport) wait(n int) time.Duration {
	if t.backoff != nil {
		return t.backoff(n)
	}
	return time.Duration(1<<(n-1)) * time.Second
}

// checkContextPath turns a 404 into a *contextPathError when the server URL lacks
// Oozie's /oozie path and the answer is not one of the API's own (no Oozie error code,
// or E0301 for a resource outside every servlet): the URL is what is wrong then, not
// the job or resource asked for.
func (t *wsTransport) checkContextPath(resp *http.Response) (*http.Response, error) {
	if resp.StatusCode != http.StatusNotFound || hasOoziePath(t.server) {
		return resp, nil
	}
	code := resp.Header.Get("oozie-error-code")
	if code != "" && code != string(oozieerr.E0301) {
		return resp, nil
	}
	msg := resp.Header.Get("oozie-error-message")
	if msg == "" {
		msg = resp.Status
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return nil, &contextPathError{server: t.server, code: code, msg: msg}
}

// connectFailed reports whether err means the request never reached the server: a refused
// connection or a failed dial.
func connectFailed(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// worthRetrying reports whether another try may connect: not when the host name does not
// exist (Oozie's client does not retry an UnknownHostException either).
func worthRetrying(err error) bool {
	var dns *net.DNSError
	return !errors.As(err, &dns) || !dns.IsNotFound
}
