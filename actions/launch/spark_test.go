package launch_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// sparkCopyPy copies the file its container sees as in.txt (a <file>
// shipped with --files) to the cluster path of its first argument, or
// fails with its second argument, or sleeps.
const sparkCopyPy = `import subprocess, sys, time
if len(sys.argv) > 2 and sys.argv[2] == "sleep":
    time.sleep(600)
if len(sys.argv) > 2:
    sys.exit("asked to fail: " + sys.argv[2])
subprocess.run(["hadoop", "fs", "-put", "in.txt", sys.argv[1]], check=True)
`

// sparkAction is a spark action running lib/copy.py with args.
func sparkAction(master, mode string, args ...string) string {
	var b strings.Builder
	b.WriteString(`<spark xmlns="uri:oozie:spark-action:1.0"><master>` + master + `</master>`)
	if mode != "" {
		b.WriteString(`<mode>` + mode + `</mode>`)
	}
	b.WriteString(`<name>copy</name><jar>copy.py</jar>`)
	for _, a := range args {
		b.WriteString(`<arg>` + a + `</arg>`)
	}
	b.WriteString(`<file>/user/alice/input-data/data.txt#in.txt</file></spark>`)
	return b.String()
}

// setupSpark is a tools cluster with the spark app's files staged and a
// spark executor.
func setupSpark(t *testing.T) (*cluster, *launch.Executor) {
	t.Helper()
	testreq.Program(t, "python3", "python3")
	c, _ := setupTools(t)
	c.put(t, "/user/alice/apps/spark/workflow.xml", "<workflow-app/>")
	c.put(t, "/user/alice/apps/spark/lib/copy.py", sparkCopyPy)
	c.put(t, "/user/alice/input-data/data.txt", "spark data\n")
	return c, c.executor(t, "spark", nil)
}

// sparkApps returns the Spark applications carrying the run's child tag.
func sparkApps(c *cluster, run *actions.Attempt) []yarn.AppReport {
	var out []yarn.AppReport
	for _, a := range c.appsTagged(launch.ChildTag(run.Tag)) {
		if a.ApplicationType == launch.ApplicationTypeSpark {
			out = append(out, a)
		}
	}
	return out
}

// TestSparkActionFollowsTheApplication: on YARN in cluster mode the
// launcher's spark-submit submits a Spark application tagged with the
// run's child tags and returns; the run then follows the application,
// which does the work with the action's <file> in its container.
func TestSparkActionFollowsTheApplication(t *testing.T) {
	t.Parallel()
	c, e := setupSpark(t)
	out := c.dfs.URI() + "/user/alice/spark-out.txt"
	run := c.run(t, "spark", "spark-node", "/user/alice/apps/spark", sparkAction("yarn", "cluster", out))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	launcherID := st.ExternalID
	run.ExternalID = launcherID
	st = c.waitDone(t, e, run)
	if st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "SUCCEEDED" {
		t.Fatalf("status %+v, want OK", st)
	}
	apps := sparkApps(c, run)
	if len(apps) != 1 || !apps[0].HasTag(launch.ChildCommonTag) || apps[0].Name != "copy" {
		t.Fatalf("Spark applications with the child tag: %+v", apps)
	}
	if st.ExternalID != apps[0].ID.String() || st.ExternalID == launcherID {
		t.Errorf("external id %s, want the Spark application %s (launcher %s)", st.ExternalID, apps[0].ID, launcherID)
	}
	if b, err := c.fs.ReadFile(ctxT(t), out); err != nil || string(b) != "spark data\n" {
		t.Errorf("output %q, %v", b, err)
	}
	res, err := e.CheckAll(ctxT(t), []*actions.Attempt{run})
	if err != nil || !res[run.ActionID].Done || res[run.ActionID].ExternalID != st.ExternalID {
		t.Errorf("CheckAll: %+v, %v", res, err)
	}
}

// TestSparkActionLocalMaster: with a local master the application runs in
// the launcher itself, as Oozie's does; no Spark application is started.
func TestSparkActionLocalMaster(t *testing.T) {
	t.Parallel()
	c, e := setupSpark(t)
	out := c.dfs.URI() + "/user/alice/local-out.txt"
	run := c.run(t, "spark", "spark-node", "/user/alice/apps/spark", sparkAction("local[2]", "", out))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeOK {
		t.Fatalf("status %+v, want OK", st)
	}
	if apps := sparkApps(c, run); len(apps) != 0 {
		t.Errorf("Spark applications started with a local master: %+v", apps)
	}
	if b, err := c.fs.ReadFile(ctxT(t), out); err != nil || string(b) != "spark data\n" {
		t.Errorf("output %q, %v", b, err)
	}
}

