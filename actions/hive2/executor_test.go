package hive2_test

import (
	"errors"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// hive2Example is what TestExampleEndToEnd expects of one source's hive2
// example: its action node and the statements its script sends once INPUT
// and OUTPUT are substituted.
type hive2Example struct {
	node       string
	statements []string
}

var hive2Examples = map[string]hive2Example{
	testapps.Gozie: {"copy-rows", []string{"DROP TABLE IF EXISTS gozie_numbers",
		"CREATE EXTERNAL TABLE gozie_numbers (n INT) STORED AS TEXTFILE LOCATION '/user/alice/examples/input-data/table'",
		"INSERT OVERWRITE DIRECTORY '/user/alice/examples/output-data/hive2' SELECT n FROM gozie_numbers"}},
	testapps.Oozie: {"hive2-node", []string{"DROP TABLE IF EXISTS test",
		"CREATE EXTERNAL TABLE test (a INT) STORED AS TEXTFILE LOCATION '/user/alice/examples/input-data/table'",
		"INSERT OVERWRITE DIRECTORY '/user/alice/examples/output-data/hive2' SELECT * FROM test"}},
}

// The hive2 example (gozie's own, and Oozie's when testapps.OozieEnv names
// it), end to end: its workflow's action (EL resolved as the runner would),
// its script from the app directory on MiniDFS, a MiniHS2 that runs the
// INSERT as a tagged Tez application on MiniYARN.
func TestExampleEndToEnd(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		exampleEndToEnd(t, filepath.Join(apps, "hive2"), hive2Examples[testapps.Source(apps)])
	})
}

