package launch_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/minidfs"
	"github.com/gozie/gozie/testenv/miniyarn"
	"github.com/gozie/gozie/yarn"
)

// binary is the gozie binary built from cmd/gozie: the real launcher.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gozie-launch-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gozie")
	if out, err := exec.Command("go", "build", "-o", binary, "../../cmd/gozie").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gozie: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// waitTimeout bounds every wait on a condition.
const waitTimeout = 60 * time.Second

const testUser = "alice"

// cluster is a MiniDFS, a strict MiniYARN reading local resources from it,
// a callback server, and clients for all three.
type cluster struct {
	dfs    *minidfs.MiniDFS
	fs     *hadoop.Resolver
	rm     *miniyarn.RM
	client *yarn.Client
	// listQueries counts GET /ws/v1/cluster/apps requests (list queries).
	listQueries atomic.Int64

	cbURL     string
	mu        sync.Mutex
	callbacks map[string]string   // action id → last status
	calls     map[string][]string // action id → every status, in order
	cbChanged chan struct{}
	jobSeq    atomic.Int64
}

// countingTransport counts list queries on their way to the RM.
type countingTransport struct{ c *cluster }

func (ct countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/ws/v1/cluster/apps") {
		ct.c.listQueries.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func setup(t *testing.T) *cluster {
	t.Helper()
	ctx := ctxT(t)
	c := &cluster{}
	// testUser started the NameNode: the fixtures go anywhere (permissions
	// have their own tests in testenv/minidfs, hadoop and e2e).
	dfs, err := minidfs.Start(ctx, minidfs.Options{Root: t.TempDir(), Superuser: testUser})
	if err != nil {
		t.Fatalf("minidfs: %v", err)
	}
	t.Cleanup(func() { dfs.Close() })
	c.dfs = dfs
	c.fs, err = hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: dfs.URI(), User: testUser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.fs.Close() })
	// The NodeManager localizes from MiniDFS as the application's user, so
	// that sizes, timestamps and permissions are the ones the executor saw.
	storage := &miniyarn.HDFSStorage{DefaultFS: dfs.URI()}
	t.Cleanup(func() { storage.Close() })
	c.rm, err = miniyarn.Start(ctx, miniyarn.Options{WorkDir: t.TempDir(), Storage: storage})
	if err != nil {
		t.Fatalf("miniyarn: %v", err)
	}
	t.Cleanup(func() {
		if err := c.rm.Close(); err != nil {
			t.Errorf("closing miniyarn: %v", err)
		}
	})
	c.connect(t)
	return c
}

