package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/yarn"
)

// fakeYARN is an RM and NodeManager in one server: application_1_0001 has
// one attempt whose container wrote hello-cli to stdout and oops-cli to
// stderr.
func fakeYARN(t *testing.T) *httptest.Server {
	t.Helper()
	var ts *httptest.Server
	framed := func(file, data string) string {
		return fmt.Sprintf("Container: container_1_0001_01_000001 on n:1\nLogAggregationType: LOCAL\n====\nLogType:%s\n"+
			"LogLastModifiedTime:x\nLogLength:%d\nLogContents:\n%sEnd of LogType:%s.\n****\n\n", file, len(data), data, file)
	}
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("doAs") != "joe" {
			http.Error(w, "not for joe", http.StatusForbidden)
			return
		}
		switch r.URL.Path {
		case "/ws/v1/cluster/apps/application_1_0001/appattempts":
			fmt.Fprintf(w, `{"appAttempts":{"appAttempt":[{"id":1,"containerId":"container_1_0001_01_000001",`+
				`"nodeHttpAddress":%q,"appAttemptId":"appattempt_1_0001_000001"}]}}`, strings.TrimPrefix(ts.URL, "http://"))
		case "/ws/v1/node/containers/container_1_0001_01_000001/logs":
			fmt.Fprint(w, `{"containerLogsInfo":[{"containerLogInfo":[{"fileName":"stdout","fileSize":"10"},{"fileName":"stderr","fileSize":"9"}],`+
				`"logAggregationType":"LOCAL","containerId":"container_1_0001_01_000001","nodeId":"n:1"}]}`)
		case "/ws/v1/node/containers/container_1_0001_01_000001/logs/stdout":
			fmt.Fprint(w, framed("stdout", "hello-cli\n"))
		case "/ws/v1/node/containers/container_1_0001_01_000001/logs/stderr":
			fmt.Fprint(w, framed("stderr", "oops-cli\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestJobLogOfAnAction: `job -log <wf>@<action>` prints the container logs
// of the action's launcher application.
func TestJobLogOfAnAction(t *testing.T) {
	t.Parallel()
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{fakeYARN(t).URL}, Auth: yarn.PseudoAuth{User: "gozie"}})
	if err != nil {
		t.Fatal(err)
	}
	e := jobstest.NewWith(t, func(d *jobs.Deps) {
		d.ActionLogs = func(string) (jobs.ActionLogCluster, error) { return jobs.ActionLogCluster{YARN: yc}, nil }
	})
	f := &cliFixture{Env: e, env: map[string]string{"OOZIE_URL": e.URL}}
	const wf = "0000960-250127091857123-gozie-test-W"
	ctx := context.Background()
	err = e.Store.Tx(ctx, func(x store.Tx) error {
		job := store.WorkflowJob{ID: wf, AppName: "logs", AppPath: "file:///apps/logs", User: "joe", Status: store.WorkflowSucceeded,
			CreatedTime: jobstest.Epoch, StartTime: jobstest.Epoch, EndTime: jobstest.Epoch, LastModified: jobstest.Epoch}
		if err := x.InsertWorkflowJob(ctx, &job); err != nil {
			return err
		}
		act := store.WorkflowAction{ID: wf + "@sh", JobID: wf, Name: "sh", Type: "shell", Status: store.ActionOK,
			ExternalID: "application_1_0001", CreatedTime: jobstest.Epoch, LastModified: jobstest.Epoch}
		return x.InsertWorkflowAction(ctx, &act)
	})
	if err != nil {
		t.Fatal(err)
	}
	out := f.mustRun(t, "job", "-log", wf+"@sh")
	for _, want := range []string{"Action " + wf + "@sh  type=shell  status=OK  external id=application_1_0001",
		"==> Application application_1_0001  attempt appattempt_1_0001_000001  container container_1_0001_01_000001",
		"--- stdout (10 bytes) ---\nhello-cli\n", "--- stderr (9 bytes) ---\noops-cli\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("job -log of an action lacks %q:\n%s", want, out)
		}
	}
	_, stderr, code := f.run(t, "job", "-log", wf+"@nope")
	if want := "Error: E0605 : E0605: Action does not exist [" + wf + "@nope]\n"; code == 0 || stderr != want {
		t.Errorf("job -log of an unknown action: exit %d, stderr %q, want %q", code, stderr, want)
	}
}
