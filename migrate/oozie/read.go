package oozie

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gozie/gozie/oozieerr"
)

// Reader reads Oozie's tables through database/sql. It only runs SELECTs.
type Reader struct {
	DB *sql.DB
	// Zone is the zone Oozie wrote its timestamps in (the Oozie server
	// JVM's, GMT unless changed); nil means UTC.
	Zone *time.Location
	// Placeholder returns the bind parameter n (1-based) of the dialect:
	// "$1" for PostgreSQL, "?" for MySQL. Nil means PostgreSQL's.
	Placeholder func(n int) string
	// Tables maps Oozie's table names (as the beans spell them, e.g.
	// WF_JOBS) to their names in the database, where they differ from
	// the lower-case names PostgreSQL folds them to (MySQL keeps the case
	// OpenJPA created them with; see TableNames).
	Tables map[string]string
}

// tableNames are the tables Read reads, as Oozie's beans name them.
var tableNames = []string{"WF_JOBS", "WF_ACTIONS", "COORD_JOBS", "COORD_ACTIONS", "BUNDLE_JOBS", "BUNDLE_ACTIONS",
	"SLA_REGISTRATION", "SLA_SUMMARY"}

// TableNames finds how Oozie's tables are spelled in a MySQL or MariaDB
// database (upper case as OpenJPA creates them, or lower case where the
// server folds names), for Reader.Tables. A table that is missing is an
// error naming it.
func TableNames(ctx context.Context, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()")
	if err != nil {
		return nil, fmt.Errorf("listing the tables of Oozie's database: %w", err)
	}
	defer rows.Close()
	found := map[string]string{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("listing the tables of Oozie's database: %w", err)
		}
		found[strings.ToUpper(name)] = name
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing the tables of Oozie's database: %w", err)
	}
	out := map[string]string{}
	for _, t := range tableNames {
		name, ok := found[t]
		if !ok {
			return nil, fmt.Errorf("no table %s in Oozie's database: is it Oozie's schema (ooziedb.sh create)?", t)
		}
		out[t] = name
	}
	return out, nil
}

// table returns the name of an Oozie table in the database.
func (r *Reader) table(name string) string {
	if n, ok := r.Tables[name]; ok {
		return n
	}
	return strings.ToLower(name)
}

// Snapshot is what Read found: the top-level rows, by table.
type Snapshot struct {
	Coords        []CoordJob
	Bundles       []BundleJob
	BundleActions map[string][]BundleAction // by bundle id
	Workflows     []WorkflowJob
	SLAs          map[string]SLA // by job or action id
}

// kind is how a column is scanned and decoded.
type kind int

const (
	kStr        kind = iota // VARCHAR
	kBlob                   // StringBlob: text, maybe compressed
	kWfInstance             // BinaryBlob of WF_JOBS.wf_instance: the definition is read from it
	kTime                   // TIMESTAMP
	kInt                    // INTEGER
	kFlag                   // INTEGER used as a boolean (pending, critical, done_materialization)
)

// col is one column of a SELECT and where its value goes.
type col struct {
	name string
	kind kind
	dst  any
}

// Read reads every bundle, coordinator and workflow job (the dry run lists
// each with its verdict, the finished ones too), the bundles' actions and
// every SLA registration with its summary. Actions of coordinators and
// workflows are read per job (CoordActions, WorkflowActions), for the jobs
// that are not skipped only.
func (r *Reader) Read(ctx context.Context) (*Snapshot, error) {
	s := &Snapshot{BundleActions: map[string][]BundleAction{}, SLAs: map[string]SLA{}}
	var err error
	if s.Coords, err = readTable(ctx, r, "COORD_JOBS", coordCols, where("")); err != nil {
		return nil, err
	}
	if s.Bundles, err = readTable(ctx, r, "BUNDLE_JOBS", bundleCols, where("")); err != nil {
		return nil, err
	}
	for _, b := range s.Bundles {
		as, err := readTable(ctx, r, "BUNDLE_ACTIONS", bundleActionCols, where("bundle_id = "+r.ph(1), b.ID))
		if err != nil {
			return nil, err
		}
		s.BundleActions[b.ID] = as
	}
	if s.Workflows, err = readTable(ctx, r, "WF_JOBS", workflowCols, where("")); err != nil {
		return nil, err
	}
	regs, err := readTable(ctx, r, "SLA_REGISTRATION", slaRegCols, where(""))
	if err != nil {
		return nil, err
	}
	sums, err := readTable(ctx, r, "SLA_SUMMARY", slaSumCols, where(""))
	if err != nil {
		return nil, err
	}
	summary := map[string]SLA{}
	for _, x := range sums {
		summary[x.ID] = x
	}
	for _, reg := range regs {
		if sum, ok := summary[reg.ID]; ok {
			reg.HasSummary = true
			reg.ActualStart, reg.ActualEnd, reg.ActualDuration = sum.ActualStart, sum.ActualEnd, sum.ActualDuration
			reg.JobStatus, reg.SLAStatus, reg.EventStatus = sum.JobStatus, sum.SLAStatus, sum.EventStatus
			reg.EventProcessed, reg.LastModified = sum.EventProcessed, sum.LastModified
			if reg.Err == nil {
				reg.Err = sum.Err
			}
		}
		s.SLAs[reg.ID] = reg
	}
	return s, nil
}

