package bundle

import "github.com/gozie/gozie/oozieerr"

// Oozie error codes used by this package, named for what they mean here; the codes
// themselves are defined once in oozieerr, and the server maps them to HTTP statuses.
const (
	// CodeParse (E0700) is a document that is not well-formed XML.
	CodeParse = oozieerr.E0700
	// CodeInvalidDefinition (E0701) is a document that does not follow the bundle schema.
	CodeInvalidDefinition = oozieerr.E0701
	// CodeEL (E1004) is an EL expression that cannot be evaluated.
	CodeEL = oozieerr.E1004
	// CodeParameters (E0738) is a formal parameter without a value and without a default.
	CodeParameters = oozieerr.E0738
	// CodeMissingProperty (E0401) is a job configuration without user.name.
	CodeMissingProperty = oozieerr.E0401
	// CodeEmptyParameter (E0739) is a formal parameter with an empty name.
	CodeEmptyParameter = oozieerr.E0739
	// CodeDisallowedProperty (E0808) is a reserved name (YEAR, MONTH, ..., or user.name in
	// bundle-config-default.xml) set where it may not be.
	CodeDisallowedProperty = oozieerr.E0808
	// CodeAttributes (E1303) is an invalid attribute or control value: the kick-off time,
	// or a coordinator configuration naming another user.
	CodeAttributes = oozieerr.E1303
	// CodeDuplicateCoordinator (E1304) is two coordinators with the same name.
	CodeDuplicateCoordinator = oozieerr.E1304
	// CodeEmptyCoordinatorName (E1305) is a coordinator whose name resolves to nothing.
	CodeEmptyCoordinatorName = oozieerr.E1305
	// CodeChangeValue (E1317) is an invalid value of a bundle change command.
	CodeChangeValue = oozieerr.E1317
	// CodeChangeSyntax (E1015) is a change value that is not name=value pairs, or repeats
	// a name.
	CodeChangeSyntax = oozieerr.E1015
	// CodeNoCoordinators (E1318) is a bundle that starts with no enabled coordinator.
	CodeNoCoordinators = oozieerr.E1318
)

// Error is Oozie's coded error, defined once in oozieerr: the code, the element, attribute
// or line at fault in Where ("coordinator[load]/app-path", "line 12 <coordinator>"), and the
// message, formatted "E1304: where: message".
type Error = oozieerr.Error

// ErrorCode returns the Oozie error code of the first coded error in err's chain, or "" if
// there is none.
func ErrorCode(err error) oozieerr.Code { return oozieerr.CodeOf(err) }
