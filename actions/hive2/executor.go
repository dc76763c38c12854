package hive2

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
)

// Executor runs hive2 actions on HiveServer2. See the package
// documentation for how runs proceed and survive crashes.
type Executor struct {
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	closed   bool
	runs     map[string]*activeRun // by Run.Key
	starting map[string]bool       // keys being started or resumed
	wg       sync.WaitGroup
}

var _ actions.Executor = (*Executor)(nil)

// New returns an Executor.
func New(cfg Config) (*Executor, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	return &Executor{cfg: cfg, log: cfg.Logger, runs: map[string]*activeRun{}, starting: map[string]bool{}}, nil
}

// Start begins the run, or reports it when it already exists: running here,
// running under another live executor, ended, or abandoned by a crashed
// one (then this executor resumes it). Start returns once the session is
// open and the record written; the statements run in the background.
// An unreachable HiveServer2 is a transient JA009 error, so the runner
// retries with backoff.
//
// Everything the executor does on the filesystem acts for run.User, in the
// call as in the run's own goroutine, which outlives the call.
func (e *Executor) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	return e.ensure(hadoop.AsUser(ctx, run.User), run)
}

// Check reports the run. A run whose owner is gone (a crash, here or on
// another server) is resumed by the executor that checks it.
func (e *Executor) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	return e.ensure(hadoop.AsUser(ctx, run.User), run)
}

// Kill stops the run. A run of this executor is cancelled at once: the
// running statement gets CancelOperation and the session closes before
// Kill returns (bounded by ctx). For a run owned by another executor Kill
// leaves KillFile, which the owner sees at its next heartbeat; a run
// nobody owns is recorded as killed. Killing an ended run does nothing.
func (e *Executor) Kill(ctx context.Context, run *actions.Attempt) error {
	if run.ActionDir == "" {
		return actions.Errorf(actions.ActionFailed, CodeBadAction, "%s: a hive2 run needs an action directory", run.ActionID)
	}
	ctx = hadoop.AsUser(ctx, run.User)
	if err := e.cfg.FS.WriteFile(ctx, filePath(run.ActionDir, KillFile), nil, 0o644); err != nil {
		return actions.Errorf(actions.Transient, CodeIO, "requesting the kill of %s: %v", run.ActionID, err)
	}
	e.mu.Lock()
	ar := e.runs[run.Key]
	e.mu.Unlock()
	if ar != nil {
		ar.requestKill()
		select {
		case <-ar.done:
		case <-ctx.Done():
			ar.abort() // the loop then ends as killed
		}
		return nil
	}
	st, found, err := e.readState(ctx, run.ActionDir)
	if err != nil {
		return actions.Errorf(actions.Transient, CodeIO, "killing %s: %v", run.ActionID, err)
	}
	if !found || st.Done || !e.stale(st) {
		return nil // never started, ended, or its owner cancels it
	}
	st.finish(workflow.OutcomeError, statusKilled, CodeKilled, "killed")
	if err := e.writeState(ctx, run.ActionDir, st); err != nil {
		return actions.Errorf(actions.Transient, CodeIO, "killing %s: %v", run.ActionID, err)
	}
	return nil
}

// Close stops every run of this executor as a graceful shutdown: running
// statements are cancelled (and confirmed cancelled, so they are known
// not to have run), records are released for the next owner, and every
// connection is closed. Runs are not ended; the next executor to Start or
// Check them resumes them at once. Close is idempotent.
func (e *Executor) Close() error {
	e.mu.Lock()
	e.closed = true
	runs := make([]*activeRun, 0, len(e.runs))
	for _, ar := range e.runs {
		runs = append(runs, ar)
	}
	e.mu.Unlock()
	for _, ar := range runs {
		ar.requestStop()
	}
	grace := e.cfg.Clock.NewTimer(e.cfg.ShutdownGrace)
	defer grace.Stop()
	for _, ar := range runs {
		select {
		case <-ar.done:
		case <-grace.C():
			for _, ar := range runs {
				ar.abort()
			}
		}
	}
	e.wg.Wait()
	return nil
}

