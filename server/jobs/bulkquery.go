package jobs

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// Parameters of GET jobs that answer something other than a listing.
const (
	paramBulk       = "bulk"
	paramExternalID = "external-id"
)

// Names of the bulk filter (matched case-insensitively).
const (
	bulkBundle          = "bundle"
	bulkCoordinators    = "coordinators"
	bulkActionStatus    = "actionstatus"
	bulkStartCreated    = "startcreatedtime"
	bulkEndCreated      = "endcreatedtime"
	bulkStartScheduled  = "startscheduledtime"
	bulkEndScheduled    = "endscheduledtime"
	bulkTimeFormatHint  = " (expected yyyy-MM-dd'T'HH:mm'Z')"
	defaultBulkStatuses = "KILLED,FAILED"
)

// bulkFilter is a parsed bulk=… parameter.
type bulkFilter struct {
	bundles      []string // names or ids
	coordinators []string // names or ids; empty means all of the bundles'
	statuses     []store.CoordActionStatus
	createdFrom  time.Time // inclusive bounds; zero means open
	createdTo    time.Time
	nominalFrom  time.Time
	nominalTo    time.Time
}

// parseBulkFilter reads "bundle=b;coordinators=c1,c2;actionstatus=KILLED,FAILED;…". Values
// are comma-separated lists; a name given twice adds to its list. The bundle is required
// (400 E0305); anything else wrong is 400 E0420 naming the part.
func parseBulkFilter(s string) (bulkFilter, error) {
	var f bulkFilter
	bad := func(format string, args ...any) error {
		return &FilterError{Filter: s, Reason: fmt.Sprintf(format, args...)}
	}
	var statuses []string
	for tok := range strings.SplitSeq(s, ";") {
		if strings.TrimSpace(tok) == "" {
			continue
		}
		name, value, ok := splitPair(tok)
		if !ok {
			return f, bad("elements must be semicolon-separated name=value pairs")
		}
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		values := splitList(value)
		switch name {
		case bulkBundle:
			f.bundles = append(f.bundles, values...)
		case bulkCoordinators:
			f.coordinators = append(f.coordinators, values...)
		case bulkActionStatus:
			statuses = append(statuses, values...)
		case bulkStartCreated, bulkEndCreated, bulkStartScheduled, bulkEndScheduled:
			t, err := oozietime.UTC.Parse(value)
			if err != nil {
				return f, bad("invalid time [%s] of %s%s", value, name, bulkTimeFormatHint)
			}
			switch name {
			case bulkStartCreated:
				f.createdFrom = t
			case bulkEndCreated:
				f.createdTo = t
			case bulkStartScheduled:
				f.nominalFrom = t
			default:
				f.nominalTo = t
			}
		default:
			return f, bad("invalid name [%s]", name)
		}
	}
	if len(f.bundles) == 0 {
		return f, server.NewError(http.StatusBadRequest, oozieerr.E0305, "Missing parameter [%s]", bulkBundle)
	}
	if len(statuses) == 0 {
		statuses = splitList(defaultBulkStatuses)
	}
	for _, st := range statuses {
		st = strings.ToUpper(st)
		if !slices.Contains(store.CoordActionStatuses, store.CoordActionStatus(st)) {
			return f, bad("invalid coordinator action status [%s]", st)
		}
		f.statuses = append(f.statuses, store.CoordActionStatus(st))
	}
	return f, nil
}

