package launch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/testenv/localcluster"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// setupTools is a cluster whose containers have the cluster tools (beeline,
// mapred) on their PATH, with a MiniHS2: the local cluster of `gozie server
// -local`.
func setupTools(t *testing.T) (*cluster, *localcluster.Cluster) {
	t.Helper()
	lc, err := localcluster.Start(context.Background(), localcluster.Options{Dir: t.TempDir(), ToolsBinary: binary,
		Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lc.Close() })
	c := &cluster{dfs: lc.DFS, rm: lc.YARN}
	c.fs, err = hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: lc.DFS.URI(), User: testUser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.fs.Close() })
	c.connect(t)
	return c, lc
}

// waitDone checks a run until it is done.
func (c *cluster) waitDone(t *testing.T, e *launch.Executor, run *actions.Attempt) actions.Status {
	t.Helper()
	var st actions.Status
	testwait.WaitForLast(t, waitTimeout, "the run to end", func() (bool, string) {
		var err error
		st, err = e.Check(ctxT(t), run)
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		if st.ExternalID != "" {
			run.ExternalID = st.ExternalID
		}
		return st.Done, fmt.Sprintf("%+v; RM says %+v", st, c.rm.Apps())
	})
	return st
}

// readExample reads the file rel of the example apps under apps
// (testapps.Dir or testapps.Oozie).
func readExample(t *testing.T, apps, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(apps, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const hiveBody = `<hive xmlns="uri:oozie:hive-action:1.0">
  <prepare><delete path="%NN%/user/alice/output-data/hive"/><mkdir path="%NN%/user/alice/output-data"/></prepare>
  <configuration><property><name>mapred.job.queue.name</name><value>default</value></property>%CONF%</configuration>
  <script>script.q</script>
  <param>INPUT=/user/alice/input-data/table</param>
  <param>OUTPUT=/user/alice/output-data/hive</param>
</hive>`

func hiveAction(c *cluster, conf string) string {
	return strings.NewReplacer("%NN%", c.dfs.URI(), "%CONF%", conf).Replace(hiveBody)
}

// TestHiveActionRunsScriptThroughBeeline runs the hive example's script
// (gozie's own, and Oozie's when testapps.OozieEnv names it), which copies
// the integers under INPUT to OUTPUT, through beeline in the launcher.
func TestHiveActionRunsScriptThroughBeeline(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		hiveScriptThroughBeeline(t, readExample(t, apps, "hive/script.q"))
	})
}

// hiveScriptThroughBeeline runs script as the hive action's script.q.
func hiveScriptThroughBeeline(t *testing.T, script string) {
	c, lc := setupTools(t)
	c.put(t, "/user/alice/apps/hive/script.q", script)
	c.put(t, "/user/alice/input-data/table/data.txt", "1\n2\n3\n")
	e := c.executor(t, "hive", func(cfg *launch.Config) { cfg.HiveJDBCURL = lc.HS2.JDBCURL("") })
	run := c.run(t, "hive", "hive-node", "/user/alice/apps/hive", hiveAction(c, ""))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeOK || st.ExternalStatus != "SUCCEEDED" {
		t.Fatalf("status %+v, want OK", st)
	}
	b, err := c.fs.ReadFile(ctxT(t), c.dfs.URI()+"/user/alice/output-data/hive/000000_0")
	if err != nil || strings.Join(strings.Fields(string(b)), ",") != "1,2,3" {
		t.Fatalf("output %q, %v", b, err)
	}
	// The INSERT ran as a Tez application with the run's child tag, and
	// beeline's operation log named it: it is the action's child.
	var insert *yarn.AppReport
	for _, a := range c.appsTagged(launch.ChildTag(run.Tag)) {
		if a.ApplicationType == "TEZ" {
			insert = &a
		}
	}
	if insert == nil {
		t.Fatalf("no Tez application with the child tag: %+v", c.rm.Apps())
	}
	if !slices.Contains(st.ExternalChildIDs, insert.ID.String()) {
		t.Errorf("child ids %v lack the Tez application %s", st.ExternalChildIDs, insert.ID)
	}
	for _, s := range lc.HS2.Statements() {
		if s.User != testUser || s.Conf["hive.execution.engine"] != "tez" || s.Conf["mapred.job.queue.name"] != "default" {
			t.Errorf("statement %q ran as %q with %v", s.Text, s.User, s.Conf)
		}
	}
}

