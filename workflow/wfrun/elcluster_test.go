package wfrun

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/workflow"
)

// elCluster is a MiniDFS with permissions on, started by "hdfs", that lets
// the server's user "gozie" act for others, and a runner whose filesystem
// is the server's: gozie acting for the job's user, and refusing every call
// that names no user.
type elCluster struct {
	dfs *minidfs.MiniDFS
	r   *Runner
}

const elBlockSize = 1 << 20

func newELCluster(t *testing.T) *elCluster {
	t.Helper()
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs",
		BlockSize: elBlockSize, Conf: minidfs.ProxyUserConf("gozie")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	res, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: "gozie", RequireUser: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	policy, err := hadoop.NewSchemePolicy([]string{"hdfs"}, res.DefaultFS())
	if err != nil {
		t.Fatal(err)
	}
	return &elCluster{dfs: dfs, r: &Runner{cfg: Config{FS: policy.Restrict(res),
		Options: workflow.Options{HadoopConf: conf.NewHadoop(conf.NewProperties("mapreduce.framework.name", "yarn"), nil)}}}}
}

// put writes a file into the namespace as it appears on disk (files below
// /user/<u> belong to <u>), with its parents, at mode perm.
func (c *elCluster) put(t *testing.T, p, content string, perm os.FileMode) {
	t.Helper()
	local := filepath.Join(c.dfs.Root(), filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(local, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates text in a decision of a job of user.
func (c *elCluster) eval(t *testing.T, user, text string) (any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wc := &workflow.Context{Job: &store.WorkflowJob{ID: "0000001-000000000000000-gozie-test-W", User: user},
		Conf: conf.NewProperties("nameNode", c.dfs.URI())}
	return wc.Env(c.r.elFunctions(ctx), time.Now, nil).Eval(text)
}

// TestFSFunctionsAsTheJobsUser: Oozie's fs: functions on MiniDFS, acting
// for the job's user: their values for files, directories, globs and
// missing paths (-1, false), paths read as Hadoop's Path reads them
// (relative ones below the user's home, dot segments and trailing slashes
// resolved), and hadoop:conf from the server's Hadoop configuration.
func TestFSFunctionsAsTheJobsUser(t *testing.T) {
	t.Parallel()
	c := newELCluster(t)
	c.put(t, "/user/alice/in/part-00000", "12345", 0o644)
	c.put(t, "/user/alice/in/part-00001", "678", 0o644)
	c.put(t, "/user/alice/in/_SUCCESS", "", 0o644)
	c.put(t, "/user/alice/in/sub/deep", "0123456789", 0o644)
	nn := c.dfs.URI()
	tests := []struct {
		expr string
		want any
	}{
		{"${fs:exists('/user/alice/in/_SUCCESS')}", true},
		{"${fs:exists('/user/alice/in/_DONE')}", false},
		{"${fs:exists('/user/alice/in/part-*')}", true},
		{"${fs:exists('/user/alice/in/part-{00000,00007}')}", true},
		{"${fs:exists('/user/alice/out/*')}", false},
		{"${fs:exists('/user/alice/in/_SUCCESS/x')}", false}, // below a file
		{"${fs:exists(concat(nameNode, '/user/alice/in/'))}", true},
		{"${fs:exists('in/_SUCCESS')}", true}, // relative: the user's home
		{"${fs:exists('/user/alice/./in/../in/_SUCCESS')}", true},
		{"${fs:isDir('/user/alice/in')}", true},
		{"${fs:isDir('/user/alice/in/_SUCCESS')}", false},
		{"${fs:isDir('/user/alice/none')}", false},
		{"${fs:fileSize('/user/alice/in/part-00000')}", int64(5)},
		{"${fs:fileSize('/user/alice/in')}", int64(0)},
		{"${fs:fileSize('/user/alice/none')}", int64(-1)},
		{"${fs:blockSize('/user/alice/in/part-00000')}", int64(elBlockSize)},
		{"${fs:blockSize('/user/alice/in')}", int64(0)},
		{"${fs:blockSize('/user/alice/none')}", int64(-1)},
		{"${fs:dirSize('/user/alice/in')}", int64(8)}, // not recursive
		{"${fs:dirSize('in')}", int64(8)},
		{"${fs:dirSize('/user/alice/in/part-00000')}", int64(-1)},
		{"${fs:dirSize('/user/alice/none')}", int64(-1)},
		{"${fs:fileSize('/user/alice/in/part-00000') gt 4 and fs:exists('/user/alice/in/_SUCCESS')}", true},
		{"${hadoop:conf('" + strings.TrimPrefix(nn, "hdfs://") + "', 'mapreduce.framework.name')}", "yarn"},
		{"${hadoop:conf('rm:8032', 'not.set')}", ""},
	}
	for _, tt := range tests {
		got, err := c.eval(t, "alice", tt.expr)
		if err != nil || got != tt.want {
			t.Errorf("%s = %#v, %v; want %#v", tt.expr, got, err, tt.want)
		}
	}
}

// TestFSFunctionsRefusals: what the job's user may not see, a filesystem
// that does not answer, a scheme the server does not support and too many
// glob matches are errors of the evaluation, never a silent false or -1.
func TestFSFunctionsRefusals(t *testing.T) {
	t.Parallel()
	c := newELCluster(t)
	c.put(t, "/user/bob/private/secret", "s", 0o600)
	if err := os.Chmod(filepath.Join(c.dfs.Root(), "user", "bob", "private"), 0o700); err != nil {
		t.Fatal(err)
	}
	// bob sees his own file: the refusal below is alice's, not the server's.
	if got, err := c.eval(t, "bob", "${fs:exists('/user/bob/private/secret')}"); err != nil || got != true {
		t.Fatalf("bob: %v, %v", got, err)
	}
	for _, expr := range []string{"${fs:exists('/user/bob/private/secret')}", "${fs:isDir('/user/bob/private/secret')}",
		"${fs:fileSize('/user/bob/private/secret')}", "${fs:dirSize('/user/bob/private')}", "${fs:exists('/user/bob/private/*')}"} {
		got, err := c.eval(t, "alice", expr)
		if err == nil || !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "Permission denied: user=alice") {
			t.Errorf("%s as alice = %#v, %v; want a permission refusal", expr, got, err)
		}
	}
	// A job without a user is never evaluated as the server.
	if got, err := c.eval(t, "", "${fs:exists('/user/bob/private/secret')}"); !errors.Is(err, hadoop.ErrNoUser) {
		t.Errorf("no user: %#v, %v; want ErrNoUser", got, err)
	}
	if got, err := c.eval(t, "alice", "${fs:exists('hdfs://127.0.0.1:1/x')}"); err == nil {
		t.Errorf("unreachable NameNode: %#v, want an error", got)
	}
	got, err := c.eval(t, "alice", "${fs:isDir('file:///etc')}")
	if err == nil || !strings.Contains(err.Error(), "Scheme [file] not supported in uri [file:///etc]") {
		t.Errorf("the server's disk: %#v, %v; want E0904's refusal", got, err)
	}
	if got, err := c.eval(t, "alice", "${fs:exists('')}"); !errors.Is(err, hadoop.ErrEmptyPath) {
		t.Errorf("empty path: %#v, %v", got, err)
	}

	c.put(t, "/user/alice/many/a", "", 0o644)
	c.put(t, "/user/alice/many/b", "", 0o644)
	reg := el.NewRegistry()
	workflow.RegisterFSFunctions(context.Background(), reg, elFS{fs: c.r.cfg.FS}, 1)
	wc := &workflow.Context{Job: &store.WorkflowJob{User: "alice"}}
	_, err = wc.Env(reg, time.Now, nil).Eval("${fs:exists('/user/alice/many/*')}")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s: too many globbed files/dirs to do FS operation", workflow.CodeFSTooMany)) {
		t.Errorf("2 matches over a maximum of 1: %v", err)
	}
}

// TestAppTheUserMayNotReadIsE0710: a workflow definition the job's user
// may not read is E0710, which no caller retries (a coordinator action or
// a parent's sub-workflow action ends at once), not E0803's IO error.
func TestAppTheUserMayNotReadIsE0710(t *testing.T) {
	t.Parallel()
	c := newELCluster(t)
	c.put(t, "/user/bob/apps/private/workflow.xml", "<workflow-app/>", 0o600)
	if err := os.Chmod(filepath.Join(c.dfs.Root(), "user", "bob", "apps", "private"), 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(hadoop.AsUser(context.Background(), "alice"), 30*time.Second)
	defer cancel()
	_, _, _, err := c.r.readApp(ctx, c.dfs.URI()+"/user/bob/apps/private")
	if code := oozieerr.CodeOf(err); code != oozieerr.E0710 || !strings.Contains(err.Error(), "Could not read the workflow definition") ||
		!strings.Contains(err.Error(), "Permission denied: user=alice") {
		t.Fatalf("reading bob's private app as alice: %v (%s), want E0710 with the NameNode's refusal", err, code)
	}
}
