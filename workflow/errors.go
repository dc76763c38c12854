package workflow

import (
	"fmt"
	"strconv"
)

// Oozie error codes produced by this package. The message templates are
// Oozie's; where Oozie's validator passes more detail than its template shows
// (E0707's path) the message keeps it.
const (
	CodeXML              = "E0700" // XML error (not well-formed, DOCTYPE, ...)
	CodeSchema           = "E0701" // XML schema error (unknown/missing/misplaced element or attribute)
	CodeDuplicateNode    = "E0705" // node already defined
	CodeSelfTransition   = "E0706" // node cannot transition to itself
	CodeLoop             = "E0707" // loop detected at parsing
	CodeBadTransition    = "E0708" // transition to a node that does not exist
	CodeRuntimeLoop      = "E0709" // a node reached twice in one run
	CodeForkJoinMismatch = "E0720" // at run time, a join reached from another fork's path
	CodeUnsupportedType  = "E0723" // unsupported action type
	CodeBadNodeName      = "E0724" // invalid node name
	CodeKillFinished     = "E0725" // kill of a job that is not PREP, RUNNING or SUSPENDED
	CodeKillNode         = "E0729" // kill node message
	CodeForkJoinCount    = "E0730" // numbers of forks and joins differ
	CodeForkPaths        = "E0731" // fork with fewer than two paths
	CodeForkWithoutJoin  = "E0733" // fork whose paths reach no join
	CodeDefinitionLength = "E0736" // definition longer than the maximum
	CodeEndInFork        = "E0737" // end node inside a fork path
	CodeMissingParams    = "E0738" // required parameters without value
	CodeEmptyParamName   = "E0739" // parameter with an empty name
	CodeJoinWithoutFork  = "E0742" // join reached outside any fork path
	CodeMultipleOKTo     = "E0743" // a node reached by two "ok to" paths
	CodeForkDuplicate    = "E0744" // a fork lists the same node twice
	CodeKillMessageEL    = "E0756" // the kill message failed to evaluate
	CodeForkManyJoins    = "E0757" // one fork, several joins
	CodeJoinManyForks    = "E0758" // one join, several forks
	CodeSuspendNotRun    = "E0727" // suspend of a job that is not RUNNING
	CodeResumeNotSusp    = "E0717" // resume of a job that is not SUSPENDED (Oozie: "Workflow not suspended")
	CodeStartNotPrep     = "E0719" // start of a job that is not PREP (Oozie: "Job already started")
	CodeDefaultProperty  = "E0804" // disallowed property in config-default.xml
	CodeRerunNotDone     = "E0805" // rerun of a job that is not SUCCEEDED, KILLED or FAILED
	CodeRerunNotComplete = "E0806" // skip node that did not complete in the previous run
	CodeRerunNotRun      = "E0807" // skip nodes that were not executed
	CodeUserProperty     = "E0808" // disallowed property in the job configuration
	CodeRetryOverMax     = "E0820" // retry-max above the server maximum (a warning)
	CodeRerunBothOptions = "E0404" // both skip nodes and failnodes given
	CodeActionNotFound   = "E0605" // no such action
	CodeActionNotRunning = "E0800" // an event for an action that is not in a state to take it
	CodeJobNotRunning    = "E0813" // an event that needs a RUNNING job
	CodeELError          = "EL_ERROR"
)

// Error is a workflow definition or execution error with Oozie's error code.
// Node names the node at fault and Line the line of the definition, when
// known. Err, when set, is the underlying cause (an EL error, for instance).
type Error struct {
	Code string
	Node string
	Msg  string
	Line int
	Err  error
}

// Error returns "<code>: <message>" as Oozie prints it, with the line when
// known.
func (e *Error) Error() string {
	s := e.Code + ": " + e.Msg
	if e.Line > 0 {
		s += " (line " + strconv.Itoa(e.Line) + ")"
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// errorf builds an *Error.
func errorf(code, node string, format string, args ...any) *Error {
	return &Error{Code: code, Node: node, Msg: fmt.Sprintf(format, args...)}
}

// schemaErr builds an E0701 error located at line.
func schemaErr(line int, node string, format string, args ...any) *Error {
	e := errorf(CodeSchema, node, "XML schema error, "+format, args...)
	e.Line = line
	return e
}

// ErrorCode returns the Oozie error code; the REST layer maps errors that
// have this method to Oozie's error responses.
func (e *Error) ErrorCode() string { return e.Code }
