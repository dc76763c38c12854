package jobs_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// fixture is a REST server with the job endpoints on a real SQLite store and a real
// workflow runner (no engine: actions are created but never launched), with the test apps.
type fixture struct {
	*jobstest.Env
}

func setup(t *testing.T) *fixture {
	t.Helper()
	return setupWith(t, jobstest.Options{})
}

// setupWith is setup on a server started with o.
func setupWith(t *testing.T, o jobstest.Options) *fixture {
	t.Helper()
	env := jobstest.NewOpts(t, o)
	f := &fixture{Env: env}
	env.WriteApp(t, appNoOp, jobstest.NoOpApp)
	env.WriteApp(t, appFS, jobstest.FSApp("file://"+env.Apps+"/out"))
	env.WriteApp(t, appParam, paramsApp)
	env.WriteApp(t, appBroken, brokenApp)
	return f
}

// Test apps written by setup, each a directory under fixture.apps.
const (
	appNoOp   = "no-op"  // start → end
	appFS     = "fs"     // start → fs action "mkdir" → end, error → kill "fail"
	appParam  = "params" // like fs, with a required <parameters> entry "outDir"
	appBroken = "broken" // an element the workflow schema does not have
)

// paramsApp needs the parameter outDir.
const paramsApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="params-wf">
    <parameters>
        <property><name>outDir</name></property>
    </parameters>
    <start to="mkdir"/>
    <action name="mkdir">
        <fs><mkdir path="${outDir}"/></fs>
        <ok to="end"/>
        <error to="end"/>
    </action>
    <end name="end"/>
</workflow-app>
`

// brokenApp does not follow the workflow schema.
const brokenApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="broken-wf">
    <start to="end"/>
    <bogus/>
    <end name="end"/>
</workflow-app>
`

// appPath is the file:// URI of a test app.
func (f *fixture) appPath(app string) string { return "file://" + filepath.Join(f.Apps, app) }

// jobConf is the XML configuration of a submission of app by user joe, with extra
// name/value pairs.
func (f *fixture) jobConf(t *testing.T, app string, extra ...string) string {
	t.Helper()
	pairs := append([]string{"user.name", "joe", "oozie.wf.application.path", f.appPath(app)}, extra...)
	return configXML(t, pairs...)
}

// configXML writes a Hadoop configuration document of name/value pairs.
func configXML(t *testing.T, pairs ...string) string {
	t.Helper()
	var b strings.Builder
	if err := conf.WriteConfigurationXML(&b, conf.NewProperties(pairs...)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// response is one answer of the server.
type response struct {
	status int
	header http.Header
	body   string
}

// call sends a request with an optional body of the given content type.
func (f *fixture) call(t *testing.T, method, path, contentType, body string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, strings.TrimSuffix(f.URL, server.ContextPath)+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// submit submits app (started when start is set) and returns the job id.
func (f *fixture) submit(t *testing.T, app string, start bool, extra ...string) string {
	t.Helper()
	path := "/oozie/v1/jobs"
	if start {
		path += "?action=start"
	}
	r := f.call(t, http.MethodPost, path, "application/xml;charset=UTF-8", f.jobConf(t, app, extra...))
	if r.status != http.StatusCreated {
		t.Fatalf("submit %s: %d %s %s", app, r.status, r.header.Get(server.HeaderErrorMessage), r.body)
	}
	var out struct{ ID string }
	decode(t, r.body, &out)
	return out.ID
}

// decode unmarshals a JSON body.
func decode(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("decoding %q: %v", body, err)
	}
}

// checkError asserts an Oozie error response.
func checkError(t *testing.T, r response, status int, code, msg string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d (%s)", r.status, status, r.body)
	}
	if got := r.header.Get(server.HeaderErrorCode); got != code {
		t.Errorf("error code %q, want %q", got, code)
	}
	if got := r.header.Get(server.HeaderErrorMessage); got != msg {
		t.Errorf("error message\n got %q\nwant %q", got, msg)
	}
}

// workflowJob reads a job row.
func (f *fixture) workflowJob(t *testing.T, id string) store.WorkflowJob {
	t.Helper()
	var j store.WorkflowJob
	err := f.Store.Tx(context.Background(), func(x store.Tx) error {
		var err error
		j, err = x.GetWorkflowJob(context.Background(), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return j
}
