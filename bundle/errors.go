package bundle

import (
	"errors"
	"fmt"
)

// Oozie error codes used by this package. The server maps them to HTTP statuses in one
// place; here they only travel inside *Error.
const (
	// CodeParse (E0700) is a document that is not well-formed XML.
	CodeParse = "E0700"
	// CodeInvalidDefinition (E0701) is a document that does not follow the bundle schema.
	CodeInvalidDefinition = "E0701"
	// CodeEL (E1004) is an EL expression that cannot be evaluated.
	CodeEL = "E1004"
	// CodeParameters (E0738) is a formal parameter without a value and without a default.
	CodeParameters = "E0738"
	// CodeMissingProperty (E0401) is a job configuration without user.name.
	CodeMissingProperty = "E0401"
	// CodeEmptyParameter (E0739) is a formal parameter with an empty name.
	CodeEmptyParameter = "E0739"
	// CodeDisallowedProperty (E0808) is a reserved name (YEAR, MONTH, ..., or user.name in
	// bundle-config-default.xml) set where it may not be.
	CodeDisallowedProperty = "E0808"
	// CodeAttributes (E1303) is an invalid attribute or control value: the kick-off time,
	// or a coordinator configuration naming another user.
	CodeAttributes = "E1303"
	// CodeDuplicateCoordinator (E1304) is two coordinators with the same name.
	CodeDuplicateCoordinator = "E1304"
	// CodeEmptyCoordinatorName (E1305) is a coordinator whose name resolves to nothing.
	CodeEmptyCoordinatorName = "E1305"
	// CodeChangeValue (E1317) is an invalid value of a bundle change command.
	CodeChangeValue = "E1317"
	// CodeChangeSyntax (E1015) is a change value that is not name=value pairs, or repeats
	// a name.
	CodeChangeSyntax = "E1015"
	// CodeNoCoordinators (E1318) is a bundle that starts with no enabled coordinator.
	CodeNoCoordinators = "E1318"
)

// Error is an error with Oozie's error code and the element or attribute at fault.
type Error struct {
	// Code is Oozie's error code, such as "E1304".
	Code string
	// Where names the element, attribute or line at fault ("coordinator[load]/app-path",
	// "line 12 <coordinator>"); it may be empty.
	Where string
	// Msg is the human-readable message.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

// Error formats the error as "E1304: where: message: cause".
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

// ErrorCode returns the Oozie error code.
func (e *Error) ErrorCode() string { return e.Code }

// newError builds an *Error with a formatted message.
func newError(code, where, format string, args ...any) *Error {
	return &Error{Code: code, Where: where, Msg: fmt.Sprintf(format, args...)}
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