func TestHiveActionFailureCarriesHiveErrorCode(t *testing.T) {
	t.Parallel()
	c, lc := setupTools(t)
	c.put(t, "/user/alice/apps/hive/script.q", "SELECT * FROM no_such_table;\n")
	// The server's default is wrong; the action's configuration wins.
	e := c.executor(t, "hive", func(cfg *launch.Config) { cfg.HiveJDBCURL = "jdbc:hive2://127.0.0.1:1/default" })
	run := c.run(t, "hive", "hive-node", "/user/alice/apps/hive",
		hiveAction(c, `<property><name>oozie.hive2.jdbc.url</name><value>`+lc.HS2.JDBCURL("")+`</value></property>`))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeError || st.ErrorCode != "10001" || !strings.Contains(st.ErrorMessage, "no_such_table") {
		t.Fatalf("status %+v, want ERROR with Hive's code 10001", st)
	}
}

func TestHiveActionNeedsAServer(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/apps/hive/script.q", "SELECT 1;\n")
	e := c.executor(t, "hive", nil)
	_, err := e.Start(ctxT(t), c.run(t, "hive", "hive-node", "/user/alice/apps/hive", hiveAction(c, "")))
	if actions.KindOf(err) != actions.ActionError || !strings.Contains(err.Error(), "oozie.hive2.jdbc.url") {
		t.Fatalf("Start: %v, want an action error naming oozie.hive2.jdbc.url", err)
	}
	if n := len(c.rm.Apps()); n != 0 {
		t.Errorf("%d applications launched", n)
	}
}

const mrBody = `<map-reduce xmlns="uri:oozie:workflow:1.0">
  <prepare><delete path="%NN%/user/alice/output-data/mr"/></prepare>
  %STREAMING%
  <configuration>
    <property><name>mapred.mapper.class</name><value>org.apache.oozie.example.SampleMapper</value></property>
    <property><name>mapred.reducer.class</name><value>org.apache.oozie.example.SampleReducer</value></property>
    <property><name>mapred.input.dir</name><value>/user/alice/input-data/text</value></property>
    <property><name>mapred.output.dir</name><value>/user/alice/output-data/mr</value></property>
  </configuration>
</map-reduce>`

func mrAction(c *cluster, streaming string) string {
	return strings.NewReplacer("%NN%", c.dfs.URI(), "%STREAMING%", streaming).Replace(mrBody)
}

func TestMapReduceActionFollowsItsJob(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "hello\nworld\n")
	c.put(t, "/user/alice/output-data/mr/stale", "from an earlier run")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	e := c.executor(t, "map-reduce", nil)
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, ""))
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
	// The run follows the job, not the launcher (Oozie's id swap).
	jobs := c.appsTagged(launch.ChildTag(run.Tag))
	if len(jobs) != 1 || jobs[0].ApplicationType != "MAPREDUCE" || !jobs[0].HasTag(launch.ChildCommonTag) {
		t.Fatalf("jobs with the child tag: %+v", jobs)
	}
	if st.ExternalID != jobs[0].ID.String() || st.ExternalID == launcherID || !slices.Equal(st.ExternalChildIDs, []string{st.ExternalID}) {
		t.Errorf("external id %s, children %v; want the job %s (launcher %s)", st.ExternalID, st.ExternalChildIDs, jobs[0].ID, launcherID)
	}
	out := c.dfs.URI() + "/user/alice/output-data/mr"
	if b, err := c.fs.ReadFile(ctxT(t), out+"/part-00000"); err != nil || string(b) != "0\thello\n6\tworld\n" {
		t.Errorf("output %q, %v", b, err)
	}
	if _, err := c.fs.Stat(ctxT(t), out+"/_SUCCESS"); err != nil {
		t.Errorf("no _SUCCESS: %v", err)
	}
	// The launcher called back once submitted, the job once done.
	if calls := c.waitCalls(t, run, 2); !slices.Equal(calls, []string{"SUCCEEDED", "SUCCEEDED"}) {
		t.Errorf("callbacks %v, want the launcher's and the job's", calls)
	}
	// The batched poll sees the job's end by the job's id.
	res, err := e.CheckAll(ctxT(t), []*actions.Attempt{run})
	if err != nil || !res[run.ActionID].Done || res[run.ActionID].ExternalID != st.ExternalID {
		t.Errorf("CheckAll: %+v, %v", res, err)
	}
	// A server that lost the swap (it still has the launcher's id) finds the
	// job again.
	run.ExternalID = launcherID
	if again, err := e.Check(ctxT(t), run); err != nil || again.ExternalID != st.ExternalID || again.Outcome != workflow.OutcomeOK {
		t.Errorf("Check from the launcher's id: %+v, %v", again, err)
	}
}

