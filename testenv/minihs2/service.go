package minihs2

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/beltran/gohive/hiveserver"
)

// service implements hiveserver.TCLIService: the calls gohive makes
// (OpenSession, ExecuteStatement, GetOperationStatus, FetchResults for rows
// and logs, GetResultSetMetadata, CancelOperation, CloseOperation,
// CloseSession) and a few harmless others. Every reply carries a status;
// the methods never return Thrift errors, so the connection survives
// failed calls as with HiveServer2.
type service struct{ s *Server }

var _ hiveserver.TCLIService = (*service)(nil)

func okStatus() *hiveserver.TStatus {
	return &hiveserver.TStatus{StatusCode: hiveserver.TStatusCode_SUCCESS_STATUS}
}

func errStatus(he *hiveError) *hiveserver.TStatus {
	code, state, msg := he.code, he.sqlState, he.msg
	return &hiveserver.TStatus{StatusCode: hiveserver.TStatusCode_ERROR_STATUS, ErrorCode: &code, SqlState: &state, ErrorMessage: &msg}
}

func failStatus(format string, args ...any) *hiveserver.TStatus {
	return errStatus(&hiveError{msg: fmt.Sprintf(format, args...)})
}

func notImplemented(call string) *hiveserver.TStatus {
	return failStatus("MiniHS2 does not implement %s", call)
}

// newHandle returns a random handle identifier and the hex of its GUID.
func newHandle() (*hiveserver.THandleIdentifier, string) {
	guid, secret := make([]byte, 16), make([]byte, 16)
	rand.Read(guid)
	rand.Read(secret)
	return &hiveserver.THandleIdentifier{GUID: guid, Secret: secret}, hex.EncodeToString(guid)
}

func handleKey(h *hiveserver.THandleIdentifier) string {
	if h == nil {
		return ""
	}
	return hex.EncodeToString(h.GUID)
}

func (v *service) session(h *hiveserver.TSessionHandle) (*session, *hiveserver.TStatus) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if h != nil {
		if sess, ok := s.sessions[handleKey(h.SessionId)]; ok {
			return sess, nil
		}
	}
	return nil, failStatus("Invalid SessionHandle")
}

func (v *service) operation(h *hiveserver.TOperationHandle) (*operation, *hiveserver.TStatus) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if h != nil {
		if op, ok := s.ops[handleKey(h.OperationId)]; ok {
			return op, nil
		}
	}
	return nil, failStatus("Invalid OperationHandle")
}

// OpenSession opens a session for the transport's user (or the user the
// request names when the transport has none).
func (v *service) OpenSession(ctx context.Context, req *hiveserver.TOpenSessionReq) (*hiveserver.TOpenSessionResp, error) {
	s := v.s
	cs := connFrom(ctx)
	resp := &hiveserver.TOpenSessionResp{ServerProtocolVersion: req.ClientProtocol, Configuration: map[string]string{}}
	real := userFrom(ctx)
	if real == "" && req.Username != nil {
		real = *req.Username
	}
	if real == "" {
		real = "anonymous"
	}
	doAs, remote := httpCaller(ctx)
	if cs != nil {
		remote = cs.remote
	}
	user, err := s.sessionUser(real, doAs, req.Configuration, remote)
	if err != nil {
		resp.Status = errStatus(&hiveError{sqlState: "08S01", msg: err.Error()})
		return resp, nil
	}
	id, key := newHandle()
	sess := &session{id: key, handle: &hiveserver.TSessionHandle{SessionId: id}, user: user, realUser: real, conn: cs,
		db: "default", conf: map[string]string{}, vars: map[string]string{}}
	if db := sess.configure(req.Configuration); db != "" {
		if !s.cat.hasDatabase(db) {
			resp.Status = errStatus(dbNotFound(db))
			return resp, nil
		}
		sess.db = strings.ToLower(db)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		resp.Status = failStatus("server is shutting down")
		return resp, nil
	}
	s.sessions[key] = sess
	if cs != nil {
		cs.sessions = append(cs.sessions, key)
	}
	s.mu.Unlock()
	s.opts.Logger.Debug("minihs2 session opened", "session", key, "user", user)
	resp.Status, resp.SessionHandle = okStatus(), sess.handle
	return resp, nil
}

// CloseSession closes a session and cancels its operations.
func (v *service) CloseSession(ctx context.Context, req *hiveserver.TCloseSessionReq) (*hiveserver.TCloseSessionResp, error) {
	if req.SessionHandle == nil {
		return &hiveserver.TCloseSessionResp{Status: failStatus("Invalid SessionHandle")}, nil
	}
	if !v.s.closeSession(handleKey(req.SessionHandle.SessionId)) {
		return &hiveserver.TCloseSessionResp{Status: failStatus("Invalid SessionHandle")}, nil
	}
	return &hiveserver.TCloseSessionResp{Status: okStatus()}, nil
}

