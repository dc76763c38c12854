package client

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/oozieapi"
)

// ErrorLog copies the warnings and errors of a job's log to w (see
// JobErrorLog to narrow them).
func (c *Client) ErrorLog(ctx context.Context, id string, w io.Writer) error {
	return c.JobErrorLog(ctx, id, LogQuery{}, w)
}

// LogQuery narrows a job's log or error log; its zero value asks for all
// of it, in the server's default time zone.
type LogQuery struct {
	// Filter is Oozie's logfilter, e.g.
	// "recent=3h;start=…;end=…;loglevel=WARN|ERROR;text=…;limit=n;debug".
	Filter string
	// Scope narrows a coordinator's log to some of its actions, by number
	// (Type "action", Scope "1,3-4") or nominal time (Type "date"); empty
	// for the whole job.
	Scope Scope
	// TimeZone is the zone of the times in the log and the filter.
	TimeZone string
}

// values adds the query's parameters to q.
func (lq LogQuery) values(q url.Values) url.Values {
	if lq.Filter != "" {
		q.Set("logfilter", lq.Filter)
	}
	if lq.Scope.Type != "" || lq.Scope.Scope != "" {
		lq.Scope.values(q)
	}
	if lq.TimeZone != "" {
		q.Set("timezone", lq.TimeZone)
	}
	return q
}

// JobLog copies the lines of a job's log (show=log) that lq selects to w as
// the server sends them.
func (c *Client) JobLog(ctx context.Context, id string, lq LogQuery, w io.Writer) error {
	return c.textQuery(ctx, id, "log", lq.values(url.Values{}), w)
}

// JobErrorLog copies the lines of a job's error log (show=errorlog: the
// warnings and errors of its log) that lq selects to w.
func (c *Client) JobErrorLog(ctx context.Context, id string, lq LogQuery, w io.Writer) error {
	return c.textQuery(ctx, id, "errorlog", lq.values(url.Values{}), w)
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
