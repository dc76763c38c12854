package yarn

import "strings"

// AppState is a YARN application state as the ResourceManager reports it.
type AppState string

// The application states (YarnApplicationState).
const (
	StateNew       AppState = "NEW"
	StateNewSaving AppState = "NEW_SAVING"
	StateSubmitted AppState = "SUBMITTED"
	StateAccepted  AppState = "ACCEPTED"
	StateRunning   AppState = "RUNNING"
	StateFinished  AppState = "FINISHED"
	StateFailed    AppState = "FAILED"
	StateKilled    AppState = "KILLED"
)

// AllStates lists every application state in life-cycle order.
var AllStates = []AppState{
	StateNew, StateNewSaving, StateSubmitted, StateAccepted,
	StateRunning, StateFinished, StateFailed, StateKilled,
}

// Final reports whether s is a final state (FINISHED, FAILED or KILLED).
func (s AppState) Final() bool {
	switch s {
	case StateFinished, StateFailed, StateKilled:
		return true
	case StateNew, StateNewSaving, StateSubmitted, StateAccepted, StateRunning:
		return false
	default:
		return false
	}
}

// Valid reports whether s is one of the known states.
func (s AppState) Valid() bool {
	for _, v := range AllStates {
		if s == v {
			return true
		}
	}
	return false
}

// ParseAppState returns the state named by s, ignoring case as the RM does.
func ParseAppState(s string) (AppState, bool) {
	st := AppState(strings.ToUpper(strings.TrimSpace(s)))
	return st, st.Valid()
}

// FinalStatus is the final status of an application (FinalApplicationStatus):
// UNDEFINED until the application ends.
type FinalStatus string

// The final statuses.
const (
	FinalUndefined FinalStatus = "UNDEFINED"
	FinalSucceeded FinalStatus = "SUCCEEDED"
	FinalFailed    FinalStatus = "FAILED"
	FinalKilled    FinalStatus = "KILLED"
	// FinalEnded is used by long-running services that end without a verdict.
	FinalEnded FinalStatus = "ENDED"
)

// Valid reports whether f is one of the known final statuses.
func (f FinalStatus) Valid() bool {
	switch f {
	case FinalUndefined, FinalSucceeded, FinalFailed, FinalKilled, FinalEnded:
		return true
	default:
		return false
	}
}

// TrackingUI values of an application report.
const (
	TrackingUnassigned = "UNASSIGNED"
	TrackingAM         = "ApplicationMaster"
	TrackingHistory    = "History"
)
