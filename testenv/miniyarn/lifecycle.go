package miniyarn

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/gozie/gozie/yarn"
)

// Exit codes the NodeManager reports for containers that did not run to their
// own end (ContainerExitStatus).
const (
	exitLocalizationFailed = -1000
	exitLaunchFailed       = -1
)

// newApplication reserves the next application id.
func (rm *RM) newApplication() yarn.ApplicationID {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.issued++
	return yarn.ApplicationID{ClusterTimestamp: rm.opts.ClusterTimestamp, Sequence: rm.issued}
}

// submit records a validated submission and starts it, or, with a
// rejection (the tokens that did not renew, see renewNewTokens), fails it
// from NEW with that diagnostics (RMAppImpl's APP_REJECTED), its tokens
// left alone. It reports false when the id was already known (the RM then
// answers success without effect).
func (rm *RM) submit(sub validSubmission, user, rejection string) bool {
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	if _, dup := rm.apps[sub.sc.ApplicationID]; dup {
		return false
	}
	a := &app{
		id: sub.sc.ApplicationID, sc: sub.sc, user: user,
		state: yarn.StateNew, final: yarn.FinalUndefined,
		maxAttempts: sub.maxAttempts, started: rm.opts.Now(),
		tokens: sub.tokens, secrets: sub.secrets,
	}
	rm.apps[a.id] = a
	rm.order = append(rm.order, a.id)
	if rm.opts.OnTransition != nil {
		rm.pending = append(rm.pending, transition{a.id, yarn.StateNew})
	}
	if rejection != "" {
		rm.finish(a, yarn.StateFailed, yarn.FinalFailed, rejection)
		return true
	}
	rm.registerTokens(a)
	rm.setState(a, yarn.StateNewSaving)
	rm.setState(a, yarn.StateSubmitted)
	if !rm.knownQueue(a.sc.Queue) {
		rm.finish(a, yarn.StateFailed, yarn.FinalFailed,
			fmt.Sprintf("Application %s submitted by user %s to unknown queue: %s", a.id, user, a.sc.Queue))
		return true
	}
	rm.setState(a, yarn.StateAccepted)
	rm.log.Info("miniyarn: application accepted", "yarn_app_id", a.id.String(), "user", user)
	if rm.hold {
		a.held = true
		return true
	}
	rm.startAttemptLocked(a)
	return true
}

func (rm *RM) knownQueue(q string) bool { return q == DefaultQueue }

// startAttemptLocked creates the next attempt and launches its container in the
// background. Callers hold rm.mu.
func (rm *RM) startAttemptLocked(a *app) {
	if rm.closing {
		rm.finish(a, yarn.StateKilled, yarn.FinalKilled, "ResourceManager is shutting down.")
		return
	}
	n := int64(len(a.attempts) + 1)
	attemptID := yarn.AttemptID{App: a.id, Attempt: n}
	at := &attempt{
		id:        attemptID,
		container: yarn.ContainerID{Attempt: attemptID, Container: 1},
		state:     attemptLaunched,
		started:   rm.opts.Now(),
		exited:    make(chan struct{}),
	}
	a.attempts = append(a.attempts, at)
	if a.state != yarn.StateAccepted {
		rm.setState(a, yarn.StateAccepted)
	}
	rm.wg.Add(1)
	go func() {
		defer rm.wg.Done()
		rm.runAttempt(a, at)
	}()
}

// runAttempt localises, launches and waits for one AM container.
func (rm *RM) runAttempt(a *app, at *attempt) {
	defer close(at.exited)
	cmd, err := rm.prepareContainer(rm.ctx, a, at)
	if err != nil {
		var lerr *localizationError
		code := exitLaunchFailed
		if errors.As(err, &lerr) {
			code = exitLocalizationFailed
		}
		rm.attemptDone(a, at, code, err.Error())
		return
	}

	rm.mu.Lock()
	if rm.closing || a.killing || a.state.Final() {
		rm.mu.Unlock()
		closeFiles(cmd)
		rm.attemptDone(a, at, exitLaunchFailed, "Container killed before launch.")
		return
	}
	if rm.failLaunches > 0 {
		rm.failLaunches--
		rm.mu.Unlock()
		closeFiles(cmd)
		rm.attemptDone(a, at, exitLaunchFailed, fmt.Sprintf("Exception from container-launch.\nContainer id: %s\nExit code: %d\nInjected launch failure.\n", at.container, exitLaunchFailed))
		return
	}
	if err := cmd.Start(); err != nil {
		rm.mu.Unlock()
		closeFiles(cmd)
		rm.attemptDone(a, at, exitLaunchFailed, fmt.Sprintf("Exception from container-launch.\nContainer id: %s\n%v\n", at.container, err))
		return
	}
	closeFiles(cmd)
	at.proc = cmd.Process
	at.pgid = cmd.Process.Pid
	if a.launched.IsZero() {
		a.launched = rm.opts.Now()
	}
	if rm.opts.Lenient {
		at.state = attemptRunning
		rm.setState(a, yarn.StateRunning)
	}
	rm.log.Info("miniyarn: container launched", "yarn_app_id", a.id.String(), "container_id", at.container.String(), "pid", at.pgid)
	rm.mu.Unlock()
	rm.flushTransitions()

	waitErr := cmd.Wait()
	code := exitCode(cmd.ProcessState, waitErr)
	rm.reapGroup(at)
	diag := ""
	if code != 0 {
		diag = fmt.Sprintf("Exception from container-launch.\nContainer id: %s\nExit code: %d\n", at.container, code)
	}
	rm.attemptDone(a, at, code, diag)
}