// CoordActions reads one coordinator's actions, by action number.
func (r *Reader) CoordActions(ctx context.Context, jobID string) ([]CoordAction, error) {
	return readTable(ctx, r, "COORD_ACTIONS", coordActionCols,
		where("job_id = "+r.ph(1)+" ORDER BY action_number", jobID))
}

// WorkflowActions reads one workflow's actions, oldest first.
func (r *Reader) WorkflowActions(ctx context.Context, wfID string) ([]WorkflowAction, error) {
	return readTable(ctx, r, "WF_ACTIONS", workflowActionCols,
		where("wf_id = "+r.ph(1)+" ORDER BY created_time, id", wfID))
}

func (r *Reader) ph(n int) string {
	if r.Placeholder == nil {
		return fmt.Sprintf("$%d", n)
	}
	return r.Placeholder(n)
}

// filter is a WHERE clause (without the keyword) and its arguments.
type filter struct {
	cond string
	args []any
}

func where(cond string, args ...any) filter { return filter{cond: cond, args: args} }

func (r *Reader) zone() *time.Location {
	if r.Zone == nil {
		return time.UTC
	}
	return r.Zone
}

// scanned is a row type readTable fills: its columns and its error slot.
type scanned[T any] interface {
	*T
	setErr(*FieldError)
}

