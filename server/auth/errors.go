package auth

import (
	"fmt"
	"net/http"

	"github.com/gozie/gozie/oozieerr"
)

// Error is a refused request: the HTTP status, the Oozie error code (one of oozieerr's) and
// the message. It is an answer rather than a domain error, so it carries its status; the
// server sends it as it is.
type Error struct {
	// Status is the HTTP status, 401 for every refusal but a server-side failure.
	Status int
	// Code is the Oozie error code, oozieerr.E0500 or oozieerr.E1400.
	Code string
	// Msg is the message as sent in oozie-error-message.
	Msg string
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// ErrorCode returns the Oozie error code.
func (e *Error) ErrorCode() string { return e.Code }

// notAuthorized is 401 E0500 with Oozie's "E0500: Not authorized, <reason>" message.
func notAuthorized(format string, args ...any) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: oozieerr.E0500,
		Msg: oozieerr.E0500 + ": Not authorized, " + fmt.Sprintf(format, args...)}
}

// doAsRefused is 401 E1400. Oozie sends the proxy-user service's own message here, without
// the code in front.
func doAsRefused(format string, args ...any) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: oozieerr.E1400, Msg: fmt.Sprintf(format, args...)}
}