// TestSparkActionFailures: an application that fails is the run's ERROR
// with Spark's diagnostics; spark-submit's refusal of the action's
// arguments and a missing application fail the launcher with its error.
func TestSparkActionFailures(t *testing.T) {
	t.Parallel()
	c, e := setupSpark(t)
	run := c.run(t, "spark", "spark-node", "/user/alice/apps/spark", sparkAction("yarn", "cluster", "/x", "boom"))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	st = c.waitDone(t, e, run)
	apps := sparkApps(c, run)
	if len(apps) != 1 || st.Outcome != workflow.OutcomeError || st.ExternalID != apps[0].ID.String() || st.ErrorCode != "JA018" ||
		!strings.Contains(st.ErrorMessage, "Spark application ["+apps[0].ID.String()+"] ended") ||
		!strings.Contains(st.ErrorMessage, "User application exited with status 1: asked to fail: boom") {
		t.Errorf("status %+v, want ERROR following the Spark application %v with its diagnostics", st, apps)
	}
	for _, tt := range []struct{ body, msg string }{
		{sparkAction("yarn", "elsewhere", "/x"), "Error: Deploy mode must be either client or cluster"},
		{sparkAction("local[*]", "cluster", "/x"), `Error: Cluster deploy mode is not compatible with master "local[*]"`},
		{strings.Replace(sparkAction("yarn", "cluster", "/x"), "<jar>copy.py</jar>", "<jar>/user/alice/none.py</jar>", 1),
			"java.io.FileNotFoundException"},
		{strings.Replace(sparkAction("yarn", "client", "/x"), "<jar>copy.py</jar>", "<jar>copy.py</jar><spark-opts>--bogus 1</spark-opts>", 1),
			"Error: Unrecognized option '--bogus'."},
	} {
		st := c.finish(t, e, c.run(t, "spark", "refused", "/user/alice/apps/spark", tt.body))
		if st.Outcome != workflow.OutcomeError || st.ErrorCode != "JA018" || !strings.Contains(st.ErrorMessage, tt.msg) {
			t.Errorf("%s: status %+v, want ERROR with %q", tt.body, st, tt.msg)
		}
	}
}

// TestSparkKillKillsTheApplication: killing a run that follows its Spark
// application kills the application.
func TestSparkKillKillsTheApplication(t *testing.T) {
	t.Parallel()
	c, e := setupSpark(t)
	run := c.run(t, "spark", "spark-node", "/user/alice/apps/spark", sparkAction("yarn", "cluster", "/x", "sleep"))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	testwait.Poll{Timeout: waitTimeout, Every: 20 * time.Millisecond}.WaitForLast(t, "the run to follow a running application", func() (bool, string) {
		st, err := e.Check(ctxT(t), run)
		if err != nil {
			t.Fatal(err)
		}
		run.ExternalID = st.ExternalID
		apps := sparkApps(c, run)
		return len(apps) == 1 && apps[0].State == yarn.StateRunning && st.ExternalID == apps[0].ID.String(),
			fmt.Sprintf("%+v; RM says %+v", st, c.rm.Apps())
	})
	if err := e.Kill(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
	app := sparkApps(c, run)[0]
	if r := c.waitFinal(t, app.ID); r.State != yarn.StateKilled {
		t.Errorf("Spark application %s ended %s after the kill", app.ID, r.State)
	}
}

// checkMain exits quietly when its argument is "ok" and throws otherwise.
const checkMain = `package check;
public class Main {
    public static void main(String[] args) {
        if (args.length != 1 || !args[0].equals("ok")) {
            throw new IllegalStateException("wanted ok, got " + String.join(",", args));
        }
    }
}
`

// TestSparkActionJarFromManifest: a jar application without <class> runs
// the main class its manifest names; one that throws fails the run with
// Spark's "User class threw exception" diagnostics.
func TestSparkActionJarFromManifest(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"javac", "jar", "java"} {
		testreq.Program(t, "default-jdk-headless", tool)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "check"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "check", "Main.java"), []byte(checkMain), 0o644); err != nil {
		t.Fatal(err)
	}
	classes, jarPath := filepath.Join(dir, "classes"), filepath.Join(dir, "check.jar")
	for _, cmd := range [][]string{
		{"javac", "-d", classes, filepath.Join(dir, "src", "check", "Main.java")},
		{"jar", "cfe", jarPath, "check.Main", "-C", classes, "."},
	} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd, err, out)
		}
	}
	jar, err := os.ReadFile(jarPath)
	if err != nil {
		t.Fatal(err)
	}
	c, e := setupSpark(t)
	c.put(t, "/user/alice/apps/spark/lib/check.jar", string(jar))
	body := func(arg string) string {
		return `<spark xmlns="uri:oozie:spark-action:0.1"><job-tracker>` + c.rm.WebAddr() + `</job-tracker><name-node>` + c.dfs.URI() +
			`</name-node><master>yarn-cluster</master><name>check</name><jar>check.jar</jar><arg>` + arg + `</arg></spark>`
	}
	for arg, want := range map[string]string{"ok": "", "bad": "User class threw exception: java.lang.IllegalStateException: wanted ok, got bad"} {
		run := c.run(t, "spark", "check-"+arg, "/user/alice/apps/spark", body(arg))
		st, err := e.Start(ctxT(t), run)
		if err != nil {
			t.Fatal(err)
		}
		run.ExternalID = st.ExternalID
		st = c.waitDone(t, e, run)
		apps := sparkApps(c, run)
		if len(apps) != 1 || st.ExternalID != apps[0].ID.String() {
			t.Errorf("%s: run follows %s, Spark applications %+v", arg, st.ExternalID, apps)
		}
		if want == "" && st.Outcome != workflow.OutcomeOK || want != "" && (st.Outcome != workflow.OutcomeError || !strings.Contains(st.ErrorMessage, want)) {
			t.Errorf("%s: status %+v, want %q", arg, st, want)
		}
	}
}
