package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// bulk serves PUT jobs?action=kill|suspend|resume&filter=...&jobtype=...: the
// command is applied to one page (offset, len; default 50) of the jobs that
// match the filter, each as its own command with Oozie's soft preconditions
// (a job in the wrong state is left as it is), and the page is answered as
// GET jobs answers it, with the statuses after the command. Only the jobs the
// caller may modify are commanded; the others are left as they are and listed
// under "refused" with the refusal's code and message.
func (a *api) bulk(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	action := q.Get(paramAction)
	switch action {
	case "":
		return server.ErrMissingParam(paramAction)
	case actionKill, actionSuspend, actionResume:
	default:
		return server.ErrInvalidParamValue(paramAction, action)
	}
	if q.Get(paramFilter) == "" {
		return server.ErrMissingParam(paramFilter)
	}
	t, ok := ParseJobType(q.Get(paramJobType))
	if !ok {
		return server.ErrInvalidParamValue(paramJobType, q.Get(paramJobType))
	}
	offset, length, err := pageParams(q, DefaultListLen)
	if err != nil {
		return err
	}
	loc, err := zoneParam(q)
	if err != nil {
		return err
	}
	f, err := ParseFilter(q.Get(paramFilter), t, a.Clock.Now())
	if err != nil {
		return err
	}
	f.Offset, f.Limit = offset-1, length
	f.JobFilter.Frequency, f.JobFilter.TimeUnit = f.Frequency, f.Unit
	ctx := r.Context()
	allow := func(id string) error {
		job, err := a.jobACL(ctx, id)
		if err != nil {
			return err
		}
		return a.srv.Authorize(r, auth.PermModifyJob, &job)
	}
	type cmds = map[string]func(context.Context, string) error
	switch t {
	case TypeCoordinator:
		if a.Coordinators == nil {
			return errNotSupported("coordinator jobs")
		}
		c := a.Coordinators
		return runBulk(ctx, w, a.Store, f.JobFilter, allow, bulkKind[store.CoordJob]{
			list: store.Tx.ListCoordJobs, id: func(j store.CoordJob) string { return j.ID },
			cmd: cmds{actionKill: c.Kill, actionSuspend: c.Suspend, actionResume: c.Resume}[action],
			answer: func(rows []store.CoordJob, total int, refused []oozieapi.Refusal) any {
				out := oozieapi.CoordinatorList{Jobs: make([]oozieapi.CoordinatorJob, 0, len(rows)), Total: total, Offset: offset, Len: length, Refused: refused}
				for i := range rows {
					j := coordJSON(&rows[i], nil, 0, loc)
					j.Conf = ""
					out.Jobs = append(out.Jobs, j)
				}
				return out
			}})
	case TypeBundle:
		if a.Bundles == nil {
			return errNotSupported("bundle jobs")
		}
		b := a.Bundles
		return runBulk(ctx, w, a.Store, f.JobFilter, allow, bulkKind[store.BundleJob]{
			list: store.Tx.ListBundleJobs, id: func(j store.BundleJob) string { return j.ID },
			cmd: cmds{actionKill: b.Kill, actionSuspend: b.Suspend, actionResume: b.Resume}[action],
			answer: func(rows []store.BundleJob, total int, refused []oozieapi.Refusal) any {
				out := oozieapi.BundleList{Jobs: make([]oozieapi.BundleJob, 0, len(rows)), Total: total, Offset: offset, Len: length, Refused: refused}
				for i := range rows {
					j := bundleJSON(&rows[i], nil, loc)
					j.Conf = ""
					out.Jobs = append(out.Jobs, j)
				}
				return out
			}})
	}
	wf := a.Workflows
	return runBulk(ctx, w, a.Store, f.JobFilter, allow, bulkKind[store.WorkflowJob]{
		list: store.Tx.ListWorkflowJobs, id: func(j store.WorkflowJob) string { return j.ID },
		cmd: cmds{actionKill: wf.Kill, actionSuspend: wf.Suspend, actionResume: wf.Resume}[action],
		answer: func(rows []store.WorkflowJob, total int, refused []oozieapi.Refusal) any {
			out := oozieapi.WorkflowList{Workflows: make([]oozieapi.WorkflowJob, 0, len(rows)), Total: total, Offset: offset, Len: length, Refused: refused}
			for i := range rows {
				j := workflowJSON(&rows[i], nil, loc)
				j.Conf = ""
				out.Workflows = append(out.Workflows, j)
			}
			return out
		}})
}

// bulkKind is what a bulk command needs of one job type: its listing, the id
// of a row, the command, and the listing's answer.
type bulkKind[T any] struct {
	list   func(x store.Tx, ctx context.Context, f store.JobFilter) ([]T, int, error)
	id     func(T) string
	cmd    func(context.Context, string) error
	answer func(rows []T, total int, refused []oozieapi.Refusal) any
}

// runBulk applies k.cmd to the jobs of the page f selects that allow admits,
// each as its own command, then answers the listing of those jobs as they are
// now, with the refused ones.
func runBulk[T any](ctx context.Context, w http.ResponseWriter, st store.Store, f store.JobFilter,
	allow func(id string) error, k bulkKind[T]) error {
	var (
		page  []T
		total int
	)
	err := st.Tx(ctx, func(x store.Tx) (err error) {
		page, total, err = k.list(x, ctx, f)
		return err
	})
	if err != nil {
		return fmt.Errorf("listing jobs: %w", err)
	}
	ids := make([]string, 0, len(page))
	var refused []oozieapi.Refusal
	for _, row := range page {
		id := k.id(row)
		if err := allow(id); err != nil {
			var se *server.Error
			if !errors.As(err, &se) {
				return fmt.Errorf("authorizing job %s: %w", id, err)
			}
			refused = append(refused, oozieapi.Refusal{ID: id, ErrorCode: se.Code, ErrorMessage: se.Msg})
			continue
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if err := k.cmd(ctx, id); err != nil {
			return &oozieerr.BulkError{JobID: id, Err: err}
		}
	}
	var rows []T
	if len(ids) > 0 {
		err = st.Tx(ctx, func(x store.Tx) (err error) {
			rows, _, err = k.list(x, ctx, store.JobFilter{IDs: ids, SortBy: f.SortBy})
			return err
		})
		if err != nil {
			return fmt.Errorf("reading jobs: %w", err)
		}
	}
	return server.WriteJSON(w, http.StatusOK, k.answer(rows, total, refused))
}