// splitList splits a comma-separated value, dropping blanks.
func splitList(v string) []string {
	var out []string
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// matches reports whether a coordinator action passes the time bounds of f.
func (f *bulkFilter) matches(a *store.CoordAction) bool {
	within := func(t, from, to time.Time) bool {
		return (from.IsZero() || !t.Before(from)) && (to.IsZero() || !t.After(to))
	}
	return within(a.CreatedTime, f.createdFrom, f.createdTo) && within(a.NominalTime, f.nominalFrom, f.nominalTo)
}

// bulkQuery serves GET jobs?bulk=…: the coordinator actions of some bundles (all their
// coordinators, or those named) with one of the statuses asked for (default KILLED and
// FAILED), created and scheduled within the bounds given, each with its coordinator and
// bundle; ordered by bundle, coordinator and action number, paged by offset/len.
func (a *api) bulkQuery(w http.ResponseWriter, r *http.Request, q url.Values) error {
	f, err := parseBulkFilter(q.Get(paramBulk))
	if err != nil {
		return err
	}
	offset, length, err := pageParams(q, DefaultListLen)
	if err != nil {
		return err
	}
	loc, err := zoneParam(q)
	if err != nil {
		return err
	}
	var all []oozieapi.BulkResponse
	err = a.Store.View(r.Context(), func(x store.Tx) error {
		all = all[:0]
		bundles, err := findBundles(r, x, f.bundles)
		if err != nil {
			return err
		}
		for i := range bundles {
			b := bundleJSON(&bundles[i], nil, loc)
			b.Conf = ""
			coords, _, err := x.ListCoordJobs(r.Context(), store.JobFilter{BundleID: bundles[i].ID})
			if err != nil {
				return fmt.Errorf("listing the coordinators of bundle %s: %w", bundles[i].ID, err)
			}
			slices.SortFunc(coords, func(p, q store.CoordJob) int { return strings.Compare(p.ID, q.ID) })
			for j := range coords {
				c := &coords[j]
				if len(f.coordinators) > 0 && !slices.Contains(f.coordinators, c.ID) && !slices.Contains(f.coordinators, c.AppName) {
					continue
				}
				acts, _, err := x.ListCoordActions(r.Context(), store.CoordActionFilter{JobID: c.ID, Statuses: f.statuses})
				if err != nil {
					return fmt.Errorf("listing the actions of coordinator %s: %w", c.ID, err)
				}
				cj := coordJSON(c, nil, 0, loc)
				cj.Conf = ""
				slices.SortFunc(acts, func(p, q store.CoordAction) int { return p.ActionNumber - q.ActionNumber })
				for k := range acts {
					if !f.matches(&acts[k]) {
						continue
					}
					aj := coordActionJSON(&acts[k], loc)
					aj.CreatedConf, aj.RunConf = "", ""
					all = append(all, oozieapi.BulkResponse{Bundle: b, Coordinator: cj, Action: aj})
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	out := oozieapi.BulkList{Total: len(all), Offset: offset, Len: length}
	if start := offset - 1; start < len(all) {
		out.Responses = all[start:min(start+length, len(all))]
	}
	return server.WriteJSON(w, http.StatusOK, out)
}

// findBundles resolves bundle ids and names; a value that matches no bundle is 400 E0420.
func findBundles(r *http.Request, x store.Tx, refs []string) ([]store.BundleJob, error) {
	var out []store.BundleJob
	seen := map[string]bool{}
	for _, ref := range refs {
		var found []store.BundleJob
		if kindOfID(ref) == idBundle {
			b, err := x.GetBundleJob(r.Context(), ref)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, fmt.Errorf("reading bundle %s: %w", ref, err)
			}
			if err == nil {
				found = append(found, b)
			}
		} else {
			bs, _, err := x.ListBundleJobs(r.Context(), store.JobFilter{Names: []string{ref}})
			if err != nil {
				return nil, fmt.Errorf("finding bundles named %s: %w", ref, err)
			}
			found = bs
		}
		if len(found) == 0 {
			return nil, &FilterError{Filter: bulkBundle + "=" + ref, Reason: "no bundle has that name or id"}
		}
		for _, b := range found {
			if !seen[b.ID] {
				seen[b.ID] = true
				out = append(out, b)
			}
		}
	}
	slices.SortFunc(out, func(p, q store.BundleJob) int { return strings.Compare(p.ID, q.ID) })
	return out, nil
}

// externalID serves GET jobs?external-id=…: {"id":"<workflow id>"} of the workflow job
// submitted with that oozie.wf.external.id, {"id":null} when there is none or the job type
// is not wf (Oozie's coordinator and bundle engines find nothing by external id either).
func (a *api) externalID(w http.ResponseWriter, r *http.Request, t JobType, ext string) error {
	var out oozieapi.ExternalIDMatch
	if t != TypeWorkflow || ext == "" {
		return server.WriteJSON(w, http.StatusOK, out)
	}
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		rows, _, err := x.ListWorkflowJobs(r.Context(), store.JobFilter{ExternalID: ext, SortBy: SortCreatedTime, Limit: 1})
		if err != nil {
			return fmt.Errorf("finding the workflow with external id %s: %w", ext, err)
		}
		out.ID = nil
		if len(rows) > 0 {
			out.ID = &rows[0].ID
		}
		return nil
	})
	if err != nil {
		return err
	}
	return server.WriteJSON(w, http.StatusOK, out)
}
