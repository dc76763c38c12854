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
)

// Oozie's CLI options that apply to every web-service call.
const (
	// envDebug set to 1 prints every call, as -debug does (Oozie: OOZIE_DEBUG).
	envDebug = "OOZIE_DEBUG"
	// headerDefine is the -D prefix of a custom HTTP header: -Dheader:NAME=VALUE.
	headerDefine = "header:"
	// connectRetries is how often a call whose connection failed is tried again
	// (Oozie: oozie.connection.retry.count, 4).
	connectRetries = 4
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
// headers, the -debug trace, and retries of calls whose connection could not be made.
type wsTransport struct {
	base    http.RoundTripper
	headers http.Header
	debug   io.Writer // nil: no trace
	retries int
	// backoff is the wait before retry n (1-based); nil means n seconds.
	backoff func(n int) time.Duration
}

// RoundTrip sends req, trying again while the connection is refused or cannot be made
// (nothing reached the server, so every method is safe to repeat).
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
			return resp, nil
		}
		if n > t.retries || !connectFailed(err) || (req.Body != nil && req.GetBody == nil) {
			return nil, err
		}
		wait := time.Duration(n) * time.Second
		if t.backoff != nil {
			wait = t.backoff(n)
		}
		if t.debug != nil {
			fmt.Fprintf(t.debug, "  connection failed (%v), retry %d of %d in %s\n", err, n, t.retries, wait)
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

// connectFailed reports whether err means the request never reached the server: a refused
// connection or a failed dial.
func connectFailed(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
