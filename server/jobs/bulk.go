package jobs

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// bulk serves PUT jobs?action=kill|suspend|resume&filter=...&jobtype=...: the
// command is applied to one page (offset, len; default 50) of the jobs that
// match the filter, each as its own command with Oozie's soft preconditions
// (a job in the wrong state is left as it is), and the page is answered as
// GET jobs answers it, with the statuses after the command.
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
	switch t {
	case TypeCoordinator:
		if a.Coordinators == nil {
			return errNotSupported("coordinator jobs")
		}
		ids, total, err := listIDs(ctx, a.Store, f.JobFilter, func(x store.Tx, f store.JobFilter) ([]string, int, error) {
			rows, total, err := x.ListCoordJobs(ctx, f)
			return idsOf(rows, func(j store.CoordJob) string { return j.ID }), total, err
		})
		if err != nil {
			return err
		}
		cmd := map[string]func(context.Context, string) error{actionKill: a.Coordinators.Kill,
			actionSuspend: a.Coordinators.Suspend, actionResume: a.Coordinators.Resume}[action]
		if err := applyEach(ctx, ids, cmd); err != nil {
			return err
		}
		var rows []store.CoordJob
		if len(ids) > 0 {
			err = a.Store.Tx(ctx, func(x store.Tx) (err error) {
				rows, _, err = x.ListCoordJobs(ctx, store.JobFilter{IDs: ids, SortBy: f.SortBy})
				return err
			})
		}
		if err != nil {
			return fmt.Errorf("reading coordinator jobs: %w", err)
		}
		out := oozieapi.CoordinatorList{Jobs: make([]oozieapi.CoordinatorJob, 0, len(rows)), Total: total, Offset: offset, Len: length}
		for i := range rows {
			j := coordJSON(&rows[i], nil, 0, loc)
			j.Conf = ""
			out.Jobs = append(out.Jobs, j)
		}
		return server.WriteJSON(w, http.StatusOK, out)
	case TypeBundle:
		if a.Bundles == nil {
			return errNotSupported("bundle jobs")
		}
		ids, total, err := listIDs(ctx, a.Store, f.JobFilter, func(x store.Tx, f store.JobFilter) ([]string, int, error) {
			rows, total, err := x.ListBundleJobs(ctx, f)
			return idsOf(rows, func(j store.BundleJob) string { return j.ID }), total, err
		})
		if err != nil {
			return err
		}
		cmd := map[string]func(context.Context, string) error{actionKill: a.Bundles.Kill,
			actionSuspend: a.Bundles.Suspend, actionResume: a.Bundles.Resume}[action]
		if err := applyEach(ctx, ids, cmd); err != nil {
			return err
		}
		var rows []store.BundleJob
		if len(ids) > 0 {
			err = a.Store.Tx(ctx, func(x store.Tx) (err error) {
				rows, _, err = x.ListBundleJobs(ctx, store.JobFilter{IDs: ids, SortBy: f.SortBy})
				return err
			})
		}
		if err != nil {
			return fmt.Errorf("reading bundle jobs: %w", err)
		}
		out := oozieapi.BundleList{Jobs: make([]oozieapi.BundleJob, 0, len(rows)), Total: total, Offset: offset, Len: length}
		for i := range rows {
			j := bundleJSON(&rows[i], nil, loc)
			j.Conf = ""
			out.Jobs = append(out.Jobs, j)
		}
		return server.WriteJSON(w, http.StatusOK, out)
	}
	ids, total, err := listIDs(ctx, a.Store, f.JobFilter, func(x store.Tx, f store.JobFilter) ([]string, int, error) {
		rows, total, err := x.ListWorkflowJobs(ctx, f)
		return idsOf(rows, func(j store.WorkflowJob) string { return j.ID }), total, err
	})
	if err != nil {
		return err
	}
	cmd := map[string]func(context.Context, string) error{actionKill: a.Workflows.Kill,
		actionSuspend: a.Workflows.Suspend, actionResume: a.Workflows.Resume}[action]
	if err := applyEach(ctx, ids, cmd); err != nil {
		return err
	}
	var rows []store.WorkflowJob
	if len(ids) > 0 {
		err = a.Store.Tx(ctx, func(x store.Tx) (err error) {
			rows, _, err = x.ListWorkflowJobs(ctx, store.JobFilter{IDs: ids, SortBy: f.SortBy})
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("reading workflow jobs: %w", err)
	}
	out := oozieapi.WorkflowList{Workflows: make([]oozieapi.WorkflowJob, 0, len(rows)), Total: total, Offset: offset, Len: length}
	for i := range rows {
		j := workflowJSON(&rows[i], nil, loc)
		j.Conf = ""
		out.Workflows = append(out.Workflows, j)
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

// listIDs reads one page of job ids and the total matching f.
func listIDs(ctx context.Context, st store.Store, f store.JobFilter,
	list func(store.Tx, store.JobFilter) ([]string, int, error)) (ids []string, total int, err error) {
	err = st.Tx(ctx, func(x store.Tx) error {
		ids, total, err = list(x, f)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("listing jobs: %w", err)
	}
	return ids, total, nil
}

func idsOf[T any](rows []T, id func(T) string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = id(r)
	}
	return out
}

// applyEach runs cmd on every job. Oozie's commands are soft about states
// (no error for a job already ended), so an error here is a real failure;
// the first one ends the bulk command, naming its job.
func applyEach(ctx context.Context, ids []string, cmd func(context.Context, string) error) error {
	for _, id := range ids {
		if err := cmd(ctx, id); err != nil {
			return fmt.Errorf("job %s: %w", id, err)
		}
	}
	return nil
}
