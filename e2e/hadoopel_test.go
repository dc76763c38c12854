package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/workflow"
)

// actionStats reads the stats of a job's action node through the REST API.
func (e *env) actionStats(t *testing.T, id, node string) string {
	t.Helper()
	resp, err := http.Get(e.url + "/v2/job/" + id + "?show=info")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var j struct {
		Actions []struct {
			Name  string `json:"name"`
			Stats string `json:"stats"`
		} `json:"actions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&j); err != nil {
		t.Fatal(err)
	}
	for _, a := range j.Actions {
		if a.Name == node {
			return a.Stats
		}
	}
	t.Fatalf("job %s has no action %s", id, node)
	return ""
}

// TestHadoopELExampleReadsCounters runs the hadoop-el example unchanged
// (gozie's own, and Oozie's when testapps.OozieEnv names it): the identity
// job's counters, which its AM left with the cluster's JobHistory server,
// become the map-reduce action's stats, and the decision over
// hadoop:counters takes the workflow to its end.
func TestHadoopELExampleReadsCounters(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "hadoop-el")
		wf := exampleWorkflow(t, src, "workflow.xml")
		node := actionNode(t, wf, "map-reduce")
		app := e.copyApp(t, src, "hadoop-el")
		text := stagedFile(t, e.stageInput(t, src, map[string]string{"text/data.txt": "To be or not to be\nthat is the question\n"}), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("hadoop-el example ended %s:\n%s", status, info)
		}
		checkDecidedEnd(t, wf, e.jobInfo(t, id), node.Action.OK)
		counters, err := workflow.ParseCounters(e.actionStats(t, id, node.Name))
		if err != nil {
			t.Fatalf("the action's stats: %v", err)
		}
		records, _ := counters[workflow.CounterRecords].(map[string]any)
		lines := int64(strings.Count(text, "\n"))
		for _, name := range []string{workflow.CounterMapIn, workflow.CounterMapOut, workflow.CounterReduceIn, workflow.CounterReduceOut, workflow.CounterGroups} {
			// The identity job: every line is a record of its own key.
			if got, _ := records[name].(int64); got != lines {
				t.Errorf("%s = %v, want %d (the staged lines); counters %v", name, records[name], lines, counters)
			}
		}
	})
}

// buildDateListJar compiles gozie's DateList into a jar at dst, in package
// pkg: gozie's example names its own class, Oozie's the class of its
// examples jar (org.apache.oozie.example), which the test stands in for
// with the same code.
func buildDateListJar(t *testing.T, pkg, dst string) {
	t.Helper()
	code, err := os.ReadFile(filepath.Join(testapps.App(t, "datelist-java-main"), "src", "org", "gozie", "example", "DateList.java"))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	dir := filepath.Join(append([]string{src}, strings.Split(pkg, ".")...)...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	java := strings.Replace(string(code), "package org.gozie.example;", "package "+pkg+";", 1)
	if err := os.WriteFile(filepath.Join(dir, "DateList.java"), []byte(java), 0o644); err != nil {
		t.Fatal(err)
	}
	buildJar(t, src, dst)
}

// dateListJars is where each source's example expects its main class.
var dateListJars = map[string]struct{ pkg, jar string }{
	testapps.Gozie: {"org.gozie.example", "datelist.jar"},
	testapps.Oozie: {"org.apache.oozie.example", "oozie-examples.jar"},
}

// TestDateListJavaMainExampleSucceeds runs the datelist-java-main example
// (gozie's own, and Oozie's when testapps.OozieEnv names it): the java
// action runs DateList from the app's lib/ jar, its <capture-output/> holds
// the list, and the decision compares it with the expected range.
func TestDateListJavaMainExampleSucceeds(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		for _, tool := range []string{"javac", "jar", "java"} {
			testreq.Program(t, "default-jdk-headless", tool)
		}
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "datelist-java-main")
		wf := exampleWorkflow(t, src, "workflow.xml")
		node := actionNode(t, wf, "java")
		app := e.copyApp(t, src, "datelist-java-main")
		jar := dateListJars[testapps.Source(apps)]
		buildDateListJar(t, jar.pkg, filepath.Join(app, "lib", jar.jar))
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("datelist-java-main example ended %s:\n%s", status, info)
		}
		props := readJobProperties(t, filepath.Join(app, "job.properties"))
		j := e.jobInfo(t, id)
		checkCaptured(t, j.action(t, node.Name).Data, map[string]string{"datelist": props["EXPECTED_DATE_RANGE"]})
		checkDecidedEnd(t, wf, j, node.Action.OK)
	})
}

// readJobProperties reads an example's job.properties.
func readJobProperties(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := conf.ReadProperties(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return p.Map()
}

// TestCustomMainExampleIsRefused runs the custom-main form gozie refuses
// (gozie's workflow-launcher-main.xml, and Oozie's custom-main example when
// testapps.OozieEnv names it): its map-reduce action names a launcher main
// class of its own, which only Oozie's JVM launcher can run, so the action
// ends in ERROR (MR_UNSUPPORTED) naming the class and the workflow is
// KILLED through the error transition.
func TestCustomMainExampleIsRefused(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := localServer(t)
		src := filepath.Join(apps, "custom-main")
		wfFile, props := "workflow.xml", "job.properties"
		if testapps.Source(apps) == testapps.Gozie {
			wfFile, props = "workflow-launcher-main.xml", "job-launcher-main.properties"
		}
		wf := exampleWorkflow(t, src, wfFile)
		var node *workflow.Node
		for _, n := range wf.Nodes {
			if n.Kind == workflow.KindAction && n.Action.Type == "map-reduce" {
				node = n
				break
			}
		}
		if node == nil {
			t.Fatalf("%s has no map-reduce action", wf.Name)
		}
		class, _ := node.Action.Body.(*workflow.MapReduce).Hadoop.Configuration.Get("oozie.launcher.action.main.class")
		if class == "" {
			t.Fatalf("the %s action names no launcher main class", node.Name)
		}
		app := e.copyApp(t, src, "custom-main")
		id := e.run(t, filepath.Join(app, props))
		if status, info := e.waitJob(t, id, time.Minute); status != "KILLED" {
			t.Fatalf("ended %s:\n%s", status, info)
		}
		a := e.jobInfo(t, id).action(t, node.Name)
		if a.Status != "ERROR" || a.ErrorCode != "MR_UNSUPPORTED" || !strings.Contains(a.ErrorMessage, "["+class+"]") {
			t.Errorf("action %+v, want ERROR MR_UNSUPPORTED naming %s", a, class)
		}
		if len(e.yarnApps(t)) != 0 {
			t.Errorf("applications launched for a refused action: %+v", e.yarnApps(t))
		}
	})
}
