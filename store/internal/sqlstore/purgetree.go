package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

// The pieces the purge passes (purge.go) are built from: id-list statements,
// workflow trees, and the removal of a job with everything hanging off it.

// purgeChunk bounds the ids bound to one statement, well inside both
// databases' parameter limits.
const purgeChunk = 500

// idsMarker stands for the placeholders of an id list in the statements of
// execIn and queryIn.
const idsMarker = "{ids}"

// inStatement replaces every idsMarker of q by placeholders for chunk,
// numbered after args, and returns the statement with all its arguments.
func inStatement(q string, chunk []string, args []any) (string, []any) {
	all := make([]any, 0, len(args)+len(chunk))
	all = append(all, args...)
	for _, id := range chunk {
		all = append(all, id)
	}
	return strings.ReplaceAll(q, idsMarker, placeholders(len(args)+1, len(chunk))), all
}

// execIn runs q once per chunk of ids and returns the rows affected.
func (x *txn) execIn(ctx context.Context, what, q string, ids []string, args ...any) (int, error) {
	n := 0
	for start := 0; start < len(ids); start += purgeChunk {
		stmt, all := inStatement(q, ids[start:min(start+purgeChunk, len(ids))], args)
		res, err := x.tx.ExecContext(ctx, stmt, all...)
		if err != nil {
			return n, x.mapErr(err, "%s", what)
		}
		k, err := res.RowsAffected()
		if err != nil {
			return n, fmt.Errorf("%s: %w", what, err)
		}
		n += int(k)
	}
	return n, nil
}

