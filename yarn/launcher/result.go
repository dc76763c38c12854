package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Final statuses a launcher reports, in the result file and to the RM. A
// launcher never reports KILLED: a killed application is killed by the RM.
const (
	StatusSucceeded = "SUCCEEDED"
	StatusFailed    = "FAILED"
)

// Oozie's error codes the launcher writes (oozie-semantics §3.3).
const (
	// CodeException is an action that failed without an exit code of its own:
	// an exception, a command that could not start, capture-output over its
	// limit, a failed prepare step (Oozie's launcher error code 0).
	CodeException = "JA018"
	// CodeNotFound is a missing local resource (FileNotFoundException).
	CodeNotFound = "JA008"
	// CodeShellExit is the error code of every failed shell command, whatever
	// its exit code, as in Oozie (ShellMain ends with exit code 1).
	CodeShellExit = "1"
)

// ResultVersion is the version of the Result format written by this code.
const ResultVersion = 1

// Result is what a launcher writes into the action directory as ResultFile
// before it unregisters: the source of truth for an action's outcome once the
// RM has forgotten the application.
type Result struct {
	// Version is ResultVersion.
	Version int `json:"version"`
	// ApplicationID is the launcher's YARN application.
	ApplicationID string `json:"applicationId,omitempty"`
	// FinalStatus is StatusSucceeded or StatusFailed.
	FinalStatus string `json:"finalStatus"`
	// ExitCode is the command's exit code (128+n when signal n ended it);
	// nil when the command never ran.
	ExitCode *int `json:"exitCode,omitempty"`
	// ErrorCode and ErrorMessage explain a failure (wf:errorCode,
	// wf:errorMessage).
	ErrorCode    string `json:"errorCode,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Output is the captured output properties text, at most the spec's
	// MaxOutputData bytes; only with capture-output and success.
	Output string `json:"output,omitempty"`
	// ExternalChildIDs are the YARN applications the action started, as its
	// command reported them.
	ExternalChildIDs []string `json:"externalChildIds,omitempty"`
	// NewID is the YARN application a map-reduce action submitted (Oozie's
	// newId): the server follows it instead of the launcher.
	NewID string `json:"newId,omitempty"`
	// Started and Finished bound the command's run.
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
}

// Succeeded reports whether the run succeeded.
func (r *Result) Succeeded() bool { return r.FinalStatus == StatusSucceeded }

// ErrBadResult is wrapped by every error about an unreadable result file.
var ErrBadResult = errors.New("invalid launcher result")

// ParseResult decodes a result file.
func ParseResult(b []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadResult, err)
	}
	if r.Version < 1 {
		return nil, fmt.Errorf("%w: version %d", ErrBadResult, r.Version)
	}
	if r.FinalStatus != StatusSucceeded && r.FinalStatus != StatusFailed {
		return nil, fmt.Errorf("%w: final status %q", ErrBadResult, r.FinalStatus)
	}
	return &r, nil
}

// Encode returns the result as JSON.
func (r *Result) Encode() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding launcher result: %w", err)
	}
	return append(b, '\n'), nil
}
