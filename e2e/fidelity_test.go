package e2e

import (
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// localServerSite starts `gozie server -local` with site as its
// gozie-site.xml properties.
func localServerSite(t *testing.T, site map[string]string) *env {
	t.Helper()
	confDir := t.TempDir()
	var b strings.Builder
	b.WriteString("<configuration>\n")
	for k, v := range site {
		b.WriteString("  <property><name>" + k + "</name><value>" + v + "</value></property>\n")
	}
	b.WriteString("</configuration>\n")
	if err := os.WriteFile(filepath.Join(confDir, "gozie-site.xml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, addr := startServer(t, "-local", "-data-dir", dir, "-config-dir", confDir)
	return &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
}

// forward accepts connections on l and relays each to target, until the
// test ends.
func forward(t *testing.T, l net.Listener, target string) {
	t.Helper()
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				u, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer u.Close()
				go func() { _, _ = io.Copy(u, c); u.Close() }()
				_, _ = io.Copy(c, u)
			}()
		}
	}()
}

// TestUnreachableHiveServerSuspendsUntilResumed is the README's nightly
// pipeline run with a JDBC URL where no HiveServer2 answers: its hive2
// action is retried gozie.action.retries.max (3) times, then waits in
// START_MANUAL with the workflow SUSPENDED, as Oozie's does. Once
// HiveServer2 answers at that address, `job -resume` starts the action again
// and the pipeline succeeds.
func TestUnreachableHiveServerSuspendsUntilResumed(t *testing.T) {
	t.Parallel()
	e := localServerSite(t, map[string]string{"gozie.action.retry.interval": "1s"})
	app := e.copyApp(t, filepath.Join("..", "examples", "nightly-hive"), "nightly-hive")
	hs2, err := url.Parse(strings.TrimPrefix(e.cluster["hive2JdbcUrl"], "jdbc:"))
	if err != nil {
		t.Fatal(err)
	}
	nowhere := freeAddr(t) // nothing listens there until the test says so
	id := e.run(t, filepath.Join(app, "job.properties"), "jdbcURL=jdbc:hive2://"+nowhere+"/default")

	deadline := time.Now().Add(2 * time.Minute)
	j := e.jobInfo(t, id)
	for ; j.Status == "RUNNING" && time.Now().Before(deadline); j = e.jobInfo(t, id) {
		time.Sleep(200 * time.Millisecond) // condition poll with a deadline
	}
	a := j.action(t, "aggregate")
	if j.Status != "SUSPENDED" || a.Status != "START_MANUAL" || a.ErrorCode == "" || !strings.Contains(a.ErrorMessage, nowhere) {
		t.Fatalf("after the retries: job %s, aggregate %s %s %q", j.Status, a.Status, a.ErrorCode, a.ErrorMessage)
	}

	l, err := net.Listen("tcp", nowhere)
	if err != nil {
		t.Fatalf("HiveServer2's stand-in address %s: %v", nowhere, err)
	}
	forward(t, l, hs2.Host)
	if out, err := e.cli(t, "job", "-resume", id); err != nil {
		t.Fatalf("job -resume: %v\n%s", err, out)
	}
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("after the resume the pipeline ended %s:\n%s", status, info)
	}
	if a := e.jobInfo(t, id).action(t, "aggregate"); a.Status != "OK" {
		t.Errorf("aggregate %+v", a)
	}
}
