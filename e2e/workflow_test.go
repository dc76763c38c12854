package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/yarn"
)

// TestShellExampleSucceeds runs Oozie's shell example unchanged: capture-output
// feeds a decision.
func TestShellExampleSucceeds(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "shell"), "shell")
	id := e.run(t, filepath.Join(app, "job.properties"))
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("shell example ended %s:\n%s", status, info)
	}
	app0 := e.yarnApps(t)
	if len(app0) != 1 || app0[0].State != yarn.StateFinished || app0[0].FinalStatus != yarn.FinalSucceeded {
		t.Fatalf("YARN applications: %+v", app0)
	}
	if !strings.Contains(info, id+"@shell-node") || !strings.Contains(info, app0[0].ID.String()) {
		t.Fatalf("the action table does not show the YARN application:\n%s", info)
	}
}

// TestJavaMainExampleSucceeds runs Oozie's java-main example with a main
// class compiled into its lib/ jar.
func TestJavaMainExampleSucceeds(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	for _, tool := range []string{"javac", "jar", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing", tool)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "java-main"), "java-main")
	buildDemoJar(t, filepath.Join(app, "lib", "oozie-examples.jar"))
	id := e.run(t, filepath.Join(app, "job.properties"))
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("java-main example ended %s:\n%s", status, info)
	}
}

// buildDemoJar compiles a main class with the name the java-main example
// uses into a jar at dst.
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
	classes := filepath.Join(src, "classes")
	for _, c := range [][]string{
		{"javac", "-d", classes, filepath.Join(pkg, "DemoJavaMain.java")},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("jar", "cf", dst, "-C", classes, ".").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, out)
	}
}

const failingShellApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="failing">
  <start to="step"/>
  <action name="step">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>bash</exec><argument>-c</argument><argument>echo failing on purpose; exit 1</argument>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>step failed [${wf:errorCode('step')}] ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

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

const sleepApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="sleeper">
  <start to="nap"/>
  <action name="nap">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>sleep</exec><argument>600</argument>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>nap failed</message></kill>
  <end name="end"/>
</workflow-app>`

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

// yarnApps lists the applications MiniYARN knows.
func (e *env) yarnApps(t *testing.T) []yarn.AppReport {
	t.Helper()
	c, err := yarn.NewClient(yarn.Config{Addresses: []string{e.cluster["resourceManagerWebapp"]}, Auth: yarn.PseudoAuth{User: e.user}})
	if err != nil {
		t.Fatal(err)
	}
	apps, err := c.Apps(context.Background(), yarn.AppsFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return apps
}

func (e *env) waitYARN(t *testing.T, cond func([]yarn.AppReport) bool) []yarn.AppReport {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		apps := e.yarnApps(t)
		if cond(apps) {
			return apps
		}
		if time.Now().After(deadline) {
			t.Fatalf("YARN never reached the expected state: %+v", apps)
		}
		time.Sleep(50 * time.Millisecond) // polling the RM as an operator would
	}
}
