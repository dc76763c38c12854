package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Oozie error codes used by the server. The full list is in Oozie's ErrorCode; codes are
// added here as endpoints need them.
const (
	CodeSafeMode          = "E0002" // System is in safe mode
	CodeInvalidContent    = "E0300" // Invalid content-type [{0}]
	CodeInvalidResource   = "E0301" // Invalid resource [{0}]
	CodeInvalidParam      = "E0302" // Invalid parameter [{0}]
	CodeInvalidParamValue = "E0303" // Invalid parameter value, [{0}] = [{1}]
	CodeInvalidParamType  = "E0304" // Invalid parameter type, parameter [{0}] expected type [{1}]
	CodeMissingParam      = "E0305" // Missing parameter [{0}]
	CodeRuntime           = "E0307" // Runtime error [{0}]
	CodeJobNotFound       = "E0604" // Job does not exist [{0}]
	CodeActionNotFound    = "E0605" // Action does not exist [{0}]
)

// Error is an Oozie error response: the HTTP status, the Oozie error code sent in the
// oozie-error-code header and the message sent in oozie-error-message. Handlers return it
// (usually through the constructors below); writeError is the one place that turns any
// error into a response.
type Error struct {
	// Status is the HTTP status code.
	Status int
	// Code is the Oozie error code, e.g. "E0302".
	Code string
	// Msg is the full message as Oozie words it, "<code>: <text>" for most codes.
	Msg string
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// NewError returns an Error whose message is "<code>: <text>", the form Oozie uses for
// every code but E0002.
func NewError(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Msg: code + ": " + fmt.Sprintf(format, args...)}
}

// ErrSafeMode is the 503 answer to a changing request while the system mode is not NORMAL.
// Oozie sends this one message without the code prefix.
func ErrSafeMode() *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeSafeMode, Msg: "System is in safe mode"}
}

// ErrInvalidResource is 400 E0301 for a resource a servlet does not have.
func ErrInvalidResource(resource string) *Error {
	return NewError(http.StatusBadRequest, CodeInvalidResource, "Invalid resource [%s]", resource)
}

// ErrInvalidParam is 400 E0302 for a parameter not allowed here.
func ErrInvalidParam(name string) *Error {
	return NewError(http.StatusBadRequest, CodeInvalidParam, "Invalid parameter [%s]", name)
}

// ErrInvalidParamValue is 400 E0303, e.g. "E0303: Invalid parameter value, [systemmode] = [FOO]".
func ErrInvalidParamValue(name, value string) *Error {
	return NewError(http.StatusBadRequest, CodeInvalidParamValue, "Invalid parameter value, [%s] = [%s]", name, value)
}

// ErrInvalidParamType is 400 E0304 for a parameter of the wrong type ("integer", "boolean").
func ErrInvalidParamType(name, typ string) *Error {
	return NewError(http.StatusBadRequest, CodeInvalidParamType,
		"Invalid parameter type, parameter [%s] expected type [%s]", name, typ)
}

// ErrMissingParam is 400 E0305 for a required parameter that is absent.
func ErrMissingParam(name string) *Error {
	return NewError(http.StatusBadRequest, CodeMissingParam, "Missing parameter [%s]", name)
}

// ErrInvalidContentType is 400 E0300 for a request body of the wrong type.
func ErrInvalidContentType(contentType string) *Error {
	return NewError(http.StatusBadRequest, CodeInvalidContent, "Invalid content-type [%s]", contentType)
}

// Coded is implemented by domain errors that carry an Oozie error code (the workflow
// runner's, the workflow and coordinator parsers'...). errorFor sends them as 400 with that
// code, except that a job or action that does not exist (E0604, E0605) is a 404.
type Coded interface {
	error
	ErrorCode() string
}

// ErrorFor maps any error to the response to send: an *Error as it is, a Coded error (the
// first one in the chain) by its code, and anything else as a 500 E0307 runtime error.
func ErrorFor(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var c Coded
	if errors.As(err, &c) {
		if code := c.ErrorCode(); code != "" {
			status := http.StatusBadRequest
			if code == CodeJobNotFound || code == CodeActionNotFound {
				status = http.StatusNotFound
			}
			// The coded error's own message, without the context wrapped around it on the
			// way up, in Oozie's "<code>: <text>" form.
			msg := c.Error()
			if !strings.HasPrefix(msg, code) {
				msg = code + ": " + msg
			}
			return &Error{Status: status, Code: code, Msg: msg}
		}
	}
	return NewError(http.StatusInternalServerError, CodeRuntime, "Runtime error [%s]", err.Error())
}

// errorBody is the JSON body of an error response.
type errorBody struct {
	HTTPStatusCode int    `json:"httpStatusCode"`
	ErrorCode      string `json:"errorCode"`
	ErrorMessage   string `json:"errorMessage"`
}

// Header names of Oozie error responses.
const (
	HeaderErrorCode    = "oozie-error-code"
	HeaderErrorMessage = "oozie-error-message"
)

// writeError sends err as an Oozie error response: the status, the oozie-error-code and
// oozie-error-message headers, and a JSON body with the same three facts. It returns the
// Error sent so that callers can log its code.
func writeError(w http.ResponseWriter, err error) *Error {
	e := ErrorFor(err)
	// Oozie spells the headers in lower case; assigning the map directly keeps that spelling
	// on the wire (HTTP header names are case-insensitive, but scripts grep for them).
	h := w.Header()
	h[HeaderErrorCode] = []string{e.Code}
	h[HeaderErrorMessage] = []string{headerSafe(e.Msg)}
	_ = WriteJSON(w, e.Status, errorBody{HTTPStatusCode: e.Status, ErrorCode: e.Code, ErrorMessage: e.Msg})
	return e
}

// headerSafe puts a message on one line so it can travel in a header.
func headerSafe(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\r' || r == '\n' }), " ")
}
