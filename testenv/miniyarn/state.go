package miniyarn

import (
	"fmt"
	"os"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/hadoop/hadooppb/yarnpb"
	"github.com/gozie/gozie/yarn"
)

// app is the RM's record of one application. All fields are guarded by RM.mu.
type app struct {
	id          yarn.ApplicationID
	sc          yarn.ApplicationSubmissionContext
	user        string
	state       yarn.AppState
	final       yarn.FinalStatus
	diagnostics string
	progress    float64
	amTracking  string // tracking URL given by the AM
	maxAttempts int
	started     time.Time
	launched    time.Time
	finished    time.Time
	attempts    []*attempt
	held        bool // waiting in ACCEPTED for HoldAccepted(false)
	killing     bool // a kill was asked for and is under way
	// finishing is RMAppState FINISHING: the AM unregistered and the final
	// state is stored (state is FINISHED, as reports show it), but the AM
	// container has not exited yet.
	finishing bool
	tokens    []submittedToken
	secrets   map[string][]byte
	// aggregating and aggregated follow log aggregation (aggregate.go):
	// once aggregated, the NodeManager has forgotten the application.
	aggregating bool
	aggregated  bool
}

// attempt is one AM attempt with its container. Guarded by RM.mu.
type attempt struct {
	id           yarn.AttemptID
	container    yarn.ContainerID
	state        string // attempt state as reported by /appattempts
	started      time.Time
	finished     time.Time
	registered   bool
	unregistered bool
	// lastAllocate is the last allocate response, whose responseId the next
	// request must echo (0 after registering); a request one step old gets
	// it again (ApplicationMasterService.allocate).
	lastAllocate *yarnpb.AllocateResponseProto
	diagnostics  string
	workDir      string
	logDir       string
	proc         *os.Process // nil until launched and after exit
	pgid         int
	exited       chan struct{} // closed when the container process is gone
	// exit is the container's end, kept while the RM is down: the
	// NodeManager reports it when the RM is back (see RM.StartAgain).
	exit *containerExit
	// token is the attempt's newest AMRM token and tokenKey its master key
	// (RMAppAttemptImpl.getAMRMToken, getAMRMTokenKeyId).
	token    hadoop.Token
	tokenKey int32
	// heldKey is the master key of the newest token the AM is known to
	// hold: the one it authenticated with, or one an allocate answer
	// carried that the AM's next allocate acknowledged.
	heldKey int32
}

// containerExit is how an AM container ended, as the NodeManager reports it.
type containerExit struct {
	code int
	diag string
}

// Attempt states (RMAppAttemptState names as reported in Hadoop 3).
const (
	attemptLaunched = "LAUNCHED"
	attemptRunning  = "RUNNING"
	// attemptFinishing: the AM unregistered, its container still runs.
	attemptFinishing = "FINISHING"
	attemptFinished  = "FINISHED"
	attemptFailed    = "FAILED"
	attemptKilled    = "KILLED"
)

func (a *app) current() *attempt {
	if len(a.attempts) == 0 {
		return nil
	}
	return a.attempts[len(a.attempts)-1]
}

// StateFinishing is the RM's internal application state between the AM's
// unregistration and the end of its container (RMAppState FINISHING).
// Reports show it as FINISHED, with the final status the AM gave
// (RMServerUtils.createApplicationState); GET and PUT
// /ws/v1/cluster/apps/{id}/state, which answer the RMAppState, and
// [Options.OnTransition] show it as FINISHING.
const StateFinishing yarn.AppState = "FINISHING"

// setState moves the application to s and queues the transition notice. Callers
// hold RM.mu.
func (rm *RM) setState(a *app, s yarn.AppState) {
	if a.state == s {
		return
	}
	a.state = s
	rm.notify(a, s)
}

// notify queues the notice of a's move to s. Callers hold RM.mu.
func (rm *RM) notify(a *app, s yarn.AppState) {
	if rm.opts.OnTransition != nil {
		rm.pending = append(rm.pending, transition{a.id, s})
	}
}

// rmState is a's RMAppState as the state endpoint answers it: FINISHING
// while the AM container outlives the unregistration, else the state.
// Callers hold RM.mu.
func rmState(a *app) yarn.AppState {
	if a.finishing {
		return StateFinishing
	}
	return a.state
}

// transition is one queued state-change notice.
type transition struct {
	id    yarn.ApplicationID
	state yarn.AppState
}

// flushTransitions delivers queued notices in order. Called without RM.mu held.
func (rm *RM) flushTransitions() {
	if rm.opts.OnTransition == nil {
		return
	}
	rm.notifyMu.Lock()
	defer rm.notifyMu.Unlock()
	for {
		rm.mu.Lock()
		batch := rm.pending
		rm.pending = nil
		rm.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		for _, t := range batch {
			rm.opts.OnTransition(t.id, t.state)
		}
	}
}

