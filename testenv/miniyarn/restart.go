package miniyarn

import (
	"context"
	"errors"
	"net"

	"github.com/gozie/gozie/yarn"
)

// errNotRunning and errRunning refuse restart hooks out of order.
var (
	errNotRunning = errors.New("miniyarn: the ResourceManager is not running")
	errRunning    = errors.New("miniyarn: the ResourceManager is running")
)

// Stop takes the RM process down, as a work-preserving restart does first:
// every web endpoint and the active RM's scheduler stop listening and drop
// their connections, while the NodeManager and its containers keep running
// (a container that ends meanwhile is reported when the RM is back).
// [RM.StartAgain] brings it back; stopping a stopped RM is an error.
func (rm *RM) Stop() error {
	rm.adminMu.Lock()
	defer rm.adminMu.Unlock()
	rm.mu.Lock()
	if rm.down || rm.closing {
		rm.mu.Unlock()
		return errNotRunning
	}
	rm.down = true
	rm.mu.Unlock()
	rm.log.Info("miniyarn: ResourceManager stopped")
	return errors.Join(rm.stopRMServers(true)...)
}

// StartAgain brings a stopped RM back on the same addresses, as a
// ResourceManager with work-preserving recovery
// (yarn.resourcemanager.work-preserving-recovery.enabled) starts: it
// recovers every application with its state from the state store
// (RMAppImpl.RMAppRecoveredTransition): an unfinished one with a running
// attempt is ACCEPTED again and its attempt LAUNCHED
// (RMAppAttemptImpl.AttemptRecoveredTransition), its AM must register again
// (ApplicationMasterNotRegisteredException until it does) and then it is
// RUNNING; one whose AM had unregistered is FINISHED (its stored final
// state); the AMRM master keys, and so the AMs' tokens, survive. The
// NodeManager then reports the containers that ended while the RM was down,
// which count as they would have (an AM that exited without unregistering
// fails its attempt).
func (rm *RM) StartAgain(ctx context.Context) error {
	rm.adminMu.Lock()
	defer rm.adminMu.Unlock()
	rm.mu.Lock()
	if !rm.down || rm.closing {
		rm.mu.Unlock()
		return errRunning
	}
	active := rm.active
	rm.mu.Unlock()
	if err := rm.startRMServers(ctx, active); err != nil {
		return errors.Join(append([]error{err}, rm.stopRMServers(true)...)...)
	}
	rm.mu.Lock()
	rm.down = false
	rm.recoverLocked()
	rm.replayExitsLocked()
	rm.mu.Unlock()
	rm.flushTransitions()
	rm.log.Info("miniyarn: ResourceManager started again", "active", active)
	return nil
}

// Restart is a work-preserving restart: [RM.Stop], then [RM.StartAgain].
func (rm *RM) Restart(ctx context.Context) error {
	if err := rm.Stop(); err != nil {
		return err
	}
	return rm.StartAgain(ctx)
}

// startRMServers listens again on every web endpoint's address and starts
// the scheduler of RM active (none when -1). Callers hold adminMu.
func (rm *RM) startRMServers(ctx context.Context, active int) error {
	for _, ep := range rm.webs {
		var l net.Listener
		var err error
		if ep.hold != nil {
			l, err = ep.hold.listen()
			ep.hold = nil
		} else {
			l, err = listenHeld(ctx, ep.addr, "the web endpoint of "+rmID(ep.index))
		}
		if err != nil {
			return err
		}
		rm.serveEndpoint(ep, l)
	}
	if active >= 0 {
		return rm.scheds[active].start()
	}
	return nil
}

// servingLocked reports whether the scheduler of RM index serves calls: it
// belongs to the active RM, which runs. Callers hold rm.mu.
func (rm *RM) servingLocked(index int) bool {
	return !rm.down && !rm.closing && rm.active == index
}

// recoverLocked is what an RM that becomes active (after a failover or a
// restart) does with the applications it loads from the state store: an
// application whose AM unregistered is FINISHED (its stored final state);
// the running attempt of an unfinished one is recovered unregistered, so
// that its AM must register again, and the application is ACCEPTED until
// it does (in lenient mode, where AMs need not register, it stays
// RUNNING); an application released from HoldAccepted while the RM was
// down gets its attempt. Callers hold rm.mu.
func (rm *RM) recoverLocked() {
	for _, id := range rm.order {
		a := rm.apps[id]
		switch {
		case a.finishing:
			rm.finished(a)
		case a.state.Final():
		case len(a.attempts) == 0:
			if a.state == yarn.StateAccepted && !a.held && !rm.hold {
				rm.startAttemptLocked(a)
			}
		default:
			rm.recoverAttemptLocked(a, a.current())
		}
	}
}

// recoverAttemptLocked recovers the current attempt of an unfinished
// application. Callers hold rm.mu.
func (rm *RM) recoverAttemptLocked(a *app, at *attempt) {
	switch at.state {
	case attemptFailed, attemptKilled, attemptFinished:
		return
	}
	at.registered = false
	at.lastAllocate = nil
	if at.state == attemptRunning {
		at.state = attemptLaunched
	}
	if !rm.opts.Lenient && a.state == yarn.StateRunning {
		rm.setState(a, yarn.StateAccepted)
	}
}

// replayExitsLocked applies the container ends the NodeManager kept while
// the RM was down, in submission order. Callers hold rm.mu.
func (rm *RM) replayExitsLocked() {
	for _, id := range rm.order {
		a := rm.apps[id]
		for _, at := range a.attempts {
			if e := at.exit; e != nil {
				rm.applyExitLocked(a, at, e.code, e.diag)
			}
		}
	}
}
