package client

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

// jobsSetup starts a server with the job endpoints and an fs app and a no-op app, and
// returns a client of it with the apps' paths.
func jobsSetup(t *testing.T) (c *Client, env *jobstest.Env, fsApp, noOpApp string) {
	t.Helper()
	env = jobstest.New(t)
	fsApp = env.WriteApp(t, "fs", jobstest.FSApp("file://"+env.Apps+"/out"))
	noOpApp = env.WriteApp(t, "no-op", jobstest.NoOpApp)
	c, err := New(env.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, env, fsApp, noOpApp
}

// jobProps is the configuration of a submission of app by joe.
func jobProps(app string) *conf.Properties {
	return conf.NewProperties("user.name", "joe", "oozie.wf.application.path", app)
}

func TestJobLifecycle(t *testing.T) {
	t.Parallel()
	c, env, fsApp, _ := jobsSetup(t)
	ctx := context.Background()

	id, err := c.Submit(ctx, jobProps(fsApp), false)
	if err != nil {
		t.Fatal(err)
	}
	if id != "0000000-250127091857123-gozie-test-W" {
		t.Errorf("id %q", id)
	}
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"submitted", func() error { return nil }, "PREP"},
		{"start", func() error { return c.Start(ctx, id) }, "RUNNING"},
		{"suspend", func() error { return c.Suspend(ctx, id) }, "SUSPENDED"},
		{"resume", func() error { return c.Resume(ctx, id) }, "RUNNING"},
		{"kill", func() error { return c.Kill(ctx, id) }, "KILLED"},
		{"rerun", func() error {
			return c.Rerun(ctx, id, conf.NewProperties("user.name", "joe", "oozie.wf.rerun.failnodes", "true"))
		}, "RUNNING"},
	}
	for _, s := range steps {
		env.Clock.Advance(time.Minute)
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got, err := c.JobStatus(ctx, id)
		if err != nil || got != s.want {
			t.Errorf("%s: status %q, %v; want %s", s.name, got, err, s.want)
		}
	}

	job, err := c.Info(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != id || job.AppName != "fs-wf" || job.AppPath != fsApp || job.Run != 1 || job.User != "joe" ||
		!job.CreatedTime.Equal(jobstest.Epoch.Truncate(time.Second)) || job.ParentID != "" {
		t.Errorf("info %+v", job)
	}
	var actions []string
	for _, a := range job.Actions {
		actions = append(actions, a.Name+" "+a.Status)
	}
	if want := []string{":start: OK", "mkdir PREP"}; !reflect.DeepEqual(actions, want) {
		t.Errorf("actions %v, want %v", actions, want)
	}
	page, err := c.Info(ctx, id, 2, 1)
	if err != nil || len(page.Actions) != 1 || page.Actions[0].Name != "mkdir" {
		t.Errorf("actions from 2, 1 of them: %+v, %v", page.Actions, err)
	}
	a, err := c.ActionInfo(ctx, id+"@mkdir")
	if err != nil || a.Type != "fs" || a.Status != "PREP" || !strings.Contains(a.Conf, "<mkdir") {
		t.Errorf("action %+v, %v", a, err)
	}

	def, err := c.Definition(ctx, id)
	if err != nil || def != jobstest.FSApp("file://"+env.Apps+"/out") {
		t.Errorf("definition %q, %v", def, err)
	}
	var log bytes.Buffer
	if err := c.Log(ctx, id, &log); err != nil || !strings.Contains(log.String(), "workflow job started, run [1]") {
		t.Errorf("log %q, %v", log.String(), err)
	}
}

func TestSubmitStartAndDryRun(t *testing.T) {
	t.Parallel()
	c, _, fsApp, noOpApp := jobsSetup(t)
	ctx := context.Background()
	ok, err := c.DryRun(ctx, jobProps(fsApp))
	if err != nil || ok != "OK" {
		t.Errorf("DryRun = %q, %v", ok, err)
	}
	id, err := c.Submit(ctx, jobProps(noOpApp), true)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := c.JobStatus(ctx, id); err != nil || s != "SUCCEEDED" {
		t.Errorf("run of the no-op app: %q, %v", s, err)
	}
}

