package workflow

import (
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/store"
)

// Outcome is how an action ended, as its executor reports it.
type Outcome string

// Action outcomes. OK follows the ok transition and ERROR the error
// transition (after user retries); FAILED fails the whole job.
const (
	OutcomeOK     Outcome = "OK"
	OutcomeError  Outcome = "ERROR"
	OutcomeFailed Outcome = "FAILED"
)

// EventKind names what happened to a workflow job.
type EventKind string

// Events the decision core handles.
const (
	EventStart     EventKind = "start"      // start a PREP job
	EventActionEnd EventKind = "action-end" // an action's executor finished it
	EventKill      EventKind = "kill"       // the user kills the job
	EventSuspend   EventKind = "suspend"    // the user suspends the job
	EventResume    EventKind = "resume"     // the user resumes the job
	EventRerun     EventKind = "rerun"      // the user reruns a finished job
	EventRetryDue  EventKind = "retry-due"  // a user retry's delay has passed
)

// Event is one thing that happened to a job.
type Event struct {
	Kind EventKind
	// Node is the action's node name (EventActionEnd, EventRetryDue).
	Node string
	// Outcome, ErrorCode, ErrorMessage, ExternalStatus and Data describe an
	// ended action (EventActionEnd). Data is the captured output as Java
	// properties text. Empty fields leave the row's values alone.
	Outcome        Outcome
	ErrorCode      string
	ErrorMessage   string
	ExternalStatus string
	Data           string
	// SkipNodes and FailNodes choose what a rerun skips (see RerunOptions);
	// Conf and Definition, when set, replace the job's configuration XML and
	// definition (EventRerun).
	SkipNodes  []string
	FailNodes  bool
	Conf       string
	Definition string
}

// Input is everything the decision core looks at: the job's app, its row,
// its action rows and the environment of the server. It is only read.
type Input struct {
	App     *App
	Job     store.WorkflowJob
	Actions []store.WorkflowAction
	// Conf is the job configuration (Job.Conf parsed, ResolveJobConf applied):
	// the EL variables and wf:conf().
	Conf *conf.Properties
	// Defaults is the app's config-default.xml, merged into every action's
	// configuration below <global>.
	Defaults *conf.Properties
	// Now is the time of the decision.
	Now time.Time
	// Options are the server settings.
	Options Options
	// Funcs adds EL functions that need the outside world (fs:, hadoop:) to
	// the basic and wf: functions.
	Funcs *el.Registry
	// CallbackURL builds the URL of wf:callback for an action id and a status
	// placeholder; nil makes wf:callback an error.
	CallbackURL func(actionID, status string) string
	// Location is the processing time zone of timestamp(); nil is UTC.
	Location *time.Location
}

// Step is what a decision changes. The engine applies it in one
// transaction, mechanically:
//
//  1. update Job with a compare-and-set on the Version it carries (the one
//     read into Input.Job); Job is set whenever anything else is, so that
//     this check serializes every change of one workflow;
//  2. insert Create, update Update (each carrying the Version that was read,
//     compare-and-set), delete the rows named by Delete;
//  3. schedule the side effects: launch the actions in Start, kill the
//     external work of the actions in Kill, wake EventRetryDue at each
//     Retry's time.
//
// Replaying an event after its step was applied yields an empty step (the
// precondition no longer holds), and applying a step twice fails the
// version checks, so a step takes effect at most once.
type Step struct {
	// Job is the job to write, nil when the step leaves it as it was.
	Job *store.WorkflowJob
	// Read is the job as the decision read it (nil in a step not made by
	// Decide), for observers of the step's action changes.
	Read   *store.WorkflowJob
	Create []store.WorkflowAction
	Update []store.WorkflowAction
	Delete []string // action ids
	Start  []string // action ids to launch
	Kill   []string // action ids whose external work must be killed
	Retry  []Retry
	// Ignored explains why an event changed nothing (a job in the wrong
	// state, a stale callback); Oozie logs these and carries on.
	Ignored *Error
	// Warnings are conditions Oozie logs, such as a capped retry-max (E0820).
	Warnings []*Error
}

// Retry schedules a user retry of an action.
type Retry struct {
	ActionID string
	Node     string
	At       time.Time
}

// Empty reports whether the step changes nothing.
func (s *Step) Empty() bool {
	return s.Job == nil && len(s.Create) == 0 && len(s.Update) == 0 && len(s.Delete) == 0 &&
		len(s.Start) == 0 && len(s.Kill) == 0 && len(s.Retry) == 0
}
