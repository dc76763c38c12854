package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/localcluster"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gozie-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "gozie")
	build := exec.Command("go", "build", "-o", binary, "../cmd/gozie")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gozie: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// proc is a gozie process started by a test.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs bytes.Buffer
	done chan struct{}
}

// start runs the gozie binary with args and waits for a log line matching
// ready.
func start(t *testing.T, ready string, args ...string) *proc {
	t.Helper()
	p, err := tryStart(t, ready, args...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// startServer starts `gozie server` with args and a free loopback -addr, and
// returns the process and the address. A port that another process takes
// between its choice and the server's bind is chosen again.
func startServer(t *testing.T, args ...string) (*proc, string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		addr := freeAddr(t)
		p, err := tryStart(t, "gozie server started", append(append([]string{"server"}, args...), "-addr", addr)...)
		if err == nil {
			return p, addr
		}
		if attempt == 5 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatal(err)
		}
	}
}

// tryStart is start, answering an error when the process exits or stays
// silent instead of logging ready.
func tryStart(t *testing.T, ready string, args ...string) (*proc, error) {
	t.Helper()
	p := &proc{cmd: exec.Command(binary, args...), done: make(chan struct{})}
	p.cmd.Dir = t.TempDir()
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := make(chan struct{})
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		once := false
		for sc.Scan() {
			p.mu.Lock()
			p.logs.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if !once && strings.Contains(sc.Text(), ready) {
				once = true
				close(seen)
			}
		}
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
		if t.Failed() {
			t.Logf("gozie %s log:\n%s", args[0], p.log())
		}
	})
	select {
	case <-seen:
	case <-p.done:
		return nil, fmt.Errorf("gozie %s exited before %q:\n%s", args[0], ready, p.log())
	case <-time.After(60 * time.Second):
		return nil, fmt.Errorf("gozie %s never logged %q:\n%s", args[0], ready, p.log())
	}
	return p, nil
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// kill9 kills the process with SIGKILL and waits for it.
func (p *proc) kill9(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
	_ = p.cmd.Wait()
}

// env is a running server with its local cluster.
type env struct {
	dir     string // data dir: dfs/ is the HDFS root
	url     string // the server's /oozie URL
	cluster map[string]string
	user    string
}

// readCluster reads local-cluster.properties from dir.
func readCluster(t *testing.T, dir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, localcluster.PropertiesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, localcluster.PropertiesFile)
	if err != nil {
		t.Fatal(err)
	}
	return p.Map()
}

func currentUser(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}

// localServer starts `gozie server -local` in a fresh data dir.
func localServer(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	_, addr := startServer(t, "-local", "-data-dir", dir, "-config-dir", t.TempDir())
	return &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
}

// strictCluster are the server flags of the strictest local cluster, as a
// hardened production cluster is: an HA nameservice and an RM HA cluster,
// reached by their logical names only, and hadoop.rpc.protection=privacy.
var strictCluster = []string{"-ha", "-rpc-protection", "privacy"}

// strictServer starts `gozie server -local` on the strict cluster and
// checks that the cluster is what the tests on it claim: named by its
// logical names only (nameNode=hdfs://<nameservice>, resourceManager and
// jobTracker the RM cluster id), two NameNodes and two ResourceManagers,
// and hadoop.rpc.protection=privacy in its configuration.
func strictServer(t *testing.T) *env {
	t.Helper()
	e := localServerWith(t, strictCluster...)
	ns := localcluster.HAName
	if e.cluster["nameNode"] != "hdfs://"+ns || e.cluster["resourceManager"] != ns || e.cluster["jobTracker"] != ns {
		t.Fatalf("the strict cluster is not named by its logical names: %v", e.cluster)
	}
	h, err := conf.LoadHadoop(e.cluster["hadoopConfDir"])
	if err != nil {
		t.Fatal(err)
	}
	nns, _ := h.Get("dfs.ha.namenodes." + ns)
	protection, _ := h.Get("hadoop.rpc.protection")
	if nns != "nn1,nn2" || len(h.RMHAIDs()) != 2 || protection != "privacy" {
		t.Fatalf("the strict cluster's configuration: NameNodes %q, rm-ids %v, hadoop.rpc.protection %q",
			nns, h.RMHAIDs(), protection)
	}
	return e
}

// exampleServer starts the server an example of apps runs on: gozie's own
// examples run on the strict cluster, Oozie's on the default one, so each
// example proves both that it runs unchanged and that gozie survives a
// hardened cluster.
func exampleServer(t *testing.T, apps string) *env {
	t.Helper()
	if testapps.Source(apps) == testapps.Gozie {
		return strictServer(t)
	}
	return localServer(t)
}

// tool runs a cluster tool (`gozie tool hdfs|yarn ...`) against the
// cluster as its administrator would, and returns its output.
func (e *env) tool(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"tool"}, args...)...)
	cmd.Env = append(os.Environ(), "HADOOP_CONF_DIR="+e.cluster["hadoopConfDir"])
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gozie tool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// copyApp copies an example app unchanged into the user's examples dir on
// the cluster (a plain copy into the DFS root) and returns its local path.
func (e *env) copyApp(t *testing.T, src, name string) string {
	t.Helper()
	dst := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "apps", name)
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// cli runs the gozie CLI against the server.
func (e *env) cli(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "OOZIE_URL="+e.url, "GOZIE_URL="+e.url)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var jobIDLine = regexp.MustCompile(`(?m)^job: (\S+)$`)

// run submits and starts a job with the example's job.properties and the
// cluster's addresses, and returns its id.
func (e *env) run(t *testing.T, jobProps string, extra ...string) string {
	t.Helper()
	args := []string{"job", "-config", jobProps,
		"-D", "nameNode=" + e.cluster["nameNode"], "-D", "resourceManager=" + e.cluster["resourceManager"],
		"-D", "jobTracker=" + e.cluster["jobTracker"]}
	for _, kv := range extra {
		args = append(args, "-D", kv)
	}
	out, err := e.cli(t, append(args, "-run")...)
	if err != nil {
		t.Fatalf("gozie job -run: %v\n%s", err, out)
	}
	m := jobIDLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no job id in %q", out)
	}
	return m[1]
}

var statusLine = regexp.MustCompile(`(?m)^Status\s*:\s*(\S+)`)

// waitJob polls `gozie job -info` until the job's status is terminal and
// returns the info output.
func (e *env) waitJob(t *testing.T, id string, timeout time.Duration) (string, string) {
	t.Helper()
	var status, out string
	// Polling the CLI as a script would.
	testwait.Poll{Timeout: timeout, Every: 100 * time.Millisecond}.WaitForLast(t, "job "+id+" to finish", func() (bool, string) {
		var err error
		out, err = e.cli(t, "job", "-info", id)
		if err == nil {
			if m := statusLine.FindStringSubmatch(out); m != nil {
				switch m[1] {
				case "SUCCEEDED", "KILLED", "FAILED":
					status = m[1]
					return true, ""
				}
			}
		}
		return false, fmt.Sprintf("info:\n%s (%v)", out, err)
	})
	return status, out
}

var _ = context.Background
