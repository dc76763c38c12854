package jobs

import (
	"fmt"
	"net/http"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// DefaultListLen is the page length of a jobs listing without (or with a non-positive) len,
// as Oozie's servlet has it.
const DefaultListLen = 50

// list serves GET jobs: one page of the jobs of a type that match the filter, newest first.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
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
	switch t {
	case TypeCoordinator:
		return errNotSupported("listing coordinator jobs")
	case TypeBundle:
		return errNotSupported("listing bundle jobs")
	}
	var (
		rows  []store.WorkflowJob
		total int
	)
	err = a.Store.Tx(r.Context(), func(x store.Tx) error {
		var err error
		rows, total, err = x.ListWorkflowJobs(r.Context(), f.JobFilter)
		return err
	})
	if err != nil {
		return fmt.Errorf("listing workflow jobs: %w", err)
	}
	out := oozieapi.WorkflowList{Workflows: make([]oozieapi.WorkflowJob, 0, len(rows)), Total: total, Offset: offset, Len: length}
	for i := range rows {
		j := workflowJSON(&rows[i], nil, loc)
		// Listings carry no configuration, as in Oozie.
		j.Conf = ""
		out.Workflows = append(out.Workflows, j)
	}
	return server.WriteJSON(w, http.StatusOK, out)
}
