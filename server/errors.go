package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// Error is an Oozie error response: the HTTP status, the Oozie error code sent in the
// oozie-error-code header and the message sent in oozie-error-message. Handlers return it
// (usually through the constructors below); writeError is the one place that turns any
// error into a response.
type Error struct {
	// Status is the HTTP status code.
	Status int
	// Code is the Oozie error code, e.g. E0302.
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
	return &Error{Status: http.StatusServiceUnavailable, Code: oozieerr.E0002, Msg: "System is in safe mode"}
}

// ErrInvalidResource is 400 E0301 for a resource a servlet does not have.
func ErrInvalidResource(resource string) *Error {
	return NewError(http.StatusBadRequest, oozieerr.E0301, "Invalid resource [%s]", resource)
}

// ErrInvalidParam is 400 E0302 for a parameter not allowed here.
func ErrInvalidParam(name string) *Error {
	return NewError(http.StatusBadRequest, oozieerr.E0302, "Invalid parameter [%s]", name)
}

// ErrInvalidParamValue is 400 E0303, e.g. "E0303: Invalid parameter value, [systemmode] = [FOO]".
func ErrInvalidParamValue(name, value string) *Error {
	return NewError(http.StatusBadRequest, oozieerr.E0303, "Invalid parameter value, [%s] = [%s]", name, value)
}

// ErrInvalidParamType is 400 E0304 for a parameter of the wrong type ("integer", "boolean").
func ErrInvalidParamType(name, typ string) *Error {
	return NewError(http.StatusBadRequest, oozieerr.E0304,
		"Invalid parameter type, parameter [%s] expected type [%s]", name, typ)
}

// ErrMissingParam is 400 E0305 for a required parameter that is absent.
func ErrMissingParam(name string) *Error {
	return NewError(http.StatusBadRequest, oozieerr.E0305, "Missing parameter [%s]", name)
}

// ErrInvalidContentType is 400 E0300 for a request body of the wrong type.
func ErrInvalidContentType(contentType string) *Error {
	return NewError(http.StatusBadRequest, oozieerr.E0300, "Invalid content-type [%s]", contentType)
}

// Coded is implemented by domain errors that carry an Oozie error code: *oozieerr.Error
// (the one coded error of the workflow, coordinator and bundle cores, their runners and
// sla), a filesystem's scheme error, a filter's parse error... ErrorFor sends them with the
// status StatusOf gives their code.
type Coded = oozieerr.Coder

// StatusOf is the HTTP status of a domain error with Oozie code code: 404 for a job or
// action that does not exist, 400 for every other code of oozieerr (the request, the
// application or the job's state is at fault). ok is false for a code this switch does not
// list, which is then sent as 400; its table test lists every code of oozieerr.All, so a
// code cannot be added there without a status here.
func StatusOf(code oozieerr.Code) (status int, ok bool) {
	switch code {
	case oozieerr.E0604, oozieerr.E0605:
		return http.StatusNotFound, true
	case oozieerr.E0002,
		oozieerr.E0300, oozieerr.E0301, oozieerr.E0302, oozieerr.E0303, oozieerr.E0304,
		oozieerr.E0305, oozieerr.E0307,
		oozieerr.E0401, oozieerr.E0402, oozieerr.E0404, oozieerr.E0405, oozieerr.E0420,
		oozieerr.E0421,
		oozieerr.E0500, oozieerr.E0501, oozieerr.E0503, oozieerr.E0504, oozieerr.E0505,
		oozieerr.E0508, oozieerr.E0509,
		oozieerr.E0700, oozieerr.E0701, oozieerr.E0702, oozieerr.E0705, oozieerr.E0706,
		oozieerr.E0707, oozieerr.E0708, oozieerr.E0709, oozieerr.E0710, oozieerr.E0717, oozieerr.E0719,
		oozieerr.E0720, oozieerr.E0723, oozieerr.E0724, oozieerr.E0725, oozieerr.E0727,
		oozieerr.E0729, oozieerr.E0730, oozieerr.E0731, oozieerr.E0733, oozieerr.E0736,
		oozieerr.E0737, oozieerr.E0738, oozieerr.E0739, oozieerr.E0742, oozieerr.E0743,
		oozieerr.E0744, oozieerr.E0756, oozieerr.E0757, oozieerr.E0758,
		oozieerr.E0800, oozieerr.E0803, oozieerr.E0804, oozieerr.E0805, oozieerr.E0806,
		oozieerr.E0807, oozieerr.E0808, oozieerr.E0813, oozieerr.E0820,
		oozieerr.E0902, oozieerr.E0904, oozieerr.E0906,
		oozieerr.E1003, oozieerr.E1004, oozieerr.E1006, oozieerr.E1010, oozieerr.E1012,
		oozieerr.E1015, oozieerr.E1016, oozieerr.E1017, oozieerr.E1018, oozieerr.E1019,
		oozieerr.E1020, oozieerr.E1021, oozieerr.E1022, oozieerr.E1023, oozieerr.E1024,
		oozieerr.E1025, oozieerr.E1028,
		oozieerr.E1301, oozieerr.E1303, oozieerr.E1304, oozieerr.E1305, oozieerr.E1317,
		oozieerr.E1318, oozieerr.E1319,
		oozieerr.E1400,
		oozieerr.ELError:
		return http.StatusBadRequest, true
	}
	return http.StatusBadRequest, false
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
			status, _ := StatusOf(oozieerr.Code(code))
			// The coded error's own message, without the context wrapped around it on the
			// way up, in Oozie's "<code>: <text>" form.
			msg := c.Error()
			if !strings.HasPrefix(msg, code) {
				msg = code + ": " + msg
			}
			return &Error{Status: status, Code: code, Msg: msg}
		}
	}
	return NewError(http.StatusInternalServerError, oozieerr.E0307, "Runtime error [%s]", err.Error())
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
