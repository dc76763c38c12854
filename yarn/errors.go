package yarn

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Sentinel errors of the client.
var (
	// ErrAppNotFound means the RM does not know the application: it was never
	// submitted, or the RM has forgotten it (max-completed-applications, or a
	// restart without recovery). Callers fall back to the result file on HDFS.
	ErrAppNotFound = errors.New("application not found by the ResourceManager")
	// ErrNoActiveRM means no configured ResourceManager answered as the active
	// one within the retry budget.
	ErrNoActiveRM = errors.New("no active ResourceManager")
)

// RemoteException is the error body the RM writes:
// {"RemoteException":{"exception":…,"message":…,"javaClassName":…}}.
type RemoteException struct {
	// Exception is the short Java exception name, e.g. BadRequestException.
	Exception string `json:"exception"`
	// Message is the exception message.
	Message string `json:"message"`
	// JavaClassName is the fully qualified exception class.
	JavaClassName string `json:"javaClassName"`
}

// RemoteExceptionEnvelope wraps [RemoteException] as the RM sends it.
type RemoteExceptionEnvelope struct {
	// RemoteException is the error.
	RemoteException RemoteException `json:"RemoteException"`
}

// RemoteError is a non-success answer of the RM. When the body is the RM's
// RemoteException JSON its fields are filled; otherwise Body holds the start of
// the raw body (plain-text 401/403 answers, proxies' HTML pages).
type RemoteError struct {
	// Method and URL of the request, for messages (without credentials).
	Method, URL string
	// StatusCode is the HTTP status.
	StatusCode int
	// RemoteException is the decoded error, zero when the body was not one.
	RemoteException
	// Body is the start of a body that was not a RemoteException.
	Body string
}

// Error implements error.
func (e *RemoteError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ResourceManager answered %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	switch {
	case e.Exception != "" || e.Message != "":
		fmt.Fprintf(&b, ": %s: %s", e.Exception, e.Message)
	case e.Body != "":
		fmt.Fprintf(&b, ": %s", e.Body)
	}
	return b.String()
}

// Retryable reports whether the failure is transient (5xx).
func (e *RemoteError) Retryable() bool { return e.StatusCode >= 500 }

// maxErrorBody bounds how much of a non-JSON error body is kept.
const maxErrorBody = 512

// decodeRemoteError builds a RemoteError from a non-success answer.
func decodeRemoteError(method, url string, status int, body []byte) *RemoteError {
	e := &RemoteError{Method: method, URL: url, StatusCode: status}
	var env RemoteExceptionEnvelope
	if err := json.Unmarshal(body, &env); err == nil && (env.RemoteException != RemoteException{}) {
		e.RemoteException = env.RemoteException
		return e
	}
	text := strings.TrimSpace(string(body))
	if len(text) > maxErrorBody {
		text = text[:maxErrorBody] + "…"
	}
	e.Body = text
	return e
}
