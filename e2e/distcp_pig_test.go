package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/yarn"
)

// mapReduceApps returns the MAPREDUCE applications of the cluster.
func (e *env) mapReduceApps(t *testing.T) []yarn.AppReport {
	t.Helper()
	var out []yarn.AppReport
	for _, r := range e.yarnApps(t) {
		if r.ApplicationType == "MAPREDUCE" {
			out = append(out, r)
		}
	}
	return out
}

// childOfLauncher reports whether job carries the child tag of the one
// launcher of the cluster.
func (e *env) childOfLauncher(t *testing.T, job yarn.AppReport) bool {
	t.Helper()
	for _, r := range e.yarnApps(t) {
		if r.ApplicationType != launch.ApplicationType {
			continue
		}
		for _, tag := range r.Tags {
			if tag != launch.CommonTag && job.HasTag(launch.ChildTag(tag)) {
				return true
			}
		}
	}
	return false
}

// TestDistcpExampleFollowsTheCopyJob runs the distcp example unchanged
// (gozie's own, and Oozie's when testapps.OozieEnv names it): the launcher
// runs the cluster's hadoop distcp, whose copy job carries the action's
// child tag and becomes the action's external id; the staged text is
// copied.
func TestDistcpExampleFollowsTheCopyJob(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "distcp")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "distcp")
		app := e.copyApp(t, src, "distcp")
		text := stagedFile(t, e.stageInput(t, src, map[string]string{"text/data.txt": "To be or not to be\nthat is the question\n"}), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("distcp example ended %s:\n%s", status, info)
		}
		jobs := e.mapReduceApps(t)
		if len(jobs) != 1 || !jobs[0].Succeeded() || !e.childOfLauncher(t, jobs[0]) {
			t.Fatalf("want one succeeded copy job tagged as the launcher's child: %+v", e.yarnApps(t))
		}
		a := e.jobInfo(t, id).action(t, node.Name)
		if a.ExternalID != jobs[0].ID.String() || a.ExternalStatus != "SUCCEEDED" {
			t.Errorf("action external id %s (%s), want the copy job %s", a.ExternalID, a.ExternalStatus, jobs[0].ID)
		}
		if got := e.readData(t, "user/"+e.user+"/examples/output-data/distcp"); got != text {
			t.Errorf("copied %q, want %q", got, text)
		}
	})
}

// pigOutput is, per source, what the pig example stores for the staged
// text.
var pigOutput = map[string]func(text string) string{
	// The lines longer than 20 characters, upper-cased, with their length.
	testapps.Gozie: func(text string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if len(l) > 20 {
				fmt.Fprintf(&b, "%s\t%d\n", strings.ToUpper(l), len(l))
			}
		}
		return b.String()
	},
	// id.pig: the first ':'-separated field of each line.
	testapps.Oozie: func(text string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			f, _, _ := strings.Cut(l, ":")
			b.WriteString(f + "\n")
		}
		return b.String()
	},
}

// TestPigExampleRunsTheScript runs the pig example unchanged (gozie's own,
// and Oozie's when testapps.OozieEnv names it): the launcher runs the
// cluster's pig on the localized script with the action's params; the
// script's job carries the child tag, is the action's external id, and
// stores what the statements compute.
func TestPigExampleRunsTheScript(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "pig")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "pig")
		app := e.copyApp(t, src, "pig")
		text := stagedFile(t, e.stageInput(t, src, map[string]string{"text/data.txt": "root:x:0:0\nalice:x:1000:1000\n"}), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("pig example ended %s:\n%s", status, info)
		}
		jobs := e.mapReduceApps(t)
		if len(jobs) != 1 || !jobs[0].Succeeded() || !e.childOfLauncher(t, jobs[0]) {
			t.Fatalf("want one succeeded Pig job tagged as the launcher's child: %+v", e.yarnApps(t))
		}
		a := e.jobInfo(t, id).action(t, node.Name)
		if a.ExternalID != jobs[0].ID.String() || a.ExternalStatus != "SUCCEEDED" {
			t.Errorf("action external id %s (%s), want the Pig job %s", a.ExternalID, a.ExternalStatus, jobs[0].ID)
		}
		out := "user/" + e.user + "/examples/output-data/pig"
		if _, err := os.Stat(filepath.Join(e.dir, "dfs", out, "_SUCCESS")); err != nil {
			t.Errorf("no _SUCCESS: %v", err)
		}
		if got, want := e.readData(t, out), pigOutput[testapps.Source(apps)](text); got != want {
			t.Errorf("stored %q, want %q", got, want)
		}
	})
}