// closeSession removes a session and cancels and forgets its operations.
func (s *Server) closeSession(key string) bool {
	s.mu.Lock()
	sess, ok := s.sessions[key]
	if !ok {
		s.mu.Unlock()
		return false
	}
	delete(s.sessions, key)
	var ops []*operation
	for k, op := range s.ops {
		if op.sess == sess {
			ops = append(ops, op)
			delete(s.ops, k)
		}
	}
	s.mu.Unlock()
	for _, op := range ops {
		s.cancelOp(op)
	}
	return true
}

// ExecuteStatement parses and compiles a statement at once (errors come
// back in the reply's status, as Hive's compile errors do) and runs it in
// the background; with runAsync=false it waits for the end.
func (v *service) ExecuteStatement(ctx context.Context, req *hiveserver.TExecuteStatementReq) (*hiveserver.TExecuteStatementResp, error) {
	s := v.s
	sess, st := v.session(req.SessionHandle)
	if st != nil {
		return &hiveserver.TExecuteStatementResp{Status: st}, nil
	}
	rec := s.record(sess, req.Statement)
	queryID := fmt.Sprintf("hive_%s_%s", s.opts.Now().UTC().Format("20060102150405"), newUUID())
	reject := func(err error) (*hiveserver.TExecuteStatementResp, error) {
		he := asHiveError("", err)
		s.mu.Lock()
		rec.State, rec.ErrorCode = "REJECTED", int(he.code)
		s.mu.Unlock()
		return &hiveserver.TExecuteStatementResp{Status: errStatus(he)}, nil
	}
	parsed, err := parseStatement(req.Statement)
	if err != nil {
		return reject(err)
	}
	pl, err := s.compile(sess, parsed)
	if err != nil {
		return reject(err)
	}
	fail, hang := s.takeHooks(req.Statement)
	s.mu.Lock()
	rec.Hung = hang
	s.mu.Unlock()
	opID, key := newHandle()
	op := &operation{
		id: key, sess: sess, text: req.Statement, queryID: queryID, columns: pl.columns, stmt: rec,
		handle: &hiveserver.TOperationHandle{OperationId: opID, OperationType: hiveserver.TOperationType_EXECUTE_STATEMENT,
			HasResultSet: pl.columns != nil},
		done: make(chan struct{}), state: hiveserver.TOperationState_RUNNING_STATE, started: s.opts.Now(),
	}
	op.ctx, op.cancel = context.WithCancel(s.ctx)
	op.logf("INFO", "Compiling command(queryId=%s): %s", queryID, req.Statement)
	op.logf("INFO", "Semantic Analysis Completed")
	op.logf("INFO", "Returning Hive schema: %s", schemaText(pl.columns))
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		op.cancel()
		return reject(execError("", "server is shutting down"))
	}
	s.ops[key] = op
	s.wg.Add(1)
	s.mu.Unlock()
	go s.execute(op, pl, fail, hang)
	if !req.RunAsync {
		select {
		case <-op.done:
		case <-ctx.Done():
		}
		op.mu.Lock()
		he := op.err
		op.mu.Unlock()
		if he != nil {
			return &hiveserver.TExecuteStatementResp{Status: errStatus(he)}, nil
		}
	}
	return &hiveserver.TExecuteStatementResp{Status: okStatus(), OperationHandle: op.handle}, nil
}

func schemaText(cols []resultColumn) string {
	if cols == nil {
		return "Schema(fieldSchemas:null, properties:null)"
	}
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = fmt.Sprintf("FieldSchema(name:%s, type:%s, comment:null)", c.name, c.typ)
	}
	return "Schema(fieldSchemas:[" + strings.Join(parts, ", ") + "], properties:null)"
}

