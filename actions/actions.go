// Package actions runs workflow actions. Each action type has an Executor;
// the workflow runner calls Start when an action's node is entered, Check
// when its completion may have changed (a callback, the batched YARN poll, a
// fallback timer), and Kill when the job is killed.
//
// Executors of asynchronous actions (shell, java, map-reduce, hive) run them
// as one YARN application each, whose ApplicationMaster is `gozie launcher`;
// fs and email run in the server; hive2 talks to HiveServer2 directly; a
// sub-workflow is a child job.
//
// Exactly-once launches: the runner records Attempt.Tag on the action's row
// before it calls Start, and Start must first look for existing external
// work with that tag (a server that crashed between launching and recording
// the launch) and return it instead of launching again.
package actions

import (
	"context"
	"errors"
	"fmt"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// Attempt is one attempt at one workflow action (a rerun or a user retry is
// a new attempt, with a new Key): everything an executor needs to start,
// check or kill it.
type Attempt struct {
	ActionID string // <jobID>@<node>
	JobID    string
	Node     string
	Type     string // shell, java, fs, map-reduce, hive, hive2, sub-workflow, email
	// Key is unique to this attempt at the action (a rerun or a user retry
	// is a new attempt): "<actionID>#<wfRun>.<attempt>".
	Key string
	// Tag is the YARN application tag derived from Key, recorded on the
	// action row before Start is called.
	Tag string
	// NewTag reports that Tag was recorded on the action row for this Start
	// and never before: nothing can have been launched with it yet (a
	// rerun or a user retry makes a new Key, and only a start that changed
	// the row's tag sets it), so an executor need not look for an earlier
	// launch of this attempt. A start retried after a failure or a crash
	// finds the tag recorded and has it false.
	NewTag bool
	User   string
	Group  string
	// AppPath is the workflow application directory, a full URI.
	AppPath string
	// Body is the action's XML with EL resolved and the global section and
	// configuration defaults merged in (store.WorkflowAction.Conf).
	Body string
	// JobConf is the resolved job configuration, in name order.
	JobConf *conf.Properties
	// NameNode and ResourceManager are the cluster addresses the action
	// names, or the server's defaults when it names none.
	NameNode        string
	ResourceManager string
	// CallbackURL is the URL the launcher calls when the run ends; it ends
	// in "status=" for the launcher to append the status.
	CallbackURL string
	// ActionDir is this run's own directory on the cluster's filesystem
	// (a full URI), for staged files and the result file.
	ActionDir string
	// ExternalID is what Start reported (Check and Kill only).
	ExternalID string
	// Credentials are the action's credentials (its cred attribute, looked
	// up in the workflow's <credentials>, properties resolved against the
	// job configuration): what its launch obtains tokens with.
	Credentials []Credential
	// Notify, when set, is what an executor whose runs end inside the
	// server (not through a launcher's callback) calls once the end is
	// recorded, so the runner checks the run at once instead of at its
	// next poll.
	Notify func()
}

// Credential is one credential an action names (Oozie's <credential>):
// its name, type (hive2, hcat, ...) and properties. A name the workflow
// does not define has an empty Type.
type Credential struct {
	Name       string
	Type       string
	Properties *conf.Properties
}

// Status is what an executor reports about an attempt.
type Status struct {
	ExternalID       string // YARN application id, child workflow id, HiveServer2 operation
	ExternalStatus   string // the external system's status, e.g. RUNNING, SUCCEEDED, FAILED/KILLED
	TrackerURI       string
	ConsoleURL       string
	ExternalChildIDs []string
	// Done is true once the attempt has ended; Outcome then says how, in the
	// decision core's vocabulary (workflow.OutcomeOK, OutcomeError,
	// OutcomeFailed), which the runner hands to workflow.Decide unchanged.
	Done    bool
	Outcome workflow.Outcome
	// ErrorCode and ErrorMessage explain an ERROR or FAILED outcome
	// (wf:errorCode, wf:errorMessage): e.g. the shell exit code "1".
	ErrorCode    string
	ErrorMessage string
	// Data is the captured output (capture-output) as Java properties
	// text, at most the server's limit (2 KB by default).
	Data string
	// Stats is the attempt's external statistics as JSON, recorded on the
	// action row (store.WorkflowAction.Stats, Oozie's stats): a map-reduce
	// run's job counters, in Oozie's MRStats shape, which hadoop:counters
	// reads. Empty when the executor has none.
	Stats string
}

// Executor runs one type of action.
type Executor interface {
	// Start launches the attempt, or finds the external work already
	// launched for its Tag and reports it. A synchronous executor does the whole
	// work here and returns a Done status.
	Start(ctx context.Context, run *Attempt) (Status, error)
	// Check reports the attempt's current state.
	Check(ctx context.Context, run *Attempt) (Status, error)
	// Kill stops the attempt's external work and its children; killing work
	// that already ended is not an error.
	Kill(ctx context.Context, run *Attempt) error
}

// BatchChecker is implemented by executors whose attempts are YARN
// applications: one call looks at every running attempt at once (one RM list
// query per cycle), returning the statuses of those that have ended.
type BatchChecker interface {
	CheckAll(ctx context.Context, runs []*Attempt) (map[string]Status, error)
}

// ErrorKind classifies executor failures as Oozie's ActionExecutorException
// does.
type ErrorKind string

// Error kinds. What the workflow runner (workflow/wfrun) does with each depends on
// whether the start or a check of the action failed: a check that fails with any kind
// but Transient ends the action FAILED and fails its job (gozie never sets END_RETRY or
// END_MANUAL).
const (
	// Transient: retry automatically, e.g. an unreachable ResourceManager. A start is
	// retried after the retry interval in START_RETRY (wfrun.StartRetry), and once out
	// of retries it waits as a NonTransient one does; a check is retried by the engine.
	Transient ErrorKind = "TRANSIENT"
	// NonTransient: needs a person. A start that fails so leaves the action in
	// START_MANUAL and suspends its job if it is RUNNING; resuming the job starts the
	// action again.
	NonTransient ErrorKind = "NON_TRANSIENT"
	// ActionError: at start, the action ends in ERROR and takes its error transition.
	ActionError ErrorKind = "ERROR"
	// ActionFailed: the action and the job fail.
	ActionFailed ErrorKind = "FAILED"
)

// ExecError is an executor failure with Oozie's classification and error
// code (e.g. JA009, FS008).
type ExecError struct {
	Kind ErrorKind
	Code string
	Err  error
}

func (e *ExecError) Error() string { return fmt.Sprintf("%s: %v", e.Code, e.Err) }
func (e *ExecError) Unwrap() error { return e.Err }

// Errorf returns an *ExecError.
func Errorf(kind ErrorKind, code, format string, args ...any) *ExecError {
	return &ExecError{Kind: kind, Code: code, Err: fmt.Errorf(format, args...)}
}

// SchemeRefused returns the error of an action that named a filesystem the
// server refuses (err is or wraps a *hadoop.SchemeError): Oozie's E0904,
// ending the action in ERROR with the refusal's own message, the same
// whatever is at the path. It returns nil for any other error. Executors
// turn filesystem errors into action errors through it first.
func SchemeRefused(err error) *ExecError {
	var se *hadoop.SchemeError
	if !errors.As(err, &se) {
		return nil
	}
	return &ExecError{Kind: ActionError, Code: se.ErrorCode(), Err: se}
}

// KindOf returns err's kind; errors that are not *ExecError are transient
// (an unexpected failure is retried, not turned into a user-visible ERROR).
func KindOf(err error) ErrorKind {
	var e *ExecError
	if errors.As(err, &e) {
		return e.Kind
	}
	return Transient
}

// Registry maps action types to executors.
type Registry map[string]Executor

// Has reports whether r has an executor for actionType: the one answer to
// "does gozie run this action type", which workflow validation asks through
// workflow.Options.HasExecutor.
func (r Registry) Has(actionType string) bool { return r[actionType] != nil }
