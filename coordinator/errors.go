package coordinator

import (
	"errors"
	"fmt"
)

// Oozie error codes used by this package. The server maps them to HTTP statuses in one place;
// here they only travel inside *Error.
const (
	// CodeInvalidDefinition (E0701) is a document that does not follow the coordinator schema.
	CodeInvalidDefinition = "E0701"
	// CodeParse (E0700) is a document that is not well-formed XML or has no namespace.
	CodeParse = "E0700"
	// CodeSubmit (E1003) is an invalid attribute value: dates, time zone, frequency, controls.
	CodeSubmit = "E1003"
	// CodeEL (E1004) is an EL expression that cannot be evaluated in its phase.
	CodeEL = "E1004"
	// CodeNotPermitted (E1006) is an EL function used where it is not allowed, such as
	// coord:latest() in an output event.
	CodeNotPermitted = "E1006"
	// CodeInstance (E1010) is an invalid start-instance/end-instance combination.
	CodeInstance = "E1010"
	// CodeMaterialize (E1012) is a materialization failure that is not an input error.
	CodeMaterialize = "E1012"
	// CodeInstanceText (E1021) is an instance Oozie's submission refuses: an empty or
	// multi-valued instance element, or a dataset initial-instance before 1970.
	CodeInstanceText = "E1021"
	// CodeBundleNamespace (E1319) is a coordinator in namespace 0.1 submitted by a bundle.
	CodeBundleNamespace = "E1319"
	// CodeParameters (E0738) is a formal parameter without a value and without a default.
	CodeParameters = "E0738"
	// CodeEmptyParameter (E0739) is a formal parameter with an empty name.
	CodeEmptyParameter = "E0739"
	// CodeInputLogic (E1028) is an invalid input-logic expression.
	CodeInputLogic = "E1028"
)

// Error is an error with Oozie's error code and the element or attribute at fault.
type Error struct {
	// Code is Oozie's error code, such as "E1003".
	Code string
	// Where names the element, attribute or line at fault ("coordinator-app/@start",
	// "data-in[input]/start-instance", "line 12"); it may be empty.
	Where string
	// Msg is the human-readable message.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

// Error formats the error as "E1003: where: message: cause".
func (e *Error) Error() string {
	s := e.Code + ": "
	if e.Where != "" {
		s += e.Where + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// newError builds an *Error with a formatted message.
func newError(code, where, format string, args ...any) *Error {
	return &Error{Code: code, Where: where, Msg: fmt.Sprintf(format, args...)}
}

// wrapError builds an *Error around a cause.
func wrapError(code, where string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Where: where, Msg: fmt.Sprintf(format, args...), Err: err}
}

// ErrorCode returns the Oozie error code of the outermost *Error in err's chain, or "" if
// there is none.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
