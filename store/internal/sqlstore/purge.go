package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

// The purge passes (store.Purger). Candidates are read in (last_modified,
// id) order through the (status, last_modified) indexes, one status at a
// time, so a batch reads at most Limit rows per status however many old
// rows there are; rows examined that cannot go yet are passed by the
// cursor, and the next pass looks at them again.
//
// Before a batch removes anything it locks (FOR UPDATE on PostgreSQL) and
// re-reads what it decided on: a coordinator's or bundle's own row (the lock
// every coordinator transaction takes first) and every workflow it removes,
// so that a job rerun meanwhile is never removed. On SQLite the transaction
// is the only writer anyway.

// purgeKey is a position in a scan of old jobs: the (last_modified, id) of
// the last row examined; with resume, of a coordinator or bundle being
// drained, which the next batch takes up again without checking its whole
// tree once more (every removal still checks what it removes).
type purgeKey struct {
	lm     time.Time
	id     string
	resume bool
}

// String encodes k as "a|<ms>|<id>" or "r|<ms>|<id>" (ids escaped); the
// zero key is "".
func (k purgeKey) String() string {
	if k.id == "" {
		return ""
	}
	tag := "a"
	if k.resume {
		tag = "r"
	}
	return fmt.Sprintf("%s|%d|%s", tag, k.lm.UnixMilli(), url.QueryEscape(k.id))
}

func parsePurgeKey(s string) (purgeKey, error) {
	if s == "" {
		return purgeKey{}, nil
	}
	parts := strings.SplitN(s, "|", 3)
	if len(parts) != 3 || (parts[0] != "a" && parts[0] != "r") || parts[2] == "" {
		return purgeKey{}, fmt.Errorf("invalid purge cursor %q", s)
	}
	ms, err := strconv.ParseInt(parts[1], 10, 64)
	id, uerr := url.QueryUnescape(parts[2])
	if err != nil || uerr != nil || id == "" {
		return purgeKey{}, fmt.Errorf("invalid purge cursor %q", s)
	}
	return purgeKey{lm: time.UnixMilli(ms).UTC(), id: id, resume: parts[0] == "r"}, nil
}

// oldRow is one examined row of a scan of old jobs.
type oldRow struct {
	id     string
	parent string // parent_id of a workflow, bundle_id of a coordinator
	lm     time.Time
}

func (r oldRow) key(resume bool) purgeKey { return purgeKey{lm: r.lm, id: r.id, resume: resume} }

