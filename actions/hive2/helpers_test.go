package hive2_test

import (
	"context"
	"errors"
	"html"
	"os/user"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/hive2"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/minihs2"
	"github.com/gozie/gozie/yarn"
)

// env is a MiniDFS and a MiniHS2 on it.
type env struct {
	fs  hadoop.FileSystem
	nn  string // hdfs://host:port
	hs2 *minihs2.Server
}

func setup(t *testing.T, opts minihs2.Options) *env {
	t.Helper()
	// The resolver is the server's (this process's user), acting for the
	// runs' user, alice, whose home the cluster's administrator made.
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Conf: minidfs.ProxyUserConf(osUser(t))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	if err := dfs.CreateHome("alice"); err != nil {
		t.Fatal(err)
	}
	fs, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	opts.FS = fs
	return &env{fs: fs, nn: dfs.URI(), hs2: startHS2(t, opts)}
}

// osUser is the user the tests run as, the server's.
func osUser(tb testing.TB) string {
	tb.Helper()
	u, err := user.Current()
	if err != nil {
		tb.Fatal(err)
	}
	return u.Username
}

func startHS2(t *testing.T, opts minihs2.Options) *minihs2.Server {
	t.Helper()
	s, err := minihs2.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// testConfig has short intervals so that heartbeats and takeovers happen
// within a test.
func testConfig(fs hadoop.FileSystem) hive2.Config {
	return hive2.Config{FS: fs, PollInterval: 10 * time.Millisecond, HeartbeatInterval: 50 * time.Millisecond,
		StaleAfter: 400 * time.Millisecond, ConnectTimeout: 5 * time.Second, SocketTimeout: 30 * time.Second,
		ReconnectFor: 5 * time.Second, ShutdownGrace: 5 * time.Second}
}

func newExecutor(t *testing.T, cfg hive2.Config) *hive2.Executor {
	t.Helper()
	ex, err := hive2.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close() })
	return ex
}

// newRun describes a run of a hive2 action whose body is given, for user
// alice, with its app directory and action directory on the env's DFS.
func (e *env) newRun(name, body string) *actions.Attempt {
	key := "0000001-250101000000000-gozie-W@" + name + "#0.0"
	return &actions.Attempt{
		ActionID: "0000001-250101000000000-gozie-W@" + name, JobID: "0000001-250101000000000-gozie-W", Node: name,
		Type: "hive2", Key: key, Tag: yarn.ActionTag(key), User: "alice", AppPath: e.nn + "/user/alice/apps/" + name,
		Body: body, ActionDir: e.nn + "/user/alice/.gozie/0000001-250101000000000-gozie-W/" + name + "--hive2/0.0",
	}
}

// body builds a hive2 action body; inner comes after jdbc-url.
func body(jdbcURL, inner string) string {
	return `<hive2 xmlns="uri:oozie:hive2-action:1.0"><jdbc-url>` + html.EscapeString(jdbcURL) + `</jdbc-url>` + inner + `</hive2>`
}

func query(q string) string { return "<query>" + html.EscapeString(q) + "</query>" }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitDone checks the run until it reports its end.
func waitDone(t *testing.T, ex *hive2.Executor, run *actions.Attempt) actions.Status {
	t.Helper()
	var st actions.Status
	testwait.WaitFor(t, testwait.Timeout, "the run to end", func() bool {
		var err error
		st, err = ex.Check(ctxT(t), run)
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		return st.Done
	})
	return st
}

// waitHanging waits until the statement a HangOn hook caught is running:
// the last statement received is RUNNING and stays so until cancelled.
func waitHanging(t *testing.T, s *minihs2.Server) {
	t.Helper()
	testwait.WaitFor(t, testwait.Timeout, "the hanging statement", func() bool {
		h := s.Statements()
		return len(h) > 0 && h[len(h)-1].State == "RUNNING" && h[len(h)-1].Hung
	})
}

// texts returns the statements MiniHS2 received, in order.
func texts(s *minihs2.Server) []string {
	var out []string
	for _, st := range s.Statements() {
		out = append(out, st.Text)
	}
	return out
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// tableRows reads every line of a table directory's files.
func tableRows(t *testing.T, fs hadoop.FileSystem, dir string) []string {
	t.Helper()
	ctx := ctxT(t)
	entries, err := fs.ReadDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, e := range entries {
		b, err := fs.ReadFile(ctx, dir+"/"+e.Name)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	return rows
}

func execCode(err error) (actions.ErrorKind, string) {
	var ee *actions.ExecError
	if errors.As(err, &ee) {
		return ee.Kind, ee.Code
	}
	return "", ""
}
