package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/workflow"
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
		Transition       string `json:"transition"`
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
	Name, Type, Status, ExternalID, ExternalStatus, ExternalChildIDs, ErrorCode, ErrorMessage, Data, Transition string
}) {
	t.Helper()
	for _, x := range j.Actions {
		if x.Name == name {
			a.Name, a.Type, a.Status, a.ExternalID = x.Name, x.Type, x.Status, x.ExternalID
			a.ExternalStatus, a.ExternalChildIDs, a.ErrorCode, a.ErrorMessage = x.ExternalStatus, x.ExternalChildIDs, x.ErrorCode, x.ErrorMessage
			a.Data, a.Transition = x.Data, x.Transition
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

// exampleWorkflow parses the workflow file of the local example app folder
// app, so that a test takes node names from the app it runs.
func exampleWorkflow(t *testing.T, app, file string) *workflow.App {
	t.Helper()
	def, err := os.ReadFile(filepath.Join(app, file))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := workflow.Parse(def)
	if err != nil {
		t.Fatalf("%s/%s: %v", app, file, err)
	}
	return wf
}

// actionNode returns the one action node of wf whose type is typ (shell,
// java, map-reduce, hive, hive2, sub-workflow).
func actionNode(t *testing.T, wf *workflow.App, typ string) *workflow.Node {
	t.Helper()
	var found *workflow.Node
	for _, n := range wf.Nodes {
		if n.Kind != workflow.KindAction || n.Action.Type != typ {
			continue
		}
		if found != nil {
			t.Fatalf("%s has two %s actions: %s and %s", wf.Name, typ, found.Name, n.Name)
		}
		found = n
	}
	if found == nil {
		t.Fatalf("%s has no %s action", wf.Name, typ)
	}
	return found
}

// stageInput puts the input of the local example app folder app where the
// examples read it, under the user's examples/input-data on the cluster:
// the files of the app's own input-data folder (gozie's apps ship theirs),
// else standIn (path under input-data → content), since Oozie's example
// apps come without data. It returns what it staged, by the same paths.
func (e *env) stageInput(t *testing.T, app string, standIn map[string]string) map[string]string {
	t.Helper()
	staged := standIn
	dir := filepath.Join(app, "input-data")
	if _, err := os.Stat(dir); err == nil {
		staged = map[string]string{}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(dir, path)
			staged[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(staged) == 0 {
		t.Fatalf("no input data for %s", app)
	}
	for rel, content := range staged {
		e.putData(t, "user/"+e.user+"/examples/input-data/"+rel, content)
	}
	return staged
}

// stagedFile returns the content of the one file stageInput staged under
// the input-data folder dir (text, table).
func stagedFile(t *testing.T, staged map[string]string, dir string) string {
	t.Helper()
	var found []string
	for rel, content := range staged {
		if path.Dir(rel) == dir {
			found = append(found, content)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d input files under %s, want one: %v", len(found), dir, staged)
	}
	return found[0]
}

// identityOutput is what a job of the identity mapper and reducer writes
// for one text file: each line keyed by its byte offset.
func identityOutput(text string) string {
	var b strings.Builder
	offset := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		fmt.Fprintf(&b, "%d\t%s\n", offset, strings.TrimSuffix(line, "\n"))
		offset += len(line)
	}
	return b.String()
}

// TestHiveExampleRunsBeelineInTheLauncher runs the hive example unchanged
// (gozie's own, and Oozie's when testapps.OozieEnv names it): beeline in the
// launcher container runs the script against the local cluster's
// HiveServer2 (the server's default), which copies the staged integers to
// the output, and the query's Tez application is the action's child.
func TestHiveExampleRunsBeelineInTheLauncher(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "hive")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "hive")
		app := e.copyApp(t, src, "hive")
		rows := strings.Fields(stagedFile(t, e.stageInput(t, src, map[string]string{"table/data.txt": "1\n2\n3\n"}), "table"))
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("hive example ended %s:\n%s", status, info)
		}
		if got := strings.Fields(e.readData(t, "user/"+e.user+"/examples/output-data/hive")); !slices.Equal(got, rows) {
			t.Fatalf("output rows %v, want %v", got, rows)
		}
		a := e.jobInfo(t, id).action(t, node.Name)
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
	})
}

// TestMapReduceExampleFollowsTheJob runs the map-reduce example unchanged
// (gozie's own, and Oozie's when testapps.OozieEnv names it): the launcher
// submits the job with the cluster's mapred and the workflow's action then
// shows the job's application as its external id; the identity job copies
// the staged lines keyed by offset.
func TestMapReduceExampleFollowsTheJob(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "map-reduce")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "map-reduce")
		app := e.copyApp(t, src, "map-reduce")
		text := stagedFile(t, e.stageInput(t, src, map[string]string{"text/data.txt": "To be or not to be\nthat is the question\n"}), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("map-reduce example ended %s:\n%s", status, info)
		}
		a := e.jobInfo(t, id).action(t, node.Name)
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
		if got, want := e.readData(t, out), identityOutput(text); got != want {
			t.Errorf("output %q, want %q", got, want)
		}
	})
}

