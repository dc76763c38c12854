// Package ooziedb is a test fixture: Apache Oozie's database schema, created
// in a test PostgreSQL or MySQL/MariaDB database, filled with rows as a
// running Oozie 4.x/5.x leaves them (running, suspended and paused
// coordinators, a bundle, coordinator actions WAITING, READY, RUNNING,
// SUCCEEDED and KILLED, their workflows, SLA registrations and summaries).
// `gozie migrate oozie` is tested against it.
//
// The DDL is written from the facts of Oozie's JPA beans (table and column
// names, column kinds), once, with the column types of each database as
// data (Dialect): large values hold Oozie's StringBlob and BinaryBlob
// encodings (plain, or gzip behind Oozie's codec header) in BYTEA on
// PostgreSQL and MEDIUMBLOB/LONGBLOB on MySQL, times are TIMESTAMP
// without zone (DATETIME on MySQL) in GMT, flags are integers. On
// PostgreSQL the unquoted names fold to lower case; on MySQL the tables keep
// the upper-case names of the beans, as OpenJPA creates them there.
package ooziedb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// colKind is the kind of an Oozie column, which each dialect spells.
type colKind int

const (
	varchar  colKind = iota // VARCHAR(255)
	longStr                 // VARCHAR(500) and longer (error_message, execution_path)
	text                    // a @Lob String (auth_token)
	strBlob                 // a StringBlob (@Lob byte[] of text, maybe compressed)
	instance                // WF_JOBS.wf_instance: a BinaryBlob of a serialized instance
	stamp                   // java.sql.Timestamp
	integer                 // int
	bigint                  // long
	smallint                // byte/short
)

// column is one column of an Oozie table.
type column struct {
	name string
	kind colKind
}

// table is one of Oozie's tables, by its bean's name; the first column is
// the primary key.
type table struct {
	name string
	cols []column
}

func cols(kind colKind, names ...string) []column {
	out := make([]column, len(names))
	for i, n := range names {
		out[i] = column{n, kind}
	}
	return out
}

func join(parts ...[]column) []column {
	var out []column
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// tables are the tables of Oozie's schema the import reads.
var tables = []table{
	{"WF_JOBS", join(cols(varchar, "id", "app_name", "app_path"), cols(strBlob, "conf"),
		cols(varchar, "group_name", "parent_id"), cols(integer, "run"), cols(varchar, "user_name", "bean_type"),
		cols(text, "auth_token"), cols(stamp, "created_time", "end_time"), cols(varchar, "external_id"),
		cols(stamp, "last_modified_time"), cols(varchar, "log_token"), cols(strBlob, "proto_action_conf", "sla_xml"),
		cols(stamp, "start_time"), cols(varchar, "status"), cols(instance, "wf_instance"))},
	{"WF_ACTIONS", join(cols(varchar, "id"), cols(strBlob, "conf"), cols(varchar, "console_url"),
		cols(stamp, "created_time"), cols(varchar, "cred"), cols(strBlob, "data"), cols(stamp, "end_time"),
		cols(varchar, "error_code"), cols(longStr, "error_message", "execution_path"), cols(strBlob, "external_child_ids"),
		cols(varchar, "external_id", "external_status"), cols(stamp, "last_check_time"), cols(varchar, "log_token", "name"),
		cols(integer, "pending"), cols(stamp, "pending_age"), cols(integer, "retries"), cols(varchar, "signal_value"),
		cols(strBlob, "sla_xml"), cols(stamp, "start_time"), cols(strBlob, "stats"),
		cols(varchar, "status", "tracker_uri", "transition", "type"),
		cols(integer, "user_retry_count", "user_retry_interval", "user_retry_max"), cols(varchar, "wf_id"))},
	{"COORD_JOBS", join(cols(varchar, "id", "app_name", "app_namespace", "app_path", "bundle_id"),
		cols(integer, "concurrency"), cols(strBlob, "conf"), cols(stamp, "created_time"), cols(integer, "done_materialization"),
		cols(stamp, "end_time"), cols(varchar, "execution", "external_id", "frequency", "group_name"), cols(strBlob, "job_xml"),
		cols(stamp, "last_action"), cols(integer, "last_action_number"), cols(stamp, "last_modified_time"),
		cols(integer, "mat_throttling"), cols(stamp, "next_matd_time"), cols(strBlob, "orig_job_xml"), cols(stamp, "pause_time"),
		cols(integer, "pending"), cols(strBlob, "sla_xml"), cols(stamp, "start_time"), cols(varchar, "status"),
		cols(stamp, "suspended_time"), cols(integer, "time_out"), cols(varchar, "time_unit", "time_zone", "user_name"))},
	{"COORD_ACTIONS", join(cols(varchar, "id"), cols(integer, "action_number"), cols(strBlob, "action_xml"),
		cols(varchar, "console_url"), cols(strBlob, "created_conf"), cols(stamp, "created_time"),
		cols(varchar, "error_code", "error_message", "external_id", "external_status", "job_id", "job_type"),
		cols(stamp, "last_modified_time"), cols(strBlob, "missing_dependencies"), cols(stamp, "nominal_time"),
		cols(integer, "pending"), cols(strBlob, "push_missing_dependencies"), cols(stamp, "rerun_time"),
		cols(strBlob, "run_conf", "sla_xml"), cols(varchar, "status"), cols(integer, "time_out"), cols(varchar, "tracker_uri"))},
	{"BUNDLE_JOBS", join(cols(varchar, "id", "app_name", "app_path"), cols(strBlob, "conf"),
		cols(stamp, "created_time", "end_time"), cols(varchar, "external_id", "group_name"), cols(strBlob, "job_xml"),
		cols(stamp, "kickoff_time", "last_modified_time"), cols(strBlob, "orig_job_xml"), cols(stamp, "pause_time"),
		cols(integer, "pending"), cols(stamp, "start_time"), cols(varchar, "status"), cols(stamp, "suspended_time"),
		cols(integer, "time_out"), cols(varchar, "time_unit", "user_name"))},
	{"BUNDLE_ACTIONS", join(cols(varchar, "bundle_action_id", "bundle_id", "coord_id", "coord_name"),
		cols(integer, "critical"), cols(stamp, "last_modified_time"), cols(integer, "pending"), cols(varchar, "status"))},
	{"SLA_REGISTRATION", join(cols(varchar, "job_id", "app_name", "app_type"), cols(stamp, "created_time"),
		cols(bigint, "expected_duration"), cols(stamp, "expected_end", "expected_start"), cols(varchar, "job_data"),
		cols(stamp, "nominal_time"), cols(varchar, "notification_msg", "parent_id", "sla_config", "upstream_apps", "user_name"))},
	{"SLA_SUMMARY", join(cols(varchar, "job_id"), cols(bigint, "actual_duration"), cols(stamp, "actual_end", "actual_start"),
		cols(varchar, "app_name", "app_type"), cols(stamp, "created_time"), cols(smallint, "event_processed"),
		cols(varchar, "event_status"), cols(bigint, "expected_duration"), cols(stamp, "expected_end", "expected_start"),
		cols(varchar, "job_status"), cols(stamp, "last_modified", "nominal_time"),
		cols(varchar, "parent_id", "sla_status", "user_name"))},
}

// TableNames are the names of Oozie's tables the fixture creates, as the
// beans spell them.
func TableNames() []string {
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = t.name
	}
	return out
}