// queryIn runs q once per chunk of ids and calls scan for every row.
func (x *txn) queryIn(ctx context.Context, what, q string, ids []string, scan func(*sql.Rows) error, args ...any) error {
	for start := 0; start < len(ids); start += purgeChunk {
		stmt, all := inStatement(q, ids[start:min(start+purgeChunk, len(ids))], args)
		rows, err := x.tx.QueryContext(ctx, stmt, all...)
		if err != nil {
			return x.mapErr(err, "%s", what)
		}
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return fmt.Errorf("%s: %w", what, err)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	return nil
}

// terminalList returns the statuses for which terminal is true.
func terminalList[S ~string](all []S, terminal func(S) bool) []string {
	var out []string
	for _, s := range all {
		if terminal(s) {
			out = append(out, string(s))
		}
	}
	return out
}

// sqlList quotes constant statuses for an IN list.
func sqlList(statuses []string) string {
	q := make([]string, len(statuses))
	for i, s := range statuses {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}

// Terminal statuses, as Go lists and as SQL IN lists.
var (
	wfTerminal        = terminalList(store.WorkflowStatuses, store.WorkflowStatus.Terminal)
	jobTerminal       = terminalList(store.JobStatuses, store.JobStatus.Terminal)
	actionTerminal    = terminalList(store.CoordActionStatuses, store.CoordActionStatus.Terminal)
	actionTerminalSQL = sqlList(actionTerminal)
)

// oldWorkflow reports whether a workflow is old: terminal and last modified
// before cut. A row without a last-modified time is never old.
func oldWorkflow(status string, lm, cut time.Time) bool {
	return store.WorkflowStatus(status).Terminal() && !lm.IsZero() && lm.Before(cut)
}

// wfTree is the workflows under one root and whether all of them are old.
type wfTree struct {
	ids []string
	old bool
}

// wfRow is what the purge reads of a workflow.
type wfRow struct {
	id, parent, status string
	lm                 time.Time
}

// wfRows runs a select of (id, parent_id, status, last_modified) over ids.
func (x *txn) wfRows(ctx context.Context, what, q string, ids []string) ([]wfRow, error) {
	var out []wfRow
	err := x.queryIn(ctx, what, q, ids, func(rows *sql.Rows) error {
		var r wfRow
		err := rows.Scan(&r.id, &r.parent, &r.status, x.d.tm(&r.lm))
		out = append(out, r)
		return err
	})
	return out, err
}

// childrenOf returns the workflows whose parent is one of parents.
func (x *txn) childrenOf(ctx context.Context, parents []string) ([]wfRow, error) {
	return x.wfRows(ctx, "finding sub-workflows", `SELECT id, parent_id, status, last_modified FROM wf_jobs
WHERE parent_id IN (`+idsMarker+`)`, parents)
}

// walkDown calls visit for level and then for their sub-workflows, level by
// level through the parent_id index, until visit returns false. A workflow
// seen before (a cycle of parent ids) is not visited again.
func (x *txn) walkDown(ctx context.Context, level []wfRow, visit func(wfRow) bool) error {
	seen := map[string]bool{}
	for len(level) > 0 {
		var ids []string
		for _, r := range level {
			if seen[r.id] {
				continue
			}
			seen[r.id] = true
			if !visit(r) {
				return nil
			}
			ids = append(ids, r.id)
		}
		var err error
		if level, err = x.childrenOf(ctx, ids); err != nil {
			return err
		}
	}
	return nil
}

// workflowTrees returns, per root, the workflows under it. With self the
// roots are workflows, and a tree holds the root and its sub-workflows at
// any depth; otherwise the roots are coordinator actions, and a tree holds
// the workflows the action ran (their parent is the action) and theirs. A
// root without workflows has no entry.
func (x *txn) workflowTrees(ctx context.Context, roots []string, self bool, cut time.Time) (map[string]*wfTree, error) {
	var level []wfRow
	var err error
	if self {
		level, err = x.wfRows(ctx, "reading purge candidates", `SELECT id, parent_id, status, last_modified FROM wf_jobs
WHERE id IN (`+idsMarker+`)`, roots)
	} else {
		level, err = x.childrenOf(ctx, roots)
	}
	if err != nil {
		return nil, err
	}
	rootOf := map[string]string{}
	for _, r := range level {
		rootOf[r.id] = r.parent
		if self {
			rootOf[r.id] = r.id
		}
	}
	trees := map[string]*wfTree{}
	err = x.walkDown(ctx, level, func(r wfRow) bool {
		root, ok := rootOf[r.id]
		if !ok {
			root = rootOf[r.parent]
			rootOf[r.id] = root
		}
		t := trees[root]
		if t == nil {
			t = &wfTree{old: true}
			trees[root] = t
		}
		t.ids = append(t.ids, r.id)
		t.old = t.old && oldWorkflow(r.status, r.lm, cut)
		return true
	})
	return trees, err
}

// lockOld locks every workflow of trees (FOR UPDATE where the database
// locks rows) and re-reads it, and reports for each tree whether all its
// workflows are still there and old: a workflow rerun since the trees were
// read is seen here, and its tree is left alone.
func (x *txn) lockOld(ctx context.Context, trees []*wfTree, cut time.Time) ([]bool, error) {
	var all []string
	for _, t := range trees {
		all = append(all, t.ids...)
	}
	fresh := make(map[string]bool, len(all))
	err := x.queryIn(ctx, "locking workflows to purge", `SELECT id, status, last_modified FROM wf_jobs
WHERE id IN (`+idsMarker+`) ORDER BY id`+x.d.LockRow, all, func(rows *sql.Rows) error {
		var id, status string
		var lm time.Time
		if err := rows.Scan(&id, &status, x.d.tm(&lm)); err != nil {
			return err
		}
		fresh[id] = oldWorkflow(status, lm, cut)
		return nil
	})
	if err != nil {
		return nil, err
	}
	ok := make([]bool, len(trees))
	for i, t := range trees {
		ok[i] = !slices.ContainsFunc(t.ids, func(id string) bool { return !fresh[id] })
	}
	return ok, nil
}

// removeOwned deletes what hangs off ids (jobs or coordinator actions) by
// entity id: the SLA registrations of them or under them (a workflow's
// actions, a coordinator's actions) with their events, and the triggers of
// them, of their workflow actions and of those registrations. The audit
// records of jobs among ids go too (those of a coordinator's actions belong
// to the coordinator and go with it). The ids are
// looked up first so that every statement reads an index.
func (x *txn) removeOwned(ctx context.Context, ids []string) error {
	entities := slices.Clone(ids)
	var slaIDs []string
	collect := func(to *[]string) func(*sql.Rows) error {
		return func(rows *sql.Rows) error {
			var id string
			err := rows.Scan(&id)
			*to = append(*to, id)
			return err
		}
	}
	if err := x.queryIn(ctx, "listing actions of purged jobs", `SELECT id FROM wf_actions WHERE job_id IN (`+idsMarker+`)`,
		ids, collect(&entities)); err != nil {
		return err
	}
	if err := x.queryIn(ctx, "listing SLA registrations of purged jobs", `SELECT id FROM sla_registrations WHERE id IN (`+idsMarker+`)
UNION SELECT id FROM sla_registrations WHERE parent_id IN (`+idsMarker+`)`, ids, collect(&slaIDs)); err != nil {
		return err
	}
	slices.Sort(slaIDs)
	slaIDs = slices.Compact(slaIDs)
	entities = append(entities, slaIDs...)
	slices.Sort(entities)
	if _, err := x.execIn(ctx, "removing triggers of purged jobs", `DELETE FROM triggers WHERE entity_id IN (`+idsMarker+`)`,
		slices.Compact(entities)); err != nil {
		return err
	}
	if _, err := x.execIn(ctx, "removing SLA events of purged jobs", `DELETE FROM sla_events WHERE sla_id IN (`+idsMarker+`)`, slaIDs); err != nil {
		return err
	}
	if _, err := x.execIn(ctx, "removing audit records of purged jobs", `DELETE FROM job_audit WHERE job_id IN (`+idsMarker+`)`, ids); err != nil {
		return err
	}
	_, err := x.execIn(ctx, "removing SLA registrations of purged jobs", `DELETE FROM sla_registrations WHERE id IN (`+idsMarker+`)`, slaIDs)
	return err
}

// removeWorkflows deletes workflow jobs with their actions and what hangs
// off them, and returns how many jobs it deleted.
func (x *txn) removeWorkflows(ctx context.Context, ids []string) (int, error) {
	if err := x.removeOwned(ctx, ids); err != nil {
		return 0, err
	}
	if _, err := x.execIn(ctx, "removing action attempts of purged workflows", `DELETE FROM wf_action_attempts WHERE job_id IN (`+idsMarker+`)`, ids); err != nil {
		return 0, err
	}
	if _, err := x.execIn(ctx, "removing actions of purged workflows", `DELETE FROM wf_actions WHERE job_id IN (`+idsMarker+`)`, ids); err != nil {
		return 0, err
	}
	return x.execIn(ctx, "removing purged workflows", `DELETE FROM wf_jobs WHERE id IN (`+idsMarker+`)`, ids)
}

// removeCoordActions deletes coordinator actions with their waits and what
// hangs off them (not their workflows), and returns how many it deleted.
func (x *txn) removeCoordActions(ctx context.Context, ids []string) (int, error) {
	if err := x.removeOwned(ctx, ids); err != nil {
		return 0, err
	}
	if _, err := x.execIn(ctx, "removing waits of purged coordinator actions", `DELETE FROM coord_waits WHERE action_id IN (`+idsMarker+`)`, ids); err != nil {
		return 0, err
	}
	return x.execIn(ctx, "removing purged coordinator actions", `DELETE FROM coord_actions WHERE id IN (`+idsMarker+`)`, ids)
}

// removeActionsIfOld removes the coordinator actions ids together with the
// workflows they ran, where all those workflows are old. With all, it
// removes nothing unless every action qualifies. It returns the actions and
// workflows removed and whether some action had to stay.
func (x *txn) removeActionsIfOld(ctx context.Context, ids []string, cut time.Time, all bool) (actions, workflows int, blocked bool, err error) {
	trees, err := x.workflowTrees(ctx, ids, false, cut)
	if err != nil {
		return 0, 0, false, err
	}
	var keep []string
	var keepTrees []*wfTree
	for _, id := range ids {
		switch t := trees[id]; {
		case t == nil:
			keep = append(keep, id)
			keepTrees = append(keepTrees, &wfTree{old: true})
		case t.old:
			keep = append(keep, id)
			keepTrees = append(keepTrees, t)
		default:
			blocked = true
		}
	}
	if blocked && all {
		return 0, 0, true, nil
	}
	fresh, err := x.lockOld(ctx, keepTrees, cut)
	if err != nil {
		return 0, 0, false, err
	}
	var acts, wfs []string
	for i, id := range keep {
		if !fresh[i] {
			blocked = true
			continue
		}
		acts = append(acts, id)
		wfs = append(wfs, keepTrees[i].ids...)
	}
	if blocked && all {
		return 0, 0, true, nil
	}
	if workflows, err = x.removeWorkflows(ctx, wfs); err != nil {
		return 0, 0, false, err
	}
	actions, err = x.removeCoordActions(ctx, acts)
	return actions, workflows, blocked, err
}

// removeCoordJobRow deletes a drained coordinator job and what hangs off it.
func (x *txn) removeCoordJobRow(ctx context.Context, id string) (int, error) {
	if err := x.removeOwned(ctx, []string{id}); err != nil {
		return 0, err
	}
	return x.execIn(ctx, "removing purged coordinator job", `DELETE FROM coord_jobs WHERE id IN (`+idsMarker+`)`, []string{id})
}

// removeBundleRow deletes a drained bundle job with its coordinator links
// and what hangs off it.
func (x *txn) removeBundleRow(ctx context.Context, id string) (int, error) {
	var owned []string
	err := x.queryIn(ctx, "listing actions of purged bundle", `SELECT id FROM bundle_actions WHERE bundle_id IN (`+idsMarker+`)`,
		[]string{id}, func(rows *sql.Rows) error {
			var a string
			err := rows.Scan(&a)
			owned = append(owned, a)
			return err
		})
	if err != nil {
		return 0, err
	}
	if err := x.removeOwned(ctx, append(owned, id)); err != nil {
		return 0, err
	}
	if _, err := x.execIn(ctx, "removing actions of purged bundle", `DELETE FROM bundle_actions WHERE bundle_id IN (`+idsMarker+`)`, []string{id}); err != nil {
		return 0, err
	}
	return x.execIn(ctx, "removing purged bundle", `DELETE FROM bundle_jobs WHERE id IN (`+idsMarker+`)`, []string{id})
}

// lockJobRow locks one coordinator or bundle row and reports whether it is
// still old: terminal and last modified before cut.
func (x *txn) lockJobRow(ctx context.Context, table, id string, cut time.Time) (bool, error) {
	var status string
	var lm time.Time
	err := x.tx.QueryRowContext(ctx, `SELECT status, last_modified FROM `+table+` WHERE id = $1`+x.d.LockRow, id).
		Scan(&status, x.d.tm(&lm))
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, x.mapErr(err, "locking %s %s to purge it", table, id)
	}
	return store.JobStatus(status).Terminal() && !lm.IsZero() && lm.Before(cut), nil
}

// actionsBlocked reports whether the coordinator actions matching cond (a
// condition on coord_actions with $1) cannot all go: one is not terminal,
// or a workflow under one is not old by wfCut. The action ids are read
// first, so that their workflows are found through the parent_id index.
func (x *txn) actionsBlocked(ctx context.Context, cond string, arg string, wfCut time.Time) (bool, error) {
	rows, err := x.tx.QueryContext(ctx, `SELECT id, status FROM coord_actions WHERE `+cond, arg)
	if err != nil {
		return false, x.mapErr(err, "checking actions to purge")
	}
	var ids []string
	blocked := false
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			rows.Close()
			return false, fmt.Errorf("checking actions to purge: %w", err)
		}
		ids = append(ids, id)
		blocked = blocked || !store.CoordActionStatus(status).Terminal()
	}
	err = rows.Err()
	rows.Close()
	if err != nil || blocked {
		return blocked, err
	}
	level, err := x.childrenOf(ctx, ids)
	if err != nil {
		return false, err
	}
	err = x.walkDown(ctx, level, func(r wfRow) bool {
		blocked = !oldWorkflow(r.status, r.lm, wfCut)
		return !blocked
	})
	return blocked, err
}