// TestSubWorkflowExampleListsTheChild runs the subwf example unchanged
// (gozie's own, and Oozie's when testapps.OozieEnv names it); its child is
// the same source's map-reduce example, which writes to output-data/subwf.
func TestSubWorkflowExampleListsTheChild(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := localServer(t)
		child := filepath.Join(apps, "map-reduce")
		e.copyApp(t, child, "map-reduce")
		src := filepath.Join(apps, "subwf")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "sub-workflow")
		app := e.copyApp(t, src, "subwf")
		text := stagedFile(t, e.stageInput(t, child, map[string]string{"text/data.txt": "one\ntwo\n"}), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 3*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("subwf example ended %s:\n%s", status, info)
		}
		a := e.jobInfo(t, id).action(t, node.Name)
		childJob := e.jobInfo(t, a.ExternalID)
		if childJob.Status != "SUCCEEDED" || childJob.ParentID != id || a.ExternalStatus != "SUCCEEDED" {
			t.Fatalf("child %s: status %s, parent %q; parent's action %+v", a.ExternalID, childJob.Status, childJob.ParentID, a)
		}
		out, err := e.cli(t, "job", "-info", childJob.ID)
		if err != nil || !strings.Contains(out, "CoordAction ID: "+id) {
			t.Errorf("job -info of the child does not show its parent:\n%s %v", out, err)
		}
		outDir := "user/" + e.user + "/examples/output-data/subwf"
		if _, err := os.Stat(filepath.Join(e.dir, "dfs", outDir, "_SUCCESS")); err != nil {
			t.Errorf("the child's job wrote no output: %v", err)
		}
		if got, want := e.readData(t, outDir), identityOutput(text); got != want {
			t.Errorf("the child's output %q, want %q", got, want)
		}
	})
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

// streamingOutput is, per source, the fields of what the streaming
// example's reducer writes for the staged text.
var streamingOutput = map[string]func(text string) []string{
	// A word count: /usr/bin/tr puts one word on each line, the sort brings
	// equal words together and /usr/bin/uniq -c counts them.
	testapps.Gozie: func(text string) []string {
		counts := map[string]int{}
		for _, w := range strings.Fields(text) {
			counts[w]++
		}
		var out []string
		for _, w := range slices.Sorted(maps.Keys(counts)) {
			out = append(out, strconv.Itoa(counts[w]), w)
		}
		return out
	},
	// /bin/cat passes the lines through and /usr/bin/wc counts the lines,
	// words and bytes it gets: the sort moves lines, the counts stay.
	testapps.Oozie: func(text string) []string {
		return []string{strconv.Itoa(strings.Count(text, "\n")), strconv.Itoa(len(strings.Fields(text))), strconv.Itoa(len(text))}
	},
}

// TestStreamingExampleRunsMapperAndReducer runs the streaming example
// unchanged (gozie's own, and Oozie's when testapps.OozieEnv names it): its
// mapper and reducer commands, from job.properties, run as processes.
func TestStreamingExampleRunsMapperAndReducer(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := localServer(t)
		src := filepath.Join(apps, "streaming")
		app := e.copyApp(t, src, "streaming")
		text := stagedFile(t, e.stageInput(t, src, map[string]string{"text/data.txt": "a b\nc\n"}), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		if status, info := e.waitJob(t, id, 2*time.Minute); status != "SUCCEEDED" {
			t.Fatalf("streaming example ended %s:\n%s", status, info)
		}
		got := strings.Fields(e.readData(t, "user/"+e.user+"/examples/output-data/streaming"))
		if want := streamingOutput[testapps.Source(apps)](text); !slices.Equal(got, want) {
			t.Errorf("reducer output %q, want %q", got, want)
		}
	})
}

// TestConfigClassExampleIsRefused: the config-class variant of the
// map-reduce example (gozie's own, and Oozie's when testapps.OozieEnv names
// it) parses and validates, and its action ends in ERROR naming the class,
// since gozie's launcher runs no JVM to configure the job.
func TestConfigClassExampleIsRefused(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "map-reduce")
		node := actionNode(t, exampleWorkflow(t, src, "workflow-with-config-class.xml"), "map-reduce")
		class := node.Action.Body.(*workflow.MapReduce).ConfigClass
		if class == "" {
			t.Fatalf("the %s action names no config-class", node.Name)
		}
		app := e.copyApp(t, src, "map-reduce")
		if out, err := e.cli(t, "validate", filepath.Join(app, "workflow-with-config-class.xml")); err != nil || !strings.Contains(out, "Valid") {
			t.Fatalf("validate: %v\n%s", err, out)
		}
		id := e.run(t, filepath.Join(app, "job-with-config-class.properties"))
		if status, info := e.waitJob(t, id, time.Minute); status != "KILLED" {
			t.Fatalf("ended %s:\n%s", status, info)
		}
		if a := e.jobInfo(t, id).action(t, node.Name); a.Status != "ERROR" || a.ErrorCode != "MR_UNSUPPORTED" ||
			!strings.Contains(a.ErrorMessage, class) {
			t.Errorf("action %+v, want ERROR MR_UNSUPPORTED naming %s", a, class)
		}
		if n := len(e.yarnApps(t)); n != 0 {
			t.Errorf("%d applications launched", n)
		}
	})
}
