package dashboard_test

import (
	"context"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/dashboard"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow/wfrun"
)

// The console's world: alice's workflow "nightly-etl" runs (extract OK,
// transform RUNNING on YARN), her "broken-etl" FAILED in transform with an
// error and a retry, and the seeded bundle, coordinator and SLA records of
// dashboard_test.go; authorization is on and authentication simple.
const (
	owner     = "alice"
	stranger  = "mallory"
	rmAppURL  = "http://rm.example:8088/proxy/application_1_0007/"
	brokenID  = "0000100-260301100000000-gozie-test-W"
	nightlyWF = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="nightly-etl">
  <start to="extract"/>
  <action name="extract"><shell xmlns="uri:oozie:shell-action:1.0"><resource-manager>${rm}</resource-manager><name-node>${nn}</name-node>
    <exec>extract.sh</exec></shell><ok to="transform"/><error to="fail"/></action>
  <action name="transform"><shell xmlns="uri:oozie:shell-action:1.0"><resource-manager>${rm}</resource-manager><name-node>${nn}</name-node>
    <exec>transform.sh</exec></shell><ok to="load"/><error to="fail"/></action>
  <action name="load"><shell xmlns="uri:oozie:shell-action:1.0"><resource-manager>${rm}</resource-manager><name-node>${nn}</name-node>
    <exec>load.sh</exec></shell><ok to="end"/><error to="fail"/></action>
  <kill name="fail"><message>nightly failed at ${wf:lastErrorNode()}</message></kill>
  <end name="end"/>
</workflow-app>
`
)

// consoleEnv is a running server with the console.
type consoleEnv struct {
	URL       string // the server's /oozie URL
	Store     store.Store
	NightlyID string
}

// newConsoleEnv starts the REST server (jobs, SLA, console) on a random
// loopback port with the world above, under simple authentication.
func newConsoleEnv(t *testing.T) *consoleEnv {
	t.Helper()
	authn, err := auth.New(auth.Config{Type: auth.TypeSimple, Secret: []byte("console test secret"),
		Groups: func(string) ([]string, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	env := jobstest.NewOpts(t, jobstest.Options{Now: t0.Add(3 * time.Hour), Seed: seed, Authenticator: authn,
		Authorization: &auth.Policy{AdminUsers: []string{"admin"}, Groups: func(string) ([]string, error) { return nil, nil }}})
	if err := slaapi.Register(env.Server, slaapi.Deps{Store: env.Store, Clock: env.Clock}); err != nil {
		t.Fatal(err)
	}
	if err := dashboard.Register(env.Server, dashboard.Deps{Store: env.Store, Clock: env.Clock}); err != nil {
		t.Fatal(err)
	}
	app := env.WriteApp(t, "nightly-etl", nightlyWF)
	props := conf.NewProperties("user.name", owner, "oozie.wf.application.path", app,
		"rm", "localhost:8032", "nn", "hdfs://localhost:8020")
	id, err := env.Runner.Submit(context.Background(), props, wfrun.SubmitOptions{Start: true})
	if err != nil {
		t.Fatal(err)
	}
	runActions(t, env.Store, id)
	insertBroken(t, env.Store, app)
	return &consoleEnv{URL: env.URL, Store: env.Store, NightlyID: id}
}

// runActions gives the started nightly-etl the state of a run in progress:
// extract ended OK, transform runs on YARN.
func runActions(t *testing.T, st store.Store, wfID string) {
	t.Helper()
	ctx := context.Background()
	err := st.Tx(ctx, func(x store.Tx) error {
		acts, err := x.ListWorkflowActions(ctx, wfID)
		if err != nil {
			return err
		}
		have := map[string]store.WorkflowAction{}
		for _, a := range acts {
			have[a.Name] = a
		}
		want := []store.WorkflowAction{
			{Name: "extract", Status: store.ActionOK, ExternalID: "application_1_0006", ExternalStatus: "SUCCEEDED",
				ConsoleURL: "http://rm.example:8088/proxy/application_1_0006/", Transition: "transform",
				StartTime: t0, EndTime: t0.Add(time.Minute)},
			{Name: "transform", Status: store.ActionRunning, ExternalID: "application_1_0007", ExternalStatus: "RUNNING",
				ConsoleURL: rmAppURL, StartTime: t0.Add(time.Minute)},
		}
		for _, w := range want {
			w.ID, w.JobID, w.Type, w.CreatedTime = wfID+"@"+w.Name, wfID, "shell", t0
			if old, ok := have[w.Name]; ok {
				w.Version = old.Version
				if err := x.UpdateWorkflowAction(ctx, &w); err != nil {
					return err
				}
				continue
			}
			if err := x.InsertWorkflowAction(ctx, &w); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// insertBroken stores alice's FAILED broken-etl (of the app at appPath):
// transform failed with an error after one retry.
func insertBroken(t *testing.T, st store.Store, appPath string) {
	t.Helper()
	ctx := context.Background()
	err := st.Tx(ctx, func(x store.Tx) error {
		jobConf := "<configuration>" + confProperty("user.name", owner) + confProperty("oozie.wf.application.path", appPath) +
			confProperty("rm", "localhost:8032") + confProperty("nn", "hdfs://localhost:8020") + "</configuration>"
		if err := x.InsertWorkflowJob(ctx, &store.WorkflowJob{ID: brokenID, AppName: "broken-etl", AppPath: appPath, User: owner,
			Status: store.WorkflowFailed, Definition: nightlyWF, Conf: jobConf,
			CreatedTime: t0, StartTime: t0, EndTime: t0.Add(5 * time.Minute)}); err != nil {
			return err
		}
		for _, a := range []store.WorkflowAction{
			{Name: "extract", Status: store.ActionOK, Transition: "transform", StartTime: t0, EndTime: t0.Add(time.Minute)},
			{Name: "transform", Status: store.ActionError, Transition: "fail", ErrorCode: "JA018",
				ErrorMessage: "Main class [ShellMain], exit code [1]", Retries: 1, ExternalID: "application_1_0009",
				ConsoleURL: "http://rm.example:8088/proxy/application_1_0009/", StartTime: t0.Add(time.Minute), EndTime: t0.Add(4 * time.Minute)},
		} {
			a.ID, a.JobID, a.Type, a.CreatedTime = brokenID+"@"+a.Name, brokenID, "shell", t0
			if err := x.InsertWorkflowAction(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func confProperty(name, value string) string {
	return "<property><name>" + name + "</name><value>" + value + "</value></property>"
}
