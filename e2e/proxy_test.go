package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
)

// TestProxySubmissionsRun submits a bare MapReduce job (`gozie mapreduce`) and a bare Hive
// script (`gozie hive`), Oozie's proxy submissions, and follows both generated workflows
// to SUCCEEDED on the local cluster: the MapReduce job's output is written, and the Hive
// script, which reached the launcher through the application the server wrote, ran in
// beeline against HiveServer2 with its -P parameters and its -X configuration.
func TestProxySubmissionsRun(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	root := "/user/" + e.user + "/proxy"
	e.putData(t, strings.TrimPrefix(root, "/")+"/lib/README", "the jobs' jars would go here\n")
	e.putData(t, strings.TrimPrefix(root, "/")+"/text/data.txt", "To be or not to be\nthat is the question\n")
	e.putData(t, strings.TrimPrefix(root, "/")+"/table/data.txt", "1\n2\n3\n")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	props := write("job.properties", strings.Join([]string{
		"fs.default.name=" + e.cluster["nameNode"],
		"yarn.resourcemanager.address=" + e.cluster["resourceManager"],
		"oozie.libpath=" + root + "/lib",
		"mapred.mapper.class=org.apache.oozie.example.SampleMapper",
		"mapred.reducer.class=org.apache.oozie.example.SampleReducer",
		"mapred.input.dir=" + root + "/text",
		"mapred.output.dir=" + root + "/output-mr",
	}, "\n")+"\n")
	script := write("script.q", "DROP TABLE IF EXISTS test;\n"+
		"CREATE EXTERNAL TABLE test (a INT) STORED AS TEXTFILE LOCATION '${INPUT}';\n"+
		"INSERT OVERWRITE DIRECTORY '${OUTPUT}' SELECT * FROM test;\n")

	submit := func(args ...string) string {
		out, err := e.cli(t, args...)
		if err != nil {
			t.Fatalf("gozie %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		m := jobIDLine.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no job id in %q", out)
		}
		return m[1]
	}
	mr := submit("mapreduce", "-config", props)
	hive := submit("hive", "-file", script, "-config", props, "-P", "INPUT="+root+"/table", "-P", "OUTPUT="+root+"/output-hive",
		"-X", "-Dmapreduce.job.queuename=default")

	var wg sync.WaitGroup
	infos := map[string]string{}
	var mu sync.Mutex
	for _, id := range []string{mr, hive} {
		wg.Go(func() {
			status, info := e.waitJob(t, id, 3*time.Minute)
			mu.Lock()
			infos[id] = status + "\n" + info
			mu.Unlock()
		})
	}
	wg.Wait()
	for id, name := range map[string]string{mr: "oozie-mapreduce", hive: "oozie-hive"} {
		if !strings.HasPrefix(infos[id], "SUCCEEDED\n") || !strings.Contains(infos[id], "Workflow Name : "+name) {
			t.Errorf("job %s:\n%s", id, infos[id])
		}
	}
	if t.Failed() {
		return
	}

	out := strings.TrimPrefix(root, "/") + "/output-mr"
	if got := e.readData(t, out); got != "0\tTo be or not to be\n19\tthat is the question\n" {
		t.Errorf("map-reduce output %q", got)
	}
	a := e.jobInfo(t, mr).action(t, "mapreduce1")
	var mrApp string
	launchers := 0
	for _, r := range e.yarnApps(t) {
		switch r.ApplicationType {
		case "MAPREDUCE":
			if r.Succeeded() {
				mrApp = r.ID.String()
			}
		case launch.ApplicationType:
			launchers++
		}
	}
	if launchers != 2 {
		t.Errorf("%d launcher applications, want one per job", launchers)
	}
	if a.Type != "map-reduce" || a.ExternalID == "" || a.ExternalID != mrApp {
		t.Errorf("mapreduce1: type %s, external id %s; want the succeeded MapReduce application %s", a.Type, a.ExternalID, mrApp)
	}

	if got := strings.Fields(e.readData(t, strings.TrimPrefix(root, "/")+"/output-hive")); strings.Join(got, ",") != "1,2,3" {
		t.Errorf("hive output rows %v, want 1,2,3", got)
	}
	h := e.jobInfo(t, hive).action(t, "hive1")
	if h.Type != "hive" || h.Status != "OK" || h.ExternalID == "" {
		t.Errorf("hive1: %+v", h)
	}

	// The generated definition is what the CLI shows, and names the script the server
	// wrote beside it.
	def, err := e.cli(t, "job", "-definition", hive)
	if err != nil || !strings.Contains(def, "<script>dummy.hive</script>") || !strings.Contains(def, "<param>INPUT="+root+"/table</param>") ||
		!strings.Contains(def, "<name>mapreduce.job.queuename</name>") {
		t.Errorf("job -definition %s (%v):\n%s", hive, err, def)
	}
}
