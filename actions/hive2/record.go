package hive2

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
)

// Files a run keeps in its action directory.
const (
	// StateFile is the run's progress record (JSON): who runs it, which
	// statements finished, and how it ended.
	StateFile = "hive2-state.json"
	// StatementsFile holds the statements as they run (split, variables
	// substituted), written once before the first one runs, so that a
	// resumed run executes the same text even if the script changed.
	StatementsFile = "hive2-statements.json"
	// LogFile is the operation log: gozie's lines and HiveServer2's
	// operation log of every statement (what `oozie job -log` shows).
	LogFile = "hive2.log"
	// KillFile asks the run's owner, wherever it runs, to kill it.
	KillFile = "hive2.kill"
)

// LogPath returns where the operation log of a run with action directory
// actionDir is.
func LogPath(actionDir string) string { return filePath(actionDir, LogFile) }

func filePath(dir, name string) string { return strings.TrimSuffix(dir, "/") + "/" + name }

// stateVersion is the record's format version.
const stateVersion = 1

// state is the progress record of a run (StateFile).
//
// Invariant: no statement is submitted before the record exists, so a
// missing record means nothing ran.
type state struct {
	Version int    `json:"version"`
	Key     string `json:"key"`
	// Owner is the executor instance running the statements; empty once
	// it let go (graceful shutdown).
	Owner string `json:"owner"`
	// Heartbeat is when the owner last wrote the record.
	Heartbeat time.Time `json:"heartbeat"`
	// Statements is how many statements the run has.
	Statements int `json:"statements"`
	// Next is the first statement not known to have finished.
	Next int `json:"next"`
	// InFlight means statement Next was submitted and its outcome is not
	// known.
	InFlight bool `json:"inFlight"`
	// Done, Outcome, ExternalStatus, ErrorCode and ErrorMessage record the
	// end.
	Done           bool             `json:"done"`
	Outcome        workflow.Outcome `json:"outcome,omitempty"`
	ExternalStatus string           `json:"externalStatus,omitempty"`
	ErrorCode      string           `json:"errorCode,omitempty"`
	ErrorMessage   string           `json:"errorMessage,omitempty"`
	// ChildIDs are the YARN applications the statements ran as.
	ChildIDs []string `json:"childIDs,omitempty"`
}

// External statuses the executor reports.
const (
	statusRunning   = "RUNNING"
	statusSucceeded = "SUCCEEDED"
	statusFailed    = "FAILED"
	statusKilled    = "KILLED"
)

// status is what Start and Check report for the record.
func (st *state) status(externalID string) actions.Status {
	s := actions.Status{ExternalID: externalID, ExternalStatus: statusRunning, ExternalChildIDs: st.ChildIDs}
	if st.Done {
		s.Done, s.Outcome, s.ExternalStatus = true, st.Outcome, st.ExternalStatus
		s.ErrorCode, s.ErrorMessage = st.ErrorCode, st.ErrorMessage
	}
	return s
}

// finish marks the record ended.
func (st *state) finish(outcome workflow.Outcome, external, code, msg string) {
	st.Done, st.Outcome, st.ExternalStatus, st.ErrorCode, st.ErrorMessage = true, outcome, external, code, msg
	st.InFlight = false
}

func (e *Executor) readState(ctx context.Context, dir string) (state, bool, error) {
	var st state
	b, err := e.cfg.FS.ReadFile(ctx, filePath(dir, StateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("reading %s: %w", StateFile, err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, false, fmt.Errorf("decoding %s: %w", StateFile, err)
	}
	if st.Version != stateVersion {
		return st, false, fmt.Errorf("%s has version %d, want %d", StateFile, st.Version, stateVersion)
	}
	return st, true, nil
}

func (e *Executor) writeState(ctx context.Context, dir string, st state) error {
	st.Version = stateVersion
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", StateFile, err)
	}
	if err := e.cfg.FS.WriteFile(ctx, filePath(dir, StateFile), b, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", StateFile, err)
	}
	return nil
}

func (e *Executor) readStatements(ctx context.Context, dir string) ([]string, error) {
	b, err := e.cfg.FS.ReadFile(ctx, filePath(dir, StatementsFile))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", StatementsFile, err)
	}
	var stmts []string
	if err := json.Unmarshal(b, &stmts); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", StatementsFile, err)
	}
	return stmts, nil
}

func (e *Executor) writeStatements(ctx context.Context, dir string, stmts []string) error {
	b, err := json.MarshalIndent(stmts, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", StatementsFile, err)
	}
	if err := e.cfg.FS.WriteFile(ctx, filePath(dir, StatementsFile), b, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", StatementsFile, err)
	}
	return nil
}

func (e *Executor) killRequested(ctx context.Context, dir string) (bool, error) {
	_, err := e.cfg.FS.Stat(ctx, filePath(dir, KillFile))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("looking for %s: %w", KillFile, err)
}
