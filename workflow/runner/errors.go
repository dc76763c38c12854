package runner

import "fmt"

// Error is a command error with Oozie's error code, e.g. E0604 for a job
// that does not exist or E0401 for a missing user.name.
type Error struct {
	Code string
	Msg  string
	Err  error
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the Oozie error code.
func (e *Error) ErrorCode() string { return e.Code }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Oozie error codes the runner returns itself.
const (
	CodeMissingProperty = "E0401" // Missing configuration property [x]
	CodeInvalidParam    = "E0302" // Invalid parameter [x]
	CodeAppDirMissing   = "E0504" // App directory [x] does not exist
	CodeAppDefMissing   = "E0505" // App definition [x] does not exist
	CodeIO              = "E0803" // IO error
	CodeJobNotFound     = "E0604" // Job does not exist [x]
	CodeActionNotFound  = "E0605" // Action does not exist [x]
	CodeConfig          = "E0307" // runtime error reading configuration
	CodeInternal        = "E0902" // Exception occurred: [x] (work the engine gave up on)
)
