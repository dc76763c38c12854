package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

// The multi-row operations of store.Batches. Long lists are cut into
// chunks of at most batchRows rows (or ids), well within both databases'
// limits on the number of parameters of one statement.
const batchRows = 500

// chunks calls fn with consecutive pieces of at most n elements of s.
func chunks[T any](s []T, n int, fn func([]T) error) error {
	for start := 0; start < len(s); start += n {
		if err := fn(s[start:min(start+n, len(s))]); err != nil {
			return err
		}
	}
	return nil
}

// sortedIDs returns ids sorted and without duplicates (a copy): rows are
// read and locked in id order, so that two transactions locking
// overlapping sets never wait on each other in a cycle.
func sortedIDs(ids []string) []string {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	return slices.Compact(sorted)
}

// inList returns "$k, $k+1, ..." for vals, appending them to args.
func inList[T any](args *[]any, vals []T) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		*args = append(*args, v)
		fmt.Fprintf(&b, "$%d", len(*args))
	}
	return b.String()
}

// triggerClaim is the claim state of one trigger row, read under its lock.
type triggerClaim struct {
	seq       int64
	owner     string
	requeue   time.Time
	cancelled bool
}

// ReleaseTriggers reads the claim state of every row under its lock (the
// rows in id order), checks every lease, and then applies Release's rule to
// each: deleted when nothing is due any more, else due at the earlier of
// the next time and a Schedule made during the lease. The deletes are one
// statement, the updates one per distinct due time.
func (x *txn) ReleaseTriggers(ctx context.Context, rs []store.TriggerRelease) error {
	if len(rs) == 0 {
		return nil
	}
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.Trigger.ID
	}
	slices.Sort(ids)
	claims := make(map[int64]triggerClaim, len(rs))
	err := chunks(ids, batchRows, func(part []int64) error {
		var args []any
		q := `SELECT id, lease_seq, lease_owner, requeue_at, cancelled FROM triggers WHERE id IN (` +
			inList(&args, part) + `) ORDER BY id` + x.d.LockRow
		rows, err := x.tx.QueryContext(ctx, q, args...)
		if err != nil {
			return x.mapErr(err, "locking %d triggers", len(part))
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var c triggerClaim
			if err := rows.Scan(&id, &c.seq, &c.owner, x.d.tm(&c.requeue), &c.cancelled); err != nil {
				return fmt.Errorf("locking %d triggers: %w", len(part), err)
			}
			claims[id] = c
		}
		return x.wrap(rows.Err(), "locking %d triggers", len(part))
	})
	if err != nil {
		return err
	}
	var lost []string
	var del []int64
	due := map[time.Time][]int64{}
	for _, r := range rs {
		t := r.Trigger
		c, ok := claims[t.ID]
		if !ok || c.seq != t.LeaseSeq || c.owner != t.LeaseOwner || t.LeaseOwner == "" {
			lost = append(lost, string(t.Kind)+"/"+t.EntityID)
			continue
		}
		if c.requeue.IsZero() && (r.Next.IsZero() || c.cancelled) {
			del = append(del, t.ID)
			continue
		}
		at := store.StoredTime(earliest(r.Next, c.requeue))
		due[at] = append(due[at], t.ID)
	}
	if len(lost) > 0 {
		return fmt.Errorf("releasing triggers %s: %w", strings.Join(lost, ", "), store.ErrLeaseLost)
	}
	err = chunks(del, batchRows, func(part []int64) error {
		var args []any
		_, err := x.tx.ExecContext(ctx, `DELETE FROM triggers WHERE id IN (`+inList(&args, part)+`)`, args...)
		return x.wrap(err, "releasing %d triggers", len(part))
	})
	if err != nil {
		return err
	}
	for at, ids := range due {
		err := chunks(ids, batchRows, func(part []int64) error {
			args := []any{x.d.tv(at)}
			_, err := x.tx.ExecContext(ctx, `UPDATE triggers SET due_at = $1, attempts = 0, last_error = '',
  lease_owner = '', lease_expires = NULL, requeue_at = NULL, cancelled = FALSE
WHERE id IN (`+inList(&args, part)+`)`, args...)
			return x.wrap(err, "releasing %d triggers", len(part))
		})
		if err != nil {
			return err
		}
	}
	if len(due) > 0 {
		x.markScheduled()
	}
	return nil
}

// scheduleConflict is Schedule's rule for a trigger that exists already,
// shared with ScheduleTriggers so that the two never differ.
var scheduleConflict = scheduleTrigger[strings.Index(scheduleTrigger, "ON CONFLICT"):]