func TestMapReduceActionStreaming(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "b\na\nc\n")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	e := c.executor(t, "map-reduce", nil)
	run := c.run(t, "map-reduce", "streaming-node", "/user/alice/apps/mr",
		mrAction(c, `<streaming><mapper>/bin/cat</mapper><reducer>/usr/bin/wc -l</reducer><env>A=1</env></streaming>`))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	if st = c.waitDone(t, e, run); st.Outcome != workflow.OutcomeOK {
		t.Fatalf("status %+v", st)
	}
	b, err := c.fs.ReadFile(ctxT(t), c.dfs.URI()+"/user/alice/output-data/mr/part-00000")
	if err != nil || strings.TrimSpace(string(b)) != "3" {
		t.Errorf("output %q, %v; want the reducer's count 3", b, err)
	}
}

func TestMapReduceActionFailedJobIsError(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "x\n")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	e := c.executor(t, "map-reduce", nil)
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, `<streaming><mapper>false</mapper></streaming>`))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	st = c.waitDone(t, e, run)
	if st.Outcome != workflow.OutcomeError || st.ExternalStatus != "FAILED/KILLED" || st.ErrorCode != "JA018" ||
		!strings.Contains(st.ErrorMessage, "Task failed") {
		t.Errorf("status %+v, want ERROR JA018 with the job's diagnostics", st)
	}
}

func TestMapReduceSubmissionFailure(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	e := c.executor(t, "map-reduce", nil)
	// No input: mapred refuses the job at submission.
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, ""))
	st := c.finish(t, e, run)
	if st.Outcome != workflow.OutcomeError || st.ErrorCode != "JA018" || !strings.Contains(st.ErrorMessage, "Input path does not exist") {
		t.Errorf("status %+v, want ERROR JA018 naming the missing input", st)
	}
	for _, body := range []string{
		`<map-reduce xmlns="uri:oozie:workflow:0.5"><configuration/><config-class>org.example.Conf</config-class></map-reduce>`,
		`<map-reduce xmlns="uri:oozie:workflow:0.5"><pipes><program>bin/wc</program></pipes></map-reduce>`,
	} {
		_, err := e.Start(ctxT(t), c.run(t, "map-reduce", "unsupported", "/user/alice/apps/mr", body))
		if actions.KindOf(err) != actions.ActionError {
			t.Errorf("%s: Start %v, want an action error", body, err)
		}
	}
}

func TestMapReduceKillKillsTheJob(t *testing.T) {
	t.Parallel()
	c, _ := setupTools(t)
	c.put(t, "/user/alice/input-data/text/data.txt", "x\n")
	c.put(t, "/user/alice/apps/mr/workflow.xml", "<workflow-app/>")
	e := c.executor(t, "map-reduce", nil)
	run := c.run(t, "map-reduce", "mr-node", "/user/alice/apps/mr", mrAction(c, `<streaming><mapper>sleep 600</mapper></streaming>`))
	st, err := e.Start(ctxT(t), run)
	if err != nil {
		t.Fatal(err)
	}
	run.ExternalID = st.ExternalID
	testwait.Poll{Timeout: waitTimeout, Every: 20 * time.Millisecond}.WaitForLast(t, "the job to run", func() (bool, string) {
		jobs := c.appsTagged(launch.ChildTag(run.Tag))
		return len(jobs) == 1 && jobs[0].State == yarn.StateRunning, fmt.Sprintf("%+v", c.rm.Apps())
	})
	if err := e.Kill(ctxT(t), run); err != nil {
		t.Fatal(err)
	}
	job := c.appsTagged(launch.ChildTag(run.Tag))[0]
	if r := c.waitFinal(t, job.ID); r.State != yarn.StateKilled {
		t.Errorf("job %s ended %s after the kill", job.ID, r.State)
	}
}
