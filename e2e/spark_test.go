package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/yarn"
)

// skipOozieSpark is why Oozie's spark and pyspark examples are not run:
// their applications need a real Spark.
const skipOozieSpark = "Oozie's spark and pyspark examples need a real Spark: SparkFileCopy (lib/oozie-examples.jar) " +
	"and pi.py use Spark's API, which no stand-in provides; gozie's own spark and pyspark examples run instead"

// sparkApp returns the one SPARK application of apps.
func sparkApp(t *testing.T, apps []yarn.AppReport) yarn.AppReport {
	t.Helper()
	var found []yarn.AppReport
	for _, r := range apps {
		if r.ApplicationType == launch.ApplicationTypeSpark {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d Spark applications, want one: %+v", len(found), apps)
	}
	return found[0]
}

// TestSparkExamplesFollowTheApplication runs gozie's spark (a jar on YARN
// in cluster mode) and pyspark (a Python file on YARN in client mode)
// examples unchanged: the launcher runs the cluster's spark-submit, the
// application does its work on the cluster, and the action then shows the
// Spark application, tagged with the run's child tag, as its external id.
// Oozie's examples are skipped (skipOozieSpark).
func TestSparkExamplesFollowTheApplication(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		if testapps.Source(apps) == testapps.Oozie {
			t.Skip(skipOozieSpark)
		}
		t.Parallel()
		for _, tool := range []string{"javac", "jar", "java"} {
			testreq.Program(t, "default-jdk-headless", tool)
		}
		testreq.Program(t, "python3", "python3")
		e := exampleServer(t, apps)
		out := "user/" + e.user + "/examples/output-data/"

		src := filepath.Join(apps, "spark")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "spark")
		app := e.copyApp(t, src, "spark")
		buildJar(t, filepath.Join(src, "src"), filepath.Join(app, "lib", "spark-file-copy.jar"))
		text := stagedFile(t, e.stageInput(t, src, nil), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
			t.Fatalf("spark example ended %s:\n%s", status, info)
		}
		if got := e.readData(t, out+"spark"); got != text {
			t.Errorf("copied %q, want %q", got, text)
		}
		checkFollowsSpark(t, e, e.jobInfo(t, id).action(t, node.Name), sparkApp(t, e.yarnApps(t)))

		src = filepath.Join(apps, "pyspark")
		node = actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "spark")
		app = e.copyApp(t, src, "pyspark")
		id = e.run(t, filepath.Join(app, "job.properties"))
		if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
			t.Fatalf("pyspark example ended %s:\n%s", status, info)
		}
		if got := e.readData(t, out+"pyspark"); got != "Pi is roughly 3.141593\n" {
			t.Errorf("pi.py wrote %q", got)
		}
		var py yarn.AppReport
		for _, r := range e.yarnApps(t) {
			if r.ApplicationType == launch.ApplicationTypeSpark && r.Name == "gozie-python-pi" {
				py = r
			}
		}
		checkFollowsSpark(t, e, e.jobInfo(t, id).action(t, node.Name), py)
	})
}

// checkFollowsSpark checks that an OK spark action followed app, which
// succeeded and carries the child tags.
func checkFollowsSpark(t *testing.T, e *env, a struct {
	Name, Type, Status, ExternalID, ExternalStatus, ExternalChildIDs, ErrorCode, ErrorMessage, Data, Transition string
}, app yarn.AppReport) {
	t.Helper()
	if !app.Succeeded() || !app.HasTag(launch.ChildCommonTag) {
		t.Errorf("Spark application %+v, want it succeeded and tagged %s", app, launch.ChildCommonTag)
	}
	if a.Status != "OK" || a.ExternalID != app.ID.String() || a.ExternalStatus != "SUCCEEDED" ||
		!strings.Contains(a.ExternalChildIDs, app.ID.String()) {
		t.Errorf("action %+v, want OK following the Spark application %s", a, app.ID)
	}
}

// sparkScriptApp is a workflow whose spark action runs lib/<script> on YARN
// in cluster mode.
const sparkScriptApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="spark-script">
  <start to="app"/>
  <action name="app">
    <spark xmlns="uri:oozie:spark-action:0.2">
      <job-tracker>${resourceManager}</job-tracker><name-node>${nameNode}</name-node>
      <master>yarn</master><mode>cluster</mode><name>script</name><jar>script.py</jar><arg>${word}</arg>
    </spark>
    <ok to="end"/><error to="report"/>
  </action>
  <kill name="report"><message>spark failed [${wf:errorMessage(wf:lastErrorNode())}]</message></kill>
  <end name="end"/>
</workflow-app>`

// TestSparkActionFailureAndKill: a Spark application that fails takes the
// action's error transition with Spark's diagnostics in wf:errorMessage;
// killing a workflow whose spark action follows a running application
// kills that application.
func TestSparkActionFailureAndKill(t *testing.T) {
	t.Parallel()
	testreq.Program(t, "python3", "python3")
	e := localServer(t)
	const script = "import sys, time\nif sys.argv[1] == 'sleep':\n    time.sleep(600)\nsys.exit('bad word: ' + sys.argv[1])\n"

	props := e.writeApp(t, "spark-fail", sparkScriptApp)
	e.putData(t, "user/"+e.user+"/examples/apps/spark-fail/lib/script.py", script)
	id := e.run(t, props, "word=boom")
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "KILLED" {
		t.Fatalf("failing spark app ended %s:\n%s", status, info)
	}
	j := e.jobInfo(t, id)
	failed := sparkApp(t, e.yarnApps(t))
	a := j.action(t, "app")
	if a.Status != "ERROR" || a.ExternalID != failed.ID.String() ||
		!strings.Contains(a.ErrorMessage, "User application exited with status 1: bad word: boom") {
		t.Errorf("action %+v, want ERROR following %s with Spark's diagnostics", a, failed.ID)
	}
	if r := j.action(t, "report"); !strings.Contains(r.ErrorMessage, "bad word: boom") {
		t.Errorf("kill message %q does not carry the diagnostics", r.ErrorMessage)
	}

	props = e.writeApp(t, "spark-sleep", sparkScriptApp)
	e.putData(t, "user/"+e.user+"/examples/apps/spark-sleep/lib/script.py", script)
	id = e.run(t, props, "word=sleep")
	var running yarn.AppReport
	found := false
	// Polling the server as a script would.
	testwait.Poll{Timeout: time.Minute, Every: 100 * time.Millisecond}.WaitForLast(t, "the action to follow a running Spark application",
		func() (bool, string) {
			for _, r := range e.yarnApps(t) {
				if r.ApplicationType == launch.ApplicationTypeSpark && r.ID != failed.ID && r.State == yarn.StateRunning {
					running, found = r, true
				}
			}
			if !found {
				return false, "no running Spark application"
			}
			j := e.jobInfo(t, id)
			return j.action(t, "app").ExternalID == running.ID.String(), fmt.Sprintf("%+v", j)
		})
	if out, err := e.cli(t, "job", "-kill", id); err != nil {
		t.Fatalf("job -kill: %v\n%s", err, out)
	}
	if status, info := e.waitJob(t, id, time.Minute); status != "KILLED" {
		t.Fatalf("killed workflow ended %s:\n%s", status, info)
	}
	e.waitYARN(t, func(apps []yarn.AppReport) bool {
		return slices.ContainsFunc(apps, func(r yarn.AppReport) bool { return r.ID == running.ID && r.State == yarn.StateKilled })
	})
}
