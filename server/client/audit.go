package client

import (
	"context"
	"io"
	"net/url"
)

// AuditLog copies a job's audit trail (show=auditlog) to w as the server sends it.
// logFilter is Oozie's "recent=3h;start=…;end=…;loglevel=…;text=…;limit=n" and timezone
// the zone of the times; empty means the server's defaults.
func (c *Client) AuditLog(ctx context.Context, id, logFilter, timezone string, w io.Writer) error {
	q := url.Values{}
	if logFilter != "" {
		q.Set("logfilter", logFilter)
	}
	if timezone != "" {
		q.Set("timezone", timezone)
	}
	return c.textQuery(ctx, id, "auditlog", q, w)
}
