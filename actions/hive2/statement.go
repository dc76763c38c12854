package hive2

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/beltran/gohive"
	"github.com/beltran/gohive/hiveserver"
)

// firstPoll is the pause before a statement's first status poll; the
// pause doubles up to Config.PollInterval, so that short statements end
// within milliseconds and long ones are polled at the configured pace.
const firstPoll = 5 * time.Millisecond

// execute runs one statement asynchronously and polls it to its end,
// fetching its operation log as it goes.
func (r *activeRun) execute(stmt string) result {
	cur := r.conn.Cursor()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cur.Execute(ctx, stmt, true)
	if cur.Err != nil {
		var he gohive.HiveError
		if errors.As(cur.Err, &he) {
			return hiveFailure(int32(he.ErrorCode), he.Message)
		}
		return r.interrupted(result{outcome: stmtBroken, err: cur.Err})
	}
	defer cur.Close()
	wait := min(firstPoll, r.e.cfg.PollInterval)
	for {
		t := r.e.cfg.Clock.NewTimer(wait)
		wait = min(2*wait, r.e.cfg.PollInterval)
		select {
		case <-t.C():
		case <-r.kill:
			t.Stop()
			return r.cancel(cur, stmtKilled)
		case <-r.stop:
			t.Stop()
			return r.cancel(cur, stmtStopped)
		case <-r.lost:
			t.Stop()
			return r.cancel(cur, stmtLost)
		}
		st := cur.Poll(false)
		if cur.Err != nil {
			return r.interrupted(result{outcome: stmtBroken, err: cur.Err})
		}
		r.fetchLogs(cur)
		if res, ended := ended(st); ended {
			r.fetchLogs(cur) // the lines written as it ended
			return res
		}
	}
}

// interrupted turns a broken call into the kill or shutdown that caused
// it (Kill and Close may close the sockets under a blocked call).
func (r *activeRun) interrupted(res result) result {
	switch {
	case isClosed(r.kill):
		res.outcome = stmtKilled
	case isClosed(r.stop):
		res.outcome = stmtStopped
	case isClosed(r.lost):
		res.outcome = stmtLost
	}
	return res
}

func (r *activeRun) fetchLogs(cur *gohive.Cursor) {
	lines := cur.FetchLogs()
	if cur.Err == nil {
		r.log.server(lines)
	}
	cur.Err = nil
}

// ended maps a final operation state to the statement's outcome.
func ended(st *hiveserver.TGetOperationStatusResp) (result, bool) {
	switch st.GetOperationState() {
	case hiveserver.TOperationState_FINISHED_STATE:
		return result{outcome: stmtOK}, true
	case hiveserver.TOperationState_ERROR_STATE:
		msg := st.GetErrorMessage()
		if msg == "" {
			msg = st.GetStatus().GetErrorMessage()
		}
		return hiveFailure(st.GetErrorCode(), msg), true
	case hiveserver.TOperationState_CANCELED_STATE, hiveserver.TOperationState_CLOSED_STATE,
		hiveserver.TOperationState_TIMEDOUT_STATE, hiveserver.TOperationState_UKNOWN_STATE:
		return result{outcome: stmtFailed, code: CodeCanceled,
			msg: fmt.Sprintf("HiveServer2 ended the statement in state %s", st.GetOperationState())}, true
	}
	return result{}, false
}

// hiveFailure is a statement Hive refused or failed, with its code.
func hiveFailure(code int32, msg string) result {
	c := strconv.Itoa(int(code))
	if code == 0 {
		c = CodeFailed
	}
	return result{outcome: stmtFailed, code: c, msg: msg}
}

// cancelWait bounds waiting for HiveServer2 to confirm a cancellation.
const cancelWait = 30 * time.Second

// cancel sends CancelOperation and polls until the operation's state is
// final, so that a cancelled statement is known not to have finished.
func (r *activeRun) cancel(cur *gohive.Cursor, why outcome) result {
	r.log.printf(r.e.cfg.Clock.Now(), "cancelling the running statement")
	cur.Cancel()
	if cur.Err != nil {
		return result{outcome: why, err: cur.Err}
	}
	deadline := r.e.cfg.Clock.Now().Add(cancelWait)
	for {
		st := cur.Poll(false)
		if cur.Err != nil {
			return result{outcome: why, err: cur.Err}
		}
		r.fetchLogs(cur)
		switch st.GetOperationState() {
		case hiveserver.TOperationState_FINISHED_STATE:
			return result{outcome: why, finished: true}
		case hiveserver.TOperationState_RUNNING_STATE, hiveserver.TOperationState_PENDING_STATE,
			hiveserver.TOperationState_INITIALIZED_STATE:
		default:
			return result{outcome: why}
		}
		if r.e.cfg.Clock.Now().After(deadline) || !r.pause(r.e.cfg.PollInterval, nil) {
			return result{outcome: why, err: errors.New("HiveServer2 did not confirm the cancellation")}
		}
	}
}
