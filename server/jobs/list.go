package jobs

import (
	"fmt"
	"net/http"
	"time"

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
	if q.Has(paramExternalID) {
		return a.externalID(w, r, t, q.Get(paramExternalID))
	}
	if q.Has(paramBulk) {
		return a.bulkQuery(w, r, q)
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
	// Listings carry no configuration or definition, as in Oozie: those columns are not read.
	f.Offset, f.Limit, f.OmitDocuments = offset-1, length, true
	switch t {
	case TypeCoordinator:
		if a.Coordinators == nil {
			return errNotSupported("listing coordinator jobs")
		}
		f.JobFilter.Frequency, f.JobFilter.TimeUnit = f.Frequency, f.Unit
		return a.listCoordinators(w, r, f.JobFilter, offset, length, loc)
	case TypeBundle:
		if a.Bundles == nil {
			return errNotSupported("listing bundle jobs")
		}
		return a.listBundles(w, r, f.JobFilter, offset, length, loc)
	}
	var (
		rows  []store.WorkflowJob
		total int
	)
	err = a.Store.View(r.Context(), func(x store.Tx) error {
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

// listCoordinators answers GET jobs?jobtype=coordinator: one page of coordinator jobs,
// without actions or configuration, as in Oozie.
func (a *api) listCoordinators(w http.ResponseWriter, r *http.Request, f store.JobFilter, offset, length int, loc *time.Location) error {
	var (
		rows  []store.CoordJob
		total int
	)
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		rows, total, err = x.ListCoordJobs(r.Context(), f)
		return err
	})
	if err != nil {
		return fmt.Errorf("listing coordinator jobs: %w", err)
	}
	out := oozieapi.CoordinatorList{Jobs: make([]oozieapi.CoordinatorJob, 0, len(rows)), Total: total, Offset: offset, Len: length}
	for i := range rows {
		j := coordJSON(&rows[i], nil, 0, loc)
		j.Conf = ""
		out.Jobs = append(out.Jobs, j)
	}
	return server.WriteJSON(w, http.StatusOK, out)
}