// Dialect is how one database spells Oozie's schema: its driver, its
// column types, its bind parameters and how its tables are named.
type Dialect struct {
	Name   string // "postgres" or "mysql", also the database/sql driver name
	types  map[colKind]string
	suffix string // after the column list (the storage engine)
	// upper keeps the beans' upper-case table names (MySQL); else they
	// are written unquoted and fold to lower case (PostgreSQL).
	upper bool
}

// Postgres is Oozie's schema on PostgreSQL.
var Postgres = &Dialect{Name: "postgres", types: map[colKind]string{varchar: "VARCHAR(255)", longStr: "VARCHAR(1024)",
	text: "TEXT", strBlob: "BYTEA", instance: "BYTEA", stamp: "TIMESTAMP", integer: "INTEGER", bigint: "BIGINT",
	smallint: "SMALLINT"}}

// MySQL is Oozie's schema on MySQL and MariaDB: MEDIUMBLOB for StringBlobs,
// LONGBLOB for the workflow instance, MEDIUMTEXT for @Lob strings and
// DATETIME for timestamps, InnoDB tables named in upper case.
var MySQL = &Dialect{Name: "mysql", types: map[colKind]string{varchar: "VARCHAR(255)", longStr: "VARCHAR(1024)",
	text: "MEDIUMTEXT", strBlob: "MEDIUMBLOB", instance: "LONGBLOB", stamp: "DATETIME", integer: "INT", bigint: "BIGINT",
	smallint: "SMALLINT"}, suffix: " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4", upper: true}

// Table returns the name of an Oozie table (given as the bean names it) in
// this dialect's database.
func (d *Dialect) Table(name string) string {
	if d.upper {
		return strings.ToUpper(name)
	}
	return strings.ToLower(name)
}

func (d *Dialect) placeholder(n int) string {
	if d.Name == "mysql" {
		return "?"
	}
	return fmt.Sprintf("$%d", n)
}

// DDL returns the CREATE TABLE statements of Oozie's schema.
func (d *Dialect) DDL() []string {
	out := make([]string, len(tables))
	for i, t := range tables {
		defs := make([]string, len(t.cols))
		for j, c := range t.cols {
			defs[j] = c.name + " " + d.types[c.kind]
			if j == 0 {
				defs[j] += " PRIMARY KEY"
			}
		}
		out[i] = "CREATE TABLE " + d.Table(t.name) + " (" + strings.Join(defs, ", ") + ")" + d.suffix
	}
	return out
}

// Create creates Oozie's tables in db.
func (d *Dialect) Create(ctx context.Context, db *sql.DB) error {
	for _, ddl := range d.DDL() {
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("creating Oozie's schema: %w", err)
		}
	}
	return nil
}

// Row is one row to insert: column name → value (nil is NULL).
type Row map[string]any

// Insert inserts row into table (named as the bean names it, any case).
func (d *Dialect) Insert(ctx context.Context, db *sql.DB, table string, row Row) error {
	cols := make([]string, 0, len(row))
	marks := make([]string, 0, len(row))
	args := make([]any, 0, len(row))
	for c, v := range row {
		cols = append(cols, c)
		marks = append(marks, d.placeholder(len(cols)))
		args = append(args, v)
	}
	q := "INSERT INTO " + d.Table(table) + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")"
	if _, err := db.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("inserting into Oozie's %s: %w", table, err)
	}
	return nil
}
