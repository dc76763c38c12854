package jobsbench

import (
	"fmt"
	"time"

	"github.com/gozie/gozie/store"
)

// Spec sizes the fixture. Coordinator i (from 0) belongs to user i mod Users and has
// ActionsPerCoordinator hourly actions; the newest WorkflowsPerCoordinator of them that
// started a workflow have its workflow job row (older runs are taken as purged).
type Spec struct {
	Coordinators            int
	ActionsPerCoordinator   int
	WorkflowsPerCoordinator int
	Users                   int
}

// DefaultSpec is the benchmark's fixture: 1,000 coordinators of 1,000 actions each (a
// million actions) and 194,800 workflow jobs, for 20 users.
func DefaultSpec() Spec {
	return Spec{Coordinators: 1000, ActionsPerCoordinator: 1000, WorkflowsPerCoordinator: 200, Users: 20}
}

// Validate reports a Spec that cannot be seeded.
func (s Spec) Validate() error {
	switch {
	case s.Coordinators < 1 || s.ActionsPerCoordinator < 1 || s.Users < 1:
		return fmt.Errorf("jobsbench: spec %+v: coordinators, actions per coordinator and users must be positive", s)
	case s.WorkflowsPerCoordinator < 0 || s.WorkflowsPerCoordinator > s.ActionsPerCoordinator:
		return fmt.Errorf("jobsbench: spec %+v: workflows per coordinator must be within 0..actions per coordinator", s)
	case s.Coordinators*s.ActionsPerCoordinator > 9_999_999:
		return fmt.Errorf("jobsbench: spec %+v: at most 9,999,999 actions (seven-digit workflow ids)", s)
	}
	return nil
}

// Actions is how many coordinator actions the fixture holds.
func (s Spec) Actions() int { return s.Coordinators * s.ActionsPerCoordinator }

// idStart is the generator start in every fixture id (2025-01-01 00:00:00.000) and
// systemID its system id.
const (
	idStart  = "250101000000000"
	systemID = "bench"
)

// epoch is the start time of coordinator 0; coordinator i starts i minutes later.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// CoordID is the id of coordinator i.
func CoordID(i int) string { return fmt.Sprintf("%07d-%s-%s-C", i, idStart, systemID) }

// CoordActionID is the id of action n (from 1) of coordinator i.
func CoordActionID(i, n int) string { return fmt.Sprintf("%s@%d", CoordID(i), n) }

// WorkflowID is the id of the workflow job of action n of coordinator i.
func (s Spec) WorkflowID(i, n int) string {
	return fmt.Sprintf("%07d-%s-%s-W", i*s.ActionsPerCoordinator+n-1, idStart, systemID)
}

// User is the owner of coordinator i and of its workflows.
func (s Spec) User(i int) string { return fmt.Sprintf("user-%02d", i%s.Users) }

// CoordStatus is the status of coordinator i: six in ten RUNNING, the rest one each of
// RUNNINGWITHERROR, SUCCEEDED, KILLED and SUSPENDED.
func CoordStatus(i int) store.JobStatus {
	switch i % 10 {
	case 6:
		return store.JobRunningWithError
	case 7:
		return store.JobSucceeded
	case 8:
		return store.JobKilled
	case 9:
		return store.JobSuspended
	}
	return store.JobRunning
}

// ActionStatus is the status of action n of coordinator i. Older actions are terminal
// (mostly SUCCEEDED, every 41st FAILED, every 59th KILLED, every 97th TIMEDOUT); the
// eight newest of a live coordinator are in flight: three WAITING, one READY, one
// SUBMITTED and three RUNNING (SUSPENDED when the coordinator is), and those of a KILLED
// coordinator are KILLED.
func (s Spec) ActionStatus(i, n int) store.CoordActionStatus {
	job := CoordStatus(i)
	if fromEnd := s.ActionsPerCoordinator - n; fromEnd < 8 {
		switch job {
		case store.JobKilled:
			return store.CoordActionKilled
		case store.JobSucceeded:
		default:
			switch {
			case fromEnd < 3:
				return store.CoordActionWaiting
			case fromEnd == 3:
				return store.CoordActionReady
			case fromEnd == 4:
				return store.CoordActionSubmitted
			case job == store.JobSuspended:
				return store.CoordActionSuspended
			default:
				return store.CoordActionRunning
			}
		}
	}
	switch {
	case n%41 == 0:
		return store.CoordActionFailed
	case n%59 == 0:
		return store.CoordActionKilled
	case n%97 == 0:
		return store.CoordActionTimedOut
	}
	return store.CoordActionSucceeded
}

// workflowStatus is the status of the workflow an action in status st started, and
// false when it started none.
func workflowStatus(st store.CoordActionStatus) (store.WorkflowStatus, bool) {
	switch st {
	case store.CoordActionSucceeded:
		return store.WorkflowSucceeded, true
	case store.CoordActionFailed:
		return store.WorkflowFailed, true
	case store.CoordActionKilled:
		return store.WorkflowKilled, true
	case store.CoordActionSuspended:
		return store.WorkflowSuspended, true
	case store.CoordActionSubmitted, store.CoordActionRunning:
		return store.WorkflowRunning, true
	}
	return "", false
}

// NominalTime is the nominal time of action n of coordinator i.
func NominalTime(i, n int) time.Time {
	return coordStart(i).Add(time.Duration(n-1) * time.Hour)
}

func coordStart(i int) time.Time { return epoch.Add(time.Duration(i) * time.Minute) }

// HasWorkflow reports whether action n of coordinator i has a workflow job row.
func (s Spec) HasWorkflow(i, n int) bool {
	if n <= s.ActionsPerCoordinator-s.WorkflowsPerCoordinator {
		return false
	}
	_, ok := workflowStatus(s.ActionStatus(i, n))
	return ok
}

// Workflows counts the workflow job rows of the fixture.
func (s Spec) Workflows() int {
	n := 0
	for i := range s.Coordinators {
		for a := s.ActionsPerCoordinator - s.WorkflowsPerCoordinator + 1; a <= s.ActionsPerCoordinator; a++ {
			if s.HasWorkflow(i, a) {
				n++
			}
		}
	}
	return n
}
