package clustertools_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/clustertools"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/yarn"
)

// binary is the gozie binary built from cmd/gozie: the AM containers of
// submitted jobs run `mapred appmaster` through it.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gozie-clustertools-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gozie")
	build := exec.Command("go", "build", "-o", binary, "../../cmd/gozie")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gozie: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const waitTimeout = time.Minute

const testUser = "alice"

// env is a local cluster with the tools installed.
type env struct {
	c   *localcluster.Cluster
	dir string
}

func setup(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: dir, ToolsBinary: binary,
		Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// The tools act as testUser, whose home the fixtures fill.
	if err := c.DFS.CreateHome(testUser); err != nil {
		t.Fatal(err)
	}
	return &env{c: c, dir: dir}
}

// result is one tool run's output.
type result struct {
	code           int
	stdout, stderr string
}

// syncBuffer is a bytes.Buffer safe for the tools' concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// toolEnv is what a tool sees when it runs in one of the cluster's
// containers: HADOOP_CONF_DIR and the user.
func (e *env) toolEnv(t *testing.T, stdout, stderr *syncBuffer) clustertools.Env {
	vars := map[string]string{"HADOOP_CONF_DIR": e.c.ConfDir, "USER": testUser, "PATH": os.Getenv("PATH")}
	return clustertools.Env{
		Stdout: stdout, Stderr: stderr, Dir: t.TempDir(),
		Getenv: func(k string) string { return vars[k] },
		Environ: func() []string {
			var out []string
			for k, v := range vars {
				out = append(out, k+"="+v)
			}
			return out
		},
	}
}

// run runs a tool in process.
func (e *env) run(t *testing.T, ctx context.Context, args ...string) result {
	t.Helper()
	var stdout, stderr syncBuffer
	code := clustertools.Main(ctx, args, e.toolEnv(t, &stdout, &stderr))
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

// put writes a file on the cluster's DFS.
func (e *env) put(t *testing.T, p, content string) {
	t.Helper()
	if err := e.c.FS.WriteFile(ctxT(t), e.c.DFS.URI()+p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// read reads a file of the cluster's DFS.
func (e *env) read(t *testing.T, p string) string {
	t.Helper()
	b, err := e.c.FS.ReadFile(ctxT(t), e.c.DFS.URI()+p)
	if err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
	return string(b)
}

// waitApp waits until the application ends and returns its report.
func (e *env) waitApp(t *testing.T, id yarn.ApplicationID) yarn.AppReport {
	t.Helper()
	var r yarn.AppReport
	testwait.WaitForLast(t, waitTimeout, id.String()+" to end", func() (bool, string) {
		var ok bool
		r, ok = e.c.YARN.App(id)
		return ok && r.State.Final(), fmt.Sprintf("%+v", r)
	})
	return r
}

// createdJob returns the application of the "Created job" line.
func createdJob(t *testing.T, out string) yarn.ApplicationID {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if j, ok := strings.CutPrefix(line, "Created job job_"); ok {
			id, err := yarn.ParseApplicationID("application_" + strings.TrimSpace(j))
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
	}
	t.Fatalf("no Created job line in %q", out)
	return yarn.ApplicationID{}
}
