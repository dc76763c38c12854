package fsaction

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/workflow"
)

// DefaultGlobMax is Oozie's oozie.action.fs.glob.max.
const DefaultGlobMax = 50000

// recoveryMarker is the directory, in the run's action directory, that
// tells a second run of Start that the first one began.
const recoveryMarker = "fs-recovery"

// Config configures an Executor.
type Config struct {
	// FS reaches every filesystem by full URI (chgrp needs
	// hadoop.Chowner). Which schemes paths may use is FS's to say
	// (hadoop.CheckScheme): the server gives a *hadoop.Restricted, so that
	// only the schemes of gozie.filesystems.supported are reached. Required.
	FS hadoop.FileSystem
	// GlobMax bounds the matches of one glob; zero means DefaultGlobMax.
	GlobMax int
	// Clock names trash entries that collide; nil means the system clock.
	Clock clock.Clock
	// Logger receives the executor's log lines; nil discards them.
	Logger *slog.Logger
}

// Executor runs fs actions in the server, synchronously.
type Executor struct {
	cfg Config
}

var _ actions.Executor = (*Executor)(nil)

// New returns an fs executor.
func New(cfg Config) (*Executor, error) {
	if cfg.FS == nil {
		return nil, errors.New("fsaction: Config.FS is required")
	}
	if cfg.GlobMax <= 0 {
		cfg.GlobMax = DefaultGlobMax
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Executor{cfg: cfg}, nil
}

// Start does the whole action: it checks every path first, then runs the
// operations in document order and returns a Done status, or the first
// failure as an *actions.ExecError (FS0xx codes end the action in ERROR;
// an unreachable filesystem is transient and retried). Operations that ran
// before a failure are not undone, as in Oozie.
func (e *Executor) Start(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	ctx = hadoop.AsUser(ctx, run.User) // every operation acts for the job's user
	body, err := workflow.ParseBody(run.Body)
	if err != nil {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, oozieerr.E0700, "reading the action XML of %s: %w", run.ActionID, err)
	}
	fsBody, ok := body.(*workflow.FS)
	if !ok {
		return actions.Status{}, actions.Errorf(actions.ActionFailed, oozieerr.E0700, "action %s is not an fs action", run.ActionID)
	}
	ops, err := plan(fsBody, func(uri string) error { return hadoop.CheckScheme(e.cfg.FS, uri) }, run.User)
	if err != nil {
		return actions.Status{}, err
	}
	recovery, err := e.recovery(ctx, run)
	if err != nil {
		return actions.Status{}, err
	}
	r := &runner{e: e, user: run.User, recovery: recovery}
	for _, o := range ops {
		if err := r.run(ctx, o); err != nil {
			e.cfg.Logger.Info("fs action failed", "action_id", run.ActionID, "op", o.kind, "path", o.raw, "err", err)
			return actions.Status{}, err
		}
	}
	return actions.Status{ExternalID: "-", TrackerURI: "-", ConsoleURL: "-", ExternalStatus: "OK", Done: true, Outcome: workflow.OutcomeOK}, nil
}

// recovery reports whether a Start of this run began before (the marker in
// the action directory exists), and leaves the marker for the next one. A
// run without an action directory is never in recovery.
func (e *Executor) recovery(ctx context.Context, run *actions.Attempt) (bool, error) {
	if run.ActionDir == "" {
		return false, nil
	}
	marker := strings.TrimSuffix(run.ActionDir, "/") + "/" + recoveryMarker
	_, err := e.cfg.FS.Stat(ctx, marker)
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return false, opError(err, "reading %s", marker)
	}
	if err := e.cfg.FS.MkdirAll(ctx, marker, 0o755); err != nil {
		return false, opError(err, "creating %s", marker)
	}
	return false, nil
}

// Check runs the action again: Start ends every run, so a check only
// happens when the server lost Start's answer, and a second run (in
// recovery mode) is how Oozie finishes such an action.
func (e *Executor) Check(ctx context.Context, run *actions.Attempt) (actions.Status, error) {
	st, err := e.Start(ctx, run)
	if err != nil {
		return actions.Status{}, fmt.Errorf("checking fs action %s: %w", run.ActionID, err)
	}
	return st, nil
}

// Kill does nothing: an fs action has no external work to stop.
func (e *Executor) Kill(context.Context, *actions.Attempt) error { return nil }