// stale reports whether a record's owner let go or stopped heartbeating.
func (e *Executor) stale(st state) bool {
	return st.Owner == "" || e.cfg.Clock.Now().Sub(st.Heartbeat) > e.cfg.StaleAfter
}

// ensure is Start and Check: report the run, starting or resuming it when
// nobody runs it.
func (e *Executor) ensure(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	if run.ActionDir == "" || run.Key == "" || run.User == "" {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, CodeBadAction,
			"%s: a hive2 run needs an action directory, a run key and a user", run.ActionID)
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "the hive2 executor is shutting down")
	}
	if ar := e.runs[run.Key]; ar != nil {
		e.mu.Unlock()
		return ar.status(), nil
	}
	if e.starting[run.Key] {
		e.mu.Unlock()
		return actions.Status{ExternalID: run.Tag, ExternalStatus: statusRunning}, nil
	}
	e.starting[run.Key] = true
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.starting, run.Key)
		e.mu.Unlock()
	}()

	st, found, err := e.readState(ctx, run.ActionDir)
	if refused := actions.SchemeRefused(err); refused != nil {
		return actions.Status{}, refused // an action directory on a refused filesystem
	}
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	switch {
	case found && st.Key != "" && st.Key != run.Key:
		return actions.Status{}, actions.Errorf(actions.NonTransient, CodeBadAction,
			"%s: the action directory holds run %s, not %s", run.ActionID, st.Key, run.Key)
	case found && st.Done:
		return st.status(run.Tag), nil
	case found && !e.stale(st) && st.Owner != e.cfg.InstanceID:
		return st.status(run.Tag), nil // another executor runs it
	}
	killed, err := e.killRequested(ctx, run.ActionDir)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	if killed {
		st.Key = run.Key
		st.finish(workflow.OutcomeError, statusKilled, CodeKilled, "killed")
		if err := e.writeState(ctx, run.ActionDir, st); err != nil {
			return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
		}
		return st.status(run.Tag), nil
	}
	if found {
		return e.resume(ctx, run, st)
	}
	return e.begin(ctx, run)
}

