package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

var wfJobs = &table[store.WorkflowJob]{
	name: "wf_jobs", noun: "workflow job",
	cols: []string{"id", "app_name", "app_path", "user_name", "group_name", "acl", "status", "run", "parent_id",
		"external_id", "conf", "definition", "instance", "error_code", "error_message", "created_time",
		"start_time", "end_time", "last_modified", "version"},
	fields: func(d *Dialect, r *store.WorkflowJob) []any {
		return []any{&r.ID, &r.AppName, &r.AppPath, &r.User, &r.Group, &r.ACL, (*string)(&r.Status), &r.Run,
			&r.ParentID, &r.ExternalID, &r.Conf, &r.Definition, &r.Instance, &r.ErrorCode, &r.ErrorMessage,
			d.tm(&r.CreatedTime), d.tm(&r.StartTime), d.tm(&r.EndTime), d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.WorkflowJob) *store.Version { return &r.Version },
}

var wfActions = &table[store.WorkflowAction]{
	name: "wf_actions", noun: "workflow action",
	cols: []string{"id", "job_id", "name", "type", "status", "conf", "transition", "external_id", "external_status",
		"external_child_ids", "tracker_uri", "console_url", "launch_tag", "error_code", "error_message", "data",
		"stats", "retries", "user_retry_count", "user_retry_max", "user_retry_interval", "created_time",
		"start_time", "end_time", "last_check_time", "last_modified", "version"},
	fields: func(d *Dialect, r *store.WorkflowAction) []any {
		return []any{&r.ID, &r.JobID, &r.Name, &r.Type, (*string)(&r.Status), &r.Conf, &r.Transition, &r.ExternalID,
			&r.ExternalStatus, &r.ExternalChildIDs, &r.TrackerURI, &r.ConsoleURL, &r.LaunchTag, &r.ErrorCode,
			&r.ErrorMessage, &r.Data, &r.Stats, &r.Retries, &r.UserRetryCount, &r.UserRetryMax,
			&r.UserRetryInterval, d.tm(&r.CreatedTime), d.tm(&r.StartTime), d.tm(&r.EndTime),
			d.tm(&r.LastCheckTime), d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.WorkflowAction) *store.Version { return &r.Version },
}

var coordJobs = &table[store.CoordJob]{
	name: "coord_jobs", noun: "coordinator job",
	cols: []string{"id", "app_name", "app_path", "user_name", "group_name", "acl", "status", "bundle_id",
		"external_id", "conf", "definition", "orig_definition", "frequency", "time_unit", "time_zone", "concurrency",
		"timeout", "throttle", "execution_order", "start_time", "end_time", "pause_time", "last_action_number",
		"last_action_time", "next_materialized_time", "done_materialization", "pending", "suspended_time",
		"error_code", "error_message", "created_time", "last_modified", "version"},
	fields: func(d *Dialect, r *store.CoordJob) []any {
		return []any{&r.ID, &r.AppName, &r.AppPath, &r.User, &r.Group, &r.ACL, (*string)(&r.Status), &r.BundleID,
			&r.ExternalID, &r.Conf, &r.Definition, &r.OrigDefinition, &r.Frequency, &r.TimeUnit, &r.TimeZone,
			&r.Concurrency, &r.Timeout, &r.Throttle, &r.ExecutionOrder, d.tm(&r.StartTime), d.tm(&r.EndTime),
			d.tm(&r.PauseTime), &r.LastActionNumber, d.tm(&r.LastActionTime), d.tm(&r.NextMaterializedTime),
			&r.DoneMaterialization, &r.Pending, d.tm(&r.SuspendedTime), &r.ErrorCode, &r.ErrorMessage,
			d.tm(&r.CreatedTime), d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.CoordJob) *store.Version { return &r.Version },
}

var coordActions = &table[store.CoordAction]{
	name: "coord_actions", noun: "coordinator action",
	cols: []string{"id", "job_id", "action_number", "status", "nominal_time", "external_id", "external_status",
		"tracker_uri", "console_url", "error_code", "error_message", "created_conf", "run_conf", "action_xml",
		"missing_dependencies", "push_missing_dependencies", "timeout", "pending", "created_time", "last_modified",
		"version"},
	fields: func(d *Dialect, r *store.CoordAction) []any {
		return []any{&r.ID, &r.JobID, &r.ActionNumber, (*string)(&r.Status), d.tm(&r.NominalTime), &r.ExternalID,
			&r.ExternalStatus, &r.TrackerURI, &r.ConsoleURL, &r.ErrorCode, &r.ErrorMessage, &r.CreatedConf,
			sameAs{&r.RunConf, &r.CreatedConf}, &r.ActionXML, &r.MissingDependencies, &r.PushMissingDependencies, &r.Timeout, &r.Pending,
			d.tm(&r.CreatedTime), d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.CoordAction) *store.Version { return &r.Version },
	// An action runs with the configuration it was created with until a rerun
	// changes it: the run configuration is read only where it differs.
	reads: map[string]string{"run_conf": "NULLIF(run_conf, created_conf)"},
}

var bundleJobs = &table[store.BundleJob]{
	name: "bundle_jobs", noun: "bundle job",
	cols: []string{"id", "app_name", "app_path", "user_name", "group_name", "acl", "status", "external_id", "conf",
		"definition", "orig_definition", "kickoff_time", "start_time", "end_time", "pause_time", "suspended_time",
		"time_out", "created_time", "last_modified", "version"},
	fields: func(d *Dialect, r *store.BundleJob) []any {
		return []any{&r.ID, &r.AppName, &r.AppPath, &r.User, &r.Group, &r.ACL, (*string)(&r.Status), &r.ExternalID,
			&r.Conf, &r.Definition, &r.OrigDefinition, d.tm(&r.KickoffTime), d.tm(&r.StartTime), d.tm(&r.EndTime), d.tm(&r.PauseTime),
			d.tm(&r.SuspendedTime), &r.TimeOut, d.tm(&r.CreatedTime), d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.BundleJob) *store.Version { return &r.Version },
}

var bundleActions = &table[store.BundleAction]{
	name: "bundle_actions", noun: "bundle action",
	cols: []string{"id", "bundle_id", "coord_name", "coord_id", "status", "critical", "last_modified", "version"},
	fields: func(d *Dialect, r *store.BundleAction) []any {
		return []any{&r.ID, &r.BundleID, &r.CoordName, &r.CoordID, (*string)(&r.Status), &r.Critical,
			d.tm(&r.LastModified), (*int64)(&r.Version)}
	},
	version: func(r *store.BundleAction) *store.Version { return &r.Version },
}

// jobWhere builds the WHERE clause shared by the three job listings.
func (x *txn) jobWhere(f store.JobFilter, parentCol, bundleCol string) *where {
	w := &where{}
	w.in("id", f.IDs, false)
	w.in("user_name", f.Users, false)
	w.in("app_name", f.Names, false)
	w.in("group_name", f.Groups, false)
	w.in("status", f.Statuses, false)
	if f.ParentID != "" && parentCol != "" {
		w.add(parentCol+" = %s", f.ParentID)
	}
	if f.BundleID != "" && bundleCol != "" {
		w.add(bundleCol+" = %s", f.BundleID)
	}
	// Only coordinator listings have a bundle column, and only they a frequency.
	if f.Frequency != "" && bundleCol != "" {
		w.add("frequency = %s", f.Frequency)
	}
	if f.TimeUnit != "" && bundleCol != "" {
		w.add("time_unit = %s", f.TimeUnit)
	}
	if f.ExternalID != "" {
		w.add("external_id = %s", f.ExternalID)
	}
	if f.Text != "" {
		like := "%" + f.Text + "%"
		w.add("(app_name LIKE %s OR user_name LIKE %s OR id = %s)", like, like, f.Text)
	}
	if !f.CreatedFrom.IsZero() {
		w.add("created_time >= %s", x.d.tv(f.CreatedFrom))
	}
	if !f.CreatedTo.IsZero() {
		w.add("created_time <= %s", x.d.tv(f.CreatedTo))
	}
	return w
}

func jobOrder(f store.JobFilter) string {
	if f.SortBy == "lastModifiedTime" {
		return " ORDER BY last_modified DESC, id DESC"
	}
	return " ORDER BY created_time DESC, id DESC"
}

func listJobs[T any](ctx context.Context, x *txn, t *table[T], f store.JobFilter, parentCol, bundleCol string) ([]T, int, error) {
	w := x.jobWhere(f, parentCol, bundleCol)
	total, err := x.count(ctx, t.name, w)
	if err != nil {
		return nil, 0, err
	}
	cols := t.selectList()
	if f.OmitDocuments {
		cols = t.colListOmitting(jobDocuments)
	}
	out, err := t.queryCols(ctx, x, cols, w.String()+jobOrder(f)+page(f.Offset, f.Limit), w.args...)
	return out, total, err
}

// jobDocuments are the text columns of the job tables that JobFilter.OmitDocuments
// leaves unread (each table has some of them).
var jobDocuments = []string{"conf", "definition", "orig_definition"}

// Workflows.

func (x *txn) InsertWorkflowJob(ctx context.Context, j *store.WorkflowJob) error {
	return wfJobs.insert(ctx, x, j)
}
func (x *txn) GetWorkflowJob(ctx context.Context, id string) (store.WorkflowJob, error) {
	return wfJobs.get(ctx, x, id)
}
func (x *txn) UpdateWorkflowJob(ctx context.Context, j *store.WorkflowJob, from ...store.WorkflowStatus) error {
	return wfJobs.update(ctx, x, j, strs(from))
}
func (x *txn) ListWorkflowJobs(ctx context.Context, f store.JobFilter) ([]store.WorkflowJob, int, error) {
	return listJobs(ctx, x, wfJobs, f, "parent_id", "")
}
func (x *txn) DeleteWorkflowJob(ctx context.Context, id string) error {
	if _, err := x.tx.ExecContext(ctx, `DELETE FROM wf_actions WHERE job_id = $1`, id); err != nil {
		return x.mapErr(err, "deleting actions of workflow job %s", id)
	}
	return wfJobs.delete(ctx, x, id)
}
func (x *txn) InsertWorkflowAction(ctx context.Context, a *store.WorkflowAction) error {
	return wfActions.insert(ctx, x, a)
}
func (x *txn) GetWorkflowAction(ctx context.Context, id string) (store.WorkflowAction, error) {
	return wfActions.get(ctx, x, id)
}
func (x *txn) UpdateWorkflowAction(ctx context.Context, a *store.WorkflowAction, from ...store.ActionStatus) error {
	return wfActions.update(ctx, x, a, strs(from))
}
func (x *txn) ListWorkflowActions(ctx context.Context, jobID string) ([]store.WorkflowAction, error) {
	return wfActions.query(ctx, x, "WHERE job_id = $1 ORDER BY created_time, id", jobID)
}
func (x *txn) ListActionsByStatus(ctx context.Context, statuses []store.ActionStatus, limit int) ([]store.WorkflowAction, error) {
	w := &where{}
	w.in("status", strs(statuses), false)
	return wfActions.query(ctx, x, w.String()+" ORDER BY last_modified, id"+page(0, limit), w.args...)
}
func (x *txn) DeleteWorkflowAction(ctx context.Context, id string) error {
	return wfActions.delete(ctx, x, id)
}

// Coordinators.

func (x *txn) InsertCoordJob(ctx context.Context, j *store.CoordJob) error {
	return coordJobs.insert(ctx, x, j)
}
func (x *txn) GetCoordJob(ctx context.Context, id string) (store.CoordJob, error) {
	return coordJobs.get(ctx, x, id)
}
func (x *txn) UpdateCoordJob(ctx context.Context, j *store.CoordJob, from ...store.JobStatus) error {
	return coordJobs.update(ctx, x, j, strs(from))
}
func (x *txn) LockCoordJob(ctx context.Context, id string) (store.CoordJob, error) {
	return coordJobs.getForUpdate(ctx, x, id)
}
func (x *txn) ListCoordJobs(ctx context.Context, f store.JobFilter) ([]store.CoordJob, int, error) {
	return listJobs(ctx, x, coordJobs, f, "", "bundle_id")
}
func (x *txn) DeleteCoordJob(ctx context.Context, id string) error {
	if _, err := x.tx.ExecContext(ctx, `DELETE FROM coord_actions WHERE job_id = $1`, id); err != nil {
		return x.mapErr(err, "deleting actions of coordinator job %s", id)
	}
	return coordJobs.delete(ctx, x, id)
}
func (x *txn) InsertCoordAction(ctx context.Context, a *store.CoordAction) error {
	return coordActions.insert(ctx, x, a)
}
func (x *txn) InsertCoordActions(ctx context.Context, as []*store.CoordAction) error {
	return coordActions.insertMany(ctx, x, as)
}
func (x *txn) GetCoordAction(ctx context.Context, id string) (store.CoordAction, error) {
	return coordActions.get(ctx, x, id)
}
func (x *txn) UpdateCoordAction(ctx context.Context, a *store.CoordAction, from ...store.CoordActionStatus) error {
	return coordActions.update(ctx, x, a, strs(from))
}

// coordActionWhere builds the WHERE clause of a coordinator action filter.
func (x *txn) coordActionWhere(f store.CoordActionFilter) *where {
	w := &where{}
	w.add("job_id = %s", f.JobID)
	w.in("status", strs(f.Statuses), false)
	w.in("status", strs(f.NotStatuses), true)
	if f.PendingOnly {
		w.add("pending = %s", true)
	}
	if !f.NominalFrom.IsZero() {
		w.add("nominal_time >= %s", x.d.tv(f.NominalFrom))
	}
	if !f.NominalTo.IsZero() {
		w.add("nominal_time < %s", x.d.tv(f.NominalTo))
	}
	return w
}
func (x *txn) CountCoordActionsWhere(ctx context.Context, f store.CoordActionFilter) (int, error) {
	return x.count(ctx, coordActions.name, x.coordActionWhere(f))
}

// PresentCoordActionStatuses probes the (job_id, status) index once per
// status in one statement.
func (x *txn) PresentCoordActionStatuses(ctx context.Context, jobID string) ([]store.CoordActionStatus, error) {
	parts := make([]string, len(store.CoordActionStatuses))
	args := []any{jobID}
	for i, s := range store.CoordActionStatuses {
		args = append(args, string(s))
		parts[i] = fmt.Sprintf("SELECT %d AS n WHERE EXISTS (SELECT 1 FROM coord_actions WHERE job_id = $1 AND status = $%d)", i, i+2)
	}
	rows, err := x.tx.QueryContext(ctx, strings.Join(parts, " UNION ALL ")+" ORDER BY n", args...)
	if err != nil {
		return nil, x.mapErr(err, "finding the action statuses of coordinator job %s", jobID)
	}
	defer rows.Close()
	var out []store.CoordActionStatus
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("finding the action statuses of coordinator job %s: %w", jobID, err)
		}
		out = append(out, store.CoordActionStatuses[n])
	}
	return out, rows.Err()
}
func (x *txn) ListCoordActions(ctx context.Context, f store.CoordActionFilter) ([]store.CoordAction, int, error) {
	total, err := x.count(ctx, coordActions.name, x.coordActionWhere(f))
	if err != nil {
		return nil, 0, err
	}
	out, err := x.ListCoordActionsPage(ctx, f)
	return out, total, err
}

func (x *txn) ListCoordActionsPage(ctx context.Context, f store.CoordActionFilter) ([]store.CoordAction, error) {
	w := x.coordActionWhere(f)
	order := " ORDER BY nominal_time, action_number"
	if f.Desc {
		order = " ORDER BY nominal_time DESC, action_number DESC"
	}
	exprs := map[string]string{}
	if f.OmitActionXML {
		exprs["action_xml"] = "''"
	}
	scan := coordActions.fields
	if f.JobConf != "" {
		exprs["created_conf"] = "NULLIF(created_conf, " + w.arg(f.JobConf) + ")"
		scan = func(d *Dialect, r *store.CoordAction) []any {
			dest := coordActions.fields(d, r)
			dest[createdConfField] = sameAs{&r.CreatedConf, &f.JobConf}
			return dest
		}
	}
	cols := coordActions.selectListWith(exprs)
	return coordActions.queryWith(ctx, x, cols, scan, w.String()+order+page(f.Offset, f.Limit), w.args...)
}

// createdConfField is the index of created_conf among coordActions' columns.
var createdConfField = slices.Index(coordActions.cols, "created_conf")

func (x *txn) GetCoordJobCounting(ctx context.Context, id string, f store.CoordActionFilter) (store.CoordJob, int, error) {
	f.JobID = id
	w := x.coordActionWhere(f)
	args := append(w.args, id)
	q := fmt.Sprintf("SELECT %s, (SELECT COUNT(*) FROM coord_actions %s) FROM coord_jobs WHERE id = $%d",
		coordJobs.colListOmitting(jobDefinitions), w.String(), len(args))
	var j store.CoordJob
	var total int
	err := x.tx.QueryRowContext(ctx, q, args...).Scan(append(coordJobs.fields(x.d, &j), &total)...)
	if err != nil {
		return store.CoordJob{}, 0, x.mapErr(err, "getting coordinator job %s", id)
	}
	return j, total, nil
}

// jobDefinitions are the columns GetCoordJobCounting leaves out.
var jobDefinitions = []string{"definition", "orig_definition"}

func (x *txn) CountCoordActions(ctx context.Context, jobID string) (map[store.CoordActionStatus]int, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT status, COUNT(*) FROM coord_actions WHERE job_id = $1 GROUP BY status`, jobID)
	if err != nil {
		return nil, x.mapErr(err, "counting actions of coordinator job %s", jobID)
	}
	defer rows.Close()
	out := map[store.CoordActionStatus]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, fmt.Errorf("counting actions of coordinator job %s: %w", jobID, err)
		}
		out[store.CoordActionStatus(s)] = n
	}
	return out, rows.Err()
}
func (x *txn) DeleteCoordActions(ctx context.Context, jobID string, olderThan time.Time, limit int) (int, error) {
	w := &where{}
	w.add("job_id = %s", jobID)
	w.add("last_modified < %s", x.d.tv(olderThan))
	var terminal []string
	for _, s := range store.CoordActionStatuses {
		if s.Terminal() {
			terminal = append(terminal, string(s))
		}
	}
	w.in("status", terminal, false)
	q := fmt.Sprintf(`DELETE FROM coord_actions WHERE id IN (SELECT id FROM coord_actions %s ORDER BY action_number%s)`, w, page(0, limit))
	res, err := x.tx.ExecContext(ctx, q, w.args...)
	if err != nil {
		return 0, x.mapErr(err, "purging actions of coordinator job %s", jobID)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
func (x *txn) DeleteCoordAction(ctx context.Context, id string) error {
	return coordActions.delete(ctx, x, id)
}

// SetCoordWaits replaces an action's rows in coord_waits; the primary key
// (uri, action_id) makes a lookup by URI one index range.
func (x *txn) SetCoordWaits(ctx context.Context, actionID string, uris []string) error {
	if _, err := x.tx.ExecContext(ctx, `DELETE FROM coord_waits WHERE action_id = $1`, actionID); err != nil {
		return x.mapErr(err, "clearing waits of coordinator action %s", actionID)
	}
	seen := make(map[string]bool, len(uris))
	for _, u := range uris {
		if u == "" || seen[u] {
			continue
		}
		seen[u] = true
		if _, err := x.tx.ExecContext(ctx, `INSERT INTO coord_waits (uri, action_id) VALUES ($1, $2)`, u, actionID); err != nil {
			return x.mapErr(err, "recording wait of coordinator action %s on %s", actionID, u)
		}
	}
	return nil
}
func (x *txn) ListCoordWaiters(ctx context.Context, uri string) ([]string, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT action_id FROM coord_waits WHERE uri = $1 ORDER BY action_id`, uri)
	if err != nil {
		return nil, x.mapErr(err, "listing actions waiting on %s", uri)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("listing actions waiting on %s: %w", uri, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Bundles.

func (x *txn) InsertBundleJob(ctx context.Context, j *store.BundleJob) error {
	return bundleJobs.insert(ctx, x, j)
}
func (x *txn) GetBundleJob(ctx context.Context, id string) (store.BundleJob, error) {
	return bundleJobs.get(ctx, x, id)
}
func (x *txn) UpdateBundleJob(ctx context.Context, j *store.BundleJob, from ...store.JobStatus) error {
	return bundleJobs.update(ctx, x, j, strs(from))
}
func (x *txn) ListBundleJobs(ctx context.Context, f store.JobFilter) ([]store.BundleJob, int, error) {
	return listJobs(ctx, x, bundleJobs, f, "", "")
}
func (x *txn) DeleteBundleJob(ctx context.Context, id string) error {
	if _, err := x.tx.ExecContext(ctx, `DELETE FROM bundle_actions WHERE bundle_id = $1`, id); err != nil {
		return x.mapErr(err, "deleting actions of bundle job %s", id)
	}
	return bundleJobs.delete(ctx, x, id)
}
func (x *txn) InsertBundleAction(ctx context.Context, a *store.BundleAction) error {
	return bundleActions.insert(ctx, x, a)
}
func (x *txn) UpdateBundleAction(ctx context.Context, a *store.BundleAction) error {
	return bundleActions.update(ctx, x, a, nil)
}
func (x *txn) ListBundleActions(ctx context.Context, bundleID string) ([]store.BundleAction, error) {
	return bundleActions.query(ctx, x, "WHERE bundle_id = $1 ORDER BY coord_name", bundleID)
}

// Servers.

func (x *txn) Heartbeat(ctx context.Context, s store.ServerInstance) error {
	_, err := x.tx.ExecContext(ctx, `INSERT INTO server_instances (id, host, version, started_at, heartbeat)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (id) DO UPDATE SET host = excluded.host, version = excluded.version, heartbeat = excluded.heartbeat`,
		s.ID, s.Host, s.Version, x.d.tv(s.StartedAt), x.d.tv(s.Heartbeat))
	return x.wrap(err, "recording heartbeat of %s", s.ID)
}

func (x *txn) ListServers(ctx context.Context, aliveSince time.Time) ([]store.ServerInstance, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT id, host, version, started_at, heartbeat FROM server_instances
WHERE heartbeat >= $1 ORDER BY id`, x.d.tv(aliveSince))
	if err != nil {
		return nil, x.mapErr(err, "listing servers")
	}
	defer rows.Close()
	var out []store.ServerInstance
	for rows.Next() {
		var s store.ServerInstance
		if err := rows.Scan(&s.ID, &s.Host, &s.Version, x.d.tm(&s.StartedAt), x.d.tm(&s.Heartbeat)); err != nil {
			return nil, fmt.Errorf("listing servers: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func (x *txn) AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (bool, error) {
	res, err := x.tx.ExecContext(ctx, `INSERT INTO leases (name, owner, expires) VALUES ($1, $2, $3)
ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
WHERE leases.owner = excluded.owner OR leases.expires < $4`, name, owner, x.d.tv(until), x.d.tv(now))
	if err != nil {
		return false, x.mapErr(err, "acquiring lease %s", name)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