// connect makes the cluster's YARN client and callback server, once dfs,
// fs and rm are set.
func (c *cluster) connect(t *testing.T) {
	t.Helper()
	var err error
	c.client, err = yarn.NewClient(yarn.Config{
		Addresses:  []string{c.rm.WebURL()},
		Auth:       yarn.PseudoAuth{User: testUser},
		HTTPClient: &http.Client{Transport: countingTransport{c}, Timeout: 30 * time.Second},
		Retry:      yarn.RetryPolicy{Rounds: 3, InitialBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	c.callbacks, c.calls, c.cbChanged = map[string]string{}, map[string][]string{}, make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		id, status := r.URL.Query().Get("id"), r.URL.Query().Get("status")
		c.callbacks[id] = status
		c.calls[id] = append(c.calls[id], status)
		close(c.cbChanged)
		c.cbChanged = make(chan struct{})
		c.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	c.cbURL = srv.URL + "/callback"
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return ctx
}

// executor returns an executor of typ on the cluster, with fast heartbeats.
func (c *cluster) executor(t *testing.T, typ string, adjust func(*launch.Config)) *launch.Executor {
	t.Helper()
	cfg := launch.Config{
		Type: typ, YARN: c.client, FS: c.fs, Binary: binary,
		MemoryMB: 512, Heartbeat: 100 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil)),
	}
	if adjust != nil {
		adjust(&cfg)
	}
	e, err := launch.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// testWriter sends log lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// put writes a file on MiniDFS.
func (c *cluster) put(t *testing.T, p, content string) {
	t.Helper()
	if err := c.fs.WriteFile(ctxT(t), c.dfs.URI()+p, []byte(content), 0o755); err != nil {
		t.Fatalf("writing %s: %v", p, err)
	}
}

// run makes a run of an action of the given type in the app at appDir.
func (c *cluster) run(t *testing.T, typ, node, appDir, body string) *actions.Attempt {
	t.Helper()
	job := fmt.Sprintf("%07d-%s-gozie-W", c.jobSeq.Add(1), strings.ReplaceAll(strings.ToLower(t.Name()), "/", "-"))
	id := job + "@" + node
	key := id + "#0.0"
	return &actions.Attempt{
		ActionID: id, JobID: job, Node: node, Type: typ, Key: key, Tag: yarn.ActionTag(key),
		User: testUser, AppPath: c.dfs.URI() + appDir, Body: body, NameNode: c.dfs.URI(),
		ResourceManager: c.rm.WebAddr(), CallbackURL: c.cbURL + "?id=" + id + "&status=",
		ActionDir: fmt.Sprintf("%s/user/%s/gozie-sys/%s/%s--%s/0.0", c.dfs.URI(), testUser, job, node, typ),
	}
}

// waitCallback waits for the launcher's callback of a run and returns the
// status it reported.
func (c *cluster) waitCallback(t *testing.T, run *actions.Attempt) string {
	t.Helper()
	timer := time.NewTimer(waitTimeout)
	defer timer.Stop()
	for {
		c.mu.Lock()
		st, ok := c.callbacks[run.ActionID]
		changed := c.cbChanged
		c.mu.Unlock()
		if ok {
			return st
		}
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("no callback from the launcher of %s; RM says %+v", run.ActionID, c.rm.Apps())
		}
	}
}

// waitCalls waits until n callbacks of a run arrived and returns their
// statuses in order. A job's end notification arrives after its AM
// unregistered, so possibly after the RM reports the job ended.
func (c *cluster) waitCalls(t *testing.T, run *actions.Attempt, n int) []string {
	t.Helper()
	timer := time.NewTimer(waitTimeout)
	defer timer.Stop()
	for {
		c.mu.Lock()
		calls := slices.Clone(c.calls[run.ActionID])
		changed := c.cbChanged
		c.mu.Unlock()
		if len(calls) >= n {
			return calls
		}
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("callbacks of %s: %v, want %d", run.ActionID, calls, n)
		}
	}
}

// finish starts a run, waits for its callback and returns the checked status.
func (c *cluster) finish(t *testing.T, e *launch.Executor, run *actions.Attempt) actions.Status {
	t.Helper()
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	run.ExternalID = st.ExternalID
	c.waitCallback(t, run)
	st, err = e.Check(ctxT(t), run)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if !st.Done {
		t.Fatalf("Check after the callback: not done: %+v", st)
	}
	return st
}

// appsTagged returns the RM's applications carrying tag.
func (c *cluster) appsTagged(tag string) []yarn.AppReport {
	var out []yarn.AppReport
	for _, r := range c.rm.Apps() {
		if r.HasTag(tag) {
			out = append(out, r)
		}
	}
	return out
}

// waitState polls an application's report until it is in a final state.
func (c *cluster) waitFinal(t *testing.T, id yarn.ApplicationID) yarn.AppReport {
	t.Helper()
	var r yarn.AppReport
	testwait.WaitForLast(t, waitTimeout, id.String()+" to end", func() (bool, string) {
		var ok bool
		r, ok = c.rm.App(id)
		return ok && r.State.Final(), fmt.Sprintf("%+v", r)
	})
	return r
}

// shellBody is a shell action's XML.
func shellBody(inner string) string {
	return `<shell xmlns="uri:oozie:shell-action:0.3">` + inner + `</shell>`
}
