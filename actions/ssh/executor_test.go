package ssh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/internal/testproc"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/minissh"
	"github.com/gozie/gozie/workflow"
	gossh "golang.org/x/crypto/ssh"
)

const jobUser = "alice"

// env is an SSH server with the server's key authorized for jobUser and a
// known_hosts file that knows it as 127.0.0.1.
type env struct {
	srv        *minissh.Server
	home       string
	keyFile    string
	knownHosts string
}

func setup(t *testing.T) *env {
	t.Helper()
	e := &env{home: t.TempDir()}
	srv, err := minissh.Start(minissh.Options{Home: e.home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	e.srv = srv
	dir := t.TempDir()
	e.keyFile = filepath.Join(dir, "id_ed25519")
	key := writeKey(t, e.keyFile)
	srv.Authorize(jobUser, key.PublicKey())
	e.knownHosts = filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(e.knownHosts, []byte(srv.KnownHostsLine("127.0.0.1")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return e
}

// writeKey writes a new private key in OpenSSH's format to path.
func writeKey(t *testing.T, path string) gossh.Signer {
	t.Helper()
	k, err := minissh.NewKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func (e *env) executor(t *testing.T, mod ...func(*Config)) *Executor {
	t.Helper()
	cfg := Config{KeyFiles: []string{e.keyFile}, KnownHostsFile: e.knownHosts, Port: e.srv.Port()}
	for _, m := range mod {
		m(&cfg)
	}
	x, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// newRun is a run of an ssh action with body (the elements inside <ssh>).
func newRun(t *testing.T, body string) *actions.Attempt {
	t.Helper()
	node := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	job := "0000001-261127000000000-gozie-W"
	return &actions.Attempt{ActionID: job + "@" + node, JobID: job, Node: node, Type: "ssh",
		Key: job + "@" + node + "#0.1", User: jobUser,
		Body: `<ssh xmlns="uri:oozie:ssh-action:0.2">` + body + `</ssh>`}
}

// wait checks run until it is done.
func wait(t *testing.T, x *Executor, run *actions.Attempt) actions.Status {
	t.Helper()
	var st actions.Status
	// Polling the remote status, as the runner does.
	testwait.Poll{Timeout: 30 * time.Second, Every: 20 * time.Millisecond}.WaitForLast(t, "the run to end", func() (bool, string) {
		var err error
		if st, err = x.Check(context.Background(), run); err != nil {
			t.Fatalf("Check: %v", err)
		}
		return st.Done, st.ExternalStatus
	})
	return st
}

func start(t *testing.T, x *Executor, run *actions.Attempt) actions.Status {
	t.Helper()
	st, err := x.Start(context.Background(), run)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	run.ExternalID = st.ExternalID
	return st
}

// TestRunsCommandToOK: Start starts the command in the background as the
// job's user on the host (RUNNING, the wrapper's pid as external id,
// user@host as tracker), Check polls it to OK, and its output is in the
// run's directory.
func TestRunsCommandToOK(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	run := newRun(t, `<host>127.0.0.1</host><command>echo</command><args>"Hello Oozie!"</args>`)
	st := start(t, x, run)
	if st.Done || st.ExternalStatus != statusRunning || st.TrackerURI != jobUser+"@127.0.0.1" {
		t.Fatalf("start status %+v, want RUNNING on alice@127.0.0.1", st)
	}
	if _, err := strconv.Atoi(st.ExternalID); err != nil {
		t.Errorf("external id %q is not a pid", st.ExternalID)
	}
	end := wait(t, x, run)
	if end.Outcome != workflow.OutcomeOK || end.ExternalStatus != statusOK || end.Data != "" {
		t.Fatalf("end %+v, want OK without data", end)
	}
	out, err := os.ReadFile(filepath.Join(e.home, Dir(run.JobID, run.Node, run.Key), "stdout"))
	if err != nil || string(out) != "Hello Oozie!\n" {
		t.Errorf("stdout %q (%v), want Hello Oozie!", out, err)
	}
}

// TestArgsAndArg: <args> are joined and split again on the host (quotes
// are the shell's); each <arg> is one argument, spaces kept.
func TestArgsAndArg(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	for name, tc := range map[string]struct{ body, want string }{
		"args": {`<args>'%s|'</args><args>a "b c"</args>`, "a|b|c|"},
		"arg":  {`<arg>'%s|'</arg><arg>a</arg><arg>b c</arg><arg>"d  e"</arg>`, "a|b c|d  e|"},
	} {
		run := newRun(t, `<host>127.0.0.1</host><command>printf</command>`+tc.body+`<capture-output/>`)
		run.Node += "-" + name
		start(t, x, run)
		if end := wait(t, x, run); end.Outcome != workflow.OutcomeOK || end.Data != tc.want {
			t.Errorf("%s: end %+v, want data %q", name, end, tc.want)
		}
	}
}

// TestCaptureOutput: with capture-output the command's stdout is the
// action's data, Java properties of at most MaxOutputData bytes; longer
// output is ERROR ERR_OUTPUT_EXCEED_MAX_LEN.
func TestCaptureOutput(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t, func(c *Config) { c.MaxOutputData = 16 })
	run := newRun(t, `<host>127.0.0.1</host><command>printf</command><arg>'a=1\nb=two\n'</arg><capture-output/>`)
	start(t, x, run)
	if end := wait(t, x, run); end.Outcome != workflow.OutcomeOK || end.Data != "a=1\nb=two\n" {
		t.Fatalf("end %+v, want the properties", end)
	}
	long := newRun(t, `<host>127.0.0.1</host><command>printf</command><arg>'a=0123456789abcdef\n'</arg><capture-output/>`)
	long.Node += "-long"
	start(t, x, long)
	if end := wait(t, x, long); end.Outcome != workflow.OutcomeError || end.ErrorCode != CodeOutputExceedsMax {
		t.Fatalf("end %+v, want ERROR %s", end, CodeOutputExceedsMax)
	}
}

// TestExitStatusIsError: a command that exits non-zero ends the action in
// ERROR with EXECUTION_FAILED, the status and its stderr in the message.
func TestExitStatusIsError(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	run := newRun(t, `<host>127.0.0.1</host><command>sh</command><arg>-c</arg><arg>'echo boom >&amp;2; exit 3'</arg>`)
	start(t, x, run)
	end := wait(t, x, run)
	if end.Outcome != workflow.OutcomeError || end.ExternalStatus != statusError || end.ErrorCode != CodeExecutionFailed ||
		!strings.Contains(end.ErrorMessage, "status [3]") || !strings.Contains(end.ErrorMessage, "boom") {
		t.Fatalf("end %+v, want ERROR %s with status 3 and boom", end, CodeExecutionFailed)
	}
}

// TestKillStopsTheCommand: Kill kills the command's process group; the
// run then reports ERROR, and the command is gone.
func TestKillStopsTheCommand(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	run := newRun(t, `<host>127.0.0.1</host><command>sh</command><arg>-c</arg><arg>'echo $$ >child; exec sleep 300'</arg>`)
	start(t, x, run)
	child := readPID(t, filepath.Join(e.home, "child"))
	if err := x.Kill(context.Background(), run); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	testwait.Poll{Timeout: 30 * time.Second, Every: 20 * time.Millisecond}.WaitFor(t,
		fmt.Sprintf("the command (pid %d) to end after Kill", child), func() bool { return syscall.Kill(child, 0) != nil })
	if end := wait(t, x, run); end.Outcome != workflow.OutcomeError || !strings.Contains(end.ErrorMessage, "killed") {
		t.Errorf("after kill %+v, want ERROR killed", end)
	}
	if err := x.Kill(context.Background(), run); err != nil {
		t.Errorf("a second Kill: %v", err)
	}
}

// readPID waits for the file a command writes its pid to.
func readPID(t *testing.T, path string) int {
	t.Helper()
	n, err := strconv.Atoi(testproc.WaitLine(t, testwait.Timeout, path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// TestSecondStartFindsTheRunningCommand: a Start after a restart (a new
// executor) finds the command the first started for the run and reports
// it, without starting it again.
func TestSecondStartFindsTheRunningCommand(t *testing.T) {
	t.Parallel()
	e := setup(t)
	run := newRun(t, `<host>127.0.0.1</host><command>sh</command><arg>-c</arg><arg>'echo started >>starts; exec sleep 300'</arg>`)
	first := start(t, e.executor(t), run)
	restarted := e.executor(t)
	again := start(t, restarted, run)
	if again.ExternalID != first.ExternalID || again.Done || again.ExternalStatus != statusRunning {
		t.Fatalf("second start %+v, want the first's pid %s RUNNING", again, first.ExternalID)
	}
	testproc.WaitLine(t, testwait.Timeout, filepath.Join(e.home, "starts")) // wait for the command to begin
	if err := restarted.Kill(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	wait(t, restarted, run)
	if b, _ := os.ReadFile(filepath.Join(e.home, "starts")); string(b) != "started\n" {
		t.Errorf("the command started %q, want once", b)
	}
}

// TestUnknownHostKeyIsRefused: a host whose key the known_hosts file does
// not list, or lists differently, is refused (AUTH_FAILED, the job waits
// for a person) and nothing runs on it; so is a missing known_hosts file.
func TestUnknownHostKeyIsRefused(t *testing.T) {
	t.Parallel()
	e := setup(t)
	other, err := minissh.Start(minissh.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	changed := filepath.Join(t.TempDir(), "known_hosts")
	line := strings.Replace(other.KnownHostsLine("127.0.0.1"), strconv.Itoa(other.Port()), strconv.Itoa(e.srv.Port()), 1)
	if err := os.WriteFile(changed, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string]string{
		"unknown host": filepath.Join(t.TempDir(), "empty"), // missing file
		"changed key":  changed,
		"another name": e.knownHosts, // lists 127.0.0.1, not localhost
	} {
		x := e.executor(t, func(c *Config) { c.KnownHostsFile = file })
		host := "127.0.0.1"
		if name == "another name" {
			host = "localhost"
		}
		_, err := x.Start(context.Background(), newRun(t, `<host>`+host+`</host><command>true</command>`))
		wantErr(t, name, err, actions.NonTransient, CodeAuthFailed)
	}
	if _, err := os.Stat(filepath.Join(e.home, RootDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("something ran on the refused host: %v", err)
	}
}

// TestUsers: the remote user is the job's; user@host of another user is
// ERR_USER_MISMATCH unless allowed, and then the host decides (it knows
// no key of bob's).
func TestUsers(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	_, err := x.Start(context.Background(), newRun(t, `<host>bob@127.0.0.1</host><command>true</command>`))
	wantErr(t, "bob@host", err, actions.ActionError, CodeUserMismatch)
	allowed := e.executor(t, func(c *Config) { c.AllowUserAtHost = true })
	_, err = allowed.Start(context.Background(), newRun(t, `<host>bob@127.0.0.1</host><command>true</command>`))
	wantErr(t, "bob@host allowed", err, actions.NonTransient, CodeAuthFailed)
	run := newRun(t, `<host>alice@127.0.0.1</host><command>true</command>`)
	start(t, x, run)
	if end := wait(t, x, run); end.Outcome != workflow.OutcomeOK {
		t.Errorf("alice@host: %+v", end)
	}
}

// TestUnreachableHostIsTransient: no server at the port is a transient
// COULD_NOT_CONNECT, retried by the runner.
func TestUnreachableHostIsTransient(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	e.srv.Close()
	_, err := x.Start(context.Background(), newRun(t, `<host>127.0.0.1</host><command>true</command>`))
	wantErr(t, "closed", err, actions.Transient, CodeCouldNotConnect)
}

func wantErr(t *testing.T, name string, err error, kind actions.ErrorKind, code string) {
	t.Helper()
	var ee *actions.ExecError
	if !errors.As(err, &ee) || ee.Kind != kind || ee.Code != code {
		t.Errorf("%s: error %v, want %s %s", name, err, kind, code)
	}
}

// TestCallbackWhenTheCommandEnds: the wrapper calls the run's callback URL
// with the command's end, OK or ERROR, so the runner checks at once.
func TestCallbackWhenTheCommandEnds(t *testing.T) {
	t.Parallel()
	e := setup(t)
	x := e.executor(t)
	got := make(chan string, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.URL.Query().Get("id") + " " + r.URL.Query().Get("status")
	}))
	defer srv.Close()
	for name, tc := range map[string]struct{ command, want string }{"ok": {"true", "OK"}, "error": {"false", "ERROR"}} {
		run := newRun(t, `<host>127.0.0.1</host><command>`+tc.command+`</command>`)
		run.Node += "-" + name
		run.CallbackURL = srv.URL + "/oozie/callback?id=" + url.QueryEscape(run.ActionID) + "&status="
		start(t, x, run)
		select {
		case g := <-got:
			if g != run.ActionID+" "+tc.want {
				t.Errorf("%s: callback %q, want %s %s", name, g, run.ActionID, tc.want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no callback", name)
		}
	}
}

// TestResolveTarget: Oozie's user@host rules.
func TestResolveTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host  string
		allow bool
		want  string
		code  string
	}{
		{"h.example.com", false, "alice@h.example.com", ""},
		{" alice@h ", false, "alice@h", ""},
		{"ALICE@h", false, "alice@h", ""},
		{"bob@h", false, "", CodeUserMismatch},
		{"bob@h", true, "bob@h", ""},
		{"h", true, "alice@h", ""},
	}
	for _, tt := range tests {
		got, err := resolveTarget(tt.host, "alice", tt.allow)
		if tt.code != "" {
			wantErr(t, tt.host, err, actions.ActionError, tt.code)
			continue
		}
		if err != nil || got.String() != tt.want {
			t.Errorf("resolveTarget(%q, %v) = %v, %v; want %s", tt.host, tt.allow, got, err, tt.want)
		}
	}
}

// TestDir: each run has its own directory; names that are not plain get
// a hash of the key, so runs never share one.
func TestDir(t *testing.T) {
	t.Parallel()
	const job = "0000001-261127000000000-gozie-W"
	if got := Dir(job, "ssh", job+"@ssh#0.1"); got != "gozie-ssh/"+job+"/ssh--ssh/0.1" {
		t.Errorf("Dir = %s", got)
	}
	a, b := Dir(job, "a b", job+"@a b#0.1"), Dir(job, "a_b", job+"@a_b#0.1")
	if a == b || strings.ContainsAny(a, " @#") {
		t.Errorf("Dir of a b = %s, of a_b = %s: want two plain names", a, b)
	}
	if Dir(job, "ssh", job+"@ssh#0.1") == Dir(job, "ssh", job+"@ssh#1.1") {
		t.Error("two runs of a node share a directory")
	}
}
