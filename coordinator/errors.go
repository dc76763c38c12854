package coordinator

import "github.com/gozie/gozie/oozieerr"

// Error is Oozie's coded error, defined once in oozieerr: the code, the element, attribute
// or line at fault in Where ("coordinator-app/@start", "data-in[input]/start-instance",
// "line 12"), and the message, formatted "E1003: where: message".
type Error = oozieerr.Error

// withCause returns e with err as its cause, err's text ending the message, as a literal
// *Error with a cause read before the cause's text moved into the message.
func withCause(e *Error, err error) *Error {
	if err != nil {
		e.Msg += ": " + err.Error()
		e.Err = err
	}
	return e
}

// ErrorCode returns the Oozie error code of the first coded error in err's chain, or "" if
// there is none.
func ErrorCode(err error) oozieerr.Code { return oozieerr.CodeOf(err) }
