package e2e

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/client"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/testenv/smtpsink"
)

// procEnv is a server and its local cluster in the test process, on
// SQLite, for tests that need the stand-ins' hooks (MiniHS2's HangNext).
type procEnv struct {
	cluster *localcluster.Cluster
	client  *client.Client
	dir     string
	user    string
}

// inProcessConfig is the configuration of an in-process server on dir's
// database, called back at base, using cluster c by default and reading
// nothing from the environment; extra adds or overrides settings.
func inProcessConfig(t *testing.T, dir, base string, c *localcluster.Cluster, extra map[string]string) *conf.Server {
	t.Helper()
	p := c.Properties()
	flags := map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(dir, "gozie.db"), "gozie.data.dir": dir,
		"gozie.callback.base.url": base + "/callback", "gozie.actions.default.name-node": p["nameNode"],
		"gozie.actions.default.resource-manager": p["resourceManager"]}
	for k, v := range extra {
		flags[k] = v
	}
	cfg, err := conf.Load(conf.Sources{ConfigDir: t.TempDir(), LookupEnv: func(string) (string, bool) { return "", false },
		Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func inProcessServer(t *testing.T) *procEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: dir, ToolsBinary: binary,
		Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/oozie"
	cfg := inProcessConfig(t, dir, base, c, map[string]string{"gozie.actions.default.hive2.jdbc.url": c.Properties()["hive2JdbcUrl"]})
	d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Listener: ln, LauncherBinary: binary,
		Logger: slog.New(slog.NewTextHandler(testLog{t}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx) }()
	t.Cleanup(func() { cancel(); <-done })
	user := currentUser(t)
	tr, err := client.NewAuthTransport(client.Auth{User: user}) // authorization refuses anonymous commands
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.New(base, &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	return &procEnv{cluster: c, client: cl, dir: dir, user: user}
}

// testLog sends the server's log lines to the test log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// submit writes a workflow app into the DFS and runs it with the
// cluster's nameNode, resourceManager and jdbcURL, and the given
// key/value pairs.
func (e *procEnv) submit(t *testing.T, name, xml string, kv ...string) string {
	t.Helper()
	e.writeApp(t, name, xml)
	p := e.cluster.Properties()
	props := conf.NewProperties(append([]string{"user.name", e.user,
		"oozie.wf.application.path", p["nameNode"] + "/user/" + e.user + "/" + name,
		"nameNode", p["nameNode"], "resourceManager", p["resourceManager"], "jdbcURL", p["hive2JdbcUrl"]}, kv...)...)
	id, err := e.client.Submit(context.Background(), props, true)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// writeApp writes a workflow app into the user's directory on the DFS.
func (e *procEnv) writeApp(t *testing.T, name, xml string) {
	t.Helper()
	d := filepath.Join(e.dir, "dfs", "user", e.user, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "workflow.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *procEnv) status(t *testing.T, id string) string {
	t.Helper()
	s, err := e.client.JobStatus(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const longHive2App = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="long-query">
  <start to="query"/>
  <action name="query">
    <hive2 xmlns="uri:oozie:hive2-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <jdbc-url>${jdbcURL}</jdbc-url>
      <query>SELECT 1</query>
    </hive2>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>query failed</message></kill>
  <end name="end"/>
</workflow-app>`

// TestKillDuringLongHive2QueryCancelsIt kills a workflow while its hive2
// statement runs: HiveServer2 cancels the statement and the session closes.
func TestKillDuringLongHive2QueryCancelsIt(t *testing.T) {
	t.Parallel()
	e := inProcessServer(t)
	hs2 := e.cluster.HS2
	hs2.HangNext()
	id := e.submit(t, "long-query", longHive2App)
	testwait.WaitFor(t, time.Minute, "the query to run", func() bool { return hs2.Running() == 1 })
	if err := e.client.Kill(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	testwait.WaitFor(t, time.Minute, "the workflow to be KILLED", func() bool { return e.status(t, id) == "KILLED" })
	testwait.WaitFor(t, time.Minute, "the statement to be cancelled and its session closed", func() bool {
		sts := hs2.Statements()
		return hs2.Running() == 0 && hs2.Sessions() == 0 && len(sts) == 1 && sts[0].State == "CANCELED"
	})
}

const subwfHeldApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="parent">
  <start to="child"/>
  <action name="child">
    <sub-workflow><app-path>${nameNode}/user/${wf:user()}/held-child</app-path><propagate-configuration/></sub-workflow>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>child failed</message></kill>
  <end name="end"/>
</workflow-app>`

// TestSuspendAndKillCascadeToSubWorkflow suspends, resumes and kills a
// parent whose sub-workflow runs a long hive2 query.
func TestSuspendAndKillCascadeToSubWorkflow(t *testing.T) {
	t.Parallel()
	e := inProcessServer(t)
	hs2 := e.cluster.HS2
	hs2.HangNext()
	ctx := context.Background()
	e.writeApp(t, "held-child", strings.Replace(longHive2App, `name="long-query"`, `name="held-child"`, 1))
	id := e.submit(t, "parent", subwfHeldApp)
	testwait.WaitFor(t, time.Minute, "the child's query to run", func() bool { return hs2.Running() == 1 })
	info, err := e.client.Info(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var child string
	for _, a := range info.Actions {
		if a.Name == "child" {
			child = a.ExternalID
		}
	}
	if child == "" {
		t.Fatalf("the parent's action has no child: %+v", info.Actions)
	}
	if err := e.client.Suspend(ctx, id); err != nil {
		t.Fatal(err)
	}
	if s := e.status(t, child); s != "SUSPENDED" {
		t.Errorf("after suspending the parent the child is %s", s)
	}
	if err := e.client.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	if s := e.status(t, child); s != "RUNNING" {
		t.Errorf("after resuming the parent the child is %s", s)
	}
	if err := e.client.Kill(ctx, id); err != nil {
		t.Fatal(err)
	}
	testwait.WaitFor(t, time.Minute, "parent and child to be KILLED", func() bool { return e.status(t, id) == "KILLED" && e.status(t, child) == "KILLED" })
	testwait.WaitFor(t, time.Minute, "the child's query to be cancelled", func() bool { return hs2.Running() == 0 })
}

const emailApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="notify">
  <start to="mail"/>
  <action name="mail">
    <email xmlns="uri:oozie:email-action:0.2">
      <to>team@example.com</to>
      <subject>${wf:name()} ${wf:id()}</subject>
      <body>The nightly load of ${day} is done.</body>
    </email>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>mail failed: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

// TestEmailActionSendsThroughConfiguredServer runs the server binary with
// the SMTP settings as flags and a local SMTP sink.
func TestEmailActionSendsThroughConfiguredServer(t *testing.T) {
	t.Parallel()
	sink, err := smtpsink.Start(smtpsink.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	dir := t.TempDir()
	_, addr := startServer(t, "-local", "-data-dir", dir, "-config-dir", t.TempDir(),
		"-email.smtp.host", "127.0.0.1", "-email.smtp.port", sinkPort(sink), "-email.smtp.from", "gozie@example.com")
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	id := e.run(t, e.writeApp(t, "notify", emailApp), "day=2025-03-09")
	if status, info := e.waitJob(t, id, time.Minute); status != "SUCCEEDED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	msgs := sink.Messages()
	if len(msgs) != 1 || msgs[0].From != "gozie@example.com" || msgs[0].To[0] != "team@example.com" ||
		!strings.Contains(msgs[0].Data, "Subject: notify "+id) || !strings.Contains(msgs[0].Data, "The nightly load of 2025-03-09 is done.") {
		t.Fatalf("messages %+v", msgs)
	}
	if a := e.jobInfo(t, id).action(t, "mail"); a.Status != "OK" || a.ExternalStatus != "OK" {
		t.Errorf("action %+v", a)
	}
}

func sinkPort(s *smtpsink.Sink) string {
	_, port, _ := net.SplitHostPort(s.Addr())
	return port
}