// closeFiles closes the parent's copies of the container's log files.
func closeFiles(cmd *exec.Cmd) {
	for _, w := range []any{cmd.Stdout, cmd.Stderr} {
		if f, ok := w.(*os.File); ok {
			f.Close()
		}
	}
}

func exitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		if err != nil {
			return exitLaunchFailed
		}
		return 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// reapGroup makes sure no process of the container's group survives the
// container: it does nothing when the group is already gone, else it sends
// SIGTERM and, after the grace period, SIGKILL, as the NodeManager's cleanup
// does. A kill in progress has its own timer; reapGroup then waits for it.
func (rm *RM) reapGroup(at *attempt) {
	rm.mu.Lock()
	pgid := at.pgid
	rm.mu.Unlock()
	if pgid <= 0 || !groupAlive(pgid) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(rm.opts.KillGrace)
	defer t.Stop()
	<-t.C
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// groupAlive reports whether any process of group pgid still exists.
func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// attemptDone applies the end of an attempt's container: the strict or lenient
// AM rule, retries, kill. While the RM is down the NodeManager keeps the
// container's status and reports it when the RM is back (RM.StartAgain).
func (rm *RM) attemptDone(a *app, at *attempt, code int, containerDiag string) {
	defer rm.aggregateIfDone(a)
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	at.proc = nil
	at.finished = rm.opts.Now()
	if rm.down && !rm.closing {
		at.exit = &containerExit{code: code, diag: containerDiag}
		return
	}
	rm.applyExitLocked(a, at, code, containerDiag)
}

// applyExitLocked is the RM's handling of an AM container's end. Callers
// hold rm.mu.
func (rm *RM) applyExitLocked(a *app, at *attempt, code int, containerDiag string) {
	at.exit = nil
	switch {
	case a.state.Final():
		// Ended already: the AM unregistered (FINISHING ends now), or the
		// application was killed.
		switch at.state {
		case attemptFinishing:
			rm.finished(a)
		case attemptFinished:
		default:
			at.state = attemptKilled
		}
		return
	case a.killing:
		at.state = attemptKilled
		rm.finish(a, yarn.StateKilled, yarn.FinalKilled, "Application killed by user.")
		return
	case rm.closing:
		at.state = attemptKilled
		rm.finish(a, yarn.StateKilled, yarn.FinalKilled, "ResourceManager is shutting down.")
		return
	case rm.opts.Lenient && code == 0:
		at.state = attemptFinished
		rm.finish(a, yarn.StateFinished, yarn.FinalSucceeded, "")
		return
	}
	at.state = attemptFailed
	at.diagnostics = rm.amCrashDiagnostics(a, at, code, containerDiag)
	if len(a.attempts) < a.maxAttempts {
		rm.log.Info("miniyarn: attempt failed, retrying", "yarn_app_id", a.id.String(), "attempt", at.id.String(), "exit_code", code)
		rm.startAttemptLocked(a)
		return
	}
	rm.finish(a, yarn.StateFailed, yarn.FinalFailed, fmt.Sprintf(
		"Application %s failed %d times due to %s. Failing the application.", a.id, a.maxAttempts, at.diagnostics))
}

// amCrashDiagnostics is the RM's text for an AM container that ended without
// unregistering.
func (rm *RM) amCrashDiagnostics(a *app, at *attempt, code int, containerDiag string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "AM Container for %s exited with  exitCode: %d\n", at.id, code)
	b.WriteString("Failing this attempt.")
	fmt.Fprintf(&b, "Diagnostics: %s", containerDiag)
	fmt.Fprintf(&b, "For more detailed output, check the application tracking page: %s Then click on links to logs of each attempt.\n", rm.proxyURL(a.id))
	return b.String()
}

// kill starts killing an application. It reports whether the kill is already
// complete (true) or under way (false, the container is being signalled).
func (rm *RM) kill(id yarn.ApplicationID) (yarn.AppState, bool, error) {
	rm.mu.Lock()
	defer rm.flushTransitions()
	defer rm.mu.Unlock()
	a, ok := rm.apps[id]
	if !ok {
		return "", false, errAppNotFound
	}
	if a.state.Final() {
		// FINISHING included: its final state is stored, the kill is done
		// (ClientRMService.forceKillApplication), and the state endpoint
		// answers the RMAppState.
		return rmState(a), true, nil
	}
	cur := a.current()
	if cur == nil || cur.proc == nil {
		// Nothing runs (held in ACCEPTED, or between attempts, or localising):
		// the kill completes at once; a localising attempt sees it and stops.
		a.killing = true
		a.held = false
		if cur != nil {
			cur.state = attemptKilled
		}
		rm.finish(a, yarn.StateKilled, yarn.FinalKilled, "Application killed by user.")
		return a.state, true, nil
	}
	if !a.killing {
		a.killing = true
		if !rm.closing { // Close signals every container itself
			rm.signalGroupLocked(cur)
		}
	}
	return a.state, false, nil
}

// signalGroupLocked sends SIGTERM to an attempt's process group now and SIGKILL
// after the grace period. Callers hold rm.mu.
func (rm *RM) signalGroupLocked(at *attempt) {
	pgid := at.pgid
	if pgid <= 0 {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	grace := rm.opts.KillGrace
	rm.wg.Add(1)
	go func() {
		defer rm.wg.Done()
		t := time.NewTimer(grace)
		defer t.Stop()
		<-t.C
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}()
}

var errAppNotFound = errors.New("application not found")