// readTable runs SELECT cols FROM table [WHERE f] and decodes each row; a
// value that does not decode is recorded on its row, not returned.
func readTable[T any, P scanned[T]](ctx context.Context, r *Reader, table string, cols func(*T) []col, f filter) ([]T, error) {
	var zero T
	names := []string{}
	for _, c := range cols(&zero) {
		names = append(names, c.name)
	}
	q := "SELECT " + strings.Join(names, ", ") + " FROM " + r.table(table)
	if f.cond != "" {
		q += " WHERE " + f.cond
	}
	rows, err := r.DB.QueryContext(ctx, q, f.args...)
	if err != nil {
		return nil, fmt.Errorf("reading Oozie table %s: %w", table, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		cs := cols(&v)
		holders := make([]any, len(cs))
		for i, c := range cs {
			switch c.kind {
			case kStr:
				holders[i] = new(sql.NullString)
			case kBlob, kWfInstance:
				holders[i] = new([]byte)
			case kTime:
				holders[i] = new(sql.NullTime)
			case kInt, kFlag:
				holders[i] = new(sql.NullInt64)
			}
		}
		if err := rows.Scan(holders...); err != nil {
			return nil, fmt.Errorf("reading Oozie table %s: %w", table, err)
		}
		id := holders[0].(*sql.NullString).String
		if fe := r.assign(table, id, cs, holders); fe != nil {
			P(&v).setErr(fe)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading Oozie table %s: %w", table, err)
	}
	return out, nil
}

// assign decodes the scanned holders into the row's fields and returns
// the first value that does not decode.
func (r *Reader) assign(table, id string, cs []col, holders []any) *FieldError {
	var first *FieldError
	fail := func(c col, code string, err error) {
		if first == nil {
			first = &FieldError{Table: table, ID: id, Column: c.name, Code: code, Err: err}
		}
	}
	for i, c := range cs {
		switch c.kind {
		case kStr:
			*c.dst.(*string) = holders[i].(*sql.NullString).String
		case kBlob, kWfInstance:
			raw := *holders[i].(*[]byte)
			if raw == nil {
				continue
			}
			b, err := DecodeBlob(raw)
			if err == nil && c.kind == kWfInstance {
				var def string
				def, err = WorkflowDefinition(b)
				b = []byte(def)
			}
			if err == nil && !utf8.Valid(b) {
				err = fmt.Errorf("%w: not UTF-8 text", ErrBlob)
			}
			if err != nil {
				fail(c, oozieerr.E0702, err)
				continue
			}
			*c.dst.(*string) = string(b)
		case kTime:
			if t := holders[i].(*sql.NullTime); t.Valid {
				w := t.Time
				*c.dst.(*time.Time) = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(),
					w.Nanosecond(), r.zone()).UTC().Truncate(time.Millisecond)
			}
		case kInt:
			switch d := c.dst.(type) {
			case *int:
				*d = int(holders[i].(*sql.NullInt64).Int64)
			case *int64:
				*d = holders[i].(*sql.NullInt64).Int64
			}
		case kFlag:
			*c.dst.(*bool) = holders[i].(*sql.NullInt64).Int64 > 0
		}
	}
	return first
}

func (v *CoordJob) setErr(e *FieldError)       { v.Err = e }
func (v *CoordAction) setErr(e *FieldError)    { v.Err = e }
func (v *BundleJob) setErr(e *FieldError)      { v.Err = e }
func (v *BundleAction) setErr(e *FieldError)   { v.Err = e }
func (v *WorkflowJob) setErr(e *FieldError)    { v.Err = e }
func (v *WorkflowAction) setErr(e *FieldError) { v.Err = e }
func (v *SLA) setErr(e *FieldError)            { v.Err = e }

// The column lists: Oozie's column names (the @Column names of its beans),
// id first.

func coordCols(v *CoordJob) []col {
	return []col{{"id", kStr, &v.ID}, {"app_name", kStr, &v.AppName}, {"app_path", kStr, &v.AppPath},
		{"user_name", kStr, &v.User}, {"group_name", kStr, &v.Group}, {"status", kStr, &v.Status},
		{"bundle_id", kStr, &v.BundleID}, {"external_id", kStr, &v.ExternalID}, {"conf", kBlob, &v.Conf},
		{"job_xml", kBlob, &v.JobXML}, {"orig_job_xml", kBlob, &v.OrigJobXML}, {"sla_xml", kBlob, &v.SLAXML},
		{"frequency", kStr, &v.Frequency}, {"time_unit", kStr, &v.TimeUnit}, {"time_zone", kStr, &v.TimeZone},
		{"execution", kStr, &v.Execution}, {"app_namespace", kStr, &v.AppNamespace},
		{"concurrency", kInt, &v.Concurrency}, {"mat_throttling", kInt, &v.Throttle}, {"time_out", kInt, &v.Timeout},
		{"last_action_number", kInt, &v.LastActionNumber}, {"start_time", kTime, &v.Start},
		{"end_time", kTime, &v.End}, {"pause_time", kTime, &v.Pause}, {"created_time", kTime, &v.Created},
		{"last_action", kTime, &v.LastAction}, {"next_matd_time", kTime, &v.NextMatd},
		{"last_modified_time", kTime, &v.LastModified}, {"suspended_time", kTime, &v.Suspended},
		{"pending", kFlag, &v.Pending}, {"done_materialization", kFlag, &v.DoneMaterialization}}
}

func coordActionCols(v *CoordAction) []col {
	return []col{{"id", kStr, &v.ID}, {"job_id", kStr, &v.JobID}, {"status", kStr, &v.Status},
		{"external_id", kStr, &v.ExternalID}, {"external_status", kStr, &v.ExternalStatus},
		{"tracker_uri", kStr, &v.TrackerURI}, {"console_url", kStr, &v.ConsoleURL}, {"error_code", kStr, &v.ErrorCode},
		{"error_message", kStr, &v.ErrorMessage}, {"job_type", kStr, &v.JobType},
		{"created_conf", kBlob, &v.CreatedConf}, {"run_conf", kBlob, &v.RunConf}, {"action_xml", kBlob, &v.ActionXML},
		{"missing_dependencies", kBlob, &v.MissingDeps}, {"push_missing_dependencies", kBlob, &v.PushMissingDeps},
		{"sla_xml", kBlob, &v.SLAXML}, {"action_number", kInt, &v.ActionNumber}, {"time_out", kInt, &v.Timeout},
		{"pending", kFlag, &v.Pending}, {"nominal_time", kTime, &v.Nominal}, {"created_time", kTime, &v.Created},
		{"last_modified_time", kTime, &v.LastModified}, {"rerun_time", kTime, &v.Rerun}}
}

func bundleCols(v *BundleJob) []col {
	return []col{{"id", kStr, &v.ID}, {"app_name", kStr, &v.AppName}, {"app_path", kStr, &v.AppPath},
		{"user_name", kStr, &v.User}, {"group_name", kStr, &v.Group}, {"status", kStr, &v.Status},
		{"external_id", kStr, &v.ExternalID}, {"time_unit", kStr, &v.TimeUnit}, {"conf", kBlob, &v.Conf},
		{"job_xml", kBlob, &v.JobXML}, {"orig_job_xml", kBlob, &v.OrigJobXML}, {"time_out", kInt, &v.Timeout},
		{"kickoff_time", kTime, &v.Kickoff}, {"start_time", kTime, &v.Start}, {"end_time", kTime, &v.End},
		{"pause_time", kTime, &v.Pause}, {"created_time", kTime, &v.Created},
		{"last_modified_time", kTime, &v.LastModified}, {"suspended_time", kTime, &v.Suspended},
		{"pending", kFlag, &v.Pending}}
}

func bundleActionCols(v *BundleAction) []col {
	return []col{{"bundle_action_id", kStr, &v.ID}, {"bundle_id", kStr, &v.BundleID},
		{"coord_name", kStr, &v.CoordName}, {"coord_id", kStr, &v.CoordID}, {"status", kStr, &v.Status},
		{"critical", kFlag, &v.Critical}, {"pending", kFlag, &v.Pending},
		{"last_modified_time", kTime, &v.LastModified}}
}

func workflowCols(v *WorkflowJob) []col {
	return []col{{"id", kStr, &v.ID}, {"app_name", kStr, &v.AppName}, {"app_path", kStr, &v.AppPath},
		{"user_name", kStr, &v.User}, {"group_name", kStr, &v.Group}, {"status", kStr, &v.Status},
		{"parent_id", kStr, &v.ParentID}, {"external_id", kStr, &v.ExternalID}, {"conf", kBlob, &v.Conf},
		{"wf_instance", kWfInstance, &v.Definition}, {"sla_xml", kBlob, &v.SLAXML}, {"log_token", kStr, &v.LogToken},
		{"run", kInt, &v.Run}, {"created_time", kTime, &v.Created}, {"start_time", kTime, &v.Start},
		{"end_time", kTime, &v.End}, {"last_modified_time", kTime, &v.LastModified}}
}

func workflowActionCols(v *WorkflowAction) []col {
	return []col{{"id", kStr, &v.ID}, {"wf_id", kStr, &v.JobID}, {"name", kStr, &v.Name}, {"type", kStr, &v.Type},
		{"status", kStr, &v.Status}, {"conf", kBlob, &v.Conf}, {"transition", kStr, &v.Transition},
		{"execution_path", kStr, &v.ExecutionPath}, {"external_id", kStr, &v.ExternalID},
		{"external_status", kStr, &v.ExternalStatus}, {"external_child_ids", kBlob, &v.ExternalChildIDs},
		{"tracker_uri", kStr, &v.TrackerURI}, {"console_url", kStr, &v.Console}, {"error_code", kStr, &v.ErrorCode},
		{"error_message", kStr, &v.ErrorMessage}, {"data", kBlob, &v.Data}, {"stats", kBlob, &v.Stats},
		{"signal_value", kStr, &v.SignalValue}, {"cred", kStr, &v.Cred}, {"retries", kInt, &v.Retries},
		{"user_retry_count", kInt, &v.UserRetryCount}, {"user_retry_max", kInt, &v.UserRetryMax},
		{"user_retry_interval", kInt, &v.UserRetryInterval}, {"pending", kFlag, &v.Pending},
		{"created_time", kTime, &v.Created}, {"start_time", kTime, &v.Start}, {"end_time", kTime, &v.End},
		{"last_check_time", kTime, &v.LastCheck}}
}

func slaRegCols(v *SLA) []col {
	return []col{{"job_id", kStr, &v.ID}, {"parent_id", kStr, &v.ParentID}, {"app_name", kStr, &v.AppName},
		{"app_type", kStr, &v.AppType}, {"user_name", kStr, &v.User}, {"upstream_apps", kStr, &v.UpstreamApps},
		{"sla_config", kStr, &v.SLAConfig}, {"notification_msg", kStr, &v.NotificationMsg},
		{"nominal_time", kTime, &v.Nominal}, {"expected_start", kTime, &v.ExpectedStart},
		{"expected_end", kTime, &v.ExpectedEnd}, {"created_time", kTime, &v.Created},
		{"expected_duration", kInt, &v.ExpectedDuration}}
}

func slaSumCols(v *SLA) []col {
	return []col{{"job_id", kStr, &v.ID}, {"actual_start", kTime, &v.ActualStart}, {"actual_end", kTime, &v.ActualEnd},
		{"actual_duration", kInt, &v.ActualDuration}, {"job_status", kStr, &v.JobStatus},
		{"sla_status", kStr, &v.SLAStatus}, {"event_status", kStr, &v.EventStatus},
		{"event_processed", kInt, &v.EventProcessed}, {"last_modified", kTime, &v.LastModified}}
}
