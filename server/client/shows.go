package client

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/oozieapi"
)

// ErrorLog copies the warnings and errors of a job's log to w.
func (c *Client) ErrorLog(ctx context.Context, id string, w io.Writer) error {
	return c.text(ctx, id, "errorlog", w)
}

// MissingDependencies lists what a coordinator's actions wait for: id is a
// job (narrowed by actionList "1,3-4" or date scope; every waiting action when
// both are empty) or an action (C@n).
func (c *Client) MissingDependencies(ctx context.Context, id, actionList, date string) (oozieapi.MissingDependencies, error) {
	q := url.Values{"show": {"missing-dependencies"}}
	if actionList != "" {
		q.Set("action-list", actionList)
	}
	if date != "" {
		q.Set("date", date)
	}
	var out oozieapi.MissingDependencies
	err := c.do(ctx, http.MethodGet, jobPath(id), q, &out)
	return out, err
}

// AllRuns lists every workflow run of a coordinator action (C@n).
func (c *Client) AllRuns(ctx context.Context, actionID string) (oozieapi.AllRuns, error) {
	var out oozieapi.AllRuns
	err := c.do(ctx, http.MethodGet, jobPath(actionID), url.Values{"show": {"allruns"}}, &out)
	return out, err
}

// Update updates a coordinator from its app path under props (nil or empty:
// its own configuration) and returns the differences; with dryRun nothing
// changes.
func (c *Client) Update(ctx context.Context, id string, props *conf.Properties, dryRun bool) (string, error) {
	q := url.Values{"action": {"update"}}
	if dryRun {
		q.Set("dryrun", "true")
	}
	req := request{method: http.MethodPut, path: jobPath(id), query: q}
	if props != nil && props.Len() > 0 {
		body, err := configurationXML(props)
		if err != nil {
			return "", err
		}
		req.body, req.contentType = body, "application/xml;charset=UTF-8"
	}
	var out struct {
		Update struct {
			Diff string `json:"diff"`
		} `json:"update"`
	}
	err := c.call(ctx, req, &out)
	return out.Update.Diff, err
}
