package client

import (
	"context"
	"net/http"
	"net/url"
)

// Admin GETs admin/<name> (with optional query) and decodes the JSON answer
// into out: os-env, java-sys-properties, configuration, metrics,
// queue-dump, available-oozie-servers, list_sharelib, update_sharelib, ...
func (c *Client) Admin(ctx context.Context, name string, query url.Values, out any) error {
	return c.do(ctx, http.MethodGet, APIVersion+"/admin/"+name, query, out)
}

// Instrumentation GETs v1 admin/instrumentation, which Oozie serves only in
// version 1 of the API.
func (c *Client) Instrumentation(ctx context.Context, out any) error {
	return c.do(ctx, http.MethodGet, "v1/admin/instrumentation", nil, out)
}
