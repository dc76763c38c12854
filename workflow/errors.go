package workflow

import (
	"fmt"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// Oozie error codes produced by this package, named for what they mean here;
// the codes are defined once in oozieerr. The message templates are Oozie's; where Oozie's validator passes more detail than its template shows
// (E0707's path) the message keeps it.
const (
	CodeXML              = oozieerr.E0700 // XML error (not well-formed, DOCTYPE, ...)
	CodeSchema           = oozieerr.E0701 // XML schema error (unknown/missing/misplaced element or attribute)
	CodeDuplicateNode    = oozieerr.E0705 // node already defined
	CodeSelfTransition   = oozieerr.E0706 // node cannot transition to itself
	CodeLoop             = oozieerr.E0707 // loop detected at parsing
	CodeBadTransition    = oozieerr.E0708 // transition to a node that does not exist
	CodeRuntimeLoop      = oozieerr.E0709 // a node reached twice in one run
	CodeForkJoinMismatch = oozieerr.E0720 // at run time, a join reached from another fork's path
	CodeUnsupportedType  = oozieerr.E0723 // unsupported action type
	CodeBadNodeName      = oozieerr.E0724 // invalid node name
	CodeKillFinished     = oozieerr.E0725 // kill of a job that is not PREP, RUNNING or SUSPENDED
	CodeKillNode         = oozieerr.E0729 // kill node message
	CodeForkJoinCount    = oozieerr.E0730 // numbers of forks and joins differ
	CodeForkPaths        = oozieerr.E0731 // fork with fewer than two paths
	CodeForkWithoutJoin  = oozieerr.E0733 // fork whose paths reach no join
	CodeDefinitionLength = oozieerr.E0736 // definition longer than the maximum
	CodeEndInFork        = oozieerr.E0737 // end node inside a fork path
	CodeMissingParams    = oozieerr.E0738 // required parameters without value
	CodeEmptyParamName   = oozieerr.E0739 // parameter with an empty name
	CodeJoinWithoutFork  = oozieerr.E0742 // join reached outside any fork path
	CodeMultipleOKTo     = oozieerr.E0743 // a node reached by two "ok to" paths
	CodeForkDuplicate    = oozieerr.E0744 // a fork lists the same node twice
	CodeKillMessageEL    = oozieerr.E0756 // the kill message failed to evaluate
	CodeForkManyJoins    = oozieerr.E0757 // one fork, several joins
	CodeJoinManyForks    = oozieerr.E0758 // one join, several forks
	CodeSuspendNotRun    = oozieerr.E0727 // suspend of a job that is not RUNNING
	CodeResumeNotSusp    = oozieerr.E0717 // resume of a job that is not SUSPENDED (Oozie: "Workflow not suspended")
	CodeStartNotPrep     = oozieerr.E0719 // start of a job that is not PREP (Oozie: "Job already started")
	CodeDefaultProperty  = oozieerr.E0804 // disallowed property in config-default.xml
	CodeRerunNotDone     = oozieerr.E0805 // rerun of a job that is not SUCCEEDED, KILLED or FAILED
	CodeRerunNotComplete = oozieerr.E0806 // skip node that did not complete in the previous run
	CodeRerunNotRun      = oozieerr.E0807 // skip nodes that were not executed
	CodeUserProperty     = oozieerr.E0808 // disallowed property in the job configuration
	CodeRetryOverMax     = oozieerr.E0820 // retry-max above the server maximum (a warning)
	CodeRerunBothOptions = oozieerr.E0404 // both skip nodes and failnodes given
	CodeActionNotFound   = oozieerr.E0605 // no such action
	CodeActionNotRunning = oozieerr.E0800 // an event for an action that is not in a state to take it
	CodeJobNotRunning    = oozieerr.E0813 // an event that needs a RUNNING job
	CodeELError          = oozieerr.ELError
)

// Error is a workflow definition or execution error with Oozie's error code:
// oozieerr's one coded error. Node names the node at fault and Line the line
// of the definition, when known; its text is "<code>: <message> (line <line>)".
// Err, when set, is the underlying cause (an EL error, for instance).
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
	e := errorf(CodeSchema, node, schemaLead+format, args...)
	e.Line = line
	return e
}