// ScheduleTriggers inserts or moves the triggers with multi-row upserts.
// PostgreSQL refuses an upsert that touches one row twice, so a trigger
// named twice is merged first.
func (x *txn) ScheduleTriggers(ctx context.Context, rs []store.ScheduleRequest) error {
	type key struct {
		kind   store.TriggerKind
		entity string
	}
	merged := make([]store.ScheduleRequest, 0, len(rs))
	at := make(map[key]int, len(rs))
	for _, r := range rs {
		if r.Kind == "" || r.EntityID == "" {
			return fmt.Errorf("scheduling trigger: empty kind or entity id")
		}
		if r.Due.IsZero() {
			return fmt.Errorf("scheduling trigger %s/%s: zero due time", r.Kind, r.EntityID)
		}
		k := key{r.Kind, r.EntityID}
		i, seen := at[k]
		if !seen {
			at[k] = len(merged)
			merged = append(merged, r)
			continue
		}
		m := &merged[i]
		m.Due = earliest(m.Due, r.Due)
		if r.Payload != "" {
			m.Payload = r.Payload
		}
	}
	if len(merged) == 0 {
		return nil
	}
	now := x.d.tv(time.Now())
	err := chunks(merged, batchRows/5*2, func(part []store.ScheduleRequest) error {
		var b strings.Builder
		b.WriteString(`INSERT INTO triggers (kind, entity_id, payload, due_at, created_time) VALUES `)
		args := make([]any, 0, 5*len(part))
		for i, r := range part {
			if i > 0 {
				b.WriteString(", ")
			}
			n := len(args)
			fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4, n+5)
			args = append(args, string(r.Kind), r.EntityID, r.Payload, x.d.tv(r.Due), now)
		}
		b.WriteString("\n")
		b.WriteString(scheduleConflict)
		_, err := x.tx.ExecContext(ctx, b.String(), args...)
		return x.wrap(err, "scheduling %d triggers", len(part))
	})
	if err != nil {
		return err
	}
	x.markScheduled()
	return nil
}

// GetCoordJobs reads jobs by id in chunks, in id order.
func (x *txn) GetCoordJobs(ctx context.Context, ids []string) ([]store.CoordJob, error) {
	return byIDs(ctx, x, coordJobs, ids)
}

// GetCoordActions reads coordinator actions by id in chunks, in id order.
func (x *txn) GetCoordActions(ctx context.Context, ids []string) ([]store.CoordAction, error) {
	return byIDs(ctx, x, coordActions, ids)
}

// byIDs reads the rows of t with the given ids that exist, in chunks, in
// id order.
func byIDs[T any](ctx context.Context, x *txn, t *table[T], ids []string) ([]T, error) {
	var out []T
	err := chunks(sortedIDs(ids), batchRows, func(part []string) error {
		var args []any
		rows, err := t.query(ctx, x, `WHERE id IN (`+inList(&args, part)+`) ORDER BY id`, args...)
		out = append(out, rows...)
		return err
	})
	return out, err
}

// GetCoordActionStates reads the status and version of actions by id in
// chunks.
func (x *txn) GetCoordActionStates(ctx context.Context, ids []string) (map[string]store.CoordActionState, error) {
	sorted := sortedIDs(ids)
	out := make(map[string]store.CoordActionState, len(sorted))
	err := chunks(sorted, batchRows, func(part []string) error {
		var args []any
		rows, err := x.tx.QueryContext(ctx, `SELECT id, status, version FROM coord_actions WHERE id IN (`+
			inList(&args, part)+`)`, args...)
		if err != nil {
			return x.mapErr(err, "reading %d coordinator actions", len(part))
		}
		defer rows.Close()
		for rows.Next() {
			var id, status string
			var v int64
			if err := rows.Scan(&id, &status, &v); err != nil {
				return fmt.Errorf("reading %d coordinator actions: %w", len(part), err)
			}
			out[id] = store.CoordActionState{Status: store.CoordActionStatus(status), Version: store.Version(v)}
		}
		return x.wrap(rows.Err(), "reading %d coordinator actions", len(part))
	})
	return out, err
}

// LockCoordJobVersions locks jobs by id, in id order, reading only their
// versions.
func (x *txn) LockCoordJobVersions(ctx context.Context, ids []string) (map[string]store.Version, error) {
	return x.coordJobVersions(ctx, ids, x.d.LockRow, "locking")
}

// GetCoordJobVersions reads the versions of jobs by id, in chunks,
// without locking them.
func (x *txn) GetCoordJobVersions(ctx context.Context, ids []string) (map[string]store.Version, error) {
	return x.coordJobVersions(ctx, ids, "", "reading the versions of")
}

