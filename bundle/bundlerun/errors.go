package bundlerun

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gozie/gozie/coordinator/coordrun"
)

// Error is a command error with Oozie's error code, e.g. E0604 for a bundle that does not
// exist. Errors of the bundle core and of the coordinator engine keep their own codes, so
// that the server maps every one of them in its one place through ErrorCode.
type Error struct {
	Code string
	// Msg is the whole message, the cause's text included.
	Msg string
	// Err is the cause, for errors.Is and errors.As.
	Err error
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the Oozie error code.
func (e *Error) ErrorCode() string { return e.Code }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// wrapf is errorf with a cause, whose text ends the message.
func wrapf(code string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...) + ": " + strings.TrimPrefix(err.Error(), code+": "), Err: err}
}

// Oozie error codes the bundle engine returns itself.
const (
	CodeMissingProperty = "E0401" // Missing configuration property [x]
	CodeInvalidParam    = "E0302" // Invalid parameter [x]
	CodeConfig          = "E0307" // runtime error reading a configuration
	CodeJobNotFound     = "E0604" // Job does not exist [x]
	CodeIO              = "E0702" // IO error reading bundle-config-default.xml
	CodeReadDefinition  = "E1301" // Could not read the bundle job definition
	CodeRerun           = "E1018" // a rerun without coordinators or dates, or none could rerun
)

// ErrorCode returns the Oozie error code carried by err (from this package, the bundle
// core or the coordinator engine), or "".
func ErrorCode(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return coordrun.ErrorCode(err)
}