// drainCoordJob removes up to budget of a coordinator's actions (with their
// workflows) and, once none are left, the coordinator itself. It stops,
// removing nothing, at an action that cannot go. used counts the rows
// removed against the budget (actions, and the job's own row).
func (x *txn) drainCoordJob(ctx context.Context, id string, wfCut time.Time, budget int, res *store.PurgeResult) (used int, gone, blocked bool, err error) {
	var ids []string
	err = x.queryIn(ctx, "listing actions of a purged coordinator", `SELECT id, status FROM coord_actions WHERE job_id IN (`+idsMarker+`)
ORDER BY action_number LIMIT `+fmt.Sprint(budget), []string{id}, func(rows *sql.Rows) error {
		var a, status string
		if err := rows.Scan(&a, &status); err != nil {
			return err
		}
		if !store.CoordActionStatus(status).Terminal() {
			blocked = true
		}
		ids = append(ids, a)
		return nil
	})
	if err != nil || blocked {
		return 0, false, blocked, err
	}
	if len(ids) > 0 {
		acts, wfs, blocked, err := x.removeActionsIfOld(ctx, ids, wfCut, true)
		if err != nil || blocked {
			return 0, false, blocked, err
		}
		res.CoordActions += acts
		res.Workflows += wfs
	}
	if len(ids) == budget {
		return len(ids), false, false, nil // there may be more
	}
	n, err := x.removeCoordJobRow(ctx, id)
	res.Coordinators += n
	return len(ids) + 1, true, false, err
}
