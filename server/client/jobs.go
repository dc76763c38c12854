package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/oozieapi"
)

// xmlContentType is the content type of job configurations and validated documents.
const xmlContentType = "application/xml;charset=UTF-8"

// Submit submits a job configuration and returns the new job's id; start also starts it
// (Oozie's "run").
func (c *Client) Submit(ctx context.Context, props *conf.Properties, start bool) (string, error) {
	q := url.Values{}
	if start {
		q.Set("action", "start")
	}
	return c.submit(ctx, props, q)
}

// DryRun checks a job configuration and its app without creating a job; for a workflow the
// answer is "OK".
func (c *Client) DryRun(ctx context.Context, props *conf.Properties) (string, error) {
	return c.submit(ctx, props, url.Values{"action": {"dryrun"}})
}

func (c *Client) submit(ctx context.Context, props *conf.Properties, q url.Values) (string, error) {
	body, err := configurationXML(props)
	if err != nil {
		return "", err
	}
	var out oozieapi.JobID
	err = c.call(ctx, request{method: http.MethodPost, path: APIVersion + "/jobs", query: q, body: body,
		contentType: xmlContentType}, &out)
	if err != nil {
		return "", err
	}
	if out.ID == "" {
		return "", fmt.Errorf("POST jobs: no id in the response")
	}
	return out.ID, nil
}

// configurationXML writes props as the XML body of a submission or rerun.
func configurationXML(props *conf.Properties) ([]byte, error) {
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, props); err != nil {
		return nil, fmt.Errorf("writing the job configuration: %w", err)
	}
	return b.Bytes(), nil
}

// Start starts a job submitted without starting it.
func (c *Client) Start(ctx context.Context, id string) error { return c.jobAction(ctx, id, "start") }

// Suspend suspends a job.
func (c *Client) Suspend(ctx context.Context, id string) error {
	return c.jobAction(ctx, id, "suspend")
}

// Resume resumes a suspended job.
func (c *Client) Resume(ctx context.Context, id string) error { return c.jobAction(ctx, id, "resume") }

// Kill kills a job.
func (c *Client) Kill(ctx context.Context, id string) error { return c.jobAction(ctx, id, "kill") }

func (c *Client) jobAction(ctx context.Context, id, action string) error {
	return c.do(ctx, http.MethodPut, jobPath(id), url.Values{"action": {action}}, nil)
}

// Rerun reruns a finished workflow job with props merged over its configuration (use
// oozie.wf.rerun.skip.nodes or oozie.wf.rerun.failnodes=true to skip nodes).
func (c *Client) Rerun(ctx context.Context, id string, props *conf.Properties) error {
	body, err := configurationXML(props)
	if err != nil {
		return err
	}
	return c.call(ctx, request{method: http.MethodPut, path: jobPath(id), query: url.Values{"action": {"rerun"}},
		body: body, contentType: xmlContentType}, nil)
}

// Info returns a workflow job with its actions; offset (1-based) and length page the
// actions, zero meaning the server's defaults (all of them).
func (c *Client) Info(ctx context.Context, id string, offset, length int) (oozieapi.WorkflowJob, error) {
	q := url.Values{"show": {"info"}}
	setPage(q, offset, length)
	var job oozieapi.WorkflowJob
	if err := c.do(ctx, http.MethodGet, jobPath(id), q, &job); err != nil {
		return oozieapi.WorkflowJob{}, err
	}
	return job, nil
}

// ActionInfo returns one workflow action, by its id <job id>@<node>.
func (c *Client) ActionInfo(ctx context.Context, id string) (oozieapi.WorkflowAction, error) {
	var a oozieapi.WorkflowAction
	if err := c.do(ctx, http.MethodGet, jobPath(id), url.Values{"show": {"info"}}, &a); err != nil {
		return oozieapi.WorkflowAction{}, err
	}
	return a, nil
}

// JobStatus returns the status of a job or action.
func (c *Client) JobStatus(ctx context.Context, id string) (string, error) {
	var s oozieapi.JobStatus
	if err := c.do(ctx, http.MethodGet, jobPath(id), url.Values{"show": {"status"}}, &s); err != nil {
		return "", err
	}
	return s.Status, nil
}

// Definition returns a job's definition (the app XML as submitted).
func (c *Client) Definition(ctx context.Context, id string) (string, error) {
	var b bytes.Buffer
	if err := c.text(ctx, id, "definition", &b); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Log copies a job's whole log to w as the server sends it (see JobLog to
// narrow it).
func (c *Client) Log(ctx context.Context, id string, w io.Writer) error {
	return c.JobLog(ctx, id, LogQuery{}, w)
}

// text copies a text answer of GET job/<id>?show=<show> to w.
func (c *Client) text(ctx context.Context, id, show string, w io.Writer) error {
	return c.textQuery(ctx, id, show, url.Values{}, w)
}

// textQuery is text with more query parameters (q is changed).
func (c *Client) textQuery(ctx context.Context, id, show string, q url.Values, w io.Writer) error {
	q.Set("show", show)
	resp, err := c.send(ctx, request{method: http.MethodGet, path: jobPath(id), query: q}, "*/*")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("reading the %s of %s: %w", show, id, err)
	}
	return nil
}

// JobsQuery selects jobs for Jobs.
type JobsQuery struct {
	// JobType is wf (the default), coordinator or bundle.
	JobType string
	// Filter is Oozie's filter, e.g. "user=joe;status=RUNNING".
	Filter string
	// Offset (1-based) and Len page the answer; zero means the server's default.
	Offset, Len int
}

// Jobs lists workflow jobs.
func (c *Client) Jobs(ctx context.Context, jq JobsQuery) (oozieapi.WorkflowList, error) {
	q := url.Values{}
	jobType := jq.JobType
	if jobType == "" {
		jobType = "wf"
	}
	q.Set("jobtype", jobType)
	if jq.Filter != "" {
		q.Set("filter", jq.Filter)
	}
	setPage(q, jq.Offset, jq.Len)
	var l oozieapi.WorkflowList
	if err := c.do(ctx, http.MethodGet, APIVersion+"/jobs", q, &l); err != nil {
		return oozieapi.WorkflowList{}, err
	}
	return l, nil
}

// Validate has the server check an application document against its schema and returns
// the server's verdict ("Valid workflow-app"). file names the document: for a local file
// pass its absolute path and its content as doc; for a file on the cluster (hdfs://...) pass
// a nil doc and the server reads it as user.
func (c *Client) Validate(ctx context.Context, file string, doc []byte, user string) (string, error) {
	if doc == nil {
		doc = []byte{}
	}
	var v oozieapi.Validation
	err := c.call(ctx, request{method: http.MethodPost, path: "v2/validate",
		query: url.Values{"file": {file}, "user": {user}}, body: doc, contentType: xmlContentType}, &v)
	if err != nil {
		return "", err
	}
	return v.Validate, nil
}

// jobPath is the path of one job or action (JoinPath escapes it).
func jobPath(id string) string { return APIVersion + "/job/" + id }

// setPage adds offset and len when they are set.
func setPage(q url.Values, offset, length int) {
	if offset != 0 {
		q.Set("offset", strconv.Itoa(offset))
	}
	if length != 0 {
		q.Set("len", strconv.Itoa(length))
	}
}
