package store

import (
	"context"
	"time"
)

// AuditStatus is the outcome of an audited operation, as Oozie's audit log
// words it.
type AuditStatus string

// The outcomes of an audited operation.
const (
	// AuditSuccess: the server answered with a 2xx status.
	AuditSuccess AuditStatus = "SUCCESS"
	// AuditFailed: the server answered with an error.
	AuditFailed AuditStatus = "FAILED"
)

// AuditRecord is one entry of the audit trail: one operation a client asked
// for through the REST API, with who asked, from where, and how it ended.
type AuditRecord struct {
	// Seq is assigned by AppendAudit; it increases with every record.
	Seq int64
	// JobID is the job whose trail holds the record: the job the request
	// named, or the job of the action it named (the coordinator of C@3).
	// It is empty when the request named no existing job (a failed
	// submission, a command on an unknown id); such records belong to no
	// job and are purged by age.
	JobID string
	// Target is the id as the request named it: a job, a coordinator
	// action (C@3) or a workflow action (W@node); empty when it named none.
	Target string
	// At is when the operation ended.
	At time.Time
	// IP is the client's address.
	IP string
	// User is the user the request acted as; Group and App are the group
	// and the application name of the job, when it exists.
	User, Group, App string
	// Operation is what was asked: submit, start, kill, suspend, ...
	Operation string
	// Parameter is what qualified the operation (the job id and the
	// parameters of a command, the app path of a submission).
	Parameter string
	Status    AuditStatus
	// HTTPCode is the HTTP status sent.
	HTTPCode int
	// ErrorCode and ErrorMessage are the Oozie error sent, if any.
	ErrorCode, ErrorMessage string
}

// AuditFilter selects records of one job's trail.
type AuditFilter struct {
	// JobID is matched exactly; empty selects the records of no job.
	JobID string
	// From and To bound At, inclusive; the zero time does not bound.
	From, To time.Time
	// Limit is the most records returned, the oldest first; 0 = no limit.
	Limit int
}

// Audits keeps the audit trail of REST operations on jobs. Unlike the
// methods of Tx, each call is its own short write or read, outside any
// transaction of the operation it records: a command that fails, and rolls
// its own transaction back, still leaves its record, and a record is never
// lost to the rollback of a command it does not belong to. The price is
// that a server that stops between a command's commit and the append loses
// that one record. Purge removes a job's records together with the job.
//
// Never call them inside a Tx function: the SQLite store has one
// connection, which the transaction holds, so the call would wait forever.
type Audits interface {
	// AppendAudit stores r and sets r.Seq.
	AppendAudit(ctx context.Context, r *AuditRecord) error
	// ListAudit returns the records matching f, oldest first (by At, then
	// Seq).
	ListAudit(ctx context.Context, f AuditFilter) ([]AuditRecord, error)
}
