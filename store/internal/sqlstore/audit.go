package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/gozie/gozie/store"
)

// The audit trail (store.Audits). Appends and reads are single statements
// on the database, outside any transaction: see store.Audits for why.

const auditCols = `job_id, target, at, ip, user_name, group_name, app_name, operation, parameter, status,
http_code, error_code, error_message`

// AppendAudit implements store.Audits.
func (s *DB) AppendAudit(ctx context.Context, r *store.AuditRecord) error {
	switch r.Status {
	case store.AuditSuccess, store.AuditFailed:
	default:
		return fmt.Errorf("appending audit record of %q: unknown status %q", r.Target, r.Status)
	}
	if r.At.IsZero() {
		return fmt.Errorf("appending audit record of %q: no time", r.Target)
	}
	err := s.stmts.QueryRowContext(ctx, `INSERT INTO job_audit (`+auditCols+`)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING seq`,
		r.JobID, r.Target, s.d.tv(r.At), r.IP, r.User, r.Group, r.App, r.Operation, r.Parameter, string(r.Status),
		r.HTTPCode, r.ErrorCode, r.ErrorMessage).Scan(&r.Seq)
	if err != nil {
		return fmt.Errorf("appending audit record of %q: %w", r.Target, err)
	}
	return nil
}

// ListAudit implements store.Audits.
func (s *DB) ListAudit(ctx context.Context, f store.AuditFilter) ([]store.AuditRecord, error) {
	w := &where{}
	w.add("job_id = %s", f.JobID)
	if !f.From.IsZero() {
		w.add("at >= %s", s.d.tv(f.From))
	}
	if !f.To.IsZero() {
		w.add("at <= %s", s.d.tv(f.To))
	}
	q := `SELECT seq, ` + auditCols + ` FROM job_audit ` + w.String() + ` ORDER BY at, seq` + page(0, f.Limit)
	rows, err := s.stmts.QueryContext(ctx, q, w.args...)
	if err != nil {
		return nil, fmt.Errorf("listing audit records of %q: %w", f.JobID, err)
	}
	defer rows.Close()
	var out []store.AuditRecord
	for rows.Next() {
		var r store.AuditRecord
		if err := rows.Scan(&r.Seq, &r.JobID, &r.Target, s.d.tm(&r.At), &r.IP, &r.User, &r.Group, &r.App, &r.Operation,
			&r.Parameter, (*string)(&r.Status), &r.HTTPCode, &r.ErrorCode, &r.ErrorMessage); err != nil {
			return nil, fmt.Errorf("listing audit records of %q: %w", f.JobID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing audit records of %q: %w", f.JobID, err)
	}
	return out, nil
}

// purgeJoblessAudit deletes up to limit records that belong to no job
// (failed submissions, commands on unknown ids) and are older than cut.
// The records of jobs go with their jobs (removeOwned).
func (x *txn) purgeJoblessAudit(ctx context.Context, cut time.Time, limit int) error {
	_, err := x.tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM job_audit WHERE seq IN (SELECT seq FROM job_audit
WHERE job_id = '' AND at < $1 ORDER BY at LIMIT %d)`, limit), x.d.tv(cut))
	if err != nil {
		return x.mapErr(err, "purging audit records of no job")
	}
	return nil
}
