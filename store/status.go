package store

// WorkflowStatus is the status of a workflow job. Its moves are
// WorkflowMachine's.
type WorkflowStatus string

// Workflow job statuses, as Oozie names them.
const (
	WorkflowPrep      WorkflowStatus = "PREP"
	WorkflowRunning   WorkflowStatus = "RUNNING"
	WorkflowSuspended WorkflowStatus = "SUSPENDED"
	WorkflowSucceeded WorkflowStatus = "SUCCEEDED"
	WorkflowKilled    WorkflowStatus = "KILLED"
	WorkflowFailed    WorkflowStatus = "FAILED"
)

// WorkflowStatuses lists every workflow job status.
var WorkflowStatuses = []WorkflowStatus{WorkflowPrep, WorkflowRunning, WorkflowSuspended,
	WorkflowSucceeded, WorkflowKilled, WorkflowFailed}

// WorkflowMachine is the table of a workflow job's moves. Start moves PREP
// to RUNNING; the end node, a kill node or kill, a failed action or an EL
// error end it; suspend and resume (or a suspend-on node) move between
// RUNNING and SUSPENDED; a rerun moves a finished job back to PREP with its
// run number increased (as Oozie's ReRunXCommand), and the engine then
// starts it. One decision may pass through several statuses (a start that
// reaches the end node at once), so the moves of one update are:
//
//	(new)     ──► PREP
//	PREP      ──► RUNNING | SUSPENDED | SUCCEEDED | KILLED | FAILED
//	RUNNING   ──► SUSPENDED | SUCCEEDED | KILLED | FAILED
//	SUSPENDED ──► RUNNING | SUCCEEDED | KILLED | FAILED
//	SUCCEEDED ──► PREP
//	KILLED    ──► PREP
//	FAILED    ──► PREP
var WorkflowMachine = Machine[WorkflowStatus]{
	All:     WorkflowStatuses,
	Initial: []WorkflowStatus{WorkflowPrep},
	Moves: moves(
		[]WorkflowStatus{WorkflowPrep, WorkflowRunning, WorkflowSuspended, WorkflowSucceeded, WorkflowKilled, WorkflowFailed},
		[]WorkflowStatus{WorkflowRunning, WorkflowSuspended, WorkflowSucceeded, WorkflowKilled, WorkflowFailed},
		[]WorkflowStatus{WorkflowSuspended, WorkflowRunning, WorkflowSucceeded, WorkflowKilled, WorkflowFailed},
		[]WorkflowStatus{WorkflowSucceeded, WorkflowPrep},
		[]WorkflowStatus{WorkflowKilled, WorkflowPrep},
		[]WorkflowStatus{WorkflowFailed, WorkflowPrep},
	),
}

// CanMove reports whether one update may move a workflow job from s to to
// (WorkflowMachine).
func (s WorkflowStatus) CanMove(to WorkflowStatus) bool { return WorkflowMachine.Allows(s, to) }

// Terminal reports whether no further transition happens without a rerun.
func (s WorkflowStatus) Terminal() bool {
	switch s {
	case WorkflowSucceeded, WorkflowKilled, WorkflowFailed:
		return true
	case WorkflowPrep, WorkflowRunning, WorkflowSuspended:
		return false
	}
	return false
}

// ActionStatus is the status of one workflow action (node). Its moves are
// ActionMachine's.
type ActionStatus string

// Workflow action statuses, as Oozie names them.
const (
	ActionPrep        ActionStatus = "PREP"
	ActionRunning     ActionStatus = "RUNNING"
	ActionOK          ActionStatus = "OK"
	ActionError       ActionStatus = "ERROR"
	ActionUserRetry   ActionStatus = "USER_RETRY"
	ActionStartRetry  ActionStatus = "START_RETRY"
	ActionStartManual ActionStatus = "START_MANUAL"
	ActionDone        ActionStatus = "DONE"
	ActionEndRetry    ActionStatus = "END_RETRY"
	ActionEndManual   ActionStatus = "END_MANUAL"
	ActionKilled      ActionStatus = "KILLED"
	ActionFailed      ActionStatus = "FAILED"
)

