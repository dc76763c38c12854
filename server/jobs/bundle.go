package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/gozie/gozie/bundle/bundlerun"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// PUT job/<bundle id> actions beyond the common ones, and their parameters.
const (
	actionBundleRerun = "bundle-rerun"
	paramCoordScope   = "coord-scope"
	paramDateScope    = "date-scope"
)

// submitBundle submits (or, for dryrun, only checks) a bundle job. A dry run answers the
// bundle's definition with every EL resolved in the id field, as Oozie does.
func (a *api) submitBundle(ctx context.Context, w http.ResponseWriter, props *conf.Properties, dryRun bool) error {
	if a.Bundles == nil {
		return errNotSupported("submitting bundle jobs")
	}
	var id string
	var err error
	if dryRun {
		if id, err = a.Bundles.DryRun(ctx, props); err != nil {
			return fmt.Errorf("dry run of bundle job: %w", err)
		}
	} else if id, err = a.Bundles.Submit(ctx, props); err != nil {
		return fmt.Errorf("submitting bundle job: %w", err)
	}
	return server.WriteJSON(w, http.StatusCreated, oozieapi.JobID{ID: id})
}

// getBundle answers GET job/<bundle id>: info (the bundle with its coordinator jobs, by
// name), definition (the bundle XML as submitted) or status.
func (a *api) getBundle(w http.ResponseWriter, r *http.Request, id, show string, loc *time.Location) error {
	if show != showInfo && show != showDefinition && show != showStatus {
		return errNotSupported("show=" + show + " of bundle jobs")
	}
	var (
		job    store.BundleJob
		coords []store.CoordJob
	)
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		if job, err = x.GetBundleJob(r.Context(), id); err != nil || show != showInfo {
			return err
		}
		coords, _, err = x.ListCoordJobs(r.Context(), store.JobFilter{BundleID: id})
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return errJobNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("reading bundle job %s: %w", id, err)
	}
	switch show {
	case showDefinition:
		return writeText(w, xmlResponseType, job.OrigDefinition)
	case showStatus:
		return server.WriteJSON(w, http.StatusOK, oozieapi.JobStatus{Status: string(job.Status)})
	}
	sort.Slice(coords, func(i, j int) bool { return coords[i].AppName < coords[j].AppName })
	return server.WriteJSON(w, http.StatusOK, bundleJSON(&job, coords, loc))
}

// putBundle runs a command on a bundle job: start, suspend, resume, kill, change
// (value=pausetime=…;endtime=…) and bundle-rerun (also as rerun) with coord-scope,
// date-scope, refresh and nocleanup. Each cascades to the bundle's coordinators.
func (a *api) putBundle(w http.ResponseWriter, r *http.Request, id, action string) error {
	if a.Bundles == nil {
		return errNotSupported("bundle jobs")
	}
	ctx := r.Context()
	q := r.URL.Query()
	var err error
	switch action {
	case actionStart:
		err = a.Bundles.Start(ctx, id)
	case actionSuspend:
		err = a.Bundles.Suspend(ctx, id)
	case actionResume:
		err = a.Bundles.Resume(ctx, id)
	case actionKill:
		if q.Has(paramType) || q.Has(paramScope) {
			return server.ErrInvalidParam(paramType + " and " + paramScope + " apply to coordinator jobs only")
		}
		err = a.Bundles.Kill(ctx, id)
	case actionChange:
		if !q.Has(paramValue) {
			return server.ErrMissingParam(paramValue)
		}
		err = a.Bundles.Change(ctx, id, q.Get(paramValue))
	case actionBundleRerun, actionRerun:
		opts := bundlerun.RerunOptions{Coordinators: q.Get(paramCoordScope), Dates: q.Get(paramDateScope)}
		if opts.Coordinators == "" && opts.Dates == "" {
			return server.ErrMissingParam(paramCoordScope + " or " + paramDateScope)
		}
		if opts.Refresh, err = boolParam(r, paramRefresh); err != nil {
			return err
		}
		if opts.NoCleanup, err = boolParam(r, paramNoCleanup); err != nil {
			return err
		}
		_, err = a.Bundles.Rerun(ctx, id, opts)
	default:
		return server.ErrInvalidParamValue(paramAction, action)
	}
	if err != nil {
		return fmt.Errorf("%s of bundle job %s: %w", action, id, err)
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// listBundles answers GET jobs?jobtype=bundle: one page of bundle jobs, without
// coordinators or configuration, as in Oozie.
func (a *api) listBundles(w http.ResponseWriter, r *http.Request, f store.JobFilter, offset, length int, loc *time.Location) error {
	var (
		rows  []store.BundleJob
		total int
	)
	err := a.Store.View(r.Context(), func(x store.Tx) error {
		var err error
		rows, total, err = x.ListBundleJobs(r.Context(), f)
		return err
	})
	if err != nil {
		return fmt.Errorf("listing bundle jobs: %w", err)
	}
	out := oozieapi.BundleList{Jobs: make([]oozieapi.BundleJob, 0, len(rows)), Total: total, Offset: offset, Len: length}
	for i := range rows {
		j := bundleJSON(&rows[i], nil, loc)
		j.Conf = ""
		out.Jobs = append(out.Jobs, j)
	}
	return server.WriteJSON(w, http.StatusOK, out)
}
