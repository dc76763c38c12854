package client

import (
	"context"
	"net/http"
	"net/url"
)

// Bulk applies kill, suspend or resume to one page of the jobs matching
// jq.Filter (required) and decodes the answer, a listing of those jobs with
// their new statuses, into out (an oozieapi.WorkflowList,
// oozieapi.CoordinatorList or bundle listing as jq.JobType says).
func (c *Client) Bulk(ctx context.Context, action string, jq JobsQuery, out any) error {
	q := url.Values{"action": {action}, "filter": {jq.Filter}}
	if jq.JobType != "" {
		q.Set("jobtype", jq.JobType)
	}
	setPage(q, jq.Offset, jq.Len)
	return c.do(ctx, http.MethodPut, APIVersion+"/jobs", q, out)
}