// ActionStatuses lists every workflow action status.
var ActionStatuses = []ActionStatus{ActionPrep, ActionRunning, ActionOK, ActionError,
	ActionUserRetry, ActionStartRetry, ActionStartManual, ActionDone, ActionEndRetry,
	ActionEndManual, ActionKilled, ActionFailed}

// ActionMachine is the table of a workflow action's moves. The decision
// core creates an action PREP (a control node OK, a node whose EL fails
// FAILED) and ends it: OK, ERROR, FAILED, USER_RETRY when a user retry is
// due later, or DONE when its job is SUSPENDED (the outcome is applied at
// resume); a job that ends kills its active actions. The runner moves a
// startable action (PREP, USER_RETRY, START_RETRY, START_MANUAL) to RUNNING
// when it launches, to START_RETRY when a launch failed transiently and to
// START_MANUAL when it needs a person. gozie never sets END_RETRY or
// END_MANUAL; an action in them ends like a RUNNING one. A rerun deletes
// the rows it does not skip, so OK and ERROR have no moves.
//
//	(new)        ──► PREP | OK | FAILED
//	PREP         ──► RUNNING | START_RETRY | START_MANUAL | DONE | USER_RETRY | OK | ERROR | FAILED | KILLED
//	RUNNING      ──► DONE | USER_RETRY | OK | ERROR | FAILED | KILLED
//	START_RETRY  ──► RUNNING | START_MANUAL | DONE | USER_RETRY | OK | ERROR | FAILED | KILLED
//	START_MANUAL ──► RUNNING | START_RETRY | DONE | USER_RETRY | OK | ERROR | FAILED | KILLED
//	USER_RETRY   ──► RUNNING | START_RETRY | START_MANUAL | KILLED
//	DONE         ──► USER_RETRY | OK | ERROR | FAILED | KILLED
//	END_RETRY    ──► DONE | USER_RETRY | OK | ERROR | FAILED | KILLED
//	END_MANUAL   ──► DONE | USER_RETRY | OK | ERROR | FAILED | KILLED
var ActionMachine = Machine[ActionStatus]{
	All:     ActionStatuses,
	Initial: []ActionStatus{ActionPrep, ActionOK, ActionFailed},
	Moves: moves(
		[]ActionStatus{ActionPrep, ActionRunning, ActionStartRetry, ActionStartManual, ActionDone, ActionUserRetry,
			ActionOK, ActionError, ActionFailed, ActionKilled},
		[]ActionStatus{ActionRunning, ActionDone, ActionUserRetry, ActionOK, ActionError, ActionFailed, ActionKilled},
		[]ActionStatus{ActionStartRetry, ActionRunning, ActionStartManual, ActionDone, ActionUserRetry,
			ActionOK, ActionError, ActionFailed, ActionKilled},
		[]ActionStatus{ActionStartManual, ActionRunning, ActionStartRetry, ActionDone, ActionUserRetry,
			ActionOK, ActionError, ActionFailed, ActionKilled},
		[]ActionStatus{ActionUserRetry, ActionRunning, ActionStartRetry, ActionStartManual, ActionKilled},
		[]ActionStatus{ActionDone, ActionUserRetry, ActionOK, ActionError, ActionFailed, ActionKilled},
		[]ActionStatus{ActionEndRetry, ActionDone, ActionUserRetry, ActionOK, ActionError, ActionFailed, ActionKilled},
		[]ActionStatus{ActionEndManual, ActionDone, ActionUserRetry, ActionOK, ActionError, ActionFailed, ActionKilled},
	),
}

// CanMove reports whether one update may move a workflow action from s to
// to (ActionMachine).
func (s ActionStatus) CanMove(to ActionStatus) bool { return ActionMachine.Allows(s, to) }

