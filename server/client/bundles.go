package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gozie/gozie/server/oozieapi"
)

// BundleInfo returns a bundle job with its coordinator jobs.
func (c *Client) BundleInfo(ctx context.Context, id string) (oozieapi.BundleJob, error) {
	var job oozieapi.BundleJob
	if err := c.do(ctx, http.MethodGet, jobPath(id), url.Values{"show": {"info"}}, &job); err != nil {
		return oozieapi.BundleJob{}, err
	}
	return job, nil
}

// BundleJobs lists bundle jobs (jq.JobType is ignored).
func (c *Client) BundleJobs(ctx context.Context, jq JobsQuery) (oozieapi.BundleList, error) {
	q := url.Values{"jobtype": {"bundle"}}
	if jq.Filter != "" {
		q.Set("filter", jq.Filter)
	}
	setPage(q, jq.Offset, jq.Len)
	var l oozieapi.BundleList
	if err := c.do(ctx, http.MethodGet, APIVersion+"/jobs", q, &l); err != nil {
		return oozieapi.BundleList{}, err
	}
	return l, nil
}

// BundleRerunOptions are the choices of a bundle rerun; at least one of Coordinators and
// Dates is needed.
type BundleRerunOptions struct {
	// Coordinators names the bundle's coordinators to rerun ("c1,c2"); empty means all.
	Coordinators string
	// Dates is the coordinators' date scope ("d1::d2,d3"); empty means their whole span.
	Dates string
	// Refresh re-resolves the actions' inputs; NoCleanup keeps their outputs.
	Refresh, NoCleanup bool
}

// BundleRerun reruns actions of a bundle's coordinators.
func (c *Client) BundleRerun(ctx context.Context, id string, o BundleRerunOptions) error {
	q := url.Values{"action": {"bundle-rerun"}, "refresh": {strconv.FormatBool(o.Refresh)},
		"nocleanup": {strconv.FormatBool(o.NoCleanup)}}
	if o.Coordinators != "" {
		q.Set("coord-scope", o.Coordinators)
	}
	if o.Dates != "" {
		q.Set("date-scope", o.Dates)
	}
	return c.do(ctx, http.MethodPut, jobPath(id), q, nil)
}
