package coordinator

import "github.com/gozie/gozie/oozieerr"

// Oozie error codes used by this package, named for what they mean here; the codes
// themselves are defined once in oozieerr, and the server maps them to HTTP statuses.
const (
	// CodeInvalidDefinition (E0701) is a document that does not follow the coordinator schema.
	CodeInvalidDefinition = oozieerr.E0701
	// CodeParse (E0700) is a document that is not well-formed XML or has no namespace.
	CodeParse = oozieerr.E0700
	// CodeSubmit (E1003) is an invalid attribute value: dates, time zone, frequency, controls.
	CodeSubmit = oozieerr.E1003
	// CodeEL (E1004) is an EL expression that cannot be evaluated in its phase.
	CodeEL = oozieerr.E1004
	// CodeNotPermitted (E1006) is an EL function used where it is not allowed, such as
	// coord:latest() in an output event.
	CodeNotPermitted = oozieerr.E1006
	// CodeInstance (E1010) is an invalid start-instance/end-instance combination.
	CodeInstance = oozieerr.E1010
	// CodeMaterialize (E1012) is a materialization failure that is not an input error.
	CodeMaterialize = oozieerr.E1012
	// CodeInstanceText (E1021) is an instance Oozie's submission refuses: an empty or
	// multi-valued instance element, or a dataset initial-instance before 1970.
	CodeInstanceText = oozieerr.E1021
	// CodeBundleNamespace (E1319) is a coordinator in namespace 0.1 submitted by a bundle.
	CodeBundleNamespace = oozieerr.E1319
	// CodeParameters (E0738) is a formal parameter without a value and without a default.
	CodeParameters = oozieerr.E0738
	// CodeEmptyParameter (E0739) is a formal parameter with an empty name.
	CodeEmptyParameter = oozieerr.E0739
	// CodeInputLogic (E1028) is an invalid input-logic expression.
	CodeInputLogic = oozieerr.E1028
	// CodeMissingProperty (E0401) is a job configuration without user.name.
	CodeMissingProperty = oozieerr.E0401
)

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
