package hive2

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// activeRun is a run whose statements this executor is executing. One
// goroutine (loop) owns the session: gohive's connection is not safe for
// concurrent use, so Kill and Close only signal it. A second goroutine
// (heartbeats) keeps the record fresh and watches for KillFile and for
// another executor taking the run over.
type activeRun struct {
	e     *Executor
	run   actions.Attempt
	job   *job
	conn  *hiveConn // replaced by the loop on reconnect, under mu
	stmts []string
	log   *opLog

	mu       sync.Mutex // guards st, conn, endSaved and record writes
	st       state
	endSaved bool // the end is in the record and the log: Check may report it

	kill     chan struct{} // closed by requestKill
	killOnce sync.Once
	stop     chan struct{} // closed by requestStop (shutdown)
	stopOnce sync.Once
	lost     chan struct{} // closed when another executor owns the record
	lostOnce sync.Once
	done     chan struct{} // closed when loop returns
}

func newActiveRun(e *Executor, run *actions.Attempt, j *job, conn *hiveConn, stmts []string, st state, log *opLog) *activeRun {
	return &activeRun{e: e, run: *run, job: j, conn: conn, stmts: stmts, st: st, log: log,
		kill: make(chan struct{}), stop: make(chan struct{}), lost: make(chan struct{}), done: make(chan struct{})}
}

func (r *activeRun) requestKill() { r.killOnce.Do(func() { close(r.kill) }) }
func (r *activeRun) requestStop() { r.stopOnce.Do(func() { close(r.stop) }) }
func (r *activeRun) markLost()    { r.lostOnce.Do(func() { close(r.lost) }) }

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func (r *activeRun) status() actions.Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.st
	if !r.endSaved {
		st.Done = false
	}
	st.ChildIDs = mergeIDs(st.ChildIDs, r.log.childApps())
	s := st.status(r.run.Tag)
	s.TrackerURI = r.conn.addr
	return s
}

// abort closes the session's sockets under whatever call is blocked.
func (r *activeRun) abort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.conn.dialer.closeAll()
}

