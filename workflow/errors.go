package workflow

import (
	"fmt"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// Error is a workflow definition or execution error with Oozie's error code:
// oozieerr's one coded error. Node names the node at fault and Line the line
// of the definition, when known; its text is "<code>: <message> (line <line>)".
// Err, when set, is the underlying cause (an EL error, for instance). The
// message templates are Oozie's; where Oozie's validator passes more detail than
// its template shows (E0707's path) the message keeps it.
type Error = oozieerr.Error

// Detail is err's text without its code (oozieerr.TextOf) and without the
// "XML schema error, " that starts the message of a schema error (E0701's
// template): the reason alone, for a message that words the template itself
// (the validate answer).
func Detail(err error) string {
	text := oozieerr.TextOf(err)
	if detail, ok := strings.CutPrefix(text, schemaLead); ok {
		return detail
	}
	return text
}

// schemaLead starts the message of every schema error (E0701's template).
const schemaLead = "XML schema error, "

// errorf builds an *Error.
func errorf(code oozieerr.Code, node string, format string, args ...any) *Error {
	return &Error{Code: code, Node: node, Msg: fmt.Sprintf(format, args...)}
}

// schemaErr builds an E0701 error located at line.
func schemaErr(line int, node string, format string, args ...any) *Error {
	e := errorf(oozieerr.E0701, node, schemaLead+format, args...)
	e.Line = line
	return e
}