// exampleEndToEnd runs the hive2 example app in dir, as alice.
func exampleEndToEnd(t *testing.T, dir string, want hive2Example) {
	ctx := hadoop.AsUser(ctxT(t), "alice")
	// The test's resolver is the server's, acting for alice.
	c, err := localcluster.Start(ctx, localcluster.Options{Dir: t.TempDir(), ProxyUsers: []string{osUser(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.DFS.CreateHome("alice"); err != nil {
		t.Fatal(err)
	}
	hs2 := startHS2(t, minihs2.Options{FS: c.FS, YARN: c.YARN.WebURL()})
	nn := c.Properties()["nameNode"]
	e := &env{fs: c.FS, nn: nn, hs2: hs2}

	def, err := os.ReadFile(filepath.Join(dir, "workflow.xml"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := workflow.Parse(def)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := app.ActionXML(want.node, nil, workflow.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	resolved := strings.NewReplacer("${jdbcURL}", hs2.JDBCURL("default"), "${nameNode}", nn,
		"${resourceManager}", c.Properties()["resourceManager"], "${queueName}", "default",
		"${wf:user()}", "alice", "${examplesRoot}", "examples").Replace(raw)
	if strings.Contains(resolved, "${") {
		t.Fatalf("the action keeps an expression the test does not resolve:\n%s", resolved)
	}
	run := e.newRun(want.node, resolved)
	script, err := os.ReadFile(filepath.Join(dir, "script.q"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.FS.WriteFile(ctx, run.AppPath+"/script.q", script, 0o644); err != nil {
		t.Fatal(err)
	}
	in, out := nn+"/user/alice/examples/input-data/table", nn+"/user/alice/examples/output-data/hive2"
	if err := c.FS.WriteFile(ctx, in+"/part-0", []byte("10\n20\n30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.FS.WriteFile(ctx, out+"/stale", []byte("from an earlier run\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ex := newExecutor(t, testConfig(c.FS))
	st, err := ex.Start(ctx, run)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if st.Done || st.ExternalID != run.Tag {
		t.Fatalf("Start: %+v", st)
	}
	st = waitDone(t, ex, run)
	if st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "SUCCEEDED" {
		t.Fatalf("run ended %+v", st)
	}
	if got, err := c.FS.ReadFile(ctx, out+"/000000_0"); err != nil || string(got) != "10\n20\n30\n" {
		t.Fatalf("output %q %v", got, err)
	}
	if _, err := c.FS.Stat(ctx, out+"/stale"); err == nil {
		t.Error("the output directory kept an old file")
	}

	hist := hs2.Statements()
	if got := texts(hs2); !slices.Equal(got, want.statements) {
		t.Fatalf("statements %q, want %q", got, want.statements)
	}
	for _, h := range hist {
		if h.User != "alice" || h.State != "FINISHED" || !slices.Contains(h.Tags, run.Tag) ||
			h.Conf["hive.execution.engine"] != "tez" || h.Conf["mapred.job.queue.name"] != "default" {
			t.Errorf("statement %+v", h)
		}
	}
	appID, err := yarn.ParseApplicationID(hist[2].AppID)
	if err != nil {
		t.Fatalf("the INSERT ran without an application: %v", err)
	}
	if !slices.Equal(st.ExternalChildIDs, []string{appID.String()}) {
		t.Errorf("child ids %v, want [%s]", st.ExternalChildIDs, appID)
	}
	rm, err := yarn.NewClient(yarn.Config{Addresses: []string{c.YARN.WebURL()}, Auth: yarn.PseudoAuth{User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	tagged, err := rm.Apps(ctx, yarn.AppsFilter{Tags: []string{run.Tag}})
	if err != nil || len(tagged) != 1 || tagged[0].ID != appID || tagged[0].ApplicationType != "TEZ" {
		t.Errorf("applications tagged %s: %+v %v", run.Tag, tagged, err)
	}

	logText, err := c.FS.ReadFile(ctx, hive2.LogPath(run.ActionDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"statement 3 of 3: INSERT OVERWRITE DIRECTORY",
		"Executing on YARN cluster with App id " + appID.String(), "run succeeded"} {
		if !strings.Contains(string(logText), want) {
			t.Errorf("%s lacks %q:\n%s", hive2.LogFile, want, logText)
		}
	}
	testwait.WaitFor(t, testwait.Timeout, "the session to close", func() bool { return hs2.Sessions() == 0 })

	// Start again (a runner that crashed before recording RUNNING) reports
	// the end without running anything.
	again, err := ex.Start(ctx, run)
	if err != nil || !again.Done || again.Outcome != workflow.OutcomeOK || len(hs2.Statements()) != 3 {
		t.Errorf("second Start: %+v %v, %d statements", again, err, len(hs2.Statements()))
	}
}

// Every transport, with an inline query (schema 1.0), params substituted,
// the action's configuration in the session, and the connection closed at
// the end.
func TestTransportsAndSessionSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		transport minihs2.Transport
		auth      minihs2.Auth
	}{
		{"binary-sasl-plain", minihs2.Binary, minihs2.AuthNone},
		{"binary-nosasl", minihs2.Binary, minihs2.AuthNoSASL},
		{"http", minihs2.HTTP, minihs2.AuthNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := setup(t, minihs2.Options{Transport: tc.transport, Auth: tc.auth})
			b := body(e.hs2.JDBCURL("default")+"?hive.exec.parallel=true#day=2024-01-01",
				`<password>pw</password>`+
					query("CREATE TABLE IF NOT EXISTS t (a INT, d STRING);\n-- load\nINSERT INTO t VALUES (${v}, '${day}');")+
					`<param>v=5</param><argument>--hivevar</argument><argument>v=7</argument>`+
					`<argument>--hiveconf</argument><argument>hive.exec.reducers.max=3</argument><argument>--silent=true</argument>`)
			b = strings.Replace(b, `<jdbc-url>`, `<configuration><property><name>mapreduce.job.queuename</name><value>etl</value></property>`+
				`<property><name>oozie.launcher.x</name><value>y</value></property></configuration><jdbc-url>`, 1)
			run := e.newRun("q", b)
			ex := newExecutor(t, testConfig(e.fs))
			if _, err := ex.Start(ctxT(t), run); err != nil {
				t.Fatal(err)
			}
			if st := waitDone(t, ex, run); st.Outcome != workflow.OutcomeOK {
				t.Fatalf("run ended %+v", st)
			}
			want := []string{"CREATE TABLE IF NOT EXISTS t (a INT, d STRING)", "INSERT INTO t VALUES (7, '2024-01-01')"}
			if got := texts(e.hs2); !slices.Equal(got, want) {
				t.Fatalf("statements %q, want %q", got, want)
			}
			h := e.hs2.Statements()[1]
			wantConf := map[string]string{"hive.execution.engine": "tez", "mapreduce.job.queuename": "etl",
				"hive.exec.parallel": "true", "hive.exec.reducers.max": "3", "tez.application.tags": run.Tag, "mapreduce.job.tags": run.Tag}
			for k, v := range wantConf {
				if h.Conf[k] != v {
					t.Errorf("session %s=%q, want %q", k, h.Conf[k], v)
				}
			}
			if _, ok := h.Conf["oozie.launcher.x"]; ok || h.User != "alice" {
				t.Errorf("session: user %s conf %v", h.User, h.Conf)
			}
			if rows := tableRows(t, e.fs, "/user/hive/warehouse/t"); !slices.Equal(rows, []string{"7\x012024-01-01"}) {
				t.Errorf("table rows %q", rows)
			}
			testwait.WaitFor(t, testwait.Timeout, "the session to close", func() bool { return e.hs2.Sessions() == 0 })
		})
	}
}

func TestFailingStatements(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	tests := []struct {
		name   string
		script string
		inject func()
		code   string
		msg    string
		ran    int // statements MiniHS2 received
	}{
		{"unknown table", "CREATE TABLE a (x INT); SELECT * FROM nosuch; DROP TABLE a", nil,
			"10001", "Table not found 'nosuch'", 2},
		{"parse error", "SELEC 1; DROP TABLE a", nil, "40000", "ParseException line 1:0", 1},
		{"failed task", "CREATE TABLE IF NOT EXISTS b (x INT); INSERT INTO b VALUES (1); DROP TABLE b",
			func() {
				e.hs2.FailOn("INSERT INTO b", 2, "Error while processing statement: FAILED: Execution Error, return code 2 from org.apache.hadoop.hive.ql.exec.tez.TezTask")
			},
			"2", "return code 2 from org.apache.hadoop.hive.ql.exec.tez.TezTask", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(e.hs2.Statements())
			if tc.inject != nil {
				tc.inject()
			}
			run := e.newRun(strings.ReplaceAll(tc.name, " ", "-"), body(e.hs2.JDBCURL(""), query(tc.script)))
			ex := newExecutor(t, testConfig(e.fs))
			if _, err := ex.Start(ctxT(t), run); err != nil {
				t.Fatal(err)
			}
			st := waitDone(t, ex, run)
			if st.Outcome != workflow.OutcomeError || st.ExternalStatus != "FAILED" || st.ErrorCode != tc.code || !strings.Contains(st.ErrorMessage, tc.msg) {
				t.Errorf("run ended %+v, want code %s and %q", st, tc.code, tc.msg)
			}
			if ran := len(e.hs2.Statements()) - before; ran != tc.ran {
				t.Errorf("%d statements ran, want %d", ran, tc.ran)
			}
		})
	}
}

func TestKillCancelsTheRunningStatement(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{Transport: minihs2.HTTP})
	e.hs2.HangOn("count(*)")
	run := e.newRun("k", body(e.hs2.JDBCURL(""), query("CREATE TABLE k (a INT); SELECT count(*) FROM k; DROP TABLE k")))
	ex := newExecutor(t, testConfig(e.fs))
	if _, err := ex.Start(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
	waitHanging(t, e.hs2)
	if err := ex.Kill(ctxT(t), run); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	hist := e.hs2.Statements()
	if len(hist) != 2 || hist[1].State != "CANCELED" {
		t.Fatalf("statements after Kill: %+v", hist)
	}
	if e.hs2.Sessions() != 0 {
		t.Errorf("%d sessions left open after Kill", e.hs2.Sessions())
	}
	st, err := ex.Check(ctxT(t), run)
	if err != nil || !st.Done || st.ExternalStatus != "KILLED" {
		t.Errorf("Check after Kill: %+v %v", st, err)
	}
	// Another executor (another server) sees the same.
	other := newExecutor(t, testConfig(e.fs))
	if st, err := other.Start(ctxT(t), run); err != nil || !st.Done || st.ExternalStatus != "KILLED" || len(e.hs2.Statements()) != 2 {
		t.Errorf("Start elsewhere after Kill: %+v %v", st, err)
	}
}

// After a crash, the run is resumed by whoever checks it once the owner's
// heartbeat is stale: finished statements are not run again, and the
// statement that was running is run again because it is safe to.
func TestResumeAfterCrashRunsNothingTwice(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	e.hs2.HangOn("WHERE a > 0")
	script := "SET hive.exec.parallel=true; CREATE TABLE IF NOT EXISTS c (a INT); INSERT INTO c VALUES (1);\n" +
		"SELECT count(*) FROM c WHERE a > 0; INSERT INTO c VALUES (2)"
	run := e.newRun("c", body(e.hs2.JDBCURL(""), query(script)))
	a := newExecutor(t, testConfig(e.fs))
	if _, err := a.Start(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
	waitHanging(t, e.hs2)
	a.Crash()
	// The binary connection dropped: HiveServer2 cancels its statement.
	testwait.WaitFor(t, testwait.Timeout, "the dropped session's statement to be cancelled", func() bool { return e.hs2.Running() == 0 })

	b := newExecutor(t, testConfig(e.fs))
	st, err := b.Start(ctxT(t), run) // the runner retrying a Start that crashed
	if err != nil || st.Done {
		t.Fatalf("Start while the owner's heartbeat is fresh: %+v %v", st, err)
	}
	if n := len(e.hs2.Statements()); n != 4 {
		t.Fatalf("Start ran statements while the owner looked alive: %d", n)
	}
	st = waitDone(t, b, run)
	if st.Outcome != workflow.OutcomeOK {
		t.Fatalf("resumed run ended %+v", st)
	}
	got := texts(e.hs2)
	want := []string{"SET hive.exec.parallel=true", "CREATE TABLE IF NOT EXISTS c (a INT)", "INSERT INTO c VALUES (1)",
		"SELECT count(*) FROM c WHERE a > 0",
		"SET hive.exec.parallel=true", // replayed on the new session
		"SELECT count(*) FROM c WHERE a > 0", "INSERT INTO c VALUES (2)"}
	if !slices.Equal(got, want) {
		t.Fatalf("statements\n%q\nwant\n%q", got, want)
	}
	rows := tableRows(t, e.fs, "/user/hive/warehouse/c")
	slices.Sort(rows)
	if !slices.Equal(rows, []string{"1", "2"}) {
		t.Errorf("table rows %q", rows)
	}
	logText, _ := e.fs.ReadFile(ctxT(t), hive2.LogPath(run.ActionDir))
	if !strings.Contains(string(logText), "resuming run") || !strings.Contains(string(logText), "statement 4 of 5") {
		t.Errorf("log lacks the resumption:\n%s", logText)
	}
}

// A statement that is not safe to repeat and was running at the crash is
// not run again: the run ends with CodeInDoubt.
func TestInDoubtStatementIsNotRepeated(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	e.hs2.HangOn("VALUES (2)")
	run := e.newRun("d", body(e.hs2.JDBCURL(""), query("CREATE TABLE d (a INT); INSERT INTO d VALUES (1); INSERT INTO d VALUES (2)")))
	a := newExecutor(t, testConfig(e.fs))
	if _, err := a.Start(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
	waitHanging(t, e.hs2)
	a.Crash()
	b := newExecutor(t, testConfig(e.fs))
	st := waitDone(t, b, run)
	if st.Outcome != workflow.OutcomeError || st.ErrorCode != hive2.CodeInDoubt || !strings.Contains(st.ErrorMessage, "INSERT INTO d VALUES (2)") {
		t.Fatalf("run ended %+v", st)
	}
	if got := texts(e.hs2); count(got, "INSERT INTO d VALUES (2)") != 1 || count(got, "INSERT INTO d VALUES (1)") != 1 {
		t.Errorf("statements %q", got)
	}
}

// A graceful shutdown cancels the running statement, confirms it did not
// run, and hands the run over at once: the next executor runs it, even a
// statement that is not safe to repeat, exactly once.
func TestShutdownHandsTheRunOver(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	e.hs2.HangOn("VALUES (2)")
	run := e.newRun("s", body(e.hs2.JDBCURL(""), query("CREATE TABLE s (a INT); INSERT INTO s VALUES (1); INSERT INTO s VALUES (2)")))
	cfg := testConfig(e.fs)
	cfg.StaleAfter = 1e12 // a takeover can only come from the release
	a := newExecutor(t, cfg)
	if _, err := a.Start(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
	waitHanging(t, e.hs2)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if e.hs2.Running() != 0 || e.hs2.Sessions() != 0 {
		t.Fatalf("after Close: %d running, %d sessions", e.hs2.Running(), e.hs2.Sessions())
	}
	if _, err := a.Check(ctxT(t), run); err == nil {
		t.Error("a closed executor still checks runs")
	}
	b := newExecutor(t, cfg)
	if st := waitDone(t, b, run); st.Outcome != workflow.OutcomeOK {
		t.Fatalf("handed-over run ended %+v", st)
	}
	if got := texts(e.hs2); count(got, "INSERT INTO s VALUES (2)") != 2 || count(got, "INSERT INTO s VALUES (1)") != 1 {
		t.Errorf("statements %q", got)
	}
	rows := tableRows(t, e.fs, "/user/hive/warehouse/s")
	slices.Sort(rows)
	if !slices.Equal(rows, []string{"1", "2"}) {
		t.Errorf("table rows %q (the cancelled INSERT must not have written)", rows)
	}
}

// A broken connection is re-opened and the run goes on, replaying session
// statements; a statement that is not safe to repeat ends it in doubt.
func TestBrokenConnection(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		hang    string
		outcome workflow.Outcome
		code    string
	}{
		{"safe statement is run again", "count(*)", workflow.OutcomeOK, ""},
		{"unsafe statement ends in doubt", "VALUES (2)", workflow.OutcomeError, hive2.CodeInDoubt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := setup(t, minihs2.Options{})
			e.hs2.HangOn(tc.hang)
			run := e.newRun("b", body(e.hs2.JDBCURL(""), query(
				"USE default; CREATE TABLE b (a INT); SELECT count(*) FROM b; INSERT INTO b VALUES (2)")))
			ex := newExecutor(t, testConfig(e.fs))
			if _, err := ex.Start(ctxT(t), run); err != nil {
				t.Fatal(err)
			}
			waitHanging(t, e.hs2)
			e.hs2.DropConnections()
			st := waitDone(t, ex, run)
			if st.Outcome != tc.outcome || st.ErrorCode != tc.code {
				t.Fatalf("run ended %+v", st)
			}
			got := texts(e.hs2)
			if count(got, "CREATE TABLE b (a INT)") != 1 {
				t.Errorf("statements %q", got)
			}
			if tc.outcome == workflow.OutcomeOK && (count(got, "USE default") != 2 || count(got, "SELECT count(*) FROM b") != 2) {
				t.Errorf("statements %q: want USE replayed and the SELECT run again", got)
			}
		})
	}
}

func TestStartIsIdempotentInProcess(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	e.hs2.HangOn("count(*)")
	run := e.newRun("i", body(e.hs2.JDBCURL(""), query("CREATE TABLE i (a INT); SELECT count(*) FROM i")))
	ex := newExecutor(t, testConfig(e.fs))
	for range 3 {
		if st, err := ex.Start(ctxT(t), run); err != nil || st.Done {
			t.Fatalf("Start: %+v %v", st, err)
		}
	}
	waitHanging(t, e.hs2)
	if got := texts(e.hs2); len(got) != 2 {
		t.Errorf("statements %q", got)
	}
	if err := ex.Kill(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	// A port nobody listens on: MiniHS2's, once closed.
	gone := startHS2(t, minihs2.Options{FS: e.fs})
	goneURL := gone.JDBCURL("")
	gone.Close()
	tests := []struct {
		name, body string
		kind       actions.ErrorKind
		code       string
	}{
		{"unreachable", body(goneURL, query("SELECT 1")), actions.Transient, hive2.CodeIO},
		{"bad url", body("jdbc:mysql://h/db", query("SELECT 1")), actions.ActionError, hive2.CodeBadURL},
		{"kerberos without a login", body("jdbc:hive2://h:10000/db;principal=hive/_HOST@R", query("SELECT 1")), actions.ActionError, hive2.CodeUnsupported},
		{"zookeeper", body("jdbc:hive2://zk1:2181/;serviceDiscoveryMode=zooKeeper", query("SELECT 1")), actions.ActionError, hive2.CodeUnsupported},
		{"missing script", body(e.hs2.JDBCURL(""), "<script>nosuch.q</script>"), actions.ActionError, hive2.CodeScriptMissing},
		{"not hive2", `<shell xmlns="uri:oozie:shell-action:1.0"><exec>x</exec></shell>`, actions.ActionFailed, hive2.CodeBadAction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := e.newRun(strings.ReplaceAll(tc.name, " ", "-"), tc.body)
			ex := newExecutor(t, testConfig(e.fs))
			for range 2 { // the runner's retry of a transient error fails the same way
				_, err := ex.Start(ctxT(t), run)
				if kind, code := execCode(err); kind != tc.kind || code != tc.code {
					t.Fatalf("Start error %v (%s %s), want %s %s", err, kind, code, tc.kind, tc.code)
				}
			}
			rec, err := e.fs.ReadFile(ctxT(t), run.ActionDir+"/"+hive2.StateFile)
			switch {
			case tc.kind != actions.Transient && err == nil:
				t.Errorf("a run that cannot start left a record: %s", rec)
			case tc.kind == actions.Transient && (err != nil || !strings.Contains(string(rec), `"owner": ""`) ||
				!strings.Contains(string(rec), `"inFlight": false`)):
				t.Errorf("an unreachable server should leave a released record with nothing in flight: %s %v", rec, err)
			}
		})
	}
	if len(e.hs2.Statements()) != 0 {
		t.Errorf("statements ran: %q", texts(e.hs2))
	}
}

func TestPrepareAndScriptFromAppDir(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	ctx := hadoop.AsUser(ctxT(t), "alice") // the fixtures are the run's user's
	run := e.newRun("p", "")
	if err := e.fs.WriteFile(ctx, run.AppPath+"/sql/job.q", []byte("-- the job\nCREATE TABLE p (a INT);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"/user/alice/p/out-1/x", "/user/alice/p/out-2/y", "/user/alice/p/keep/z"} {
		if err := e.fs.WriteFile(ctx, e.nn+f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run.Body = `<hive2 xmlns="uri:oozie:hive2-action:0.2"><prepare><delete path="` + e.nn + `/user/alice/p/out-*"/>` +
		`<mkdir path="` + e.nn + `/user/alice/p/new"/></prepare><jdbc-url>` + e.hs2.JDBCURL("") + `</jdbc-url><script>sql/job.q</script></hive2>`
	ex := newExecutor(t, testConfig(e.fs))
	if _, err := ex.Start(ctx, run); err != nil {
		t.Fatal(err)
	}
	if st := waitDone(t, ex, run); st.Outcome != workflow.OutcomeOK {
		t.Fatalf("run ended %+v", st)
	}
	entries, err := e.fs.ReadDir(ctx, e.nn+"/user/alice/p")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name)
	}
	if !slices.Equal(names, []string{"keep", "new"}) {
		t.Errorf("after prepare: %v", names)
	}
	if got := texts(e.hs2); !slices.Equal(got, []string{"CREATE TABLE p (a INT)"}) {
		t.Errorf("statements %q", got)
	}
}

// TestServerDiskRefused: with the server's default filesystems (hdfs only),
// a script, a prepare path or an action directory on the server's own disk,
// in any spelling, ends the action in ERROR with E0904 and the refusal's
// message, before any statement runs.
func TestServerDiskRefused(t *testing.T) {
	t.Parallel()
	e := setup(t, minihs2.Options{})
	policy, err := hadoop.NewSchemePolicy([]string{"hdfs"}, e.nn)
	if err != nil {
		t.Fatal(err)
	}
	ex := newExecutor(t, testConfig(policy.Restrict(e.fs)))
	url := html.EscapeString(e.hs2.JDBCURL(""))
	tests := []struct {
		name, body, uri string
		actionDir       string
	}{
		{"script", body(e.hs2.JDBCURL(""), "<script>FILE:///etc/passwd</script>"), "FILE:///etc/passwd", ""},
		{"script without slashes", body(e.hs2.JDBCURL(""), "<script>file:/etc/passwd</script>"), "file:/etc/passwd", ""},
		{"prepare", `<hive2 xmlns="uri:oozie:hive2-action:0.2"><prepare><delete path="file:///tmp/gozie-never"/></prepare>` +
			`<jdbc-url>` + url + `</jdbc-url>` + query("SELECT 1") + `</hive2>`, "file:///tmp/gozie-never", ""},
		{"action directory", body(e.hs2.JDBCURL(""), query("SELECT 1")), "file:///tmp/gozie-sys/x/" + hive2.StateFile,
			"file:///tmp/gozie-sys/x"},
	}
	for _, tc := range tests {
		run := e.newRun(strings.ReplaceAll(tc.name, " ", "-"), tc.body)
		if tc.actionDir != "" {
			run.ActionDir = tc.actionDir
		}
		_, err := ex.Start(ctxT(t), run)
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind != actions.ActionError || ee.Code != "E0904" {
			t.Errorf("%s: Start error %v, want an ERROR E0904", tc.name, err)
			continue
		}
		if want := "Scheme [file] not supported in uri [" + tc.uri + "]"; ee.Err.Error() != want {
			t.Errorf("%s: message %q, want %q", tc.name, ee.Err, want)
		}
	}
	if len(e.hs2.Statements()) != 0 {
		t.Errorf("statements ran: %q", texts(e.hs2))
	}
}
