package sqlstore

import (
	"context"
	"fmt"

	"github.com/gozie/gozie/store"
)

// attemptCols are the columns of wf_action_attempts, in the order of
// attemptFields.
const attemptCols = "action_id, attempt, job_id, start_time, end_time, console_url, external_id, " +
	"external_child_ids, external_status, error_code, error_message"

func attemptFields(d *Dialect, a *store.ActionAttempt) []any {
	return []any{&a.ActionID, &a.Attempt, &a.JobID, d.tm(&a.StartTime), d.tm(&a.EndTime), &a.ConsoleURL,
		&a.ExternalID, &a.ExternalChildIDs, &a.ExternalStatus, &a.ErrorCode, &a.ErrorMessage}
}

// recordAttemptSQL inserts an attempt or, when it is recorded already, writes
// the values given (NULL times and empty strings keep what is stored). Both
// databases have this form of upsert.
const recordAttemptSQL = `INSERT INTO wf_action_attempts (` + attemptCols + `)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (action_id, attempt) DO UPDATE SET
  start_time = COALESCE(excluded.start_time, wf_action_attempts.start_time),
  end_time = COALESCE(excluded.end_time, wf_action_attempts.end_time),
  console_url = COALESCE(NULLIF(excluded.console_url, ''), wf_action_attempts.console_url),
  external_id = COALESCE(NULLIF(excluded.external_id, ''), wf_action_attempts.external_id),
  external_child_ids = COALESCE(NULLIF(excluded.external_child_ids, ''), wf_action_attempts.external_child_ids),
  external_status = COALESCE(NULLIF(excluded.external_status, ''), wf_action_attempts.external_status),
  error_code = COALESCE(NULLIF(excluded.error_code, ''), wf_action_attempts.error_code),
  error_message = COALESCE(NULLIF(excluded.error_message, ''), wf_action_attempts.error_message)`

// RecordActionAttempt implements store.ActionAttempts.
func (x *txn) RecordActionAttempt(ctx context.Context, a store.ActionAttempt) error {
	if a.ActionID == "" || a.JobID == "" || a.Attempt < 1 {
		return fmt.Errorf("recording attempt %d of action %q (job %q): need an action, its job and an attempt from 1",
			a.Attempt, a.ActionID, a.JobID)
	}
	if _, err := x.tx.ExecContext(ctx, recordAttemptSQL, attemptFields(x.d, &a)...); err != nil {
		return x.mapErr(err, "recording attempt %d of action %s", a.Attempt, a.ActionID)
	}
	return nil
}

// ListActionAttempts implements store.ActionAttempts.
func (x *txn) ListActionAttempts(ctx context.Context, actionID string) ([]store.ActionAttempt, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT `+attemptCols+` FROM wf_action_attempts WHERE action_id = $1 ORDER BY attempt`, actionID)
	if err != nil {
		return nil, x.mapErr(err, "listing attempts of action %s", actionID)
	}
	defer rows.Close()
	var out []store.ActionAttempt
	for rows.Next() {
		var a store.ActionAttempt
		if err := rows.Scan(attemptFields(x.d, &a)...); err != nil {
			return nil, fmt.Errorf("listing attempts of action %s: %w", actionID, err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing attempts of action %s: %w", actionID, err)
	}
	return out, nil
}