// begin starts a run that never ran: statements, prepare, the record
// (claiming the run before anything slow, so that a concurrent Start
// elsewhere sees it), the session, then the background loop.
func (e *Executor) begin(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	j, err := e.prepare(run)
	if err != nil {
		return actions.Status{}, err
	}
	stmts, err := e.statements(ctx, j)
	if err != nil {
		return actions.Status{}, err
	}
	// Prepare runs before the record exists, so it may run again after a
	// crash here, but never after a statement ran.
	if err := e.runPrepare(ctx, j.prepare); err != nil {
		return actions.Status{}, err
	}
	log := newOpLog(nil, e.cfg.MaxLogBytes)
	now := e.cfg.Clock.Now()
	log.printf(now, "run %s of %s: %d statements on %s", run.Key, run.ActionID, len(stmts), j)
	for _, a := range j.ignored {
		log.printf(now, "ignoring Beeline argument %q", a)
	}
	st := state{Key: run.Key, Owner: e.cfg.InstanceID, Heartbeat: now, Statements: len(stmts)}
	if len(stmts) == 0 {
		st.finish(workflow.OutcomeOK, statusSucceeded, "", "")
		log.printf(now, "nothing to run")
	}
	if err := e.writeFiles(ctx, run, stmts, st, log); err != nil {
		return actions.Status{}, err
	}
	if st.Done {
		return st.status(run.Tag), nil
	}
	conn, err := e.connect(ctx, j)
	if err != nil {
		// Let go at once: the retry, from any server, resumes the run
		// (nothing ran yet) without waiting for the claim to go stale.
		log.printf(e.cfg.Clock.Now(), "%v", err)
		st.Owner = ""
		if werr := e.writeFinal(context.WithoutCancel(ctx), run, st, log); werr != nil {
			e.log.Warn("hive2: releasing the run failed", "action_id", run.ActionID, "err", werr)
		}
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	log.printf(e.cfg.Clock.Now(), "connected to %s", conn.addr)
	return e.spawn(run, j, conn, stmts, st, log), nil
}

func (e *Executor) writeFiles(ctx context.Context, run *actions.Attempt, stmts []string, st state, log *opLog) error {
	if err := e.writeStatements(ctx, run.ActionDir, stmts); err != nil {
		return actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	if content, changed := log.snapshot(); changed {
		if err := e.cfg.FS.WriteFile(ctx, LogPath(run.ActionDir), content, 0o644); err != nil {
			return actions.Errorf(actions.Transient, CodeIO, "%s: writing %s: %v", run.ActionID, LogFile, err)
		}
	}
	if err := e.writeState(ctx, run.ActionDir, st); err != nil {
		return actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	return nil
}

// resume takes over a run whose owner is gone. Statements recorded as
// finished are not run again; session statements before them are replayed
// on the new session; a statement in flight is run again only when that is
// safe (see rerunnable), else the run ends with CodeInDoubt.
func (e *Executor) resume(ctx context.Context, run *actions.Attempt, st state) (actions.Status, error) {
	stmts, err := e.readStatements(ctx, run.ActionDir)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	prior, err := e.cfg.FS.ReadFile(ctx, LogPath(run.ActionDir))
	if err != nil {
		prior = nil // the log is informative; a lost one does not stop the run
	}
	log := newOpLog(prior, e.cfg.MaxLogBytes)
	st.ChildIDs = mergeIDs(st.ChildIDs, nil)
	now := e.cfg.Clock.Now()
	log.printf(now, "resuming run %s (owner was %q, last heartbeat %s) at statement %d of %d",
		run.Key, st.Owner, st.Heartbeat.UTC().Format(time.RFC3339), st.Next+1, len(stmts))
	if st.InFlight && st.Next < len(stmts) && !rerunnable(stmts[st.Next]) {
		msg := fmt.Sprintf("statement %d of %d may or may not have taken effect when its session was lost, and running it again is not safe: %s",
			st.Next+1, len(stmts), stmts[st.Next])
		log.printf(now, "%s", msg)
		st.Owner = e.cfg.InstanceID
		st.finish(workflow.OutcomeError, statusFailed, CodeInDoubt, msg)
		if err := e.writeFinal(ctx, run, st, log); err != nil {
			return actions.Status{}, err
		}
		return st.status(run.Tag), nil
	}
	j, err := e.prepare(run)
	if err != nil {
		return actions.Status{}, err
	}
	conn, err := e.connect(ctx, j)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	log.printf(e.cfg.Clock.Now(), "connected to %s", conn.addr)
	st.Owner, st.Heartbeat = e.cfg.InstanceID, e.cfg.Clock.Now()
	if err := e.writeState(ctx, run.ActionDir, st); err != nil {
		conn.close()
		return actions.Status{}, actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	return e.spawn(run, j, conn, stmts, st, log), nil
}

func (e *Executor) writeFinal(ctx context.Context, run *actions.Attempt, st state, log *opLog) error {
	if content, changed := log.snapshot(); changed {
		if err := e.cfg.FS.WriteFile(ctx, LogPath(run.ActionDir), content, 0o644); err != nil {
			e.log.Warn("hive2: writing the operation log failed", "action_id", run.ActionID, "err", err)
		}
	}
	if err := e.writeState(ctx, run.ActionDir, st); err != nil {
		return actions.Errorf(actions.Transient, CodeIO, "%s: %v", run.ActionID, err)
	}
	return nil
}

// spawn registers the run and starts its loop.
func (e *Executor) spawn(run *actions.Attempt, j *job, conn *hiveConn, stmts []string, st state, log *opLog) actions.Status {
	ar := newActiveRun(e, run, j, conn, stmts, st, log)
	e.mu.Lock()
	e.runs[run.Key] = ar
	e.wg.Add(1)
	e.mu.Unlock()
	go ar.loop()
	return ar.status()
}

func (e *Executor) remove(ar *activeRun) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.runs[ar.run.Key] == ar {
		delete(e.runs, ar.run.Key)
	}
}

func mergeIDs(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, id := range b {
		found := false
		for _, x := range out {
			found = found || x == id
		}
		if !found {
			out = append(out, id)
		}
	}
	return out
}
