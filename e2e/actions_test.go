package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/yarn"
)

// jobJSON is the part of GET /v2/job/<id> the tests read.
type jobJSON struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	ParentID   string `json:"parentId"`
	ExternalID string `json:"externalId"`
	Actions    []struct {
		Name             string `json:"name"`
		Type             string `json:"type"`
		Status           string `json:"status"`
		ExternalID       string `json:"externalId"`
		ExternalStatus   string `json:"externalStatus"`
		ExternalChildIDs string `json:"externalChildIDs"`
		ErrorCode        string `json:"errorCode"`
		ErrorMessage     string `json:"errorMessage"`
		Data             string `json:"data"`
	} `json:"actions"`
}

// jobInfo reads a job through the REST API.
func (e *env) jobInfo(t *testing.T, id string) jobJSON {
	t.Helper()
	resp, err := http.Get(e.url + "/v2/job/" + id + "?show=info")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var j jobJSON
	if err := json.NewDecoder(resp.Body).Decode(&j); err != nil {
		t.Fatal(err)
	}
	return j
}

// action returns a job's action row by node name.
func (j jobJSON) action(t *testing.T, name string) (a struct {
	Name, Type, Status, ExternalID, ExternalStatus, ExternalChildIDs, ErrorCode, ErrorMessage, Data string
}) {
	t.Helper()
	for _, x := range j.Actions {
		if x.Name == name {
			a.Name, a.Type, a.Status, a.ExternalID = x.Name, x.Type, x.Status, x.ExternalID
			a.ExternalStatus, a.ExternalChildIDs, a.ErrorCode, a.ErrorMessage = x.ExternalStatus, x.ExternalChildIDs, x.ErrorCode, x.ErrorMessage
			a.Data = x.Data
			return a
		}
	}
	t.Fatalf("job %s has no action %s: %+v", j.ID, name, j.Actions)
	return a
}

// putData writes a file into the cluster's DFS (a plain file under its
// root), creating directories.
func (e *env) putData(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(e.dir, "dfs", filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readData reads the files of a DFS directory, in name order, skipping
// markers.
func (e *env) readData(t *testing.T, rel string) string {
	t.Helper()
	dir := filepath.Join(e.dir, "dfs", filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("reading %s: %v", rel, err)
	}
	var b strings.Builder
	for _, en := range entries {
		if en.IsDir() || strings.HasPrefix(en.Name(), "_") || strings.HasPrefix(en.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// TestHiveExampleRunsBeelineInTheLauncher runs Oozie's hive example
// unchanged: beeline in the launcher container runs the script against the
// local cluster's HiveServer2 (the server's default), and the query's Tez
// application is the action's child.
func TestHiveExampleRunsBeelineInTheLauncher(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "hive"), "hive")
	e.putData(t, "user/"+e.user+"/examples/input-data/table/data.txt", "1\n2\n3\n")
	id := e.run(t, filepath.Join(app, "job.properties"))
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("hive example ended %s:\n%s", status, info)
	}
	if got := strings.Fields(e.readData(t, "user/"+e.user+"/examples/output-data/hive")); strings.Join(got, ",") != "1,2,3" {
		t.Fatalf("output rows %v, want 1,2,3", got)
	}
	a := e.jobInfo(t, id).action(t, "hive-node")
	var launcher, tez *yarn.AppReport
	for _, r := range e.yarnApps(t) {
		switch r.ApplicationType {
		case launch.ApplicationType:
			launcher = &r
		case "TEZ":
			tez = &r
		}
	}
	if launcher == nil || tez == nil {
		t.Fatalf("want a launcher and a Tez application: %+v", e.yarnApps(t))
	}
	if a.ExternalID != launcher.ID.String() || !strings.Contains(a.ExternalChildIDs, tez.ID.String()) {
		t.Errorf("action external id %s, children %q; want the launcher %s and the Tez application %s",
			a.ExternalID, a.ExternalChildIDs, launcher.ID, tez.ID)
	}
}

// TestMapReduceExampleFollowsTheJob runs Oozie's map-reduce example
// unchanged: the launcher submits the job with the cluster's mapred and the
// workflow's action then shows the job's application as its external id.
func TestMapReduceExampleFollowsTheJob(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "map-reduce"), "map-reduce")
	e.putData(t, "user/"+e.user+"/examples/input-data/text/data.txt", "To be or not to be\nthat is the question\n")
	id := e.run(t, filepath.Join(app, "job.properties"))
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("map-reduce example ended %s:\n%s", status, info)
	}
	a := e.jobInfo(t, id).action(t, "mr-node")
	var job *yarn.AppReport
	for _, r := range e.yarnApps(t) {
		if r.ApplicationType == "MAPREDUCE" {
			job = &r
		}
	}
	if job == nil || !job.Succeeded() {
		t.Fatalf("no succeeded MapReduce application: %+v", e.yarnApps(t))
	}
	if a.ExternalID != job.ID.String() || a.ExternalStatus != "SUCCEEDED" {
		t.Errorf("action external id %s (%s), want the job's application %s", a.ExternalID, a.ExternalStatus, job.ID)
	}
	if !strings.Contains(info, job.ID.String()) {
		t.Errorf("job -info does not show the job's application:\n%s", info)
	}
	out := "user/" + e.user + "/examples/output-data/map-reduce"
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", out, "_SUCCESS")); err != nil {
		t.Errorf("no _SUCCESS: %v", err)
	}
	if got := e.readData(t, out); got != "0\tTo be or not to be\n19\tthat is the question\n" {
		t.Errorf("output %q", got)
	}
}

