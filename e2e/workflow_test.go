package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// shellData is what the shell example's action must capture, per source:
// the output its decision reads.
var shellData = map[string]func(e *env) map[string]string{
	testapps.Gozie: func(e *env) map[string]string {
		return map[string]string{"argc": "2", "user": e.user, "root": "examples", "greeting": "Hello from gozie"}
	},
	testapps.Oozie: func(*env) map[string]string { return map[string]string{"my_output": "Hello Oozie"} },
}

// TestShellExampleSucceeds runs the shell example unchanged (gozie's own,
// and Oozie's when testapps.OozieEnv names it): capture-output feeds a
// decision, which moves to the end.
func TestShellExampleSucceeds(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "shell")
		wf := exampleWorkflow(t, src, "workflow.xml")
		node := actionNode(t, wf, "shell")
		app := e.copyApp(t, src, "shell")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("shell example ended %s:\n%s", status, info)
		}
		app0 := e.yarnApps(t)
		if len(app0) != 1 || app0[0].State != yarn.StateFinished || app0[0].FinalStatus != yarn.FinalSucceeded {
			t.Fatalf("YARN applications: %+v", app0)
		}
		if !strings.Contains(info, id+"@"+node.Name) || !strings.Contains(info, app0[0].ID.String()) {
			t.Fatalf("the action table does not show the YARN application:\n%s", info)
		}
		j := e.jobInfo(t, id)
		checkCaptured(t, j.action(t, node.Name).Data, shellData[testapps.Source(apps)](e))
		checkDecidedEnd(t, wf, j, node.Action.OK)
	})
}

// checkCaptured checks that an action's captured output (a properties
// text) holds every key of want with its value.
func checkCaptured(t *testing.T, data string, want map[string]string) {
	t.Helper()
	props, err := conf.ReadProperties(strings.NewReader(data), "data")
	if err != nil {
		t.Fatalf("captured output %q: %v", data, err)
	}
	for k, v := range want {
		if got := props.Value(k); got != v {
			t.Errorf("captured %s = %q, want %q (all: %q)", k, got, v, data)
		}
	}
}

// checkDecidedEnd checks that the decision node called decision ran and
// took the transition to the app's end node.
func checkDecidedEnd(t *testing.T, wf *workflow.App, j jobJSON, decision string) {
	t.Helper()
	if n := wf.Node(decision); n == nil || n.Kind != workflow.KindDecision {
		t.Fatalf("%s is not a decision node of %s", decision, wf.Name)
	}
	if d := j.action(t, decision); d.Status != "OK" || d.Transition != wf.EndNode().Name {
		t.Errorf("decision %s: status %s, transition %q; want OK to %s", decision, d.Status, d.Transition, wf.EndNode().Name)
	}
}

// javaExample is how TestJavaMainExampleSucceeds builds one source's
// java-main example and what the java action must then capture (nil when
// the example captures nothing).
type javaExample struct {
	build    func(t *testing.T, src, app string)
	captured func(e *env) map[string]string
}

var javaExamples = map[string]javaExample{
	// gozie's example ships its main class as source: src/ → lib/java-main.jar.
	testapps.Gozie: {
		build: func(t *testing.T, src, app string) {
			buildJar(t, filepath.Join(src, "src"), filepath.Join(app, "lib", "java-main.jar"))
		},
		captured: func(e *env) map[string]string {
			return map[string]string{"argc": "2", "arg.0": "Hello from gozie", "arg.1": e.user}
		},
	},
	// Oozie's example names a class of its examples jar, which the test
	// stands in for.
	testapps.Oozie: {build: func(t *testing.T, _, app string) { buildDemoJar(t, filepath.Join(app, "lib", "oozie-examples.jar")) }},
}

// TestJavaMainExampleSucceeds runs the java-main example (gozie's own, and
// Oozie's when testapps.OozieEnv names it) with its main class compiled
// into the app's lib/ jar; the class checks or reports its arguments.
func TestJavaMainExampleSucceeds(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		for _, tool := range []string{"javac", "jar", "java"} {
			testreq.Program(t, "default-jdk-headless", tool)
		}
		ex := javaExamples[testapps.Source(apps)]
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "java-main")
		wf := exampleWorkflow(t, src, "workflow.xml")
		node := actionNode(t, wf, "java")
		app := e.copyApp(t, src, "java-main")
		ex.build(t, src, app)
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("java-main example ended %s:\n%s", status, info)
		}
		j := e.jobInfo(t, id)
		if a := j.action(t, node.Name); a.Status != "OK" || a.ExternalStatus != "SUCCEEDED" {
			t.Errorf("java action %+v", a)
		}
		if ex.captured != nil {
			checkCaptured(t, j.action(t, node.Name).Data, ex.captured(e))
			checkDecidedEnd(t, wf, j, node.Action.OK)
		}
	})
}

