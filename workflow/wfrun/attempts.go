package wfrun

import (
	"context"

	"github.com/gozie/gozie/store"
)

// The attempt history of user retries (GET job/<action id>?show=retries).
//
// An action's StartTime is its first attempt's and stays so (as Oozie keeps
// it), so the start of every later attempt is written when that attempt
// launches (attemptStarted), in the transaction that records its launch tag.
// The rest of an attempt (end, console URL, external ids, error) is written
// by attemptsEnded in the transaction that decides its user retry, so an
// attempt is recorded exactly when the retry that follows it is: a crash
// loses both or neither, and a replayed decision changes nothing (the
// action's compare-and-set fails, and a rewrite of an attempt is a no-op).
// An attempt that is not retried (the last one) is the action itself.

// attemptStarted records the start of a user-retry attempt of act (its
// UserRetryCount-th retry) at act's launch.
func (r *Runner) attemptStarted(ctx context.Context, x store.Tx, act *store.WorkflowAction) error {
	if act.UserRetryCount == 0 {
		return nil // the first attempt starts at act.StartTime
	}
	return x.RecordActionAttempt(ctx, store.ActionAttempt{ActionID: act.ID, JobID: act.JobID,
		Attempt: act.UserRetryCount + 1, StartTime: r.now()})
}

// attemptsEnded records the attempt that just ended of every action that a
// step moves to USER_RETRY: the decision counted the retry, so the ended
// attempt is number UserRetryCount.
func attemptsEnded(ctx context.Context, x store.Tx, updated []store.WorkflowAction) error {
	for i := range updated {
		a := &updated[i]
		if a.Status != store.ActionUserRetry || a.UserRetryCount < 1 {
			continue
		}
		at := store.ActionAttempt{ActionID: a.ID, JobID: a.JobID, Attempt: a.UserRetryCount, EndTime: a.EndTime,
			ConsoleURL: a.ConsoleURL, ExternalID: a.ExternalID, ExternalChildIDs: a.ExternalChildIDs,
			ExternalStatus: a.ExternalStatus, ErrorCode: a.ErrorCode, ErrorMessage: a.ErrorMessage}
		if at.Attempt == 1 {
			at.StartTime = a.StartTime
		}
		if err := x.RecordActionAttempt(ctx, at); err != nil {
			return err
		}
	}
	return nil
}
