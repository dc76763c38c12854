package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gozie/gozie/server/oozieapi"
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

// BulkActions lists the coordinator actions of bundles matching Oozie's bulk filter
// ("bundle=b;coordinators=c1,c2;actionstatus=KILLED,FAILED;startcreatedtime=…"), each with
// its coordinator and bundle; offset (1-based) and length page the answer, zero meaning
// the server's default.
func (c *Client) BulkActions(ctx context.Context, bulk string, offset, length int) (oozieapi.BulkList, error) {
	q := url.Values{"bulk": {bulk}}
	setPage(q, offset, length)
	var out oozieapi.BulkList
	err := c.do(ctx, http.MethodGet, APIVersion+"/jobs", q, &out)
	return out, err
}

// JobIDForExternalID returns the id of the workflow job submitted with the external id ext
// (oozie.wf.external.id), or "" when there is none.
func (c *Client) JobIDForExternalID(ctx context.Context, ext string) (string, error) {
	var out oozieapi.ExternalIDMatch
	if err := c.do(ctx, http.MethodGet, APIVersion+"/jobs", url.Values{"external-id": {ext}}, &out); err != nil {
		return "", err
	}
	if out.ID == nil {
		return "", nil
	}
	return *out.ID, nil
}
