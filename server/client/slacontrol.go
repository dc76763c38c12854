package client

import (
	"context"
	"net/http"
	"net/url"
)

// SLAScope narrows an SLA command: ActionList ("1,3-4") or Date (a date scope)
// pick a coordinator's actions, Coordinators (names or ids, comma-separated) a
// bundle's coordinators. The zero value applies to the job and all under it.
type SLAScope struct {
	ActionList   string
	Date         string
	Coordinators string
}

// SLAEnable enables the SLA alerts of a job (and its actions) in scope.
func (c *Client) SLAEnable(ctx context.Context, id string, s SLAScope) error {
	return c.slaCommand(ctx, id, "sla-enable", "", s)
}

// SLADisable disables the SLA alerts of a job (and its actions) in scope.
func (c *Client) SLADisable(ctx context.Context, id string, s SLAScope) error {
	return c.slaCommand(ctx, id, "sla-disable", "", s)
}

// SLAChange changes the SLA expectations of a job (and its actions) in scope, with
// Oozie's value syntax: "sla-should-end=30;sla-max-duration=${2 * HOURS}".
func (c *Client) SLAChange(ctx context.Context, id, value string, s SLAScope) error {
	return c.slaCommand(ctx, id, "sla-change", value, s)
}

func (c *Client) slaCommand(ctx context.Context, id, action, value string, s SLAScope) error {
	q := url.Values{"action": {action}}
	for k, v := range map[string]string{"value": value, "action-list": s.ActionList, "date": s.Date, "coordinators": s.Coordinators} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return c.do(ctx, http.MethodPut, jobPath(id), q, nil)
}
