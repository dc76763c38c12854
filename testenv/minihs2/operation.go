package minihs2

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/beltran/gohive/hiveserver"
	"github.com/gozie/gozie/yarn"
)

// operation is one executed statement.
//
//	RUNNING ─► FINISHED | ERROR        (the work ends)
//	RUNNING ─► CANCELED                (CancelOperation, CloseOperation,
//	                                    CloseSession, a closed connection,
//	                                    server shutdown)
type operation struct {
	id      string // hex of the handle's GUID
	handle  *hiveserver.TOperationHandle
	sess    *session
	text    string
	queryID string
	columns []resultColumn
	stmt    *Statement // the history entry, updated under Server.mu

	ctx    context.Context // cancelled to stop the work
	cancel context.CancelFunc
	done   chan struct{} // closed when the work goroutine returns

	mu        sync.Mutex
	state     hiveserver.TOperationState
	err       *hiveError
	rows      [][]any
	next      int // next row FetchResults returns
	logs      []string
	logNext   int // next log line FetchResults(fetchType=1) returns
	started   time.Time
	completed time.Time
}

func (op *operation) running() bool {
	op.mu.Lock()
	defer op.mu.Unlock()
	return op.state == hiveserver.TOperationState_RUNNING_STATE
}

// logf appends a line to the operation log in HiveServer2's format.
func (op *operation) logf(level, format string, args ...any) {
	op.mu.Lock()
	defer op.mu.Unlock()
	op.logs = append(op.logs, fmt.Sprintf("%-5s : ", level)+fmt.Sprintf(format, args...))
}

// end moves a running operation to its final state; an operation already
// cancelled stays so.
func (op *operation) end(state hiveserver.TOperationState, rows [][]any, err *hiveError, now time.Time) bool {
	op.mu.Lock()
	defer op.mu.Unlock()
	if op.state != hiveserver.TOperationState_RUNNING_STATE {
		return false
	}
	op.state, op.rows, op.err, op.completed = state, rows, err, now
	return true
}

// cancelOp cancels a running operation at once: its state, and its record
// in the history (Statements), are CANCELED when this returns, as a client
// whose CancelOperation returned sees them; its work is told to stop.
func (s *Server) cancelOp(op *operation) {
	op.mu.Lock()
	canceled := op.state == hiveserver.TOperationState_RUNNING_STATE
	if canceled {
		op.state, op.completed = hiveserver.TOperationState_CANCELED_STATE, s.opts.Now()
	}
	op.mu.Unlock()
	if canceled {
		s.mu.Lock()
		op.stmt.State = stateName(hiveserver.TOperationState_CANCELED_STATE)
		s.mu.Unlock()
	}
	op.cancel()
}

// execute runs a compiled statement: with an application on YARN when the
// statement needs one, then the injected failure or hang, or the real work.
func (s *Server) execute(op *operation, pl *plan, fail *injectedFailure, hang bool) {
	defer s.wg.Done()
	defer close(op.done)
	defer op.cancel()
	_, conf := op.sess.snapshot()
	eng := engine(conf)
	start := s.opts.Now()
	op.logf("INFO", "Executing command(queryId=%s): %s", op.queryID, op.text)

	work := op.ctx
	var app *runningApp
	if pl.needsApp && s.yarn != nil {
		var err error
		app, err = s.yarn.launch(op.ctx, s.appSpec(op, conf))
		if err != nil {
			if op.ctx.Err() != nil {
				s.finishOp(op, hiveserver.TOperationState_CANCELED_STATE, nil, nil)
				return
			}
			s.finishOp(op, hiveserver.TOperationState_ERROR_STATE, nil, execError(eng, "Application failed to start: "+err.Error()))
			return
		}
		s.mu.Lock()
		op.stmt.AppID = app.id.String()
		s.mu.Unlock()
		if eng == "mr" {
			op.logf("INFO", "Submitted application %s", app.id)
		} else {
			op.logf("INFO", "Executing on YARN cluster with App id %s", app.id)
		}
		var stop context.CancelFunc
		work, stop = context.WithCancel(op.ctx)
		defer stop()
		go func() {
			select {
			case <-app.lost:
				stop()
			case <-work.Done():
			}
		}()
	}

	var rows [][]any
	var err error
	switch {
	case hang:
		<-work.Done()
	case fail != nil:
		err = &hiveError{code: int32(fail.code), sqlState: sqlStateExec, msg: fail.msg}
	default:
		rows, err = pl.run(work)
	}

	switch {
	case op.ctx.Err() != nil:
		app.finish(yarn.FinalKilled, "Query cancelled")
		s.finishOp(op, hiveserver.TOperationState_CANCELED_STATE, nil, nil)
	case app != nil && app.isLost():
		app.finish(yarn.FinalKilled, "") // releases the AM client; nothing to unregister
		s.finishOp(op, hiveserver.TOperationState_ERROR_STATE, nil, execError(eng, fmt.Sprintf("Application %s was killed", app.id)))
	case err != nil:
		he := asHiveError(eng, err)
		app.finish(yarn.FinalFailed, he.msg)
		s.finishOp(op, hiveserver.TOperationState_ERROR_STATE, nil, he)
	default:
		app.finish(yarn.FinalSucceeded, "")
		op.logf("INFO", "Completed executing command(queryId=%s); Time taken: %.3f seconds", op.queryID, s.opts.Now().Sub(start).Seconds())
		op.logf("INFO", "OK")
		s.finishOp(op, hiveserver.TOperationState_FINISHED_STATE, rows, nil)
	}
}

// finishOp ends the operation and records the outcome in the history.
func (s *Server) finishOp(op *operation, state hiveserver.TOperationState, rows [][]any, he *hiveError) {
	if he != nil {
		op.logf("ERROR", "%s", he.msg)
	}
	op.end(state, rows, he, s.opts.Now())
	op.mu.Lock()
	final := op.state
	op.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	op.stmt.State = stateName(final)
	if he != nil && final == hiveserver.TOperationState_ERROR_STATE {
		op.stmt.ErrorCode = int(he.code)
	}
}

func asHiveError(eng string, err error) *hiveError {
	var he *hiveError
	if errors.As(err, &he) {
		return he
	}
	return execError(eng, err.Error())
}

// stateName is the operation state as Statement.State shows it.
func stateName(st hiveserver.TOperationState) string {
	switch st {
	case hiveserver.TOperationState_RUNNING_STATE:
		return "RUNNING"
	case hiveserver.TOperationState_FINISHED_STATE:
		return "FINISHED"
	case hiveserver.TOperationState_CANCELED_STATE:
		return "CANCELED"
	case hiveserver.TOperationState_ERROR_STATE:
		return "ERROR"
	case hiveserver.TOperationState_CLOSED_STATE:
		return "CLOSED"
	}
	return st.String()
}