// pigApp writes a workflow of one pig action running script, with the
// script beside it, and returns its job.properties.
func (e *env) pigApp(t *testing.T, name, script string) string {
	t.Helper()
	const wf = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="%s">
  <start to="script"/>
  <action name="script">
    <pig>
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <script>run.pig</script><param>IN=/user/${wf:user()}/pig-in</param>
    </pig>
    <ok to="end"/><error to="report"/>
  </action>
  <kill name="report"><message>pig failed: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`
	props := e.writeApp(t, name, fmt.Sprintf(wf, name))
	if err := os.WriteFile(filepath.Join(filepath.Dir(props), "run.pig"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	e.putData(t, "user/"+e.user+"/pig-in/data.txt", "x\ny\n")
	return props
}

// TestFailingPigScriptTakesErrorTransition: a script whose job fails (a
// STREAM command that exits 1) takes the error transition; the failed job
// is the action's external id and its diagnostics are in wf:errorMessage.
// A statement the stand-in does not implement fails before any job, with
// Pig's error naming it.
func TestFailingPigScriptTakesErrorTransition(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	id := e.run(t, e.pigApp(t, "failing-pig", "A = LOAD '$IN';\nB = STREAM A THROUGH `false`;\nSTORE B INTO 'pig-out';\n"))
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	jobs := e.mapReduceApps(t)
	if len(jobs) != 1 || jobs[0].Succeeded() {
		t.Fatalf("want one failed Pig job: %+v", jobs)
	}
	j := e.jobInfo(t, id)
	a := j.action(t, "script")
	if a.Status != "ERROR" || a.ExternalID != jobs[0].ID.String() || a.ErrorCode != "JA018" || !strings.Contains(a.ErrorMessage, "ERROR 2055") {
		t.Errorf("action %s on %s, error %s %q; want ERROR on %s with the job's diagnostics", a.Status, a.ExternalID, a.ErrorCode, a.ErrorMessage, jobs[0].ID)
	}
	if k := j.action(t, "report"); !strings.Contains(k.ErrorMessage, "pig failed: ") || !strings.Contains(k.ErrorMessage, "ERROR 2055") {
		t.Errorf("kill message %q, want wf:errorMessage with the job's diagnostics", k.ErrorMessage)
	}

	id = e.run(t, e.pigApp(t, "grouping-pig", "A = LOAD '$IN';\nB = GROUP A BY $0;\nSTORE B INTO 'pig-out';\n"))
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	if a := e.jobInfo(t, id).action(t, "script"); a.Status != "ERROR" || !strings.Contains(a.ErrorMessage, "GROUP is not implemented") {
		t.Errorf("action %s, error %s %q; want ERROR naming GROUP", a.Status, a.ErrorCode, a.ErrorMessage)
	}
	if n := len(e.mapReduceApps(t)); n != 1 {
		t.Errorf("%d MapReduce jobs, want only the first script's", n)
	}
}

// TestKillPigWorkflowKillsItsJob: killing a workflow while its Pig job runs
// (a STREAM command that hangs) kills the job, found by the action's child
// tag.
func TestKillPigWorkflowKillsItsJob(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	id := e.run(t, e.pigApp(t, "hanging-pig", "A = LOAD '$IN';\nB = STREAM A THROUGH `sleep 600`;\nSTORE B INTO 'pig-out';\n"))
	e.killWhileJobRuns(t, id)
}

// bobsDistcpApp copies bob's file into alice's home, which bob may not
// write.
const bobsDistcpApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="bobs-copy">
  <start to="copy"/>
  <action name="copy">
    <distcp xmlns="uri:oozie:distcp-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <arg>${nameNode}/user/bob/data/f.txt</arg><arg>${nameNode}/user/alice/copied/f.txt</arg>
    </distcp>
    <ok to="end"/><error to="report"/>
  </action>
  <kill name="report"><message>copy failed: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

// TestFailingDistcpCopyTakesErrorTransition: bob's copy job cannot write
// into alice's home, so the job FAILS in its map task; the action takes
// the error transition with the job as its external id and the NameNode's
// refusal, from the job's diagnostics, in wf:errorMessage.
func TestFailingDistcpCopyTakesErrorTransition(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	e.putData(t, "user/alice/data/keep", "alice's\n")
	e.putData(t, "user/bob/data/f.txt", "bob's\n")
	e.putData(t, "user/bob/apps/copy/workflow.xml", bobsDistcpApp)
	id := e.submitAs(t, "bob", map[string]string{
		"oozie.wf.application.path": e.cluster["nameNode"] + "/user/bob/apps/copy",
		"nameNode":                  e.cluster["nameNode"],
		"resourceManager":           e.cluster["resourceManager"],
	})
	j := e.waitJobAs(t, "bob", id, 2*time.Minute)
	if j.Status != "KILLED" {
		t.Fatalf("bob's copy ended %s, want KILLED: %+v", j.Status, j.Actions)
	}
	jobs := e.mapReduceApps(t)
	if len(jobs) != 1 || jobs[0].Succeeded() {
		t.Fatalf("want one failed copy job: %+v", jobs)
	}
	a := j.action(t, "copy")
	if a.Status != "ERROR" || a.ExternalID != jobs[0].ID.String() || a.ErrorCode != "JA018" ||
		!strings.Contains(a.ErrorMessage, "Permission denied: user=bob") {
		t.Errorf("action %s on %s, error %s %q; want ERROR on %s with the NameNode's refusal", a.Status, a.ExternalID, a.ErrorCode, a.ErrorMessage, jobs[0].ID)
	}
	if k := j.action(t, "report"); !strings.Contains(k.ErrorMessage, "copy failed: ") || !strings.Contains(k.ErrorMessage, "Permission denied") {
		t.Errorf("kill message %q", k.ErrorMessage)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", "user", "alice", "copied", "f.txt")); err == nil {
		t.Error("bob's job copied into alice's home")
	}
}

// slowDistcpApp copies with a bandwidth so small that the copy job runs
// until it is killed.
const slowDistcpApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="slow-copy">
  <start to="copy"/>
  <action name="copy">
    <distcp xmlns="uri:oozie:distcp-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <arg>-bandwidth</arg><arg>0.000000001</arg>
      <arg>/user/${wf:user()}/slow-in</arg><arg>/user/${wf:user()}/slow-out</arg>
    </distcp>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>copy failed</message></kill>
  <end name="end"/>
</workflow-app>`

// TestKillDistcpWorkflowKillsItsJob: killing a workflow while its copy job
// runs kills the job, found by the action's child tag.
func TestKillDistcpWorkflowKillsItsJob(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	e.putData(t, "user/"+e.user+"/slow-in/f.txt", "slow\n")
	id := e.run(t, e.writeApp(t, "slow-copy", slowDistcpApp))
	e.killWhileJobRuns(t, id)
}

// killWhileJobRuns kills the workflow id once a MapReduce job of its runs,
// and waits until every MapReduce job is KILLED (found by the action's
// child tag) and the workflow too.
func (e *env) killWhileJobRuns(t *testing.T, id string) {
	t.Helper()
	e.waitYARN(t, func(apps []yarn.AppReport) bool {
		return slices.ContainsFunc(apps, func(r yarn.AppReport) bool {
			return r.ApplicationType == "MAPREDUCE" && r.State == yarn.StateRunning
		})
	})
	if out, err := e.cli(t, "job", "-kill", id); err != nil {
		t.Fatalf("-kill: %v %s", err, out)
	}
	e.waitYARN(t, func(apps []yarn.AppReport) bool {
		for _, r := range apps {
			if r.ApplicationType == "MAPREDUCE" && r.State != yarn.StateKilled {
				return false
			}
		}
		return true
	})
	if status, info := e.waitJob(t, id, time.Minute); status != "KILLED" {
		t.Fatalf("job ended %s:\n%s", status, info)
	}
}
