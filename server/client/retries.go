package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gozie/gozie/server/oozieapi"
)

// ActionRetries lists the attempts of a workflow action (<job id>@<name>)
// that its user-retry policy ran again, oldest first: GET
// /v2/job/<id>?show=retries, Oozie's getWorkflowActionRetriesInfo. An action
// that was never retried has none.
func (c *Client) ActionRetries(ctx context.Context, actionID string) ([]oozieapi.ActionRetry, error) {
	var out oozieapi.ActionRetries
	if err := c.do(ctx, http.MethodGet, jobPath(actionID), url.Values{"show": {"retries"}}, &out); err != nil {
		return nil, err
	}
	return out.Retries, nil
}