// Terminal reports whether the action has finished for good.
func (s ActionStatus) Terminal() bool {
	switch s {
	case ActionOK, ActionError, ActionKilled, ActionFailed:
		return true
	case ActionPrep, ActionRunning, ActionUserRetry, ActionStartRetry, ActionStartManual,
		ActionDone, ActionEndRetry, ActionEndManual:
		return false
	}
	return false
}

// Startable reports whether an action in status s is launched when its
// start is due: a new action (PREP), a user retry (USER_RETRY), a transient
// retry (START_RETRY), or one a person resumed (START_MANUAL).
func (s ActionStatus) Startable() bool {
	switch s {
	case ActionPrep, ActionUserRetry, ActionStartRetry, ActionStartManual:
		return true
	}
	return false
}

// JobStatus is the status of a coordinator or bundle job. Bundles never use
// IGNORED; PREMATER is not used at all (Oozie keeps it in the enum only).
// Every RUNNING/SUSPENDED/PAUSED state has a *WITHERROR twin, hidden by
// default (backward.support.for.states.without.error). The moves of a
// coordinator job are CoordJobMachine's, those of a bundle job
// BundleJobMachine's and those of a bundle's link to its coordinator
// BundleActionMachine's.
type JobStatus string

// Coordinator and bundle job statuses, as Oozie names them.
const (
	JobPrep               JobStatus = "PREP"
	JobRunning            JobStatus = "RUNNING"
	JobRunningWithError   JobStatus = "RUNNINGWITHERROR"
	JobSuspended          JobStatus = "SUSPENDED"
	JobSuspendedWithError JobStatus = "SUSPENDEDWITHERROR"
	JobPrepSuspended      JobStatus = "PREPSUSPENDED"
	JobPaused             JobStatus = "PAUSED"
	JobPausedWithError    JobStatus = "PAUSEDWITHERROR"
	JobPrepPaused         JobStatus = "PREPPAUSED"
	JobSucceeded          JobStatus = "SUCCEEDED"
	JobDoneWithError      JobStatus = "DONEWITHERROR"
	JobKilled             JobStatus = "KILLED"
	JobFailed             JobStatus = "FAILED"
	JobIgnored            JobStatus = "IGNORED"
)

// JobStatuses lists every coordinator/bundle job status.
var JobStatuses = []JobStatus{JobPrep, JobRunning, JobRunningWithError, JobSuspended,
	JobSuspendedWithError, JobPrepSuspended, JobPaused, JobPausedWithError, JobPrepPaused,
	JobSucceeded, JobDoneWithError, JobKilled, JobFailed, JobIgnored}

