package cli

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// userError is an error report prints as its own message, which may span lines (an
// error and a hint on what to do about it), after "Error: ".
type userError interface {
	error
	userMessage() string
}

// unreachableError is a call whose connection could not be made, after every try.
type unreachableError struct {
	server string // the server URL the command was given
	tries  int
	err    error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("cannot connect to the server at %s (%s): %s", e.server, triesText(e.tries), connectCause(e.err))
}

func (e *unreachableError) Unwrap() error { return e.err }

// userMessage is Oozie's IO_ERROR with what failed and where to look.
func (e *unreachableError) userMessage() string {
	return fmt.Sprintf("IO_ERROR : %s\nis the server running at %s? set -oozie or $OOZIE_URL", e.Error(), e.server)
}

func triesText(n int) string {
	if n == 1 {
		return "tried once"
	}
	return fmt.Sprintf("tried %d times", n)
}

// contextPathError is a 404 from a server URL that lacks Oozie's /oozie path, where
// the REST API lives (http://host:11000 instead of http://host:11000/oozie).
type contextPathError struct {
	server    string
	code, msg string // the answer's Oozie error code (may be empty) and message
}

func (e *contextPathError) Error() string {
	return fmt.Sprintf("%s: not found at %s, which has no /oozie path", e.msg, e.server)
}

// userMessage prints the answer as report prints a server error, then the URL to try.
func (e *contextPathError) userMessage() string {
	code := e.code
	if code == "" {
		code = "HTTP error code: 404"
	}
	return fmt.Sprintf("%s : %s\nthe server URL %s has no /oozie path, where the REST API is: try -oozie %s (or $OOZIE_URL)",
		code, e.msg, e.server, withOoziePath(e.server))
}

// hasOoziePath reports whether the server URL's path ends in /oozie, Oozie's context
// path. A URL that does not parse is given the benefit of the doubt.
func hasOoziePath(server string) bool {
	u, err := url.Parse(server)
	if err != nil {
		return true
	}
	return strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/oozie")
}

// withOoziePath is the server URL with /oozie added to its path.
func withOoziePath(server string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/oozie"
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u.String()
}

// connectCause says in a few words why a connection could not be made.
func connectCause(err error) string {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns) && dns.IsNotFound:
		return "no such host " + dns.Name
	case errors.As(err, &dns):
		return "looking up " + dns.Name + ": " + dns.Err
	case errors.As(err, &op) && op.Timeout():
		return "connection timed out"
	case errors.As(err, &op) && op.Err != nil:
		return op.Err.Error()
	}
	return err.Error()
}