// coordJobVersions reads the versions of jobs by id, in id order, each
// statement ending with lock (a dialect's row lock, or nothing); verb names
// the work in errors.
func (x *txn) coordJobVersions(ctx context.Context, ids []string, lock, verb string) (map[string]store.Version, error) {
	sorted := sortedIDs(ids)
	out := make(map[string]store.Version, len(sorted))
	err := chunks(sorted, batchRows, func(part []string) error {
		var args []any
		rows, err := x.tx.QueryContext(ctx, `SELECT id, version FROM coord_jobs WHERE id IN (`+inList(&args, part)+
			`) ORDER BY id`+lock, args...)
		if err != nil {
			return x.mapErr(err, "%s %d coordinator jobs", verb, len(part))
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var v int64
			if err := rows.Scan(&id, &v); err != nil {
				return fmt.Errorf("%s %d coordinator jobs: %w", verb, len(part), err)
			}
			out[id] = store.Version(v)
		}
		return x.wrap(rows.Err(), "%s %d coordinator jobs", verb, len(part))
	})
	return out, err
}

// CountCoordActionsByJob counts with one grouped statement per chunk of
// jobs, on the (job_id, status) index.
func (x *txn) CountCoordActionsByJob(ctx context.Context, jobIDs []string, statuses []store.CoordActionStatus) (map[string]int, error) {
	out := make(map[string]int, len(jobIDs))
	err := chunks(jobIDs, batchRows, func(part []string) error {
		var args []any
		q := `SELECT job_id, COUNT(*) FROM coord_actions WHERE job_id IN (` + inList(&args, part) + `)`
		if len(statuses) > 0 {
			q += ` AND status IN (` + inList(&args, strs(statuses)) + `)`
		}
		rows, err := x.tx.QueryContext(ctx, q+` GROUP BY job_id`, args...)
		if err != nil {
			return x.mapErr(err, "counting actions of %d coordinator jobs", len(part))
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				return fmt.Errorf("counting actions of %d coordinator jobs: %w", len(part), err)
			}
			out[id] = n
		}
		return x.wrap(rows.Err(), "counting actions of %d coordinator jobs", len(part))
	})
	return out, err
}

// SetCoordWaitsMany clears the actions' waits with one statement and
// inserts the new ones with multi-row statements.
func (x *txn) SetCoordWaitsMany(ctx context.Context, waits map[string][]string) error {
	if len(waits) == 0 {
		return nil
	}
	ids := make([]string, 0, len(waits))
	for id := range waits {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	err := chunks(ids, batchRows, func(part []string) error {
		var args []any
		_, err := x.tx.ExecContext(ctx, `DELETE FROM coord_waits WHERE action_id IN (`+inList(&args, part)+`)`, args...)
		return x.wrap(err, "clearing waits of %d coordinator actions", len(part))
	})
	if err != nil {
		return err
	}
	type wait struct{ uri, action string }
	var rows []wait
	for _, id := range ids {
		seen := make(map[string]bool, len(waits[id]))
		for _, u := range waits[id] {
			if u != "" && !seen[u] {
				seen[u] = true
				rows = append(rows, wait{u, id})
			}
		}
	}
	return chunks(rows, batchRows, func(part []wait) error {
		var b strings.Builder
		b.WriteString(`INSERT INTO coord_waits (uri, action_id) VALUES `)
		args := make([]any, 0, 2*len(part))
		for i, w := range part {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "($%d, $%d)", len(args)+1, len(args)+2)
			args = append(args, w.uri, w.action)
		}
		_, err := x.tx.ExecContext(ctx, b.String(), args...)
		return x.wrap(err, "recording waits of %d coordinator actions", len(part))
	})
}

// timeType is the SQL type of a time column, for the casts of a VALUES list.
func (x *txn) timeType() string {
	if x.d.NativeTime {
		return "TIMESTAMPTZ"
	}
	return "INTEGER"
}

// valuesUpdate is a compare-and-set UPDATE of many rows of a table joined
// to a VALUES list v of their new columns: one statement per chunk, which
// finds each row by its primary key. Every value is cast, since PostgreSQL
// types the columns of a VALUES list of parameters as text otherwise.
type valuesUpdate[T any] struct {
	noun  string   // for errors: "coordinator jobs"
	cols  []string // v's columns, the first two id and version
	types []string // the SQL type of each of cols
	// values returns a row's values, one for each of cols.
	values func(T) []any
	// set and where are the UPDATE's SET list and the condition after
	// "FROM v WHERE"; $X in where is the first of extra's parameters.
	set, where string
	extra      []any
	// written is called for each row once its chunk is written.
	written func(T)
}

