package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
)

// webhdfsCoordinator waits for one hourly dataset instance, whose done-flag
// a WebHDFS client writes.
var webhdfsCoordinator = hourlyInputCoordinator("webhdfs-coord", "", "examples/input-data/web/${YEAR}${MONTH}${DAY}${HOUR}", "webhdfs")

// webhdfs makes one WebHDFS request to the local cluster as e's user, a
// client following the NameNode's redirect to the DataNode, and returns the
// status and body.
func (e *env) webhdfs(t *testing.T, method, path, query string, body []byte) (int, []byte) {
	t.Helper()
	u := e.cluster["webhdfs"] + path + "?user.name=" + e.user + "&" + query
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestWebHDFSDoneFlag: on `gozie server -local`, a coordinator action
// waits for its dataset until a WebHDFS client creates the instance's
// _SUCCESS (the two-step CREATE), then starts its workflow, which
// succeeds; the client lists and reads what the cluster holds.
func TestWebHDFSDoneFlag(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	if e.cluster["webhdfs"] == "" {
		t.Fatalf("local-cluster.properties names no webhdfs: %v", e.cluster)
	}
	props := e.writeCoordApp(t, "webhdfs", webhdfsCoordinator)
	id := e.run(t, props, "start=2010-01-01T00:00Z", "end=2010-01-01T01:00Z")
	flag := "/user/" + e.user + "/examples/input-data/web/2010010100/_SUCCESS"
	e.waitCoord(t, id, time.Minute, "an action waiting for its input", func(_ string, acts []coordAction) bool {
		return len(acts) == 1 && acts[0].Status == "WAITING" && strings.HasSuffix(acts[0].FirstMissing, flag)
	})

	if st, body := e.webhdfs(t, "PUT", flag, "op=CREATE", []byte{}); st != http.StatusCreated {
		t.Fatalf("WebHDFS CREATE of the done-flag = %d %s", st, body)
	}
	status, acts := e.waitCoord(t, id, 2*time.Minute, "a final status", func(s string, _ []coordAction) bool { return coordTerminal(s) })
	if status != "SUCCEEDED" || len(acts) != 1 || acts[0].Status != "SUCCEEDED" || acts[0].ExtID == "" {
		t.Fatalf("coordinator %s ended %s with %+v, want its action's workflow SUCCEEDED", id, status, acts)
	}
	if wf, _ := e.waitJob(t, acts[0].ExtID, time.Minute); wf != "SUCCEEDED" {
		t.Fatalf("workflow %s is %s", acts[0].ExtID, wf)
	}

	// The client sees the cluster's files: the app the test put there.
	st, body := e.webhdfs(t, "GET", "/user/"+e.user+"/examples/apps/webhdfs", "op=LISTSTATUS", nil)
	if st != 200 || !strings.Contains(string(body), `"pathSuffix":"coordinator.xml"`) {
		t.Errorf("LISTSTATUS of the app = %d %s", st, body)
	}
	st, body = e.webhdfs(t, "GET", "/user/"+e.user+"/examples/apps/webhdfs/workflow.xml", "op=OPEN", nil)
	if st != 200 || string(body) != noopWorkflow {
		t.Errorf("OPEN of the workflow = %d %q", st, body)
	}
}

// TestExamplesInstall is a newcomer's first hour: `make run` prints the
// console and the one command that installs the examples and runs the
// README's pipeline; `gozie examples install` puts the apps into the local
// cluster through its NameNode and prints a command per app, and each of
// them, run as printed, ends SUCCEEDED.
func TestExamplesInstall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server, addr := startServer(t, "-local", "-data-dir", dir, "-config-dir", t.TempDir())
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	_, port, _ := strings.Cut(addr, ":")
	console := "console=http://localhost:" + port + "/oozie/"
	testwait.Poll{Timeout: 30 * time.Second, Every: 50 * time.Millisecond}.WaitForLast(t, fmt.Sprintf("the server to log %q", console),
		func() (bool, string) {
			log := server.log()
			return strings.Contains(log, console), "\n" + log
		})
	if log := server.log(); !strings.Contains(log, "examples install -oozie http://localhost:"+port+"/oozie -data-dir ") ||
		!strings.Contains(log, "nightly-hive/job.properties") {
		t.Errorf("the banner has no examples command:\n%s", log)
	}

	cmd := exec.Command(binary, "examples", "install", "-data-dir", dir, "-oozie", e.url, "-user", e.user)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gozie examples install: %v\n%s", err, out)
	}
	commands := map[string]string{}
	var app string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "# "); ok {
			app, _, _ = strings.Cut(name, ":")
		} else if strings.HasPrefix(line, binary+" job ") && app != "" {
			commands[app] = line
		}
	}
	for _, name := range []string{"nightly-hive", "shell", "map-reduce", "streaming", "hive2", "subwf", "pyspark", "cron"} {
		if commands[name] == "" {
			t.Fatalf("no command for %s in:\n%s", name, out)
		}
	}
	for name, line := range commands {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name == "pyspark" {
				testreq.Program(t, "python3", "python3") // the spark-submit stand-in runs pi.py with it
			}
			args := strings.Fields(line)
			run := exec.Command(args[0], args[1:]...)
			run.Dir = dir
			got, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", line, err, got)
			}
			m := jobIDLine.FindStringSubmatch(string(got))
			if m == nil {
				t.Fatalf("no job id in %q", got)
			}
			if status, info := e.waitJob(t, m[1], 3*time.Minute); status != "SUCCEEDED" {
				t.Fatalf("%s ended %s:\n%s", name, status, info)
			}
		})
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("gozie examples install printed:\n%s", out)
		}
	})
	// The installed files are the user's, as HDFS writes of that user.
	st, body := e.webhdfs(t, "GET", "/user/"+e.user+"/examples/apps/nightly-hive/workflow.xml", "op=GETFILESTATUS", nil)
	var fs struct{ FileStatus struct{ Owner string } }
	if err := json.Unmarshal(body, &fs); err != nil || st != 200 || fs.FileStatus.Owner != e.user {
		t.Errorf("the installed workflow: %d %s", st, body)
	}
}
