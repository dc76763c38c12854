package minihs2

import "fmt"

// Hive's error codes (org.apache.hadoop.hive.ql.ErrorMsg) and the return
// codes of failed tasks that MiniHS2 reports.
const (
	// CodeGeneric is GENERIC_ERROR, which parse errors carry.
	CodeGeneric = 40000
	// CodeTableNotFound is INVALID_TABLE.
	CodeTableNotFound = 10001
	// CodeInvalidColumn is INVALID_COLUMN.
	CodeInvalidColumn = 10002
	// CodeInvalidColumnRef is INVALID_TABLE_OR_COLUMN.
	CodeInvalidColumnRef = 10004
	// CodeColumnMismatch is TARGET_TABLE_COLUMN_MISMATCH.
	CodeColumnMismatch = 10044
	// CodeDatabaseNotFound is DATABASE_NOT_EXISTS.
	CodeDatabaseNotFound = 10072
	// CodeDDLTask is the return code of a failed DDL task.
	CodeDDLTask = 1
	// CodeExecTask is the return code of a failed Tez (or MapReduce) task.
	CodeExecTask = 2
)

// SQL states HiveServer2 attaches to errors.
const (
	sqlStateSyntax   = "42000"
	sqlStateNotFound = "42S02"
	sqlStateExec     = "08S01"
)

// hiveError is a statement failure as HiveServer2 reports it: the message,
// Hive's error code and the SQL state.
type hiveError struct {
	code     int32
	sqlState string
	msg      string
}

// Error returns the message HiveServer2 would send.
func (e *hiveError) Error() string { return e.msg }

// parseErrorAt is a ParseException at line:col.
func parseErrorAt(line, col int, what string) *hiveError {
	return &hiveError{code: CodeGeneric, sqlState: sqlStateSyntax,
		msg: fmt.Sprintf("Error while compiling statement: FAILED: ParseException line %d:%d %s", line, col, what)}
}

// semanticError is a SemanticException with one of ErrorMsg's codes, at the
// position of tok.
func semanticError(code int32, tok token, what string) *hiveError {
	state := sqlStateSyntax
	if code == CodeTableNotFound {
		state = sqlStateNotFound
	}
	return &hiveError{code: code, sqlState: state,
		msg: fmt.Sprintf("Error while compiling statement: FAILED: SemanticException [Error %d]: Line %d:%d %s", code, tok.line, tok.col, what)}
}

// ddlError is a failed DDL task.
func ddlError(detail string) *hiveError {
	return &hiveError{code: CodeDDLTask, sqlState: sqlStateExec,
		msg: "Error while processing statement: FAILED: Execution Error, return code 1 from org.apache.hadoop.hive.ql.ddl.DDLTask. " + detail}
}

// execError is a failed execution task (Tez DAG or MapReduce job).
func execError(engine, detail string) *hiveError {
	task := "org.apache.hadoop.hive.ql.exec.tez.TezTask"
	if engine == "mr" {
		task = "org.apache.hadoop.hive.ql.exec.mr.MapRedTask"
	}
	msg := "Error while processing statement: FAILED: Execution Error, return code 2 from " + task
	if detail != "" {
		msg += ". " + detail
	}
	return &hiveError{code: CodeExecTask, sqlState: sqlStateExec, msg: msg}
}
