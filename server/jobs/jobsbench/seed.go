package jobsbench

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/postgres"
)

// Seed creates gozie's schema in the empty PostgreSQL database at dsn and fills it
// with the fixture of spec. It writes the tables directly with COPY (this is fixture
// code, not a user of the store API), then vacuums and analyzes them so that the planner
// and the visibility map are those of a long-lived database.
func Seed(ctx context.Context, dsn string, spec Spec) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	st, err := postgres.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("jobsbench: creating the schema: %w", err)
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("jobsbench: closing the store: %w", err)
	}
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return fmt.Errorf("jobsbench: %w", err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("jobsbench: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, c := range []struct {
		table string
		cols  []string
		rows  func(emit func(...any) error) error
	}{
		{"coord_jobs", coordJobCols, spec.coordJobRows},
		{"coord_actions", coordActionCols, spec.coordActionRows},
		{"wf_jobs", workflowJobCols, spec.workflowJobRows},
	} {
		if err := copyInto(ctx, tx, c.table, c.cols, c.rows); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("jobsbench: committing the fixture: %w", err)
	}
	if _, err := db.ExecContext(ctx, `VACUUM (ANALYZE) coord_jobs, coord_actions, wf_jobs`); err != nil {
		return fmt.Errorf("jobsbench: vacuuming the fixture: %w", err)
	}
	return nil
}

// copyInto streams the rows that rows emits into table with one COPY (lib/pq turns a
// prepared COPY ... FROM STDIN into a stream: each Exec sends a row, the last one with no
// arguments ends it).
func copyInto(ctx context.Context, tx *sql.Tx, table string, cols []string, rows func(emit func(...any) error) error) error {
	stmt, err := tx.PrepareContext(ctx, "COPY "+table+" ("+strings.Join(cols, ", ")+") FROM STDIN")
	if err != nil {
		return fmt.Errorf("jobsbench: copying into %s: %w", table, err)
	}
	err = rows(func(vals ...any) error {
		_, err := stmt.ExecContext(ctx, vals...)
		return err
	})
	if err == nil {
		_, err = stmt.ExecContext(ctx) // flushes the COPY
	}
	if cerr := stmt.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("jobsbench: copying into %s: %w", table, err)
	}
	return nil
}

// nullTime is t, or NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

var coordJobCols = []string{"id", "app_name", "app_path", "user_name", "group_name", "status", "conf", "definition",
	"orig_definition", "frequency", "time_unit", "time_zone", "concurrency", "timeout", "throttle", "execution_order",
	"start_time", "end_time", "last_action_number", "last_action_time", "next_materialized_time",
	"done_materialization", "suspended_time", "created_time", "last_modified", "version"}

func (s Spec) coordJobRows(emit func(...any) error) error {
	for i := range s.Coordinators {
		start := coordStart(i)
		status := CoordStatus(i)
		last := NominalTime(i, s.ActionsPerCoordinator)
		end := start.AddDate(2, 0, 0)
		if status.Terminal() {
			end = last.Add(time.Hour)
		}
		var suspended time.Time
		if status == store.JobSuspended {
			suspended = last.Add(-4 * time.Hour)
		}
		def := s.coordDefinition(i)
		err := emit(CoordID(i), appName(i), s.coordAppPath(i), s.User(i), "etl", string(status), s.coordConf(i), def, def,
			"60", "MINUTE", "UTC", 1, 120, 12, "FIFO", start, end, s.ActionsPerCoordinator, last.Add(time.Hour),
			last.Add(time.Hour), status.Terminal(), nullTime(suspended), start.Add(-24*time.Hour), last.Add(5*time.Minute), 1)
		if err != nil {
			return err
		}
	}
	return nil
}

var coordActionCols = []string{"id", "job_id", "action_number", "status", "nominal_time", "external_id",
	"external_status", "console_url", "error_code", "error_message", "created_conf", "run_conf", "action_xml",
	"missing_dependencies", "timeout", "created_time", "last_modified", "version"}

func (s Spec) coordActionRows(emit func(...any) error) error {
	for i := range s.Coordinators {
		// An action is created, and runs, with its job's configuration, as
		// materialization writes it.
		conf := s.coordConf(i)
		for n := 1; n <= s.ActionsPerCoordinator; n++ {
			st := s.ActionStatus(i, n)
			nominal := NominalTime(i, n)
			var extID, extStatus, console, code, msg, missing string
			if ws, ok := workflowStatus(st); ok {
				extID, extStatus = s.WorkflowID(i, n), string(ws)
				console = "http://gozie.example.com:11000/oozie?job=" + extID
			}
			switch st {
			case store.CoordActionFailed:
				code, msg = "JA018", "Main class [org.apache.oozie.action.hadoop.Hive2Main], exit code [2]"
			case store.CoordActionTimedOut:
				code, msg = oozieerr.E1022, "Coord action timed out waiting for its inputs"
			case store.CoordActionWaiting:
				missing = fmt.Sprintf("%s/data/bench/%04d/events/%s", nameNode, i, nominal.Format("2006/01/02/15"))
			}
			modified := nominal.Add(41 * time.Minute)
			if !st.Terminal() {
				modified = nominal.Add(time.Minute)
			}
			err := emit(CoordActionID(i, n), CoordID(i), n, string(st), nominal, extID, extStatus, console, code, msg,
				conf, conf, s.actionXML(i, n, nominal), missing, 120, nominal.Add(-time.Hour), modified, 1)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

var workflowJobCols = []string{"id", "app_name", "app_path", "user_name", "group_name", "status", "parent_id",
	"conf", "definition", "error_code", "error_message", "created_time", "start_time", "end_time", "last_modified",
	"version"}

func (s Spec) workflowJobRows(emit func(...any) error) error {
	for i := range s.Coordinators {
		def := workflowDefinition(i)
		for n := s.ActionsPerCoordinator - s.WorkflowsPerCoordinator + 1; n <= s.ActionsPerCoordinator; n++ {
			if !s.HasWorkflow(i, n) {
				continue
			}
			ws, _ := workflowStatus(s.ActionStatus(i, n))
			nominal := NominalTime(i, n)
			created := nominal.Add(3 * time.Minute)
			end, modified := time.Time{}, created.Add(time.Minute)
			var code, msg string
			if ws.Terminal() {
				end = nominal.Add(40 * time.Minute)
				modified = end
			}
			if ws == store.WorkflowFailed {
				code, msg = "JA018", "Main class [org.apache.oozie.action.hadoop.Hive2Main], exit code [2]"
			}
			err := emit(s.WorkflowID(i, n), appName(i)+"-wf", s.coordAppPath(i)+"-wf", s.User(i), "etl", string(ws),
				CoordActionID(i, n), s.workflowConf(i, nominal), def, code, msg, created, created, nullTime(end), modified, 1)
			if err != nil {
				return err
			}
		}
	}
	return nil
}