// run writes rows; if one of a chunk's rows does not match (version,
// where's condition, or gone), it returns store.ErrConflict and the caller
// must roll back.
func (u valuesUpdate[T]) run(ctx context.Context, x *txn, table string, rows []T) error {
	casts := make([]string, len(u.cols))
	for i, t := range u.types {
		casts[i] = "CAST($%d AS " + t + ")"
	}
	tuple := "(" + strings.Join(casts, ", ") + ")"
	return chunks(rows, batchRows/4, func(part []T) error {
		var b strings.Builder
		fmt.Fprintf(&b, "WITH v (%s) AS (VALUES ", strings.Join(u.cols, ", "))
		args := make([]any, 0, len(u.cols)*len(part)+len(u.extra))
		for i, r := range part {
			if i > 0 {
				b.WriteString(", ")
			}
			nums := make([]any, len(u.cols))
			for k := range nums {
				nums[k] = len(args) + k + 1
			}
			fmt.Fprintf(&b, tuple, nums...)
			args = append(args, u.values(r)...)
		}
		where := strings.ReplaceAll(u.where, "$X", fmt.Sprintf("$%d", len(args)+1))
		args = append(args, u.extra...)
		fmt.Fprintf(&b, ")\nUPDATE %[1]s SET %[2]s, version = %[1]s.version + 1\nFROM v WHERE %[1]s.id = v.id AND %[1]s.version = v.version%[3]s",
			table, u.set, where)
		res, err := x.tx.ExecContext(ctx, b.String(), args...)
		if err != nil {
			return x.mapErr(err, "updating %d %s", len(part), u.noun)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("updating %d %s: %w", len(part), u.noun, err)
		} else if int(n) != len(part) {
			return fmt.Errorf("updating %d %s: %d of them gone or changed: %w", len(part), u.noun,
				len(part)-int(n), store.ErrConflict)
		}
		for _, r := range part {
			u.written(r)
		}
		return nil
	})
}

// UpdateCoordJobsProgress writes the jobs' progress columns by
// compare-and-set (valuesUpdate).
func (x *txn) UpdateCoordJobsProgress(ctx context.Context, jobs []*store.CoordJob) error {
	tt := x.timeType()
	return valuesUpdate[*store.CoordJob]{
		noun: "coordinator jobs",
		cols: []string{"id", "version", "status", "last_action_number", "last_action_time", "next_materialized_time",
			"done_materialization", "last_modified"},
		types: []string{"TEXT", "BIGINT", "TEXT", "INTEGER", tt, tt, "BOOLEAN", tt},
		values: func(j *store.CoordJob) []any {
			return []any{j.ID, int64(j.Version), string(j.Status), j.LastActionNumber, x.d.tv(j.LastActionTime),
				x.d.tv(j.NextMaterializedTime), j.DoneMaterialization, x.d.tv(j.LastModified)}
		},
		set: `status = v.status, last_action_number = v.last_action_number,
  last_action_time = v.last_action_time, next_materialized_time = v.next_materialized_time,
  done_materialization = v.done_materialization, last_modified = v.last_modified`,
		written: func(j *store.CoordJob) { j.Version++ },
	}.run(ctx, x, "coord_jobs", jobs)
}

// UpdateCheckedCoordActions writes the actions' checked columns by
// compare-and-set (valuesUpdate), on their stored status being from too.
func (x *txn) UpdateCheckedCoordActions(ctx context.Context, actions []*store.CoordAction, from store.CoordActionStatus) error {
	return valuesUpdate[*store.CoordAction]{
		noun: "coordinator actions",
		cols: []string{"id", "version", "status", "missing_dependencies", "action_xml", "error_code", "error_message",
			"last_modified"},
		types: []string{"TEXT", "BIGINT", "TEXT", "TEXT", "TEXT", "TEXT", "TEXT", x.timeType()},
		values: func(a *store.CoordAction) []any {
			return []any{a.ID, int64(a.Version), string(a.Status), a.MissingDependencies, a.ActionXML,
				a.ErrorCode, a.ErrorMessage, x.d.tv(a.LastModified)}
		},
		set: `status = v.status, missing_dependencies = v.missing_dependencies, action_xml = v.action_xml,
  error_code = v.error_code, error_message = v.error_message, last_modified = v.last_modified`,
		where:   " AND coord_actions.status = $X",
		extra:   []any{string(from)},
		written: func(a *store.CoordAction) { a.Version++ },
	}.run(ctx, x, "coord_actions", actions)
}
