package coordrun

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gozie/gozie/coordinator"
)

// Error is a command error with Oozie's error code, e.g. E0604 for a job
// that does not exist or E1018 for a rerun of actions that are still running.
// Errors of the coordinator core and of the workflow runner are converted to
// it at this package's API, so that the server maps every one of them in its
// one place through ErrorCode.
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
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...) + ": " + err.Error(), Err: err}
}

// coded converts an error that carries an Oozie code (a *coordinator.Error,
// a runner error) into an *Error; other errors are returned unchanged.
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
	return &Error{Code: code, Msg: strings.TrimPrefix(err.Error(), code+": "), Err: err}
}

// Oozie error codes the coordinator engine returns itself.
const (
	CodeMissingProperty  = "E0401" // Missing configuration property [x]
	CodeInvalidParam     = "E0302" // Invalid parameter [x]
	CodeAppDirMissing    = "E0504" // App directory [x] does not exist
	CodeAppDefMissing    = "E0505" // App definition [x] does not exist
	CodeIO               = "E0803" // IO error
	CodeDefaultProperty  = "E0804" // disallowed property in coord-config-default.xml
	CodeJobNotFound      = "E0604" // Job does not exist [x]
	CodeConfig           = "E0307" // runtime error reading a configuration
	CodeRerun            = "E1018" // rerun precondition failed
	CodeInputCheck       = "E1021" // input check failed
	CodeIgnore           = "E1024" // ignore precondition failed
	CodeWorkflowSubmit   = "E1019" // the action's workflow could not be submitted
	CodeDeleteRunning    = coordinator.CodeDeleteRunning
	CodeChangeNotAllowed = coordinator.CodeChangeNotAllowed
)

// ErrorCode returns the Oozie error code carried by err (from this package,
// the coordinator core or the workflow runner), or "".
func ErrorCode(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return coordinator.ErrorCode(err)
}

// maxErrorMessage bounds the error message kept on a row.
const maxErrorMessage = 4000

// errorFields returns the code (def when err carries none) and the message
// of err, as a job or action row keeps them.
func errorFields(err error, def string) (code, msg string) {
	code = ErrorCode(err)
	if code == "" {
		code = def
	}
	msg = strings.TrimPrefix(err.Error(), code+": ")
	if len(msg) > maxErrorMessage {
		cut := maxErrorMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	return code, msg
}