func newUUID() string {
	b := make([]byte, 16)
	rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// GetOperationStatus reports an operation's state, with the error of a
// failed one.
func (v *service) GetOperationStatus(ctx context.Context, req *hiveserver.TGetOperationStatusReq) (*hiveserver.TGetOperationStatusResp, error) {
	op, st := v.operation(req.OperationHandle)
	if st != nil {
		return &hiveserver.TGetOperationStatusResp{Status: st}, nil
	}
	op.mu.Lock()
	defer op.mu.Unlock()
	state := op.state
	started := op.started.UnixMilli()
	resp := &hiveserver.TGetOperationStatusResp{Status: okStatus(), OperationState: &state, OperationStarted: &started,
		HasResultSet: &op.handle.HasResultSet}
	if !op.completed.IsZero() {
		completed := op.completed.UnixMilli()
		resp.OperationCompleted = &completed
	}
	if op.err != nil && state == hiveserver.TOperationState_ERROR_STATE {
		code, sqlState, msg := op.err.code, op.err.sqlState, op.err.msg
		resp.ErrorCode, resp.SqlState, resp.ErrorMessage = &code, &sqlState, &msg
	}
	return resp, nil
}

// CancelOperation cancels a running operation; cancelling an ended one
// does nothing.
func (v *service) CancelOperation(ctx context.Context, req *hiveserver.TCancelOperationReq) (*hiveserver.TCancelOperationResp, error) {
	op, st := v.operation(req.OperationHandle)
	if st != nil {
		return &hiveserver.TCancelOperationResp{Status: st}, nil
	}
	v.s.cancelOp(op)
	return &hiveserver.TCancelOperationResp{Status: okStatus()}, nil
}

// CloseOperation cancels an operation if it still runs and forgets it.
func (v *service) CloseOperation(ctx context.Context, req *hiveserver.TCloseOperationReq) (*hiveserver.TCloseOperationResp, error) {
	op, st := v.operation(req.OperationHandle)
	if st != nil {
		return &hiveserver.TCloseOperationResp{Status: st}, nil
	}
	v.s.cancelOp(op)
	v.s.mu.Lock()
	delete(v.s.ops, op.id)
	v.s.mu.Unlock()
	return &hiveserver.TCloseOperationResp{Status: okStatus()}, nil
}

// GetResultSetMetadata describes an operation's result columns.
func (v *service) GetResultSetMetadata(ctx context.Context, req *hiveserver.TGetResultSetMetadataReq) (*hiveserver.TGetResultSetMetadataResp, error) {
	op, st := v.operation(req.OperationHandle)
	if st != nil {
		return &hiveserver.TGetResultSetMetadataResp{Status: st}, nil
	}
	schema := &hiveserver.TTableSchema{Columns: []*hiveserver.TColumnDesc{}}
	for i, c := range op.columns {
		schema.Columns = append(schema.Columns, &hiveserver.TColumnDesc{
			ColumnName: c.name, Position: int32(i + 1),
			TypeDesc: &hiveserver.TTypeDesc{Types: []*hiveserver.TTypeEntry{{PrimitiveEntry: &hiveserver.TPrimitiveTypeEntry{Type: typeID(c.typ)}}}},
		})
	}
	return &hiveserver.TGetResultSetMetadataResp{Status: okStatus(), Schema: schema}, nil
}

// fetchLogs is the fetchType of FetchResults that reads the operation log.
const fetchLogs = 1

// FetchResults returns the next rows of a finished operation, or with
// fetchType 1 the operation log lines not fetched yet (FETCH_FIRST starts
// over).
func (v *service) FetchResults(ctx context.Context, req *hiveserver.TFetchResultsReq) (*hiveserver.TFetchResultsResp, error) {
	op, st := v.operation(req.OperationHandle)
	if st != nil {
		return &hiveserver.TFetchResultsResp{Status: st}, nil
	}
	op.mu.Lock()
	defer op.mu.Unlock()
	max := int(req.MaxRows)
	if max <= 0 {
		max = 1000
	}
	no := false
	if req.FetchType == fetchLogs {
		if req.Orientation == hiveserver.TFetchOrientation_FETCH_FIRST {
			op.logNext = 0
		}
		end := min(len(op.logs), op.logNext+max)
		lines := append([]string{}, op.logs[op.logNext:end]...)
		op.logNext = end
		more := end < len(op.logs)
		return &hiveserver.TFetchResultsResp{Status: okStatus(), HasMoreRows: &more, Results: &hiveserver.TRowSet{
			Rows: []*hiveserver.TRow{}, Columns: []*hiveserver.TColumn{{StringVal: &hiveserver.TStringColumn{Values: lines, Nulls: []byte{}}}}}}, nil
	}
	if op.state != hiveserver.TOperationState_FINISHED_STATE {
		return &hiveserver.TFetchResultsResp{Status: failStatus("Expected state FINISHED, but found %s", stateName(op.state))}, nil
	}
	if op.columns == nil {
		return &hiveserver.TFetchResultsResp{Status: okStatus(), HasMoreRows: &no,
			Results: &hiveserver.TRowSet{Rows: []*hiveserver.TRow{}, Columns: []*hiveserver.TColumn{}}}, nil
	}
	if req.Orientation == hiveserver.TFetchOrientation_FETCH_FIRST {
		op.next = 0
	}
	start := op.next
	end := min(len(op.rows), start+max)
	op.next = end
	types := make([]string, len(op.columns))
	for i, c := range op.columns {
		types[i] = c.typ
	}
	more := end < len(op.rows)
	return &hiveserver.TFetchResultsResp{Status: okStatus(), HasMoreRows: &more, Results: &hiveserver.TRowSet{
		StartRowOffset: int64(start), Rows: []*hiveserver.TRow{}, Columns: buildColumns(types, op.rows[start:end])}}, nil
}
