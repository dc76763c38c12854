package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/yarn"
)

// waitFlagApp is a workflow of one shell action that waits, with the
// cluster's hdfs tool, until the test creates flag on HDFS, then succeeds:
// an action that is running for as long as the test needs it to.
func waitFlagApp(name, flag string) string {
	return fmt.Sprintf(`<workflow-app xmlns="uri:oozie:workflow:1.0" name="%s"><start to="wait"/>
<action name="wait"><shell xmlns="uri:oozie:shell-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<exec>sh</exec><argument>-c</argument><argument>until hdfs dfs -test -e %s; do sleep 0.2; done</argument>
</shell><ok to="end"/><error to="fail"/></action>
<kill name="fail"><message>the waiting action failed</message></kill><end name="end"/></workflow-app>`, name, flag)
}

// yarnClient reaches every ResourceManager of the cluster's configuration.
func (e *env) yarnClient(t *testing.T) *yarn.Client {
	t.Helper()
	h, err := conf.LoadHadoop(e.cluster["hadoopConfDir"])
	if err != nil {
		t.Fatal(err)
	}
	c, err := yarn.NewClient(yarn.Config{Addresses: h.ResourceManagerWebAppURLs(), Auth: yarn.PseudoAuth{User: e.user}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestActionSurvivesFailoversAndRestarts runs, on the strict cluster, a
// shell action that waits for a flag while the cluster's administrator
// fails the ResourceManagers over, fails the NameNodes over, and restarts
// the ResourceManager (work-preserving): each time the action must end
// SUCCEEDED with exactly one YARN application of one attempt, the
// launcher having found the new active RM, registered again where the RM
// asked it to, and unregistered.
func TestActionSurvivesFailoversAndRestarts(t *testing.T) {
	t.Parallel()
	e := strictServer(t)
	disruptions := []struct {
		name string
		do   func(t *testing.T)
	}{
		{"rm-failover", func(t *testing.T) { e.tool(t, "yarn", "rmadmin", "-failover", "rm1", "rm2") }},
		{"nn-failover", func(t *testing.T) { e.tool(t, "hdfs", "haadmin", "-failover", "nn1", "nn2") }},
		{"rm-restart", func(t *testing.T) {
			e.tool(t, "yarn", "--daemon", "stop", "resourcemanager")
			e.tool(t, "yarn", "--daemon", "start", "resourcemanager")
		}},
		{"both-back", func(t *testing.T) {
			e.tool(t, "yarn", "rmadmin", "-failover", "rm2", "rm1")
			e.tool(t, "hdfs", "haadmin", "-failover", "nn2", "nn1")
		}},
	}
	yc := e.yarnClient(t)
	ctx := context.Background()
	for i, d := range disruptions {
		flag := fmt.Sprintf("/user/%s/flags/%s", e.user, d.name)
		id := e.run(t, e.writeApp(t, d.name, waitFlagApp(d.name, flag)))
		// The launcher is registered once its application is RUNNING.
		apps := e.waitYARN(t, func(apps []yarn.AppReport) bool {
			return len(apps) == i+1 && apps[i].State == yarn.StateRunning
		})
		app := apps[i]
		d.do(t)
		e.putData(t, strings.TrimPrefix(flag, "/"), "")
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("%s: the workflow ended %s:\n%s", d.name, status, info)
		}
		apps = e.yarnApps(t)
		if len(apps) != i+1 {
			t.Fatalf("%s: %d YARN applications after %d actions: %+v", d.name, len(apps), i+1, apps)
		}
		got, ok := findApp(apps, app.ID)
		if !ok || got.State != yarn.StateFinished || got.FinalStatus != yarn.FinalSucceeded {
			t.Fatalf("%s: the launcher's application %s is %+v", d.name, app.ID, got)
		}
		attempts, err := yc.Attempts(ctx, app.ID)
		if err != nil || len(attempts) != 1 {
			t.Fatalf("%s: attempts of %s: %+v, %v", d.name, app.ID, attempts, err)
		}
		if a := e.jobInfo(t, id).action(t, "wait"); a.ExternalID != app.ID.String() || a.Status != "OK" {
			t.Errorf("%s: action %+v, want OK with %s", d.name, a, app.ID)
		}
	}
}

func findApp(apps []yarn.AppReport, id yarn.ApplicationID) (yarn.AppReport, bool) {
	for _, a := range apps {
		if a.ID == id {
			return a, true
		}
	}
	return yarn.AppReport{}, false
}

// inputCoordinator runs the shell workflow beside it for every 10-minute
// instance of its dataset, once the instance's _SUCCESS flag is there.
const inputCoordinator = `<coordinator-app name="after-restart" frequency="${coord:minutes(10)}" start="${start}" end="${end}"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <datasets>
    <dataset name="in" frequency="${coord:minutes(10)}" initial-instance="2020-01-01T00:00Z" timezone="UTC">
      <uri-template>${nameNode}/user/${coord:user()}/examples/input-data/restart/${YEAR}${MONTH}${DAY}${HOUR}${MINUTE}</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="in"><instance>${coord:current(0)}</instance></data-in>
  </input-events>
  <action><workflow><app-path>${nameNode}/user/${coord:user()}/examples/apps/after-restart</app-path></workflow></action>
</coordinator-app>`

// throttledInputCoordinator is inputCoordinator with a throttle of 1: it
// materializes its next action only once the waiting one has its input.
var throttledInputCoordinator = strings.Replace(inputCoordinator, "  <datasets>",
	"  <controls><throttle>1</throttle></controls>\n  <datasets>", 1)

// restartWorkflow is the coordinator's workflow: a shell action on YARN,
// which needs the cluster at the addresses the job was submitted with.
var restartWorkflow = shellApp("after-restart-wf", "sh", "failed", "true")

// TestLocalServerRestartKeepsItsCluster stops `gozie server -local` with
// SIGINT (as Ctrl-C stops `make run`, whose command this is, with the
// test's own config dir and address) while a coordinator waits for its
// first input, its throttle holding the second action back, and starts it
// again on the same data dir: the local cluster comes back on the same
// ports, so the addresses the job was submitted with still reach it, the
// coordinator materializes its second action after the restart, and both
// run once their inputs arrive.
func TestLocalServerRestartKeepsItsCluster(t *testing.T) {
	t.Parallel()
	dir, configDir := t.TempDir(), t.TempDir()
	args := []string{"-local", "-data-dir", dir, "-config-dir", configDir}
	first, addr := startServer(t, args...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	before := e.cluster

	appDir := filepath.Join("user", e.user, "examples", "apps", "after-restart")
	e.putData(t, filepath.ToSlash(filepath.Join(appDir, "coordinator.xml")), throttledInputCoordinator)
	e.putData(t, filepath.ToSlash(filepath.Join(appDir, "workflow.xml")), restartWorkflow)
	e.putData(t, filepath.ToSlash(filepath.Join(appDir, "job.properties")),
		"oozie.coord.application.path=${nameNode}/user/${user.name}/examples/apps/after-restart\n")
	id := e.run(t, filepath.Join(dir, "dfs", appDir, "job.properties"),
		"start=2020-01-01T00:00Z", "end=2020-01-01T00:20Z")
	e.waitCoord(t, id, time.Minute, "one waiting action (throttle 1)", func(_ string, acts []coordAction) bool {
		return len(acts) == 1 && acts[0].Status == "WAITING"
	})

	if err := first.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-first.done
	_ = first.cmd.Wait()
	start(t, "gozie server started", append([]string{"server", "-addr", addr}, args...)...)
	after := readCluster(t, dir)
	for _, k := range []string{"nameNode", "resourceManager", "resourceManagerWebapp", "hive2JdbcUrl"} {
		if before[k] != after[k] {
			t.Errorf("%s moved from %s to %s across the restart", k, before[k], after[k])
		}
	}
	for _, instance := range []string{"202001010000", "202001010010"} {
		e.putData(t, "user/"+e.user+"/examples/input-data/restart/"+instance+"/_SUCCESS", "")
	}
	status, acts := e.waitCoord(t, id, 2*time.Minute, "a final status",
		func(s string, _ []coordAction) bool { return coordTerminal(s) })
	if status != "SUCCEEDED" || len(acts) != 2 {
		t.Fatalf("the coordinator ended %s with %+v", status, acts)
	}
	e.checkRanOnce(t, acts)
}
