package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/oozieapi"
)

// CoordQuery pages and filters the actions of a coordinator's info.
type CoordQuery struct {
	// Offset is 1-based; zero means the first action.
	Offset int
	// Len is how many actions to return; zero means the server's default (1000).
	Len int
	// Desc lists the newest actions first.
	Desc bool
	// Filter is Oozie's action filter, e.g. "status=KILLED;nominaltime>=2025-01-01T00:00Z".
	Filter string
}

// CoordinatorInfo returns a coordinator job with one page of its actions.
func (c *Client) CoordinatorInfo(ctx context.Context, id string, cq CoordQuery) (oozieapi.CoordinatorJob, error) {
	q := url.Values{"show": {"info"}}
	if cq.Offset != 0 {
		q.Set("offset", strconv.Itoa(cq.Offset))
	}
	// v2 answers no actions without len; a negative len asks for its default page.
	length := cq.Len
	if length == 0 {
		length = -1
	}
	q.Set("len", strconv.Itoa(length))
	if cq.Desc {
		q.Set("order", "desc")
	}
	if cq.Filter != "" {
		q.Set("filter", cq.Filter)
	}
	var job oozieapi.CoordinatorJob
	if err := c.do(ctx, http.MethodGet, jobPath(id), q, &job); err != nil {
		return oozieapi.CoordinatorJob{}, err
	}
	return job, nil
}

// CoordActionInfo returns one coordinator action, by its id <job id>@<number>.
func (c *Client) CoordActionInfo(ctx context.Context, id string) (oozieapi.CoordinatorAction, error) {
	var a oozieapi.CoordinatorAction
	if err := c.do(ctx, http.MethodGet, jobPath(id), url.Values{"show": {"info"}}, &a); err != nil {
		return oozieapi.CoordinatorAction{}, err
	}
	return a, nil
}

// CoordinatorJobs lists coordinator jobs (jq.JobType is ignored).
func (c *Client) CoordinatorJobs(ctx context.Context, jq JobsQuery) (oozieapi.CoordinatorList, error) {
	q := url.Values{"jobtype": {"coordinator"}}
	if jq.Filter != "" {
		q.Set("filter", jq.Filter)
	}
	setPage(q, jq.Offset, jq.Len)
	var l oozieapi.CoordinatorList
	if err := c.do(ctx, http.MethodGet, APIVersion+"/jobs", q, &l); err != nil {
		return oozieapi.CoordinatorList{}, err
	}
	return l, nil
}

// Change changes a coordinator's end time, concurrency, pause time or status, with Oozie's
// value syntax: "endtime=2025-02-01T00:00Z;concurrency=2;pausetime=".
func (c *Client) Change(ctx context.Context, id, value string) error {
	return c.do(ctx, http.MethodPut, jobPath(id), url.Values{"action": {"change"}, "value": {value}}, nil)
}

// Scope selects a coordinator's actions: Type is "action" (Scope "1,3-5") or "date" (Scope
// "2025-01-01T00:00Z::2025-01-02T00:00Z,2025-01-05T00:00Z").
type Scope struct {
	Type  string
	Scope string
}

// values adds the scope to q.
func (s Scope) values(q url.Values) url.Values {
	q.Set("type", s.Type)
	q.Set("scope", s.Scope)
	return q
}

// Ignore ignores a FAILED or KILLED coordinator job.
func (c *Client) Ignore(ctx context.Context, id string) error {
	return c.jobAction(ctx, id, "ignore")
}

// IgnoreActions ignores a coordinator's failed, killed or timed-out actions in scope and
// returns them.
func (c *Client) IgnoreActions(ctx context.Context, id string, s Scope) ([]oozieapi.CoordinatorAction, error) {
	return c.coordActions(ctx, id, s.values(url.Values{"action": {"ignore"}}), nil)
}

// KillActions kills a coordinator's unfinished actions in scope and returns them.
func (c *Client) KillActions(ctx context.Context, id string, s Scope) ([]oozieapi.CoordinatorAction, error) {
	return c.coordActions(ctx, id, s.values(url.Values{"action": {"kill"}}), nil)
}

// CoordRerunOptions are the choices of a coordinator rerun.
type CoordRerunOptions struct {
	// Refresh re-resolves the actions' inputs; NoCleanup keeps their outputs; Failed reruns
	// only the failed nodes of the same workflows.
	Refresh, NoCleanup, Failed bool
	// Conf, if set, is merged into the rerun workflows' configuration.
	Conf *conf.Properties
}

// CoordRerun reruns a coordinator's finished actions in scope and returns them.
func (c *Client) CoordRerun(ctx context.Context, id string, s Scope, o CoordRerunOptions) ([]oozieapi.CoordinatorAction, error) {
	q := s.values(url.Values{"action": {"coord-rerun"}})
	q.Set("refresh", strconv.FormatBool(o.Refresh))
	q.Set("nocleanup", strconv.FormatBool(o.NoCleanup))
	q.Set("failed", strconv.FormatBool(o.Failed))
	var body []byte
	if o.Conf != nil {
		var err error
		if body, err = configurationXML(o.Conf); err != nil {
			return nil, err
		}
	}
	return c.coordActions(ctx, id, q, body)
}

// coordActions sends a PUT job command that answers {"actions":[...]}.
func (c *Client) coordActions(ctx context.Context, id string, q url.Values, body []byte) ([]oozieapi.CoordinatorAction, error) {
	req := request{method: http.MethodPut, path: jobPath(id), query: q}
	if body != nil {
		req.body, req.contentType = body, xmlContentType
	}
	var out oozieapi.CoordinatorActions
	if err := c.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return out.Actions, nil
}

// NotifyDataset tells the server that the dataset instance at uri (a done-flag or its
// directory) exists, and returns how many waiting coordinator actions it woke.
func (c *Client) NotifyDataset(ctx context.Context, uri string) (int, error) {
	var out oozieapi.DatasetNotification
	err := c.do(ctx, http.MethodPut, "v2/dataset", url.Values{"action": {"notify"}, "uri": {uri}}, &out)
	if err != nil {
		return 0, err
	}
	return out.Notified, nil
}
