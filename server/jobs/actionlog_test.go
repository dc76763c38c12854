package jobs_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// actionLogEnv is a job server whose action logs come from a MiniYARN
// cluster, on which the server is the proxy user gozie.
type actionLogEnv struct {
	*fixture
	rm   *miniyarn.RM
	yarn *yarn.Client
}

func setupActionLogs(t *testing.T, withYARN bool) *actionLogEnv {
	t.Helper()
	rm, err := miniyarn.Start(context.Background(), miniyarn.Options{WorkDir: t.TempDir(), Lenient: true, Conf: map[string]string{
		"hadoop.proxyuser.gozie.hosts": "*", "hadoop.proxyuser.gozie.users": "*",
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rm.Close() })
	yc, err := yarn.NewClient(yarn.Config{Addresses: []string{rm.WebURL()}, Auth: yarn.PseudoAuth{User: "gozie"}})
	if err != nil {
		t.Fatal(err)
	}
	env := jobstest.NewWith(t, func(d *jobs.Deps) {
		if withYARN {
			d.ActionLogs = func(string) (jobs.ActionLogCluster, error) { return jobs.ActionLogCluster{YARN: yc}, nil }
		}
	})
	return &actionLogEnv{fixture: &fixture{Env: env}, rm: rm, yarn: yc}
}

// runApp runs a shell command as an application of joe's to its end.
func (e *actionLogEnv) runApp(t *testing.T, command string) yarn.ApplicationID {
	t.Helper()
	ctx, cancel := context.WithTimeout(hadoop.AsUser(context.Background(), "joe"), 30*time.Second)
	defer cancel()
	na, err := e.yarn.NewApplication(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = e.yarn.Submit(ctx, yarn.ApplicationSubmissionContext{ApplicationID: na.ApplicationID, ApplicationName: "launcher",
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{command}}, MaxAppAttempts: 1,
		Resource: &yarn.Resource{MemoryMB: 256, VCores: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		r, err := e.yarn.App(ctx, na.ApplicationID)
		if err != nil {
			t.Fatal(err)
		}
		if r.State.Final() {
			return na.ApplicationID
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never ended", na.ApplicationID)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// insertAction writes a running workflow of joe's with one action.
func (e *actionLogEnv) insertAction(t *testing.T, act store.WorkflowAction) string {
	t.Helper()
	const wf = "0000950-250127091857123-gozie-test-W"
	act.ID, act.JobID = wf+"@"+act.Name, wf
	act.CreatedTime, act.LastModified = at(1), at(1)
	ctx := context.Background()
	err := e.Store.Tx(ctx, func(x store.Tx) error {
		if _, err := x.GetWorkflowJob(ctx, wf); err != nil {
			job := store.WorkflowJob{ID: wf, AppName: "logs", AppPath: "file:///apps/logs", User: "joe", Status: store.WorkflowRunning,
				CreatedTime: at(0), StartTime: at(0), LastModified: at(0)}
			if err := x.InsertWorkflowJob(ctx, &job); err != nil {
				return err
			}
		}
		return x.InsertWorkflowAction(ctx, &act)
	})
	if err != nil {
		t.Fatal(err)
	}
	return act.ID
}

func TestActionLogShowsLauncherAndChildContainerLogs(t *testing.T) {
	t.Parallel()
	e := setupActionLogs(t, true)
	launcher := e.runApp(t, "bash -c \"echo launcher-out-7f3; echo launcher-err-7f3 >&2 ; head -c 1100000 /dev/zero | tr '\\0' b >&2\" 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr")
	child := e.runApp(t, "echo child-out-7f3 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr")
	id := e.insertAction(t, store.WorkflowAction{Name: "sh", Type: "shell", Status: store.ActionOK,
		ExternalID: launcher.String(), ExternalChildIDs: "job_" + strings.TrimPrefix(child.String(), "application_")})
	for _, v := range []string{"v1", "v2"} {
		r := e.call(t, http.MethodGet, "/oozie/"+v+"/job/"+id+"?show=log", "", "")
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
			t.Fatalf("%s: %d %s %q", v, r.status, r.header.Get("Content-Type"), r.body)
		}
		for _, want := range []string{
			"Action " + id + "  type=shell  status=OK  external id=" + launcher.String() + "\n",
			"Child applications: " + child.String() + "\n",
			"==> Application " + launcher.String() + "  attempt appattempt_",
			"  container container_", "Logs: local, on the NodeManager\n",
			"--- stdout (17 bytes) ---\nlauncher-out-7f3\n",
			"--- stderr (last 1048576 of 1100017 bytes) ---\nbbbb",
			"==> Application " + child.String(), "child-out-7f3\n",
		} {
			if !strings.Contains(r.body, want) {
				t.Errorf("%s: the action log lacks %q:\n%.1500s", v, want, r.body)
			}
		}
		if strings.Contains(r.body, "launcher-err-7f3") {
			t.Errorf("%s: the start of a capped stderr was shown", v)
		}
	}
}

func TestActionLogWithoutApplication(t *testing.T) {
	t.Parallel()
	e := setupActionLogs(t, true)
	for _, tt := range []struct {
		act  store.WorkflowAction
		want string
	}{
		{store.WorkflowAction{Name: "prep", Type: "shell", Status: store.ActionPrep}, "No YARN application: the action has not launched one"},
		{store.WorkflowAction{Name: "mkdir", Type: "fs", Status: store.ActionOK, ExternalID: "-"}, "No YARN application: the action has not launched one"},
		{store.WorkflowAction{Name: "sub", Type: "sub-workflow", Status: store.ActionOK, ExternalID: "0000951-250127091857123-gozie-test-W"},
			"No YARN application: the external id 0000951-250127091857123-gozie-test-W is not one."},
	} {
		id := e.insertAction(t, tt.act)
		r := e.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=log", "", "")
		if r.status != http.StatusOK || !strings.Contains(r.body, tt.want) {
			t.Errorf("%s: %d %q, want a line %q", tt.act.Name, r.status, r.body, tt.want)
		}
	}
	// An application the RM does not know: a line, not an error.
	id := e.insertAction(t, store.WorkflowAction{Name: "gone", Type: "shell", Status: store.ActionOK, ExternalID: "application_1700000000000_9999"})
	r := e.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=log", "", "")
	if r.status != http.StatusOK || !strings.Contains(r.body, "==> Application application_1700000000000_9999: ") {
		t.Errorf("unknown application: %d %q", r.status, r.body)
	}
}

func TestActionLogRefusals(t *testing.T) {
	t.Parallel()
	e := setupActionLogs(t, false)
	const wf = "0000950-250127091857123-gozie-test-W"
	id := e.insertAction(t, store.WorkflowAction{Name: "sh", Type: "shell", Status: store.ActionOK, ExternalID: "application_1700000000000_0001"})
	r := e.call(t, http.MethodGet, "/oozie/v2/job/"+wf+"@nope?show=log", "", "")
	if r.status != http.StatusNotFound || r.header.Get("oozie-error-code") != "E0605" {
		t.Errorf("unknown action: %d %v %q", r.status, r.header, r.body)
	}
	r = e.call(t, http.MethodGet, "/oozie/v2/job/0000999-250127091857123-gozie-test-W@sh?show=log", "", "")
	if r.status != http.StatusNotFound || r.header.Get("oozie-error-code") != "E0605" {
		t.Errorf("unknown job: %d %v %q", r.status, r.header, r.body)
	}
	// A server without YARN says so.
	r = e.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=log", "", "")
	if r.status != http.StatusOK || !strings.Contains(r.body, "Container logs are not available: the server has no YARN cluster configured.") {
		t.Errorf("without YARN: %d %q", r.status, r.body)
	}
}
