package launch_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

const echoScript = `#!/bin/bash
echo "greeting=$GREETING"
echo "arg1=$1"
echo "arg2=$2"
echo "lib=$(cat helper.txt)"
echo "renamed=$(cat data.txt)"
echo "confxml=$(test -s "$OOZIE_ACTION_CONF_XML" && grep -c '<name>mapreduce.job.tags</name>' "$OOZIE_ACTION_CONF_XML")"
echo "childtag=$GOZIE_CHILD_TAG"
echo "amrm=$(test -n "$HADOOP_TOKEN_FILE_LOCATION" && grep -c YARN_AM_RM_TOKEN "$HADOOP_TOKEN_FILE_LOCATION")"
echo "archive=$(cat unzipped/inner/file.txt)"
echo "this goes to stderr" >&2
`

func TestShellSucceedsWithCapturedOutput(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/user/alice/app/bin/echo.sh", echoScript)
	c.put(t, "/user/alice/app/lib/helper.txt", "from-lib")
	c.put(t, "/user/alice/app/input.txt", "from-file")
	c.put(t, "/user/alice/app/data.zip", zipOf(t, "inner/file.txt", "from-archive"))
	e := c.executor(t, "shell", nil)
	run := c.run(t, "shell", "echo", "/user/alice/app", shellBody(
		`<exec>bin/echo.sh</exec><argument>first arg</argument><argument>second</argument>`+
			`<env-var>GREETING=hello world</env-var><file>bin/echo.sh</file><file>input.txt#data.txt</file>`+
			`<archive>data.zip#unzipped</archive><capture-output/>`))

	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "SUCCEEDED" || st.ErrorCode != "" {
		t.Fatalf("status %+v, want OK", st)
	}
	props, err := conf.ReadProperties(strings.NewReader(st.Data), "data")
	if err != nil {
		t.Fatalf("captured output %q: %v", st.Data, err)
	}
	want := map[string]string{
		"greeting": "hello world", "arg1": "first arg", "arg2": "second", "lib": "from-lib", "renamed": "from-file",
		"confxml": "1", "childtag": launch.ChildTag(run.Tag), "amrm": "0", "archive": "from-archive",
	}
	for k, v := range want {
		if got := props.Value(k); got != v {
			t.Errorf("captured %s = %q, want %q (all: %q)", k, got, v, st.Data)
		}
	}
	if strings.Contains(st.Data, "stderr") {
		t.Errorf("stderr leaked into the captured output: %q", st.Data)
	}
	if got := c.waitCallback(t, run); got != launcher.StatusSucceeded {
		t.Errorf("callback status %q", got)
	}
	if _, err := yarn.ParseApplicationID(st.ExternalID); err != nil || st.TrackerURI != run.ResourceManager {
		t.Errorf("external id %q tracker %q", st.ExternalID, st.TrackerURI)
	}

	// The result file holds the truth too.
	b, err := c.fs.ReadFile(ctxT(t), run.ActionDir+"/"+launcher.ResultFile)
	if err != nil {
		t.Fatal(err)
	}
	res, err := launcher.ParseResult(b)
	if err != nil || !res.Succeeded() || *res.ExitCode != 0 || res.ApplicationID != st.ExternalID || res.Output != st.Data {
		t.Errorf("result %+v, %v", res, err)
	}
	// The launcher recorded its id (the guard against a second launcher).
	if b, err := c.fs.ReadFile(ctxT(t), run.ActionDir+"/"+launcher.IDFile); err != nil || strings.TrimSpace(string(b)) != st.ExternalID {
		t.Errorf("launcher.id = %q, %v", b, err)
	}
	// The binary was staged under its content hash.
	raw, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	staged, err := c.fs.Stat(ctxT(t), c.dfs.URI()+"/user/alice/gozie-sys/launcher/"+hex.EncodeToString(sum[:])+"/gozie")
	if err != nil || staged.Size != int64(len(raw)) {
		t.Errorf("staged binary: %+v, %v", staged, err)
	}
	// The application is the launcher, with both tags and one attempt.
	apps := c.appsTagged(run.Tag)
	if len(apps) != 1 || !apps[0].HasTag(launch.CommonTag) || apps[0].ApplicationType != launch.ApplicationType ||
		apps[0].State != yarn.StateFinished || apps[0].FinalStatus != yarn.FinalSucceeded {
		t.Errorf("apps %+v", apps)
	}
}