// TestSubWorkflowExampleListsTheChild runs Oozie's subwf example unchanged
// (its child is the map-reduce example).
func TestSubWorkflowExampleListsTheChild(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	e.copyApp(t, filepath.Join(apps, "map-reduce"), "map-reduce")
	app := e.copyApp(t, filepath.Join(apps, "subwf"), "subwf")
	e.putData(t, "user/"+e.user+"/examples/input-data/text/data.txt", "one\ntwo\n")
	id := e.run(t, filepath.Join(app, "job.properties"))
	status, info := e.waitJob(t, id, 3*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("subwf example ended %s:\n%s", status, info)
	}
	a := e.jobInfo(t, id).action(t, "subworkflow-node")
	child := e.jobInfo(t, a.ExternalID)
	if child.Status != "SUCCEEDED" || child.ParentID != id || a.ExternalStatus != "SUCCEEDED" {
		t.Fatalf("child %s: status %s, parent %q; parent's action %+v", a.ExternalID, child.Status, child.ParentID, a)
	}
	out, err := e.cli(t, "job", "-info", child.ID)
	if err != nil || !strings.Contains(out, "CoordAction ID: "+id) {
		t.Errorf("job -info of the child does not show its parent:\n%s %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", "user", e.user, "examples", "output-data", "subwf", "_SUCCESS")); err != nil {
		t.Errorf("the child's job wrote no output: %v", err)
	}
}

const failingHive2App = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="failing-hive2">
  <start to="query"/>
  <action name="query">
    <hive2 xmlns="uri:oozie:hive2-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <jdbc-url>${jdbcURL}</jdbc-url>
      <query>SELECT * FROM no_such_table</query>
    </hive2>
    <ok to="end"/><error to="report"/>
  </action>
  <kill name="report"><message>query failed [${wf:errorCode('query')}]</message></kill>
  <end name="end"/>
</workflow-app>`

// TestFailingHive2StatementTakesErrorTransition: Hive's error code reaches
// the action, and the workflow follows its error transition.
func TestFailingHive2StatementTakesErrorTransition(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	id := e.run(t, e.writeApp(t, "failing-hive2", failingHive2App), "jdbcURL="+e.cluster["hive2JdbcUrl"])
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	j := e.jobInfo(t, id)
	q := j.action(t, "query")
	if q.Status != "ERROR" || q.ErrorCode != "10001" || !strings.Contains(q.ErrorMessage, "no_such_table") {
		t.Errorf("query action %+v, want ERROR with Hive's code 10001", q)
	}
	if r := j.action(t, "report"); r.ErrorMessage != "query failed [10001]" {
		t.Errorf("kill message %q", r.ErrorMessage)
	}
}

// TestShellActionUsesClusterTools: a shell action's script calls the
// cluster's hadoop fs, as scripts do on a real node.
func TestShellActionUsesClusterTools(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	const app = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="tools">
  <start to="put"/>
  <action name="put">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>bash</exec><argument>-c</argument>
      <argument>hadoop fs -mkdir -p /user/${wf:user()}/tools-out &amp;&amp; echo hi | hdfs dfs -put /dev/stdin /user/${wf:user()}/tools-out/hi.txt &amp;&amp; hadoop fs -test -e /user/${wf:user()}/tools-out/hi.txt</argument>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>tools failed</message></kill>
  <end name="end"/>
</workflow-app>`
	id := e.run(t, e.writeApp(t, "tools", app))
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	if got := e.readData(t, "user/"+e.user+"/tools-out"); got != "hi\n" {
		t.Errorf("file written through hdfs dfs: %q", got)
	}
	if !slices.ContainsFunc(e.yarnApps(t), func(r yarn.AppReport) bool { return r.Succeeded() }) {
		t.Error("no succeeded application")
	}
}

// TestStreamingExampleRunsMapperAndReducer runs Oozie's streaming example
// unchanged: /bin/cat as the mapper and /usr/bin/wc as the reducer.
func TestStreamingExampleRunsMapperAndReducer(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "streaming"), "streaming")
	e.putData(t, "user/"+e.user+"/examples/input-data/text/data.txt", "a b\nc\n")
	id := e.run(t, filepath.Join(app, "job.properties"))
	if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
		t.Fatalf("streaming example ended %s:\n%s", status, info)
	}
	// wc counts the two lines, three words and six bytes the mapper passed.
	if got := strings.Fields(e.readData(t, "user/"+e.user+"/examples/output-data/streaming")); strings.Join(got, " ") != "2 3 6" {
		t.Errorf("reducer output %q, want wc's 2 3 6", got)
	}
}

// TestConfigClassExampleIsRefused: the config-class variant of Oozie's
// map-reduce example parses and validates, and its action ends in ERROR,
// since gozie's launcher runs no JVM to configure the job.
func TestConfigClassExampleIsRefused(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "map-reduce"), "map-reduce")
	if out, err := e.cli(t, "validate", filepath.Join(app, "workflow-with-config-class.xml")); err != nil || !strings.Contains(out, "Valid") {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	id := e.run(t, filepath.Join(app, "job-with-config-class.properties"))
	if status, info := e.waitJob(t, id, time.Minute); status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	if a := e.jobInfo(t, id).action(t, "mr-node"); a.Status != "ERROR" || a.ErrorCode != "MR_UNSUPPORTED" ||
		!strings.Contains(a.ErrorMessage, "SampleOozieActionConfigurator") {
		t.Errorf("action %+v", a)
	}
	if n := len(e.yarnApps(t)); n != 0 {
		t.Errorf("%d applications launched", n)
	}
}
