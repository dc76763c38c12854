package coordrun

import (
	"errors"
	"unicode/utf8"

	"github.com/gozie/gozie/oozieerr"
)

// Error is a command error with Oozie's error code (oozieerr's one coded error), e.g. E0604
// for a job that does not exist or E1018 for a rerun of actions that are still running. The
// coordinator core and the workflow runner return the same type, so their errors reach the
// server as they are and are mapped in its one place.
type Error = oozieerr.Error

// coded returns err with its Oozie code in its text: the coordinator core's and the
// runner's errors are already this package's *Error and are returned as they are; another
// coded error (a filesystem's *hadoop.SchemeError, whose text has no code) becomes an
// *Error around it; an error without a code is returned unchanged.
func coded(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	code := ErrorCode(err)
	if code == "" {
		return err
	}
	return &Error{Code: code, Msg: oozieerr.TextOf(err), Err: err}
}

// ErrorCode returns the Oozie error code carried by err (from this package, the coordinator
// core, the workflow runner or a filesystem), or "".
func ErrorCode(err error) oozieerr.Code { return oozieerr.CodeOf(err) }

// maxErrorMessage bounds the error message kept on a row.
const maxErrorMessage = 4000

// errorFields returns the code (def when err carries none) and the message of err, as a job
// or action row keeps them: a coded error's text without its code (oozieerr.TextOf), any
// other error's whole text, cut to maxErrorMessage bytes.
func errorFields(err error, def oozieerr.Code) (code, msg string) {
	c := ErrorCode(err)
	if c == "" {
		c = def
	}
	return string(c), rowMessage(oozieerr.TextOf(err))
}

// rowMessage cuts msg to maxErrorMessage bytes, on a character boundary.
func rowMessage(msg string) string {
	if len(msg) > maxErrorMessage {
		cut := maxErrorMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	return msg
}