// zipOf returns a zip archive holding one file.
func zipOf(t *testing.T, name, content string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestShellFailureIsErrorWithCodeOne(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/fail.sh", "#!/bin/sh\necho partial=1\nexit \"$1\"\n")
	e := c.executor(t, "shell", nil)
	for _, exit := range []string{"1", "7"} {
		run := c.run(t, "shell", "fail"+exit, "/app", shellBody(`<exec>fail.sh</exec><argument>`+exit+`</argument><file>/app/fail.sh</file><capture-output/>`))
		st := c.finish(t, e, run)
		if st.Outcome != workflow.OutcomeError || st.ErrorCode != "1" || st.ExternalStatus != "FAILED/KILLED" || st.Data != "" {
			t.Errorf("exit %s: status %+v, want ERROR with error code 1 and no data", exit, st)
		}
		if !strings.Contains(st.ErrorMessage, "exit") || !strings.Contains(st.ErrorMessage, exit) {
			t.Errorf("exit %s: message %q", exit, st.ErrorMessage)
		}
		if got := c.waitCallback(t, run); got != launcher.StatusFailed {
			t.Errorf("callback status %q", got)
		}
		// The launcher unregistered FAILED itself: the attempt did not crash.
		id, _ := yarn.ParseApplicationID(st.ExternalID)
		if r, _ := c.rm.App(id); r.State != yarn.StateFinished || r.FinalStatus != yarn.FinalFailed {
			t.Errorf("exit %s: report %s/%s", exit, r.State, r.FinalStatus)
		}
	}
}

func TestCapturedOutputOverTheLimit(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/big.sh", "#!/bin/sh\necho a=0123456789\necho b=0123456789\n")
	e := c.executor(t, "shell", func(cfg *launch.Config) { cfg.MaxOutputData = 16 })
	run := c.run(t, "shell", "big", "/app", shellBody(`<exec>big.sh</exec><file>big.sh</file><capture-output/>`))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeError || st.ErrorCode != "JA018" || st.ErrorMessage != "output.properties data exceeds its limit [16]" {
		t.Errorf("status %+v, want JA018 with Oozie's message", st)
	}
}

func TestStartAgainDoesNotSubmitASecondApplication(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\necho done\n")
	e := c.executor(t, "shell", nil)
	run := c.run(t, "shell", "once", "/app", shellBody(`<exec>ok.sh</exec><file>ok.sh</file>`))
	first, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	// A server that crashed before recording the launch starts it again.
	again, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if again.ExternalID != first.ExternalID {
		t.Errorf("second Start reported %s, first %s", again.ExternalID, first.ExternalID)
	}
	run.ExternalID = first.ExternalID
	c.waitCallback(t, run)
	done, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if !done.Done || done.Outcome != workflow.OutcomeOK || done.ExternalID != first.ExternalID {
		t.Errorf("Start after the end: %+v", done)
	}
	if n := len(c.appsTagged(run.Tag)); n != 1 {
		t.Errorf("%d applications for one run, want 1", n)
	}
	if n := len(c.rm.Apps()); n != 1 {
		t.Errorf("the RM has %d applications, want 1", n)
	}
}

// TestStartOfANewTagLooksForNoEarlierLaunch: a run whose tag was recorded
// for this start (NewTag) is launched without asking the RM for an
// application of its tag; a start of the same run again (a restart that
// finds the tag recorded) asks, and finds the first launch.
func TestStartOfANewTagLooksForNoEarlierLaunch(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\necho done\n")
	e := c.executor(t, "shell", nil)
	run := c.run(t, "shell", "fresh", "/app", shellBody(`<exec>ok.sh</exec><file>ok.sh</file>`))
	run.NewTag = true
	before := c.listQueries.Load()
	first, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.listQueries.Load() - before; n != 0 {
		t.Errorf("the start of a new tag made %d list queries, want none", n)
	}
	run.NewTag = false
	again, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.listQueries.Load() - before; n != 1 || again.ExternalID != first.ExternalID {
		t.Errorf("the start again: %d list queries, %s; want 1 query finding %s", n, again.ExternalID, first.ExternalID)
	}
	if n := len(c.appsTagged(run.Tag)); n != 1 {
		t.Errorf("%d applications for one run, want 1", n)
	}
}

func TestForgottenApplicationFallsBackToTheResultFile(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/out.sh", "#!/bin/sh\necho k=v\n")
	e := c.executor(t, "shell", nil)
	run := c.run(t, "shell", "forgotten", "/app", shellBody(`<exec>out.sh</exec><file>out.sh</file><capture-output/>`))
	c.finish(t, e, run)
	id, err := yarn.ParseApplicationID(run.ExternalID)
	if err != nil {
		t.Fatal(err)
	}
	c.waitFinal(t, id)
	if err := c.rm.Forget(id); err != nil {
		t.Fatal(err)
	}
	st, err := e.Check(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.Outcome != workflow.OutcomeOK || st.Data != "k=v\n" || st.ExternalID != run.ExternalID {
		t.Errorf("Check of a forgotten app: %+v", st)
	}
	// Start (a restart before the launch was recorded) does not launch again.
	again, err := e.Start(ctxT(t), run)
	if err != nil || !again.Done || again.Data != "k=v\n" {
		t.Errorf("Start of a forgotten app: %+v, %v", again, err)
	}
	if n := len(c.rm.Apps()); n != 0 {
		t.Errorf("the RM has %d applications after Start, want none (no relaunch)", n)
	}
	// Without the result file the run is lost: JA017 fails it.
	if err := c.fs.Remove(ctxT(t), run.ActionDir+"/"+launcher.ResultFile); err != nil {
		t.Fatal(err)
	}
	st, err = e.Check(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.Outcome != workflow.OutcomeFailed || st.ErrorCode != "JA017" {
		t.Errorf("Check without app and result: %+v", st)
	}
}

func TestKillStopsTheApplicationAndItsProcesses(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/sleep.sh", "#!/bin/bash\necho $$ > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"\nsleep 300\necho not reached\n")
	e := c.executor(t, "shell", nil)
	pidFile := t.TempDir() + "/pid"
	run := c.run(t, "shell", "sleeper", "/app", shellBody(`<exec>sleep.sh</exec><argument>`+pidFile+`</argument><file>sleep.sh</file>`))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	id, err := yarn.ParseApplicationID(st.ExternalID)
	if err != nil {
		t.Fatal(err)
	}
	pgid := testproc.WaitPid(t, waitTimeout, pidFile)
	container := c.rm.ContainerProcessGroup(id)
	if container == 0 || !testproc.GroupAlive(t, pgid) {
		t.Fatalf("container group %d, action group %d alive %v", container, pgid, testproc.GroupAlive(t, pgid))
	}
	running, err := e.Check(ctxT(t), &actions.Attempt{ActionID: run.ActionID, Tag: run.Tag, ActionDir: run.ActionDir, ExternalID: st.ExternalID})
	if err != nil || running.Done || running.ExternalStatus != "RUNNING" {
		t.Errorf("Check while running: %+v, %v", running, err)
	}

	// Kill knows the run by its tag alone (ExternalID not recorded).
	if err := e.Kill(ctxT(t), &actions.Attempt{ActionID: run.ActionID, Tag: run.Tag}); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if r, _ := c.rm.App(id); r.State != yarn.StateKilled {
		t.Errorf("state after Kill %s, want KILLED", r.State)
	}
	testproc.WaitGroupGone(t, waitTimeout, pgid)
	testproc.WaitGroupGone(t, waitTimeout, container)
	run.ExternalID = st.ExternalID
	st, err = e.Check(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.Outcome != workflow.OutcomeError || st.ExternalStatus != "FAILED/KILLED" {
		t.Errorf("Check after Kill: %+v", st)
	}
	// Killing again (or an ended run) is not an error.
	if err := e.Kill(ctxT(t), run); err != nil {
		t.Errorf("second Kill: %v", err)
	}
	if _, err := c.fs.Stat(ctxT(t), run.ActionDir+"/"+launcher.ResultFile); err == nil {
		t.Errorf("a killed launcher wrote a result file")
	}
}

func TestCheckAllAsksTheRMOnce(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\nexit 0\n")
	c.put(t, "/app/bad.sh", "#!/bin/sh\nexit 2\n")
	c.put(t, "/app/hang.sh", "#!/bin/sh\nsleep 300\n")
	e := c.executor(t, "shell", nil)
	ok := c.run(t, "shell", "ok", "/app", shellBody(`<exec>ok.sh</exec><file>ok.sh</file>`))
	bad := c.run(t, "shell", "bad", "/app", shellBody(`<exec>bad.sh</exec><file>bad.sh</file>`))
	hang := c.run(t, "shell", "hang", "/app", shellBody(`<exec>hang.sh</exec><file>hang.sh</file>`))
	for _, r := range []*actions.Attempt{ok, bad, hang} {
		st, err := e.Start(ctxT(t), r)
		if err != nil {
			t.Fatal(err)
		}
		r.ExternalID = st.ExternalID
	}
	t.Cleanup(func() { _ = e.Kill(ctxT(t), hang) })
	c.waitCallback(t, ok)
	c.waitCallback(t, bad)
	for _, r := range []*actions.Attempt{ok, bad} {
		id, _ := yarn.ParseApplicationID(r.ExternalID)
		c.waitFinal(t, id)
	}

	// The batched poll sees runs by tag alone, as the runner passes them.
	runs := []*actions.Attempt{{ActionID: ok.ActionID, Tag: ok.Tag}, {ActionID: bad.ActionID, Tag: bad.Tag}, {ActionID: hang.ActionID, Tag: hang.Tag, ExternalID: hang.ExternalID}}
	before := c.listQueries.Load()
	got, err := e.CheckAll(ctxT(t), runs)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.listQueries.Load() - before; n != 1 {
		t.Errorf("CheckAll sent %d list queries, want 1", n)
	}
	if len(got) != 2 {
		t.Fatalf("CheckAll = %+v, want the two ended runs", got)
	}
	if s := got[ok.ActionID]; !s.Done || s.Outcome != workflow.OutcomeOK || s.ExternalID != ok.ExternalID {
		t.Errorf("ok run: %+v", s)
	}
	if s := got[bad.ActionID]; !s.Done || s.Outcome != workflow.OutcomeError || s.ExternalStatus != "FAILED/KILLED" {
		t.Errorf("bad run: %+v", s)
	}
	if _, ok := got[hang.ActionID]; ok {
		t.Errorf("the running run was reported ended")
	}
	// A later call still finds them (the window overlaps) with one query.
	before = c.listQueries.Load()
	if got, err := e.CheckAll(ctxT(t), runs); err != nil || len(got) != 2 || c.listQueries.Load()-before != 1 {
		t.Errorf("second CheckAll: %d runs, %d queries, %v", len(got), c.listQueries.Load()-before, err)
	}
	if got, err := e.CheckAll(ctxT(t), nil); err != nil || len(got) != 0 {
		t.Errorf("CheckAll of nothing: %v, %v", got, err)
	}
}

func TestPrepareRunsBeforeTheCommand(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/out/old/part-0", "stale")
	c.put(t, "/out/keep", "kept")
	c.put(t, "/app/ls.sh", "#!/bin/sh\necho ran=1\n")
	e := c.executor(t, "shell", nil)
	nn := c.dfs.URI()
	run := c.run(t, "shell", "prep", "/app", shellBody(`<prepare><delete path="`+nn+`/out/ol*"/><mkdir path="`+nn+`/out/new/dir"/></prepare>`+
		`<exec>ls.sh</exec><file>ls.sh</file>`))
	if st := c.finish(t, e, run); st.Outcome != workflow.OutcomeOK {
		t.Fatalf("status %+v", st)
	}
	if _, err := c.fs.Stat(ctxT(t), nn+"/out/old"); err == nil {
		t.Error("prepare did not delete /out/old")
	}
	if fi, err := c.fs.Stat(ctxT(t), nn+"/out/new/dir"); err != nil || !fi.IsDir {
		t.Errorf("prepare did not create /out/new/dir: %v", err)
	}
	if _, err := c.fs.Stat(ctxT(t), nn+"/out/keep"); err != nil {
		t.Errorf("prepare deleted too much: %v", err)
	}
}

func TestStartRefusesBadActions(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\n")
	e := c.executor(t, "shell", nil)
	tests := []struct {
		name string
		body string
		kind actions.ErrorKind
		code string
	}{
		{"missing file", shellBody(`<exec>ok.sh</exec><file>nope.sh</file>`), actions.ActionError, "JA008"},
		{"env-var without value", shellBody(`<exec>ok.sh</exec><env-var>NAME=</env-var>`), actions.ActionFailed, "JA010"},
		{"env-var without =", shellBody(`<exec>ok.sh</exec><env-var>NAME</env-var>`), actions.ActionFailed, "JA010"},
		{"bad launcher memory", shellBody(`<configuration><property><name>oozie.launcher.memory.mb</name><value>lots</value></property></configuration><exec>ok.sh</exec>`), actions.ActionError, "NumberFormatException"},
		{"reserved link name", shellBody(`<exec>ok.sh</exec><file>ok.sh#` + launcher.Binary + `</file>`), actions.ActionError, "JA008"},
		{"java body on the shell executor", `<java xmlns="uri:oozie:workflow:0.5"><main-class>a.B</main-class></java>`, actions.ActionFailed, "JA007"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := c.run(t, "shell", "bad", "/app", tt.body)
			_, err := e.Start(ctxT(t), run)
			var ee *actions.ExecError
			if !errors.As(err, &ee) || ee.Kind != tt.kind || ee.Code != tt.code {
				t.Fatalf("Start error %v, want %s %s", err, tt.kind, tt.code)
			}
		})
	}
	if n := len(c.rm.Apps()); n != 0 {
		t.Errorf("%d applications submitted for refused actions", n)
	}
}

func TestTheBinaryIsStagedOnce(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\n")
	e := c.executor(t, "shell", func(cfg *launch.Config) { cfg.LauncherDir = "/common/launchers" })
	raw, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	staged := c.dfs.URI() + "/common/launchers/" + hex.EncodeToString(sum[:]) + "/gozie"
	c.finish(t, e, c.run(t, "shell", "one", "/app", shellBody(`<exec>ok.sh</exec><file>ok.sh</file>`)))
	first, err := c.fs.Stat(ctxT(t), staged)
	if err != nil {
		t.Fatal(err)
	}
	// Another executor (another server) reuses the same file.
	e2 := c.executor(t, "shell", func(cfg *launch.Config) { cfg.LauncherDir = "/common/launchers" })
	c.finish(t, e2, c.run(t, "shell", "two", "/app", shellBody(`<exec>ok.sh</exec><file>ok.sh</file>`)))
	second, err := c.fs.Stat(ctxT(t), staged)
	if err != nil {
		t.Fatal(err)
	}
	if !second.ModTime.Equal(first.ModTime) {
		t.Errorf("the binary was written again: %v then %v", first.ModTime, second.ModTime)
	}
	got, err := c.fs.ReadFile(ctxT(t), staged)
	if err != nil || !bytes.Equal(got, raw) {
		t.Errorf("staged binary differs from the local one (%d bytes, %v)", len(got), err)
	}
	entries, err := c.fs.ReadDir(ctxT(t), c.dfs.URI()+"/common/launchers/"+hex.EncodeToString(sum[:]))
	if err != nil || len(entries) != 1 {
		t.Errorf("hash directory holds %d entries (temporary files left?), %v", len(entries), err)
	}
	// The binary is a PRIVATE resource: the NodeManager downloaded it for
	// the first container and linked its cached copy into the second.
	if n := c.rm.Downloads(staged); n != 1 {
		t.Errorf("the NodeManager downloaded the binary %d times for two containers of one user, want 1", n)
	}
}

func TestUnreachableResourceManagerIsTransient(t *testing.T) {
	t.Parallel()
	c := setup(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	client, err := yarn.NewClient(yarn.Config{Addresses: []string{"http://" + addr}, Auth: yarn.PseudoAuth{User: testUser},
		Retry: yarn.RetryPolicy{Rounds: 2, InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := launch.New(launch.Config{Type: "shell", YARN: client, FS: c.fs, Binary: binary})
	if err != nil {
		t.Fatal(err)
	}
	run := c.run(t, "shell", "norm", "/app", shellBody(`<exec>x.sh</exec>`))
	for name, call := range map[string]func() error{
		"Start": func() error { _, err := e.Start(ctxT(t), run); return err },
		"Check": func() error { _, err := e.Check(ctxT(t), run); return err },
		"Kill":  func() error { return e.Kill(ctxT(t), run) },
	} {
		err := call()
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind != actions.Transient || ee.Code != "JA009" {
			t.Errorf("%s with the RM down: %v, want a transient JA009", name, err)
		}
	}
}

func TestFailedCallbackDoesNotFailTheAction(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\necho k=v\n")
	e := c.executor(t, "shell", nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/callback?status="
	ln.Close()
	run := c.run(t, "shell", "nocb", "/app", shellBody(`<exec>ok.sh</exec><file>ok.sh</file><capture-output/>`))
	run.CallbackURL = dead
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	testwait.Poll{Timeout: waitTimeout, Every: 20 * time.Millisecond}.WaitForLast(t, "the run to end", func() (bool, string) {
		if !st.Done {
			if st, err = e.Check(ctxT(t), run); err != nil {
				t.Fatal(err)
			}
		}
		return st.Done, fmt.Sprintf("%+v", st)
	})
	if st.Outcome != workflow.OutcomeOK || st.Data != "k=v\n" {
		t.Errorf("status %+v, want OK despite the unreachable callback", st)
	}
}

// TestServerDiskRefused: with the server's default filesystems (hdfs only),
// a job-xml, file or archive on the server's own disk, in any spelling, and
// an application or action directory there, fail the action with E0904 and
// the refusal's message before anything is read or submitted.
func TestServerDiskRefused(t *testing.T) {
	t.Parallel()
	c := setup(t)
	c.put(t, "/app/ok.sh", "#!/bin/sh\n")
	secret := filepath.Join(t.TempDir(), "secret-site.xml")
	if err := os.WriteFile(secret, []byte("<configuration><property><name>db.password</name><value>s3cret</value></property></configuration>"), 0o600); err != nil {
		t.Fatal(err)
	}
	policy, err := hadoop.NewSchemePolicy([]string{"hdfs"}, c.fs.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	e := c.executor(t, "shell", func(cfg *launch.Config) { cfg.FS = policy.Restrict(c.fs) })
	tests := []struct {
		name, body, uri string
		adjust          func(*actions.Attempt)
	}{
		{"job-xml", shellBody(`<job-xml>file://` + secret + `</job-xml><exec>ok.sh</exec>`), "file://" + secret, nil},
		{"job-xml in capitals", shellBody(`<job-xml>FILE://` + secret + `</job-xml><exec>ok.sh</exec>`), "FILE://" + secret, nil},
		{"file", shellBody(`<exec>ok.sh</exec><file>file://` + secret + `#s.xml</file>`), "file://" + secret, nil},
		{"archive", shellBody(`<exec>ok.sh</exec><archive>FILE://` + secret + `#s</archive>`), "FILE://" + secret, nil},
		{"file: without slashes", shellBody(`<exec>ok.sh</exec><file>File:` + secret + `#s.xml</file>`), "File:" + secret, nil},
		{"a missing file", shellBody(`<exec>ok.sh</exec><file>file:///does/not/exist</file>`), "file:///does/not/exist", nil},
		{"application", shellBody(`<exec>ok.sh</exec>`), "file:///etc",
			func(r *actions.Attempt) { r.AppPath = "file:///etc" }},
		{"action directory", shellBody(`<exec>ok.sh</exec>`), "file:///tmp/gozie-sys/x/result.json",
			func(r *actions.Attempt) { r.ActionDir = "file:///tmp/gozie-sys/x" }},
	}
	for _, tt := range tests {
		run := c.run(t, "shell", "refused", "/app", tt.body)
		if tt.adjust != nil {
			tt.adjust(run)
		}
		_, err := e.Start(ctxT(t), run)
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind != actions.ActionError || ee.Code != "E0904" {
			t.Errorf("%s: Start error %v, want an ERROR E0904", tt.name, err)
			continue
		}
		if want := "Scheme [file] not supported in uri [" + tt.uri + "]"; ee.Err.Error() != want {
			t.Errorf("%s: message %q, want %q", tt.name, ee.Err, want)
		}
	}
	if n := len(c.rm.Apps()); n != 0 {
		t.Errorf("%d applications submitted for refused actions", n)
	}
}