// buildDemoJar compiles a main class with the name Oozie's java-main
// example uses into a jar at dst; the class fails unless it gets the
// example's two arguments.
func buildDemoJar(t *testing.T, dst string) {
	t.Helper()
	src := t.TempDir()
	pkg := filepath.Join(src, "org", "apache", "oozie", "example")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	const code = `package org.apache.oozie.example;
public class DemoJavaMain {
    public static void main(String[] args) {
        if (args.length != 2 || !args[0].equals("Hello") || !args[1].equals("Oozie!")) {
            throw new IllegalArgumentException("unexpected arguments: " + String.join(" ", args));
        }
        System.out.println("Demo Java Main: " + String.join(" ", args));
    }
}
`
	if err := os.WriteFile(filepath.Join(pkg, "DemoJavaMain.java"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	buildJar(t, src, dst)
}

// buildJar compiles every .java file under src into a jar at dst.
func buildJar(t *testing.T, src, dst string) {
	t.Helper()
	var sources []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".java") {
			sources = append(sources, path)
		}
		return err
	})
	if err != nil || len(sources) == 0 {
		t.Fatalf("no Java sources under %s: %v", src, err)
	}
	classes := t.TempDir()
	if out, err := exec.Command("javac", append([]string{"-d", classes}, sources...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("jar", "cf", dst, "-C", classes, ".").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, out)
	}
}

var failingShellApp = shellApp("failing", "step", "step failed [${wf:errorCode('step')}] ${wf:errorMessage(wf:lastErrorNode())}",
	"bash", "-c", "echo failing on purpose; exit 1")

// writeApp writes a workflow app and its job.properties into the user's
// examples dir and returns the job.properties path.
func (e *env) writeApp(t *testing.T, name, xml string) string {
	t.Helper()
	dir := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "apps", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "workflow.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	props := "nameNode=hdfs://localhost:8020\nresourceManager=localhost:8032\n" +
		"oozie.wf.application.path=${nameNode}/user/${user.name}/examples/apps/" + name + "\n"
	path := filepath.Join(dir, "job.properties")
	if err := os.WriteFile(path, []byte(props), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// errorCodeCell matches the step's row: Oozie's fixed-width columns run
// together when a YARN application id is longer than its column.
var errorCodeCell = regexp.MustCompile(`@step\s+ERROR\s+application_\d+_\d+\s*FAILED/KILLED\s*1\s`)

// TestFailingShellFollowsErrorTransition checks exit 1 → ERROR with code 1,
// the error transition, and KILLED with the kill node's message.
func TestFailingShellFollowsErrorTransition(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	id := e.run(t, e.writeApp(t, "failing", failingShellApp))
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	if !errorCodeCell.MatchString(info) {
		t.Fatalf("the step's row does not show ERROR with error code 1:\n%s", info)
	}
	resp, err := http.Get(e.url + "/v2/job/" + id + "?show=info")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var job struct {
		Actions []struct {
			Name         string `json:"name"`
			ErrorCode    string `json:"errorCode"`
			ErrorMessage string `json:"errorMessage"`
		} `json:"actions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&job); err != nil {
		t.Fatal(err)
	}
	var killMsg string
	for _, a := range job.Actions {
		if a.Name == "fail" {
			killMsg = a.ErrorMessage
		}
	}
	if !strings.HasPrefix(killMsg, "step failed [1]") {
		t.Fatalf("kill node message %q, want it to start with %q", killMsg, "step failed [1]")
	}
}

var sleepApp = shellApp("sleeper", "nap", "nap failed", "sleep", "600")

// TestKillSleepingWorkflow kills a workflow whose action sleeps: the job
// ends KILLED within seconds and its YARN application is KILLED.
func TestKillSleepingWorkflow(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	id := e.run(t, e.writeApp(t, "sleeper", sleepApp))
	e.waitYARN(t, func(apps []yarn.AppReport) bool { return len(apps) == 1 && apps[0].State == yarn.StateRunning })
	if out, err := e.cli(t, "job", "-kill", id); err != nil {
		t.Fatalf("-kill: %v %s", err, out)
	}
	status, info := e.waitJob(t, id, 30*time.Second)
	if status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	e.waitYARN(t, func(apps []yarn.AppReport) bool { return len(apps) == 1 && apps[0].State == yarn.StateKilled })
}

// yarnApps lists the applications MiniYARN knows, asking every
// ResourceManager of the cluster's configuration (the active one answers).
func (e *env) yarnApps(t *testing.T) []yarn.AppReport {
	t.Helper()
	apps, err := e.yarnClient(t).Apps(context.Background(), yarn.AppsFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return apps
}

func (e *env) waitYARN(t *testing.T, cond func([]yarn.AppReport) bool) []yarn.AppReport {
	t.Helper()
	var apps []yarn.AppReport
	// Polling the RM as an operator would.
	testwait.Poll{Timeout: time.Minute, Every: 50 * time.Millisecond}.WaitForLast(t, "YARN to reach the expected state", func() (bool, string) {
		apps = e.yarnApps(t)
		return cond(apps), fmt.Sprintf("%+v", apps)
	})
	return apps
}