// CoordJobMachine is the table of a coordinator job's moves. Materialization
// moves PREP to RUNNING (or FAILED); suspend, resume and the pause time move
// between the running, suspended and paused statuses
// (store.JobStatus.OnSuspend, OnResume, WithPause); kill and a failure the
// engine gave up on end a job that has not finished; a rerun brings a job
// back to RUNNING (OnRerun), a change of its end time or status back to
// RUNNING or on to SUCCEEDED, and ignore moves a FAILED or KILLED job to
// IGNORED. The roll-up from the actions' statuses (coordinator.
// RollupCoordinator, after the pause time and with the *WITHERROR statuses
// hidden or not) reaches most statuses from most others, so the table is
// nearly complete; what it leaves out is what no code does (nothing
// becomes PREP but a resumed PREPSUSPENDED job or an unpaused PREPPAUSED
// one, nothing becomes PAUSED from a finished job, KILLED goes only to
// RUNNING or IGNORED):
//
//	(new)              ──► PREP
//	PREP               ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PREPSUSPENDED | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	RUNNING            ──► RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	RUNNINGWITHERROR   ──► RUNNING | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	SUSPENDED          ──► RUNNING | SUSPENDEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	SUSPENDEDWITHERROR ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PREPSUSPENDED      ──► PREP | RUNNING | RUNNINGWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PAUSED             ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PAUSEDWITHERROR    ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PREPPAUSED         ──► PREP | RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PREPSUSPENDED | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	SUCCEEDED          ──► RUNNING | RUNNINGWITHERROR | DONEWITHERROR | KILLED | FAILED
//	DONEWITHERROR      ──► RUNNING | RUNNINGWITHERROR | SUCCEEDED | KILLED | FAILED
//	KILLED             ──► RUNNING | RUNNINGWITHERROR | IGNORED
//	FAILED             ──► RUNNING | RUNNINGWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | IGNORED
//	IGNORED            ──► RUNNING | RUNNINGWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
var CoordJobMachine = Machine[JobStatus]{
	All:     JobStatuses,
	Initial: []JobStatus{JobPrep},
	Moves: moves(
		[]JobStatus{JobPrep, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPrepSuspended, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobRunningWithError, JobRunning, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobSuspended, JobRunning, JobSuspendedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobSuspendedWithError, JobRunning, JobRunningWithError, JobSuspended, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPrepSuspended, JobPrep, JobRunning, JobRunningWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPaused, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPausedWithError, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPrepPaused, JobPrep, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPrepSuspended, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobSucceeded, JobRunning, JobRunningWithError, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobDoneWithError, JobRunning, JobRunningWithError, JobSucceeded, JobKilled, JobFailed},
		[]JobStatus{JobKilled, JobRunning, JobRunningWithError, JobIgnored},
		[]JobStatus{JobFailed, JobRunning, JobRunningWithError, JobSucceeded, JobDoneWithError, JobKilled, JobIgnored},
		[]JobStatus{JobIgnored, JobRunning, JobRunningWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
	),
}

// BundleJobMachine is the table of a bundle job's moves. Kick-off moves PREP
// to RUNNING (or FAILED); suspend, resume, the pause time, kill and rerun
// move a bundle as they move a coordinator (store.JobStatus.OnSuspend,
// OnResume, WithPause, OnRerun); a new end time brings a finished bundle
// back to RUNNING; the roll-up from the coordinators' statuses
// (bundle.Rollup) reaches most statuses from most others. A KILLED bundle
// never moves again, and no bundle is ever IGNORED:
//
//	(new)              ──► PREP
//	PREP               ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PREPSUSPENDED | PAUSED | PAUSEDWITHERROR | PREPPAUSED | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	RUNNING            ──► RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	RUNNINGWITHERROR   ──► RUNNING | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	SUSPENDED          ──► RUNNING | RUNNINGWITHERROR | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	SUSPENDEDWITHERROR ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PREPSUSPENDED      ──► PREP | RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PAUSED             ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PAUSEDWITHERROR    ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	PREPPAUSED         ──► PREP | RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PREPSUSPENDED | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	SUCCEEDED          ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | DONEWITHERROR | KILLED | FAILED
//	DONEWITHERROR      ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | KILLED | FAILED
//	FAILED             ──► RUNNING | RUNNINGWITHERROR | SUSPENDED | SUSPENDEDWITHERROR | PAUSED | PAUSEDWITHERROR | SUCCEEDED | DONEWITHERROR | KILLED
var BundleJobMachine = Machine[JobStatus]{
	All:     JobStatuses,
	Initial: []JobStatus{JobPrep},
	Moves: moves(
		[]JobStatus{JobPrep, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPrepSuspended, JobPaused, JobPausedWithError, JobPrepPaused, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobRunningWithError, JobRunning, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobSuspended, JobRunning, JobRunningWithError, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobSuspendedWithError, JobRunning, JobRunningWithError, JobSuspended, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPrepSuspended, JobPrep, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPaused, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPausedWithError, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobPrepPaused, JobPrep, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPrepSuspended, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobSucceeded, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobDoneWithError, JobKilled, JobFailed},
		[]JobStatus{JobDoneWithError, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobKilled, JobFailed},
		[]JobStatus{JobFailed, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError, JobPaused, JobPausedWithError, JobSucceeded, JobDoneWithError, JobKilled},
	),
}

// BundleActionMachine is the table of the moves of a bundle's link to one
// of its coordinators (store.BundleAction). A link is created PREP with its
// coordinator, or KILLED or FAILED when the kick-off could not submit the
// coordinators, and then copies its coordinator's status, which may have
// moved several times since: its moves are the paths of CoordJobMachine.
var BundleActionMachine = Machine[JobStatus]{
	All:     JobStatuses,
	Initial: []JobStatus{JobPrep, JobKilled, JobFailed},
	Moves:   CoordJobMachine.Closure().Moves,
}

// Terminal reports whether the job is finished.
func (s JobStatus) Terminal() bool {
	switch s {
	case JobSucceeded, JobDoneWithError, JobKilled, JobFailed, JobIgnored:
		return true
	case JobPrep, JobRunning, JobRunningWithError, JobSuspended, JobSuspendedWithError,
		JobPrepSuspended, JobPaused, JobPausedWithError, JobPrepPaused:
		return false
	}
	return false
}

// CoordActionStatus is the status of one coordinator action. Its moves are
// CoordActionMachine's.
type CoordActionStatus string

// Coordinator action statuses, as Oozie names them.
const (
	CoordActionWaiting   CoordActionStatus = "WAITING"
	CoordActionReady     CoordActionStatus = "READY"
	CoordActionSubmitted CoordActionStatus = "SUBMITTED"
	CoordActionRunning   CoordActionStatus = "RUNNING"
	CoordActionSuspended CoordActionStatus = "SUSPENDED"
	CoordActionTimedOut  CoordActionStatus = "TIMEDOUT"
	CoordActionSucceeded CoordActionStatus = "SUCCEEDED"
	CoordActionKilled    CoordActionStatus = "KILLED"
	CoordActionFailed    CoordActionStatus = "FAILED"
	CoordActionIgnored   CoordActionStatus = "IGNORED"
	CoordActionSkipped   CoordActionStatus = "SKIPPED"
)

// CoordActionStatuses lists every coordinator action status.
var CoordActionStatuses = []CoordActionStatus{CoordActionWaiting, CoordActionReady,
	CoordActionSubmitted, CoordActionRunning, CoordActionSuspended, CoordActionTimedOut,
	CoordActionSucceeded, CoordActionKilled, CoordActionFailed, CoordActionIgnored,
	CoordActionSkipped}

// CoordActionMachine is the table of a coordinator action's moves.
// Materialization creates an action WAITING (SKIPPED when the execution
// order skips it at once); the input check makes it READY, or TIMEDOUT,
// SKIPPED or FAILED; the start makes a READY one SUBMITTED (or SKIPPED by
// the execution order, or FAILED when its workflow cannot be submitted);
// then it follows its workflow (RUNNING, SUSPENDED, SUCCEEDED, FAILED,
// KILLED). Kill, and a failure the engine gave up on, end an action that
// has not finished; ignore moves a FAILED, KILLED or TIMEDOUT one to
// IGNORED; a rerun moves a finished one back to WAITING:
//
//	(new)     ──► WAITING | SKIPPED
//	WAITING   ──► READY | TIMEDOUT | KILLED | FAILED | SKIPPED
//	READY     ──► SUBMITTED | KILLED | FAILED | SKIPPED
//	SUBMITTED ──► RUNNING | SUSPENDED | SUCCEEDED | KILLED | FAILED
//	RUNNING   ──► SUSPENDED | SUCCEEDED | KILLED | FAILED
//	SUSPENDED ──► RUNNING | SUCCEEDED | KILLED | FAILED
//	TIMEDOUT  ──► WAITING | IGNORED
//	SUCCEEDED ──► WAITING
//	KILLED    ──► WAITING | IGNORED
//	FAILED    ──► WAITING | IGNORED
//	IGNORED   ──► WAITING
//	SKIPPED   ──► WAITING
var CoordActionMachine = Machine[CoordActionStatus]{
	All:     CoordActionStatuses,
	Initial: []CoordActionStatus{CoordActionWaiting, CoordActionSkipped},
	Moves: moves(
		[]CoordActionStatus{CoordActionWaiting, CoordActionReady, CoordActionTimedOut, CoordActionKilled, CoordActionFailed,
			CoordActionSkipped},
		[]CoordActionStatus{CoordActionReady, CoordActionSubmitted, CoordActionKilled, CoordActionFailed, CoordActionSkipped},
		[]CoordActionStatus{CoordActionSubmitted, CoordActionRunning, CoordActionSuspended, CoordActionSucceeded,
			CoordActionKilled, CoordActionFailed},
		[]CoordActionStatus{CoordActionRunning, CoordActionSuspended, CoordActionSucceeded, CoordActionKilled, CoordActionFailed},
		[]CoordActionStatus{CoordActionSuspended, CoordActionRunning, CoordActionSucceeded, CoordActionKilled, CoordActionFailed},
		[]CoordActionStatus{CoordActionTimedOut, CoordActionWaiting, CoordActionIgnored},
		[]CoordActionStatus{CoordActionSucceeded, CoordActionWaiting},
		[]CoordActionStatus{CoordActionKilled, CoordActionWaiting, CoordActionIgnored},
		[]CoordActionStatus{CoordActionFailed, CoordActionWaiting, CoordActionIgnored},
		[]CoordActionStatus{CoordActionIgnored, CoordActionWaiting},
		[]CoordActionStatus{CoordActionSkipped, CoordActionWaiting},
	),
}

// CanMove reports whether one update may move a coordinator action from s
// to to (CoordActionMachine).
func (s CoordActionStatus) CanMove(to CoordActionStatus) bool {
	return CoordActionMachine.Allows(s, to)
}

// Terminal reports whether the action is finished.
func (s CoordActionStatus) Terminal() bool {
	switch s {
	case CoordActionTimedOut, CoordActionSucceeded, CoordActionKilled, CoordActionFailed,
		CoordActionIgnored, CoordActionSkipped:
		return true
	case CoordActionWaiting, CoordActionReady, CoordActionSubmitted, CoordActionRunning,
		CoordActionSuspended:
		return false
	}
	return false
}

// SLAStatus is the overall SLA status of one registration.
type SLAStatus string

// SLA statuses.
const (
	SLANotStarted SLAStatus = "NOT_STARTED"
	SLAInProcess  SLAStatus = "IN_PROCESS"
	SLAMet        SLAStatus = "MET"
	SLAMiss       SLAStatus = "MISS"
)

// SLAStatuses lists every SLA status.
var SLAStatuses = []SLAStatus{SLANotStarted, SLAInProcess, SLAMet, SLAMiss}

// SLAEventStatus is one judged SLA event.
type SLAEventStatus string

// SLA event statuses.
const (
	SLAStartMet     SLAEventStatus = "START_MET"
	SLAStartMiss    SLAEventStatus = "START_MISS"
	SLADurationMet  SLAEventStatus = "DURATION_MET"
	SLADurationMiss SLAEventStatus = "DURATION_MISS"
	SLAEndMet       SLAEventStatus = "END_MET"
	SLAEndMiss      SLAEventStatus = "END_MISS"
)

// SLAEventStatuses lists every SLA event status.
var SLAEventStatuses = []SLAEventStatus{SLAStartMet, SLAStartMiss, SLADurationMet,
	SLADurationMiss, SLAEndMet, SLAEndMiss}

// AppType names what an SLA registration is about.
type AppType string

// SLA application types.
const (
	AppWorkflowJob       AppType = "WORKFLOW_JOB"
	AppWorkflowAction    AppType = "WORKFLOW_ACTION"
	AppCoordinatorAction AppType = "COORDINATOR_ACTION"
	AppCoordinatorJob    AppType = "COORDINATOR_JOB"
	AppBundleJob         AppType = "BUNDLE_JOB"
	AppBundleAction      AppType = "BUNDLE_ACTION"
)

// AppTypes lists every SLA application type.
var AppTypes = []AppType{AppWorkflowJob, AppWorkflowAction, AppCoordinatorAction,
	AppCoordinatorJob, AppBundleJob, AppBundleAction}
