package fsaction_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/fsaction"
	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/workflow"
)

const testUser = "alice"

// env is a MiniDFS, a resolver for it and the local filesystem, and an fs
// executor over them.
type env struct {
	dfs  *minidfs.MiniDFS
	fs   *hadoop.Resolver
	exec *fsaction.Executor
	nn   string // hdfs://127.0.0.1:port
	seq  atomic.Int64
}

func setup(t *testing.T, adjust func(*fsaction.Config)) *env {
	t.Helper()
	// testUser started the NameNode, so the fixtures go anywhere;
	// TestPermissionDenied runs as another user.
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: testUser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: testUser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	cfg := fsaction.Config{FS: r, Clock: clock.NewFake(time.UnixMilli(1_700_000_000_000))}
	if adjust != nil {
		adjust(&cfg)
	}
	e, err := fsaction.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &env{dfs: dfs, fs: r, exec: e, nn: dfs.URI()}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// run makes a run of an fs action with the given operations.
func (e *env) run(nameNode, ops string) *actions.Attempt {
	nn := ""
	if nameNode != "" {
		nn = "<name-node>" + nameNode + "</name-node>"
	}
	n := e.seq.Add(1)
	return &actions.Attempt{
		ActionID: "0000001-fs-W@fs", JobID: "0000001-fs-W", Node: "fs", Type: "fs", User: testUser,
		Body:      `<fs xmlns="uri:oozie:workflow:0.5">` + nn + ops + `</fs>`,
		ActionDir: e.nn + "/user/alice/gozie-sys/0000001-fs-W/fs--fs/" + strconv.FormatInt(n, 10) + ".0",
	}
}

func (e *env) put(t *testing.T, p, content string) {
	t.Helper()
	if err := e.fs.WriteFile(ctxT(t), e.nn+p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) exists(t *testing.T, p string) bool {
	t.Helper()
	_, err := e.fs.Stat(ctxT(t), e.nn+p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

func (e *env) mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := e.fs.Stat(ctxT(t), e.nn+p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode.Perm()
}

// start runs the action and returns the error code ("" on success).
func (e *env) start(t *testing.T, run *actions.Attempt) string {
	t.Helper()
	st, err := e.exec.Start(ctxT(t), run)
	if err != nil {
		var ee *actions.ExecError
		if !errors.As(err, &ee) {
			t.Fatalf("Start: %v is not an ExecError", err)
		}
		if ee.Kind != actions.ActionError {
			t.Fatalf("Start: %v is %s, want ERROR", err, ee.Kind)
		}
		return ee.Code
	}
	if !st.Done || st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "OK" {
		t.Fatalf("Start status %+v", st)
	}
	return ""
}

func TestMkdirDeleteTouchz(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.put(t, "/data/old/a", "x")
	e.put(t, "/data/old2/b", "x")
	e.put(t, "/data/keep/c", "x")
	e.put(t, "/data/full", "not empty")
	run := e.run(e.nn, `<delete path="/data/old*"/><delete path="/data/never"/><mkdir path="/out/a/b"/><mkdir path="/data/keep"/>`+
		`<touchz path="/out/flag/_SUCCESS"/><touchz path="/out/flag/_SUCCESS"/>`)
	if code := e.start(t, run); code != "" {
		t.Fatalf("error code %s", code)
	}
	if e.exists(t, "/data/old") || e.exists(t, "/data/old2") || !e.exists(t, "/data/keep/c") {
		t.Error("delete with a glob removed the wrong paths")
	}
	fi, err := e.fs.Stat(ctxT(t), e.nn+"/out/flag/_SUCCESS")
	if err != nil || fi.Size != 0 || fi.IsDir {
		t.Errorf("touchz: %+v, %v", fi, err)
	}
	if fi, err := e.fs.Stat(ctxT(t), e.nn+"/out/a/b"); err != nil || !fi.IsDir {
		t.Errorf("mkdir: %v", err)
	}
	for _, tt := range []struct{ ops, code string }{
		{`<touchz path="/data/full"/>`, "Exception"},
		{`<touchz path="/data/keep"/>`, "Exception"},
	} {
		if code := e.start(t, e.run(e.nn, tt.ops)); code != tt.code {
			t.Errorf("%s: code %q, want %q", tt.ops, code, tt.code)
		}
	}
}

func TestDeleteToTrash(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.put(t, "/data/x/part", "1")
	if code := e.start(t, e.run(e.nn, `<delete path="/data/x" skip-trash="false"/>`)); code != "" {
		t.Fatal(code)
	}
	if e.exists(t, "/data/x") || !e.exists(t, "/user/alice/.Trash/Current/data/x/part") {
		t.Error("skip-trash=false did not move the path to the trash")
	}
	// A second delete of the same name gets a time suffix.
	e.put(t, "/data/x/part", "2")
	if code := e.start(t, e.run(e.nn, `<delete path="/data/x" skip-trash="false"/>`)); code != "" {
		t.Fatal(code)
	}
	if !e.exists(t, "/user/alice/.Trash/Current/data/x1700000000000/part") {
		t.Error("the second trashed copy is not under a time-suffixed name")
	}
}

func TestMove(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.put(t, "/in/a.txt", "a")
	e.put(t, "/in/b.txt", "b")
	e.put(t, "/in/c.log", "c")
	e.put(t, "/exists.txt", "e")
	e.put(t, "/dir/keep", "k")
	e.put(t, "/user/alice/.keep", "")
	tests := []struct {
		name  string
		ops   string
		code  string
		moved []string // paths that must exist afterwards
	}{
		{"rename a file", `<move source="/in/c.log" target="/renamed.log"/>`, "", []string{"/renamed.log"}},
		{"into an existing directory", `<move source="/renamed.log" target="/dir"/>`, "", []string{"/dir/renamed.log"}},
		{"glob into a directory", `<move source="/in/*.txt" target="/dir"/>`, "", []string{"/dir/a.txt", "/dir/b.txt"}},
		{"relative target is in the home directory", `<move source="/dir/a.txt" target="moved-a.txt"/>`, "", []string{"/user/alice/moved-a.txt"}},
		{"full target on the same name node", `<move source="/dir/b.txt" target="` + e.nn + `/b.txt"/>`, "", []string{"/b.txt"}},
		{"missing source", `<move source="/nothing" target="/x"/>`, "FS006", nil},
		{"onto an existing file", `<move source="/b.txt" target="/exists.txt"/>`, "FS008", nil},
		{"missing target parent", `<move source="/b.txt" target="/no/parent/b.txt"/>`, "FS008", nil},
		{"name already in the target directory", `<move source="/dir/renamed.log" target="/dir"/>`, "FS008", nil},
		{"several sources onto one name", `<move source="/dir/*" target="/onefile"/>`, "FS012", nil},
		{"another name node", `<move source="/b.txt" target="hdfs://elsewhere:8020/b.txt"/>`, "FS007", nil},
	}
	for _, tt := range tests {
		// Each run has its own action directory, so none is in recovery.
		if code := e.start(t, e.run(e.nn, tt.ops)); code != tt.code {
			t.Errorf("%s: code %q, want %q", tt.name, code, tt.code)
			continue
		}
		for _, p := range tt.moved {
			if !e.exists(t, p) {
				t.Errorf("%s: %s missing", tt.name, p)
			}
		}
	}
}

func TestMoveRecoveryAfterACrash(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.put(t, "/in/a", "a")
	run := e.run(e.nn, `<move source="/in/a" target="/out-a"/>`)
	if code := e.start(t, run); code != "" {
		t.Fatal(code)
	}
	// The server lost the answer and runs the action again: the source is
	// gone, which a run in recovery takes as done.
	if code := e.start(t, run); code != "" {
		t.Errorf("second run of the same action: code %s, want success", code)
	}
	// Check does the same.
	if st, err := e.exec.Check(ctxT(t), run); err != nil || !st.Done || st.Outcome != workflow.OutcomeOK {
		t.Errorf("Check: %+v, %v", st, err)
	}
	// A new run (another action directory) is not in recovery.
	if code := e.start(t, e.run(e.nn, `<move source="/in/a" target="/out-a"/>`)); code != "FS006" {
		t.Errorf("fresh run: code %q, want FS006", code)
	}
}

func TestChmod(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	layout := []string{"/t/DIR/f1", "/t/DIR/sub/f2"}
	tests := []struct {
		name string
		ops  string
		want map[string]fs.FileMode // path below /t/<case> → mode
	}{
		{"dir and its files by default", `<chmod path="/t/DIR" permissions="750"/>`,
			map[string]fs.FileMode{"": 0o750, "/f1": 0o750, "/sub": 0o750, "/sub/f2": 0o644}},
		{"dir-files false: the directory only", `<chmod path="/t/DIR" permissions="-rwx------" dir-files="false"/>`,
			map[string]fs.FileMode{"": 0o700, "/f1": 0o644, "/sub": 0o755}},
		{"recursive", `<chmod path="/t/DIR" permissions="711"><recursive/></chmod>`,
			map[string]fs.FileMode{"": 0o711, "/f1": 0o711, "/sub": 0o711, "/sub/f2": 0o711}},
	}
	for i, tt := range tests {
		dir := "/t/" + string(rune('a'+i))
		for _, p := range layout {
			e.put(t, strings.Replace(p, "/t/DIR", dir, 1), "x")
		}
		if err := e.fs.Chmod(ctxT(t), e.nn+dir+"/sub", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := e.fs.Chmod(ctxT(t), e.nn+dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if code := e.start(t, e.run(e.nn, strings.Replace(tt.ops, "/t/DIR", dir, 1))); code != "" {
			t.Fatalf("%s: code %s", tt.name, code)
		}
		for p, want := range tt.want {
			if got := e.mode(t, dir+p); got != want {
				t.Errorf("%s: %s mode %o, want %o", tt.name, dir+p, got, want)
			}
		}
	}
	if code := e.start(t, e.run(e.nn, `<chmod path="/t/none*" permissions="755"/>`)); code != "FS009" {
		t.Errorf("chmod of nothing: code %q, want FS009", code)
	}
	if code := e.start(t, e.run(e.nn, `<chmod path="/t/a" permissions="999"/>`)); code != "FS010" {
		t.Errorf("bad mask: code %q, want FS010", code)
	}
}

func TestChgrpAndSetrep(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	e.put(t, "/g/f", "x")
	if code := e.start(t, e.run(e.nn, `<chgrp path="/g" group="analysts"/>`)); code != "" {
		t.Fatal(code)
	}
	for _, p := range []string{"/g", "/g/f"} {
		fi, err := e.fs.Stat(ctxT(t), e.nn+p)
		if err != nil || fi.Group != "analysts" {
			t.Errorf("group of %s = %q, %v", p, fi.Group, err)
		}
	}
	if code := e.start(t, e.run("", `<setrep path="`+e.nn+`/g/f" replication-factor="2"/>`)); code != "UnsupportedOperationException" {
		t.Errorf("setrep on HDFS: code %q", code)
	}
	if code := e.start(t, e.run("", `<setrep path="`+e.nn+`/g" replication-factor="2"/>`)); code != "" {
		t.Errorf("setrep on a directory does nothing, as in Oozie: code %q", code)
	}
}

func TestPathRulesFailBeforeAnyWork(t *testing.T) {
	t.Parallel()
	e := setup(t, restrict("hdfs", "file")) // the policy refuses s3a (E0904)
	tests := []struct {
		name, nameNode, ops, code string
	}{
		{"no scheme without name-node", "", `<mkdir path="/made"/>`, "FS001"},
		{"unsupported scheme", "", `<mkdir path="s3a://bucket/made"/>`, "E0904"},
		{"relative with name-node", e.nn, `<mkdir path="made"/>`, "FS011"},
		{"a later bad path", e.nn, `<mkdir path="/made"/><delete path="relative"/>`, "FS011"},
	}
	for _, tt := range tests {
		if code := e.start(t, e.run(tt.nameNode, tt.ops)); code != tt.code {
			t.Errorf("%s: code %q, want %q", tt.name, code, tt.code)
		}
	}
	if e.exists(t, "/made") {
		t.Error("an operation ran although a later path was bad")
	}
}

func TestGlobLimit(t *testing.T) {
	t.Parallel()
	e := setup(t, func(c *fsaction.Config) { c.GlobMax = 1 })
	e.put(t, "/many/a", "1")
	e.put(t, "/many/b", "2")
	if code := e.start(t, e.run(e.nn, `<delete path="/many/*"/>`)); code != "FS013" {
		t.Errorf("code %q, want FS013", code)
	}
	if !e.exists(t, "/many/a") {
		t.Error("deleted despite the limit")
	}
}

func TestLocalFilesystem(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := "file://" + dir
	run := e.run("", `<mkdir path="`+u+`/out"/><move source="`+u+`/in.txt" target="`+dir+`/out"/>`+
		`<chmod path="`+u+`/out" permissions="700"/><touchz path="`+u+`/out/_DONE"/><delete path="`+u+`/gone"/>`+
		`<setrep path="`+u+`/out/in.txt" replication-factor="3"/>`)
	if code := e.start(t, run); code != "" {
		t.Fatalf("code %s", code)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	if !slices.Equal(names, []string{"_DONE", "in.txt"}) {
		t.Errorf("out holds %q", names)
	}
	for _, p := range []string{"out", "out/in.txt"} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s mode %v, %v", p, fi.Mode(), err)
		}
	}
}

// restrict makes the executor's filesystem the server's view of it: only
// schemes are reached (gozie.filesystems.supported).
func restrict(schemes ...string) func(*fsaction.Config) {
	return func(c *fsaction.Config) {
		res := c.FS.(*hadoop.Resolver)
		p, err := hadoop.NewSchemePolicy(schemes, res.DefaultFS())
		if err != nil {
			panic(err)
		}
		c.FS = p.Restrict(res)
	}
}

// TestServerDiskRefused: with the server's default (hdfs only), an fs action
// naming the server's own disk, in any spelling, fails with E0904 and the
// refusal's message, before any operation runs and without touching the disk.
func TestServerDiskRefused(t *testing.T) {
	t.Parallel()
	e := setup(t, restrict("hdfs"))
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, nameNode, ops, uri string
	}{
		{"chmod", "", `<chmod path="file://` + secret + `" permissions="777"/>`, "file://" + secret},
		{"delete", "", `<delete path="file://` + secret + `"/>`, "file://" + secret},
		{"delete in capitals", "", `<delete path="FILE://` + secret + `"/>`, "FILE://" + secret},
		{"touchz", "", `<touchz path="file://` + dir + `/new"/>`, "file://" + dir + "/new"},
		{"mkdir of a missing path", "", `<mkdir path="file:///does/not/exist"/>`, "file:///does/not/exist"},
		{"move", "", `<move source="file://` + secret + `" target="` + dir + `/moved"/>`, "file://" + secret},
		{"chgrp", "", `<chgrp path="file://` + secret + `" group="nogroup"/>`, "file://" + secret},
		{"a file name node", "file:///", `<delete path="` + secret + `"/>`, "file:///"},
		{"after an hdfs path", e.nn, `<mkdir path="/first"/><delete path="File:` + secret + `"/>`, "File:" + secret},
	}
	for _, tt := range tests {
		_, err := e.exec.Start(ctxT(t), e.run(tt.nameNode, tt.ops))
		var ee *actions.ExecError
		if !errors.As(err, &ee) || ee.Kind != actions.ActionError || ee.Code != "E0904" {
			t.Errorf("%s: %v, want an ERROR E0904", tt.name, err)
			continue
		}
		if want := "Scheme [file] not supported in uri [" + tt.uri + "]"; ee.Err.Error() != want {
			t.Errorf("%s: message %q, want %q", tt.name, ee.Err, want)
		}
	}
	if fi, err := os.Stat(secret); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the server's file was touched: %v, %v", fi, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the server's folder changed: %v", entries)
	}
	if e.exists(t, "/first") {
		t.Error("an operation ran before the refused path")
	}
	// An action directory on the server's disk (a file: name node of the
	// workflow) is refused the same way.
	run := e.run(e.nn, `<mkdir path="/x"/>`)
	run.ActionDir = "file://" + dir + "/action"
	if code := e.start(t, run); code != "E0904" {
		t.Errorf("action directory on file: code %q, want E0904", code)
	}
	// Configured by an administrator, file is reached.
	withFile := setup(t, restrict("hdfs", "file"))
	if code := withFile.start(t, withFile.run("", `<touchz path="FILE://`+dir+`/touched"/>`)); code != "" {
		t.Errorf("file configured: code %q", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "touched")); err != nil {
		t.Error(err)
	}
}

func TestUnreachableNameNodeIsTransient(t *testing.T) {
	t.Parallel()
	e := setup(t, nil)
	gone, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	uri := gone.URI()
	gone.Close()
	run := e.run("", `<mkdir path="`+uri+`/x"/>`)
	run.ActionDir = ""
	_, err = e.exec.Start(ctxT(t), run)
	var ee *actions.ExecError
	if !errors.As(err, &ee) || ee.Kind != actions.Transient || ee.Code != "JA009" {
		t.Fatalf("Start against a stopped NameNode: %v, want a transient JA009", err)
	}
}

// TestPermissionDenied: the server acts for the job's user (gozie proxying
// for bob); bob's fs action cannot write into alice's home and fails with
// FS014 and the NameNode's own message, and what it makes in his home is
// his.
func TestPermissionDenied(t *testing.T) {
	t.Parallel()
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs",
		Conf: map[string]string{"hadoop.proxyuser.gozie.hosts": "127.0.0.1", "hadoop.proxyuser.gozie.users": "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	for _, u := range []string{"alice", "bob"} {
		if err := dfs.CreateHome(u); err != nil {
			t.Fatal(err)
		}
	}
	r, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: "gozie", RequireUser: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	e, err := fsaction.New(fsaction.Config{FS: r})
	if err != nil {
		t.Fatal(err)
	}
	ctx := hadoop.AsUser(ctxT(t), "bob")
	run := &actions.Attempt{ActionID: "0000002-fs-W@fs", JobID: "0000002-fs-W", Node: "fs", Type: "fs", User: "bob",
		Body: `<fs xmlns="uri:oozie:workflow:0.5"><mkdir path="` + dfs.URI() + `/user/alice/stolen"/></fs>`}
	_, err = e.Start(ctx, run)
	var ee *actions.ExecError
	if !errors.As(err, &ee) || ee.Code != "FS014" || ee.Kind != actions.ActionError {
		t.Fatalf("mkdir in alice's home = %v, want FS014", err)
	}
	want := `org.apache.hadoop.security.AccessControlException: Permission denied: user=bob, access=WRITE, inode="/user/alice":alice:supergroup:drwxr-xr-x`
	if !strings.Contains(ee.Error(), want) {
		t.Errorf("error %q lacks %q", ee.Error(), want)
	}
	run.Body = `<fs xmlns="uri:oozie:workflow:0.5"><mkdir path="` + dfs.URI() + `/user/bob/out"/></fs>`
	if _, err := e.Start(ctx, run); err != nil {
		t.Fatal(err)
	}
	fi, err := r.Stat(ctx, dfs.URI()+"/user/bob/out")
	if err != nil || fi.Owner != "bob" {
		t.Errorf("bob's directory: owner %q, %v", fi.Owner, err)
	}
}
