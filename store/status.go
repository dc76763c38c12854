package store

// WorkflowStatus is the status of a workflow job.
//
//	PREP ──► RUNNING ──► SUCCEEDED | KILLED | FAILED
//	  │        ▲  │
//	  │        │  ▼
//	  │      SUSPENDED ──► KILLED
//	  └──► KILLED
//
// A rerun moves a terminal job back to RUNNING.
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

// ActionStatus is the status of one workflow action (node).
//
//	PREP ──► RUNNING ──► DONE ──► OK | ERROR
//	  │  └─► START_RETRY / START_MANUAL ──► RUNNING
//	  │                         DONE ──► USER_RETRY ──► RUNNING
//	  │                         DONE ──► END_RETRY / END_MANUAL ──► OK | ERROR
//	  └──► KILLED ──► FAILED
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
//
//	PREP ──► RUNNING ──► SUCCEEDED | DONEWITHERROR | KILLED | FAILED
//	 │  ▲      │  ▲
//	 ▼  │      ▼  │
//	PREPSUSPENDED  SUSPENDED      RUNNING ◄──► PAUSED (pause time)
//	PREPPAUSED                    FAILED | KILLED ──► IGNORED (coordinators)
//
// Every RUNNING/SUSPENDED/PAUSED state has a *WITHERROR twin, hidden by
// default (backward.support.for.states.without.error).
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

// CoordActionStatus is the status of one coordinator action.
//
//	WAITING ──► READY ──► SUBMITTED ──► RUNNING ──► SUCCEEDED | KILLED | FAILED
//	   │          │                        ▲ │
//	   ├► TIMEDOUT└► SKIPPED               │ ▼
//	   └► SKIPPED                        SUSPENDED
//	FAILED | KILLED | TIMEDOUT ──► IGNORED;  terminal ──► WAITING (rerun)
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
