package store

import (
	"context"
	"time"
)

// ActionAttempt is one attempt of a workflow action that its user-retry
// policy (retry-max, retry-interval) ran again: Oozie's per-attempt retry
// history, served as GET job/<action id>?show=retries.
//
// The runner writes the start of every attempt after the first when it
// launches it, and the rest of an attempt in the transaction that decides its
// user retry, so an attempt is recorded exactly when its retry is. The last
// attempt of a retried action therefore has a row with its start only; the
// attempts that ended and were retried are those numbered up to the action's
// UserRetryCount (what show=retries lists, as Oozie does).
type ActionAttempt struct {
	ActionID         string // <jobID>@<name>
	JobID            string
	Attempt          int // 1-based
	StartTime        time.Time
	EndTime          time.Time
	ConsoleURL       string
	ExternalID       string
	ExternalChildIDs string // comma-separated, as on the action
	ExternalStatus   string
	ErrorCode        string // the error that made the attempt end (and be retried)
	ErrorMessage     string
}

// ActionAttempts keeps the attempt history of workflow actions. An action's
// attempts go with it: deleting the action (a rerun that runs it again, a
// purge, DeleteWorkflowJob) deletes them, so a re-run action starts a fresh
// history, as Oozie's does.
type ActionAttempts interface {
	// RecordActionAttempt writes attempt a.Attempt of action a.ActionID,
	// which must exist. A new attempt is inserted; for a recorded one only
	// the fields a sets (non-empty strings, non-zero times) are written and
	// the others keep their values, so the start written at launch and the
	// end written at the retry add up to one row, and writing the same
	// attempt again never makes a second row.
	RecordActionAttempt(ctx context.Context, a ActionAttempt) error
	// ListActionAttempts returns the action's recorded attempts in attempt
	// order; none for an action without any (or that does not exist).
	ListActionAttempts(ctx context.Context, actionID string) ([]ActionAttempt, error)
}