// save writes the record with a fresh heartbeat and the log if it changed.
// ctx is not the caller's: records must be written even while shutting
// down.
func (r *activeRun) save() error {
	if isClosed(r.lost) {
		return errLostOwnership
	}
	ctx, cancel := context.WithTimeout(r.background(), r.e.cfg.SocketTimeout)
	defer cancel()
	if content, changed := r.log.snapshot(); changed {
		if err := r.e.cfg.FS.WriteFile(ctx, LogPath(r.run.ActionDir), content, 0o644); err != nil {
			r.log.markDirty()
			r.e.log.Warn("hive2: writing the operation log failed", "action_id", r.run.ActionID, "err", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if isClosed(r.lost) {
		return errLostOwnership
	}
	r.st.ChildIDs = mergeIDs(r.st.ChildIDs, r.log.childApps())
	r.st.Heartbeat = r.e.cfg.Clock.Now()
	return r.e.writeState(ctx, r.run.ActionDir, r.st)
}

// background is the context of the run's own filesystem work, which
// outlives the call that started it: it acts for the job's user.
func (r *activeRun) background() context.Context {
	return hadoop.AsUser(context.Background(), r.run.User)
}

var errLostOwnership = errors.New("another executor took the run over")

// update changes the record under the lock and saves it.
func (r *activeRun) update(fn func(st *state)) error {
	r.mu.Lock()
	fn(&r.st)
	r.mu.Unlock()
	return r.save()
}

// heartbeats refreshes the record until the loop ends, reads KillFile, and
// notices a takeover (the record names another owner: this executor was
// presumed dead, and must not touch the run any more).
func (r *activeRun) heartbeats() {
	for {
		t := r.e.cfg.Clock.NewTimer(r.e.cfg.HeartbeatInterval)
		select {
		case <-r.done:
			t.Stop()
			return
		case <-t.C():
		}
		ctx, cancel := context.WithTimeout(r.background(), r.e.cfg.HeartbeatInterval)
		if cur, found, err := r.e.readState(ctx, r.run.ActionDir); err == nil && found && cur.Owner != r.e.cfg.InstanceID {
			r.e.log.Warn("hive2: another executor took the run over", "action_id", r.run.ActionID, "owner", cur.Owner)
			r.markLost()
			cancel()
			return
		}
		if killed, err := r.e.killRequested(ctx, r.run.ActionDir); err == nil && killed {
			r.requestKill()
		}
		cancel()
		if err := r.save(); err != nil && !errors.Is(err, errLostOwnership) {
			r.e.log.Warn("hive2: heartbeat failed", "action_id", r.run.ActionID, "err", err)
		}
	}
}

// outcome of one statement.
type outcome int

const (
	stmtOK      outcome = iota
	stmtFailed          // Hive reported an error: the run ends in ERROR
	stmtKilled          // Kill: cancelled
	stmtStopped         // shutdown: cancelled, or finished meanwhile
	stmtLost            // another executor owns the run
	stmtBroken          // the connection broke: outcome unknown
)

type result struct {
	outcome  outcome
	code     string
	msg      string
	finished bool // stmtStopped: the statement finished before the cancel
	err      error
}

// loop runs the statements in order, then records the end.
func (r *activeRun) loop() {
	defer r.e.wg.Done()
	defer r.e.remove(r)
	defer close(r.done)
	defer func() { r.conn.close() }()
	go r.heartbeats()

	r.mu.Lock()
	next := r.st.Next
	r.mu.Unlock()
	replayUntil := next // statements before it finished under an earlier session
	for i := 0; i < len(r.stmts); i++ {
		stmt := r.stmts[i]
		if i < replayUntil {
			if !sessionScoped(stmt) {
				continue
			}
			r.log.printf(r.e.cfg.Clock.Now(), "replaying session statement %d of %d: %s", i+1, len(r.stmts), stmt)
		} else {
			r.log.printf(r.e.cfg.Clock.Now(), "statement %d of %d: %s", i+1, len(r.stmts), stmt)
			if err := r.update(func(st *state) { st.Next, st.InFlight = i, true }); err != nil {
				r.abandon(err)
				return
			}
		}
		res := r.execute(stmt)
		switch res.outcome {
		case stmtOK:
			if i >= replayUntil {
				if err := r.persist(func(st *state) { st.Next, st.InFlight = i+1, false }); err != nil {
					r.abandon(err)
					return
				}
			}
		case stmtFailed:
			r.finish(workflow.OutcomeError, statusFailed, res.code, res.msg)
			return
		case stmtKilled:
			r.finish(workflow.OutcomeError, statusKilled, CodeKilled, "killed")
			return
		case stmtStopped:
			// Only a confirmed cancellation (or end) is known; a failed
			// one leaves the statement in flight, to be judged on resume.
			r.release(i, i >= replayUntil && res.err == nil, res.finished)
			return
		case stmtLost:
			r.log.printf(r.e.cfg.Clock.Now(), "stopping: another executor took the run over")
			return
		case stmtBroken:
			r.log.printf(r.e.cfg.Clock.Now(), "connection to %s broke: %v", r.conn.addr, res.err)
			if i >= replayUntil && !rerunnable(stmt) {
				r.finish(workflow.OutcomeError, statusFailed, CodeInDoubt, fmt.Sprintf(
					"statement %d of %d may or may not have taken effect when the connection broke (%v), and running it again is not safe: %s",
					i+1, len(r.stmts), res.err, stmt))
				return
			}
			if !r.reconnect() {
				return
			}
			// A new session: replay the session statements, then go on
			// from the first statement not known to have finished.
			r.mu.Lock()
			replayUntil = r.st.Next
			r.mu.Unlock()
			i = -1
		}
	}
	r.finish(workflow.OutcomeOK, statusSucceeded, "", "")
}

// finish records the end of the run.
func (r *activeRun) finish(outcome workflow.Outcome, external, code, msg string) {
	if outcome == workflow.OutcomeOK {
		r.log.printf(r.e.cfg.Clock.Now(), "run succeeded")
	} else {
		r.log.printf(r.e.cfg.Clock.Now(), "run ended %s: %s %s", external, code, msg)
	}
	if err := r.persist(func(st *state) { st.finish(outcome, external, code, msg) }); err != nil {
		r.abandon(err)
		return
	}
	r.mu.Lock()
	r.endSaved = true
	r.mu.Unlock()
	if r.run.Notify != nil {
		r.run.Notify()
	}
}

// persist changes the record and writes it, retrying every heartbeat
// interval while the filesystem fails, until shutdown: a finished
// statement or run must reach the record, or a resumed run would take the
// statement for in doubt, or resume a run that ended.
func (r *activeRun) persist(fn func(st *state)) error {
	for {
		err := r.update(fn)
		if err == nil || errors.Is(err, errLostOwnership) {
			return err
		}
		r.e.log.Warn("hive2: writing the record failed; retrying", "action_id", r.run.ActionID, "err", err)
		if !r.pause(r.e.cfg.HeartbeatInterval, r.stop) {
			return err
		}
	}
}

// release lets go of the run on shutdown. When known is true, statement i
// was confirmed cancelled (so it did not run) or finished meanwhile.
func (r *activeRun) release(i int, known, finished bool) {
	switch {
	case known && finished:
		r.log.printf(r.e.cfg.Clock.Now(), "shutting down: statement %d finished; the run continues under the next executor", i+1)
	case known:
		r.log.printf(r.e.cfg.Clock.Now(), "shutting down: statement %d was cancelled; the run continues under the next executor", i+1)
	default:
		r.log.printf(r.e.cfg.Clock.Now(), "shutting down; the run continues under the next executor")
	}
	err := r.update(func(st *state) {
		if known {
			st.InFlight = false
			if finished {
				st.Next = i + 1
			}
		}
		st.Owner = ""
	})
	if err != nil && !errors.Is(err, errLostOwnership) {
		r.e.log.Warn("hive2: releasing the run failed", "action_id", r.run.ActionID, "err", err)
	}
}

// abandon stops without recording anything more (the record could not be
// written, or belongs to someone else); whoever checks next decides.
func (r *activeRun) abandon(err error) {
	r.e.log.Warn("hive2: giving up the run", "action_id", r.run.ActionID, "err", err)
}

// pause waits d on the clock; false when cancel closes first.
func (r *activeRun) pause(d time.Duration, cancel <-chan struct{}) bool {
	t := r.e.cfg.Clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-cancel:
		return false
	}
}

// reconnect opens a new session, with backoff, for at most ReconnectFor.
// It ends the run in ERROR (JA009) when it gives up, and returns false
// then and on kill, shutdown or takeover.
func (r *activeRun) reconnect() bool {
	r.conn.close()
	deadline := r.e.cfg.Clock.Now().Add(r.e.cfg.ReconnectFor)
	wait := r.e.cfg.PollInterval
	anyStop := make(chan struct{})
	go func() {
		select {
		case <-r.kill:
		case <-r.stop:
		case <-r.lost:
		case <-r.done:
			return
		}
		close(anyStop)
	}()
	for {
		if !r.pause(wait, anyStop) {
			switch {
			case isClosed(r.kill):
				r.finish(workflow.OutcomeError, statusKilled, CodeKilled, "killed")
			case isClosed(r.stop):
				r.release(0, false, false)
			}
			return false
		}
		ctx, cancel := context.WithTimeout(context.Background(), r.e.cfg.ConnectTimeout)
		conn, err := r.e.connect(ctx, r.job)
		cancel()
		if err == nil {
			r.mu.Lock()
			r.conn = conn
			r.mu.Unlock()
			r.log.printf(r.e.cfg.Clock.Now(), "reconnected to %s", conn.addr)
			return true
		}
		r.log.printf(r.e.cfg.Clock.Now(), "reconnecting: %v", err)
		if r.e.cfg.Clock.Now().After(deadline) {
			r.finish(workflow.OutcomeError, statusFailed, CodeIO, fmt.Sprintf("lost the connection to HiveServer2: %v", err))
			return false
		}
		wait = min(2*wait, 30*time.Second)
	}
}