// finish puts the application in a final state. Callers hold RM.mu.
func (rm *RM) finish(a *app, s yarn.AppState, final yarn.FinalStatus, diag string) {
	if a.state.Final() {
		return
	}
	a.final = final
	a.diagnostics = diag
	a.finished = rm.opts.Now()
	if final == yarn.FinalSucceeded {
		a.progress = 100
	}
	rm.setState(a, s)
	rm.log.Info("miniyarn: application ended", "yarn_app_id", a.id.String(), "state", string(s), "final_status", string(final))
	if s.Final() {
		rm.applicationEnded(a)
	}
}

// finishing records an AM's unregistration (RMAppImpl RUNNING → FINAL_SAVING
// → FINISHING): the final status and diagnostics are stored, reports show
// FINISHED from now on, and the application stays FINISHING (see
// [StateFinishing]) until the AM container exits. Callers hold RM.mu.
func (rm *RM) finishing(a *app, final yarn.FinalStatus, diag string) {
	if a.state.Final() {
		return
	}
	a.final = final
	a.diagnostics = diag
	a.finished = rm.opts.Now()
	a.progress = 100
	a.state = yarn.StateFinished
	a.finishing = true
	rm.notify(a, StateFinishing)
	rm.log.Info("miniyarn: AM unregistered", "yarn_app_id", a.id.String(), "final_status", string(final))
}

// finished ends a FINISHING application once its AM container is gone
// (RMAppImpl FINISHING → FINISHED on ATTEMPT_FINISHED), or when an RM that
// becomes active recovers it (its stored final state is FINISHED). Callers
// hold RM.mu.
func (rm *RM) finished(a *app) {
	if !a.finishing {
		return
	}
	a.finishing = false
	if cur := a.current(); cur != nil && cur.state == attemptFinishing {
		cur.state = attemptFinished
	}
	rm.notify(a, yarn.StateFinished)
	rm.log.Info("miniyarn: application ended", "yarn_app_id", a.id.String(), "state", string(yarn.StateFinished), "final_status", string(a.final))
	rm.applicationEnded(a)
}

// report builds the application report. Callers hold RM.mu.
func (rm *RM) report(a *app) yarn.AppReport {
	r := yarn.AppReport{
		ID: a.id, User: a.user, Name: a.sc.ApplicationName, Queue: a.sc.Queue,
		State: a.state, FinalStatus: a.final, Progress: a.progress,
		Diagnostics: a.diagnostics, ClusterID: a.id.ClusterTimestamp,
		ApplicationType: a.sc.ApplicationType, Tags: append([]string(nil), a.sc.ApplicationTags...),
		StartedTime: a.started, LaunchTime: a.launched, FinishedTime: a.finished,
		AllocatedMB: -1, AllocatedVCores: -1, RunningContainers: -1,
	}
	if a.sc.Priority != nil {
		r.Priority = int64(*a.sc.Priority)
	}
	end := a.finished
	if end.IsZero() {
		end = rm.opts.Now()
	}
	r.Elapsed = end.Sub(a.started).Truncate(time.Millisecond)
	switch {
	case a.state.Final():
		r.TrackingUI = yarn.TrackingHistory
	case a.state == yarn.StateRunning:
		r.TrackingUI = yarn.TrackingAM
	default:
		r.TrackingUI = yarn.TrackingUnassigned
	}
	if cur := a.current(); cur != nil {
		r.TrackingURL = rm.proxyURL(a.id)
		r.AMContainerLogs = rm.logsURL(cur.container, a.user)
		r.AMHostHTTPAddress = rm.nmAddr
		if cur.proc != nil && !a.state.Final() {
			res := a.sc.Resource
			if res == nil {
				res = &yarn.Resource{MemoryMB: 1024, VCores: 1}
			}
			r.AllocatedMB, r.AllocatedVCores, r.RunningContainers = res.MemoryMB, res.VCores, 1
		}
	}
	return r
}

// proxyURL is the RM web proxy address of an application. Callers hold RM.mu.
func (rm *RM) proxyURL(id yarn.ApplicationID) string {
	return fmt.Sprintf("http://%s/proxy/%s/", rm.activeWebAddrLocked(), id)
}

// logsURL is the NodeManager address of a container's logs.
func (rm *RM) logsURL(c yarn.ContainerID, user string) string {
	return fmt.Sprintf("http://%s/node/containerlogs/%s/%s", rm.nmAddr, c, user)
}

// attemptInfo is the /appattempts element of one attempt. Callers hold RM.mu.
func (rm *RM) attemptInfo(a *app, at *attempt) yarn.AppAttempt {
	info := yarn.AppAttempt{
		ID: at.id.Attempt, StartTime: at.started.UnixMilli(), ContainerID: at.container.String(),
		NodeHTTPAddress: rm.nmAddr, NodeID: rm.nmAddr, LogsLink: rm.logsURL(at.container, a.user),
		AppAttemptID: at.id.String(), AppAttemptState: at.state, Diagnostics: at.diagnostics,
	}
	if !at.finished.IsZero() {
		info.FinishedTime = at.finished.UnixMilli()
	}
	return info
}