func TestJobs(t *testing.T) {
	t.Parallel()
	c, env, fsApp, noOpApp := jobsSetup(t)
	ctx := context.Background()
	var ids []string
	for _, p := range []*conf.Properties{jobProps(fsApp), jobProps(noOpApp),
		conf.NewProperties("user.name", "ann", "oozie.wf.application.path", fsApp)} {
		id, err := c.Submit(ctx, p, false)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		env.Clock.Advance(time.Second)
	}
	tests := []struct {
		q           JobsQuery
		want        []string
		total       int
		offset, len int
	}{
		{JobsQuery{}, []string{ids[2], ids[1], ids[0]}, 3, 1, 50},
		{JobsQuery{JobType: "wf", Filter: "user=joe"}, []string{ids[1], ids[0]}, 2, 1, 50},
		{JobsQuery{Filter: "name=fs-wf", Offset: 2, Len: 1}, []string{ids[0]}, 2, 2, 1},
		{JobsQuery{Filter: "user=nobody"}, []string{}, 0, 1, 50},
	}
	for _, tt := range tests {
		l, err := c.Jobs(ctx, tt.q)
		if err != nil {
			t.Fatalf("%+v: %v", tt.q, err)
		}
		got := []string{}
		for _, j := range l.Workflows {
			got = append(got, j.ID)
		}
		if !reflect.DeepEqual(got, tt.want) || l.Total != tt.total || l.Offset != tt.offset || l.Len != tt.len {
			t.Errorf("%+v: %v %d %d %d, want %v %d %d %d", tt.q, got, l.Total, l.Offset, l.Len, tt.want, tt.total, tt.offset, tt.len)
		}
	}
}

func TestJobErrors(t *testing.T) {
	t.Parallel()
	c, _, _, _ := jobsSetup(t)
	ctx := context.Background()
	const ghost = "0000042-250127091857123-gozie-test-W"
	tests := []struct {
		name string
		call func() error
		want Error
	}{
		{"info", func() error { _, err := c.Info(ctx, ghost, 0, 0); return err },
			Error{StatusCode: 404, Code: "E0604", Message: "E0604: Job does not exist [" + ghost + "]"}},
		{"definition", func() error { _, err := c.Definition(ctx, ghost); return err },
			Error{StatusCode: 404, Code: "E0604", Message: "E0604: Job does not exist [" + ghost + "]"}},
		{"log", func() error { return c.Log(ctx, ghost, &bytes.Buffer{}) },
			Error{StatusCode: 404, Code: "E0604", Message: "E0604: Job does not exist [" + ghost + "]"}},
		{"kill", func() error { return c.Kill(ctx, ghost) },
			Error{StatusCode: 404, Code: "E0604", Message: "E0604: Job does not exist [" + ghost + "]"}},
		{"action", func() error { _, err := c.ActionInfo(ctx, ghost+"@x"); return err },
			Error{StatusCode: 404, Code: "E0605", Message: "E0605: Action does not exist [" + ghost + "@x]"}},
		{"submit without user", func() error {
			_, err := c.Submit(ctx, conf.NewProperties("oozie.wf.application.path", "/x"), true)
			return err
		}, Error{StatusCode: 400, Code: "E0401", Message: "E0401: Missing configuration property [user.name]"}},
		{"bad filter", func() error { _, err := c.Jobs(ctx, JobsQuery{Filter: "bogus=1"}); return err },
			Error{StatusCode: 400, Code: "E0420", Message: "E0420: Invalid jobs filter [bogus=1], invalid name [bogus]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *Error
			if err := tt.call(); !errors.As(err, &e) || *e != tt.want {
				t.Errorf("error %v, want %+v", err, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	c, env, _, _ := jobsSetup(t)
	ctx := context.Background()
	file := filepath.Join(env.Apps, "fs", "workflow.xml")
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := c.Validate(ctx, file, doc, "joe")
	if err != nil || msg != "Valid workflow-app" {
		t.Errorf("Validate = %q, %v", msg, err)
	}
	_, err = c.Validate(ctx, file, []byte(`<workflow-app xmlns="uri:oozie:workflow:1.0" name="x"><start to="e"/></workflow-app>`), "joe")
	var e *Error
	if !errors.As(err, &e) || e.Code != "E0701" || !strings.HasPrefix(e.Message, "E0701: XML schema error, "+file+", ") {
		t.Errorf("invalid document: %v", err)
	}
}
