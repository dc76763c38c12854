package bundlerun

import (
	"fmt"

	"github.com/gozie/gozie/oozieerr"
)

// Error is a command error with Oozie's error code (oozieerr's one coded error), e.g. E0604
// for a bundle that does not exist. Errors of the bundle core and of the coordinator engine
// are the same type and keep their own codes, so that the server maps every one of them in
// its one place.
type Error = oozieerr.Error

// wrapf is oozieerr.Wrap, except that a cause with the same code
// adds its text without the code (oozieerr.TextOf), so the code is said once.
func wrapf(code oozieerr.Code, err error, format string, args ...any) *Error {
	cause := err.Error()
	if ErrorCode(err) == code {
		cause = oozieerr.TextOf(err)
	}
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...) + ": " + cause, Err: err}
}

// ErrorCode returns the Oozie error code carried by err (from this package, the bundle core,
// the coordinator engine or a filesystem), or "".
func ErrorCode(err error) oozieerr.Code { return oozieerr.CodeOf(err) }