// scanOld returns up to limit rows of table in one of statuses and last
// modified before cut, after k (from k itself when k.resume), in
// (last_modified, id) order.
func (x *txn) scanOld(ctx context.Context, table, parentCol string, statuses []string, cut time.Time, k purgeKey, limit int) ([]oldRow, error) {
	var out []oldRow
	for _, status := range statuses {
		w := &where{}
		w.add("status = %s", status)
		w.add("last_modified < %s", x.d.tv(cut))
		if k.id != "" {
			op := ">"
			if k.resume {
				op = ">="
			}
			// The first condition alone is a range of the index; the
			// second places the cursor among rows of the same time.
			lm := x.d.tv(k.lm)
			w.add("last_modified >= %s", lm)
			w.add("(last_modified > %s OR id "+op+" %s)", lm, k.id)
		}
		q := fmt.Sprintf("SELECT id, %s, last_modified FROM %s %s ORDER BY last_modified, id LIMIT %d", parentCol, table, w, limit)
		rows, err := x.tx.QueryContext(ctx, q, w.args...)
		if err != nil {
			return nil, x.mapErr(err, "finding old rows of %s", table)
		}
		for rows.Next() {
			var r oldRow
			if err := rows.Scan(&r.id, &r.parent, x.d.tm(&r.lm)); err != nil {
				rows.Close()
				return nil, fmt.Errorf("finding old rows of %s: %w", table, err)
			}
			out = append(out, r)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("finding old rows of %s: %w", table, err)
		}
	}
	slices.SortFunc(out, func(a, b oldRow) int {
		if c := a.lm.Compare(b.lm); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	return out[:min(len(out), limit)], nil
}

// existing returns which of ids are rows of the tables.
func (x *txn) existing(ctx context.Context, ids []string, tables ...string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	parts := make([]string, len(tables))
	for i, t := range tables {
		parts[i] = "SELECT id FROM " + t + " WHERE id IN (" + idsMarker + ")"
	}
	err := x.queryIn(ctx, "looking up parents of purge candidates", strings.Join(parts, " UNION "), ids, func(rows *sql.Rows) error {
		var id string
		err := rows.Scan(&id)
		out[id] = true
		return err
	})
	return out, err
}

func checkBatch(b store.PurgeBatch) error {
	if b.Limit <= 0 {
		return fmt.Errorf("purge batch limit %d: must be positive", b.Limit)
	}
	return nil
}

// PurgeWorkflows implements store.Purger.
func (x *txn) PurgeWorkflows(ctx context.Context, b store.PurgeBatch) (store.PurgeResult, error) {
	var res store.PurgeResult
	k, err := parsePurgeKey(b.After)
	if err != nil {
		return res, err
	}
	if err := checkBatch(b); err != nil {
		return res, err
	}
	cut := b.Cutoffs.Workflow
	// Audit records of no job have no job to go with; they go by age.
	if err := x.purgeJoblessAudit(ctx, cut, b.Limit); err != nil {
		return res, fmt.Errorf("purging workflows: %w", err)
	}
	rows, err := x.scanOld(ctx, "wf_jobs", "parent_id", wfTerminal, cut, purgeKey{lm: k.lm, id: k.id}, b.Limit)
	if err != nil {
		return res, fmt.Errorf("purging workflows: %w", err)
	}
	if len(rows) == b.Limit {
		res.Next = rows[len(rows)-1].key(false).String()
	}
	// Roots: workflows without a parent, or whose parent (a workflow or a
	// coordinator action) is gone. The others go with their parent.
	var parents []string
	for _, r := range rows {
		if r.parent != "" {
			parents = append(parents, r.parent)
		}
	}
	present, err := x.existing(ctx, parents, "wf_jobs", "coord_actions")
	if err != nil {
		return res, fmt.Errorf("purging workflows: %w", err)
	}
	var roots []string
	for _, r := range rows {
		if r.parent == "" || !present[r.parent] {
			roots = append(roots, r.id)
		}
	}
	trees, err := x.workflowTrees(ctx, roots, true, cut)
	if err != nil {
		return res, fmt.Errorf("purging workflows: %w", err)
	}
	var old []*wfTree
	for _, id := range roots {
		if t := trees[id]; t != nil && t.old {
			old = append(old, t)
		}
	}
	fresh, err := x.lockOld(ctx, old, cut)
	if err != nil {
		return res, fmt.Errorf("purging workflows: %w", err)
	}
	var ids []string
	for i, t := range old {
		if fresh[i] {
			ids = append(ids, t.ids...)
		}
	}
	if res.Workflows, err = x.removeWorkflows(ctx, ids); err != nil {
		return res, fmt.Errorf("purging workflows: %w", err)
	}
	return res, nil
}

// actionCursor is a position of the coordinator action pass: after job
// (all its old actions examined), or, with action set, inside job after the
// action (nominal, action).
type actionCursor struct {
	job     string
	nominal time.Time
	action  string
}

// String encodes c as "j|<job>" or "a|<ms>|<action>|<job>" (ids escaped);
// the zero cursor is "".
func (c actionCursor) String() string {
	switch {
	case c.job == "":
		return ""
	case c.action == "":
		return "j|" + url.QueryEscape(c.job)
	}
	return fmt.Sprintf("a|%d|%s|%s", c.nominal.UnixMilli(), url.QueryEscape(c.action), url.QueryEscape(c.job))
}

func parseActionCursor(s string) (actionCursor, error) {
	bad := fmt.Errorf("invalid purge cursor %q", s)
	switch {
	case s == "":
		return actionCursor{}, nil
	case strings.HasPrefix(s, "j|"):
		job, err := url.QueryUnescape(s[2:])
		if err != nil || job == "" {
			return actionCursor{}, bad
		}
		return actionCursor{job: job}, nil
	case strings.HasPrefix(s, "a|"):
		parts := strings.Split(s[2:], "|")
		if len(parts) != 3 {
			return actionCursor{}, bad
		}
		ms, err := strconv.ParseInt(parts[0], 10, 64)
		action, aerr := url.QueryUnescape(parts[1])
		job, jerr := url.QueryUnescape(parts[2])
		if err != nil || aerr != nil || jerr != nil || action == "" || job == "" {
			return actionCursor{}, bad
		}
		return actionCursor{job: job, nominal: time.UnixMilli(ms).UTC(), action: action}, nil
	}
	return actionCursor{}, bad
}

// oldAction is one candidate of the coordinator action pass.
type oldAction struct {
	id      string
	nominal time.Time
}

// oldActions returns up to limit of job's terminal actions whose nominal
// time and last modification are before cut, in (nominal_time, id) order,
// after from when from.action is set. Bounding the nominal time keeps the
// read on the (job_id, nominal_time) index; an action that ended before
// its nominal time waits until that time is old too.
func (x *txn) oldActions(ctx context.Context, job string, cut time.Time, from actionCursor, limit int) ([]oldAction, error) {
	w := &where{}
	w.add("job_id = %s", job)
	c := x.d.tv(cut)
	w.add("nominal_time < %s AND last_modified < %s", c, c)
	w.conds = append(w.conds, "status IN ("+actionTerminalSQL+")")
	if from.action != "" {
		n := x.d.tv(from.nominal)
		w.add("nominal_time >= %s", n)
		w.add("(nominal_time > %s OR id > %s)", n, from.action)
	}
	rows, err := x.tx.QueryContext(ctx, fmt.Sprintf("SELECT id, nominal_time FROM coord_actions %s ORDER BY nominal_time, id LIMIT %d", w, limit), w.args...)
	if err != nil {
		return nil, x.mapErr(err, "finding old actions of coordinator job %s", job)
	}
	defer rows.Close()
	var out []oldAction
	for rows.Next() {
		var a oldAction
		if err := rows.Scan(&a.id, x.d.tm(&a.nominal)); err != nil {
			return nil, fmt.Errorf("finding old actions of coordinator job %s: %w", job, err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// PurgeCoordActions implements store.Purger. It visits coordinators in id
// order, at most Limit of them and Limit candidate actions per batch.
func (x *txn) PurgeCoordActions(ctx context.Context, b store.PurgeBatch) (store.PurgeResult, error) {
	var res store.PurgeResult
	cur, err := parseActionCursor(b.After)
	if err != nil {
		return res, err
	}
	if err := checkBatch(b); err != nil {
		return res, err
	}
	op := ">"
	if cur.action != "" {
		op = ">="
	}
	var jobs []string
	rows, err := x.tx.QueryContext(ctx, `SELECT id FROM coord_jobs WHERE id `+op+` $1 ORDER BY id LIMIT `+fmt.Sprint(b.Limit), cur.job)
	if err != nil {
		return res, x.mapErr(err, "purging coordinator actions: listing coordinators")
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return res, fmt.Errorf("purging coordinator actions: %w", err)
		}
		jobs = append(jobs, id)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return res, fmt.Errorf("purging coordinator actions: %w", err)
	}
	cut := b.Cutoffs.Workflow
	budget := b.Limit
	for _, job := range jobs {
		var from actionCursor
		if job == cur.job {
			from = cur
		}
		acts, err := x.oldActions(ctx, job, cut, from, budget)
		if err != nil || len(acts) == 0 {
			if err != nil {
				return res, fmt.Errorf("purging coordinator actions: %w", err)
			}
			continue
		}
		// The coordinator's lock first, as its own transactions take it;
		// then the candidates again, as they are now.
		if _, err := x.lockJobRow(ctx, "coord_jobs", job, time.Time{}); err != nil {
			return res, fmt.Errorf("purging coordinator actions: %w", err)
		}
		if acts, err = x.oldActions(ctx, job, cut, from, budget); err != nil {
			return res, fmt.Errorf("purging coordinator actions: %w", err)
		}
		ids := make([]string, len(acts))
		for i, a := range acts {
			ids[i] = a.id
		}
		n, wfs, _, err := x.removeActionsIfOld(ctx, ids, cut, false)
		if err != nil {
			return res, fmt.Errorf("purging coordinator actions: %w", err)
		}
		res.CoordActions += n
		res.Workflows += wfs
		if budget -= len(acts); budget <= 0 {
			last := acts[len(acts)-1]
			res.Next = actionCursor{job: job, nominal: last.nominal, action: last.id}.String()
			return res, nil
		}
	}
	if len(jobs) == b.Limit {
		res.Next = actionCursor{job: jobs[len(jobs)-1]}.String()
	}
	return res, nil
}

// drainOutcome is what happened to one coordinator or bundle in a batch.
type drainOutcome int

const (
	drainSkipped drainOutcome = iota // not (or no longer) purgeable: left alone
	drainPartial                     // the budget ran out before its row went
	drainGone                        // removed with everything under it
)

// PurgeCoordJobs implements store.Purger.
func (x *txn) PurgeCoordJobs(ctx context.Context, b store.PurgeBatch) (store.PurgeResult, error) {
	var res store.PurgeResult
	k, err := parsePurgeKey(b.After)
	if err != nil {
		return res, err
	}
	if err := checkBatch(b); err != nil {
		return res, err
	}
	rows, err := x.scanOld(ctx, "coord_jobs", "bundle_id", jobTerminal, b.Cutoffs.Coord, k, b.Limit)
	if err != nil {
		return res, fmt.Errorf("purging coordinators: %w", err)
	}
	// A coordinator in a bundle goes with the bundle, unless the bundle is
	// gone.
	var bundles []string
	for _, r := range rows {
		if r.parent != "" {
			bundles = append(bundles, r.parent)
		}
	}
	present, err := x.existing(ctx, bundles, "bundle_jobs")
	if err != nil {
		return res, fmt.Errorf("purging coordinators: %w", err)
	}
	err = drainRows(rows, b.Limit, k, &res, func(r oldRow, budget int, verified bool) (int, drainOutcome, error) {
		if r.parent != "" && present[r.parent] {
			return 0, drainSkipped, nil
		}
		used, out, err := x.purgeCoordJob(ctx, r.id, b.Cutoffs, budget, verified, &res)
		if err != nil {
			err = fmt.Errorf("purging coordinator %s: %w", r.id, err)
		}
		return used, out, err
	})
	return res, err
}

// drainRows purges rows (the scanned page of old jobs) one by one with purge, within a
// budget of limit rows in all, and sets res.Next to where the next batch resumes: at a
// job the budget ran out inside (to finish it), after the last job handled when the
// budget is spent, or after the page when it was full. verified tells purge that the job
// is the one the previous batch stopped inside, already checked.
func drainRows(rows []oldRow, limit int, k purgeKey, res *store.PurgeResult,
	purge func(r oldRow, budget int, verified bool) (int, drainOutcome, error)) error {
	budget := limit
	for _, r := range rows {
		used, out, err := purge(r, budget, k.resume && r.id == k.id && r.lm.Equal(k.lm))
		if err != nil {
			return err
		}
		budget -= used
		if out == drainPartial {
			res.Next = r.key(true).String()
			return nil
		}
		if budget <= 0 {
			res.Next = r.key(false).String()
			return nil
		}
	}
	if len(rows) == limit {
		res.Next = rows[len(rows)-1].key(false).String()
	}
	return nil
}

// purgeCoordJob removes one old coordinator, or as much of it as budget
// allows, if it is still old and everything under it can go.
func (x *txn) purgeCoordJob(ctx context.Context, id string, cuts store.PurgeCutoffs, budget int, verified bool, res *store.PurgeResult) (int, drainOutcome, error) {
	old, err := x.lockJobRow(ctx, "coord_jobs", id, cuts.Coord)
	if err != nil || !old {
		return 0, drainSkipped, err
	}
	if !verified {
		blocked, err := x.actionsBlocked(ctx, "job_id = $1", id, cuts.Workflow)
		if err != nil || blocked {
			return 0, drainSkipped, err
		}
	}
	used, gone, blocked, err := x.drainCoordJob(ctx, id, cuts.Workflow, budget, res)
	switch {
	case err != nil || blocked:
		return used, drainSkipped, err
	case gone:
		return used, drainGone, nil
	}
	return used, drainPartial, nil
}

// PurgeBundleJobs implements store.Purger.
func (x *txn) PurgeBundleJobs(ctx context.Context, b store.PurgeBatch) (store.PurgeResult, error) {
	var res store.PurgeResult
	k, err := parsePurgeKey(b.After)
	if err != nil {
		return res, err
	}
	if err := checkBatch(b); err != nil {
		return res, err
	}
	rows, err := x.scanOld(ctx, "bundle_jobs", "''", jobTerminal, b.Cutoffs.Bundle, k, b.Limit)
	if err != nil {
		return res, fmt.Errorf("purging bundles: %w", err)
	}
	err = drainRows(rows, b.Limit, k, &res, func(r oldRow, budget int, verified bool) (int, drainOutcome, error) {
		used, out, err := x.purgeBundle(ctx, r.id, b.Cutoffs, budget, verified, &res)
		if err != nil {
			err = fmt.Errorf("purging bundle %s: %w", r.id, err)
		}
		return used, out, err
	})
	return res, err
}

// purgeBundle removes one old bundle, or as much of it as budget allows,
// if it is still old, all its coordinators are old by the coordinator
// cutoff, and everything under them can go.
func (x *txn) purgeBundle(ctx context.Context, id string, cuts store.PurgeCutoffs, budget int, verified bool, res *store.PurgeResult) (int, drainOutcome, error) {
	old, err := x.lockJobRow(ctx, "bundle_jobs", id, cuts.Bundle)
	if err != nil || !old {
		return 0, drainSkipped, err
	}
	var coords []string
	allOld := true
	err = x.queryIn(ctx, "locking coordinators of a purged bundle", `SELECT id, status, last_modified FROM coord_jobs
WHERE bundle_id IN (`+idsMarker+`) ORDER BY id`+x.d.LockRow, []string{id}, func(rows *sql.Rows) error {
		var c, status string
		var lm time.Time
		if err := rows.Scan(&c, &status, x.d.tm(&lm)); err != nil {
			return err
		}
		coords = append(coords, c)
		allOld = allOld && store.JobStatus(status).Terminal() && !lm.IsZero() && lm.Before(cuts.Coord)
		return nil
	})
	if err != nil || !allOld {
		return 0, drainSkipped, err
	}
	if !verified {
		blocked, err := x.actionsBlocked(ctx, "job_id IN (SELECT id FROM coord_jobs WHERE bundle_id = $1)", id, cuts.Workflow)
		if err != nil || blocked {
			return 0, drainSkipped, err
		}
	}
	used := 0
	for _, c := range coords {
		n, gone, blocked, err := x.drainCoordJob(ctx, c, cuts.Workflow, budget-used, res)
		used += n
		switch {
		case err != nil:
			return used, drainSkipped, err
		case blocked:
			return used, drainSkipped, nil
		case !gone || used >= budget:
			return used, drainPartial, nil
		}
	}
	n, err := x.removeBundleRow(ctx, id)
	if err != nil {
		return used, drainSkipped, err
	}
	res.Bundles += n
	return used + 1, drainGone, nil
}
