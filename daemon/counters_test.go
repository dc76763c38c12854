package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/testenv/localcluster"
)

// countersApp is the shape of Oozie's hadoop-el example: a map-reduce
// action, then a decision on its counters.
const countersApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="counters">
  <start to="mr-node"/>
  <action name="mr-node">
    <map-reduce>
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <configuration>
        <property><name>mapred.input.dir</name><value>${input}</value></property>
        <property><name>mapred.output.dir</name><value>${output}</value></property>
      </configuration>
    </map-reduce>
    <ok to="verify"/><error to="fail"/>
  </action>
  <decision name="verify">
    <switch>
      <case to="end">${hadoop:counters('mr-node')[RECORDS][MAP_IN] eq hadoop:counters('mr-node')[RECORDS][REDUCE_OUT] and
        hadoop:counters('mr-node')[RECORDS][GROUPS] gt 0}</case>
      <default to="fail"/>
    </switch>
  </decision>
  <kill name="fail"><message>counters ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

// jobHistoryStandIn answers the counters of any job with the values of a
// two-line identity job, in the JobHistory server's JSON, and records the
// jobs asked for. It stands for a cluster's JobHistory server, named after
// the local cluster's own (testenv/minijhs) so that the later property wins
// and the test sees which jobs are asked for.
type jobHistoryStandIn struct {
	mu   sync.Mutex
	jobs []string
}

func (h *jobHistoryStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/ws/v1/history/mapreduce/jobs/")
	job, ok2 := strings.CutSuffix(rest, "/counters")
	if !ok || !ok2 || !strings.HasPrefix(job, "job_") {
		http.NotFound(w, r)
		return
	}
	h.mu.Lock()
	h.jobs = append(h.jobs, job)
	h.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jobCounters":{"id":%q,"counterGroup":[{"counterGroupName":"org.apache.hadoop.mapreduce.TaskCounter","counter":[`+
		`{"name":"MAP_INPUT_RECORDS","totalCounterValue":2,"mapCounterValue":2,"reduceCounterValue":0},`+
		`{"name":"REDUCE_OUTPUT_RECORDS","totalCounterValue":2,"mapCounterValue":0,"reduceCounterValue":2},`+
		`{"name":"REDUCE_INPUT_GROUPS","totalCounterValue":2,"mapCounterValue":0,"reduceCounterValue":2}]}]}}`, job)
}

// withJobHistory copies the Hadoop client configuration in dir, its
// mapred-site.xml naming addr as the JobHistory server's web address.
func withJobHistory(t *testing.T, dir, addr string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "mapred-site.xml" {
			prop := "<property><name>mapreduce.jobhistory.webapp.address</name><value>" + addr + "</value></property>"
			b = []byte(strings.Replace(string(b), "</configuration>", prop+"</configuration>", 1))
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestHadoopCountersThroughTheServer: through the server, on MiniDFS and
// MiniYARN with the cluster's mapred tool, the map-reduce action's job
// counters are read from the JobHistory server that mapred-site.xml names
// when the job succeeds, shown as the action's stats (Oozie's MRStats
// JSON), and the decision on hadoop:counters('mr-node')[RECORDS][MAP_IN]
// takes its case. Before, hadoop:counters was no function ("no function is
// mapped") and the decision failed the workflow.
func TestHadoopCountersThroughTheServer(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user: %v", err)
	}
	bin, err := launcherBinary()
	if err != nil {
		t.Fatal(err)
	}
	jhs := &jobHistoryStandIn{}
	hs := httptest.NewServer(jhs)
	t.Cleanup(hs.Close)
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: t.TempDir(), ToolsBinary: bin,
		Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := c.Properties()
	s := serveWith(t, map[string]string{"gozie.hadoop.conf.dir": withJobHistory(t, p["hadoopConfDir"], strings.TrimPrefix(hs.URL, "http://")),
		"gozie.actions.default.name-node": p["nameNode"], "gozie.actions.default.resource-manager": p["resourceManager"],
		"gozie.filesystems.supported": "hdfs"}, daemon.Options{LauncherBinary: bin})

	home := filepath.Join(c.DFS.Root(), "user", me.Username)
	for name, content := range map[string]string{"counters/workflow.xml": countersApp, "in/data.txt": "hello\nworld\n"} {
		f := filepath.Join(home, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	userDir := p["nameNode"] + "/user/" + me.Username
	id := s.submit(t, me.Username, "oozie.wf.application.path", userDir+"/counters",
		"nameNode", p["nameNode"], "resourceManager", p["resourceManager"],
		"input", userDir+"/in", "output", userDir+"/out")
	info := s.runWorkflow(t, id, me.Username, 2*time.Minute)
	if info.Status != "SUCCEEDED" || info.action("verify").Transition != "end" {
		t.Fatalf("workflow %s: %+v, want SUCCEEDED through verify's case", info.Status, info.Actions)
	}

	_, _, out := s.call(t, http.MethodGet, "/v2/job/"+id+"?show=info", me.Username, "")
	var full struct {
		Actions []struct{ Name, ExternalID, Stats string }
	}
	if err := json.Unmarshal([]byte(out), &full); err != nil {
		t.Fatal(err)
	}
	for _, a := range full.Actions {
		if a.Name != "mr-node" {
			continue
		}
		if !strings.Contains(a.Stats, `"ACTION_TYPE":"MAP_REDUCE"`) || !strings.Contains(a.Stats, `"MAP_INPUT_RECORDS":2`) {
			t.Errorf("stats of mr-node %q, want the job's counters", a.Stats)
		}
		jhs.mu.Lock()
		asked := append([]string(nil), jhs.jobs...)
		jhs.mu.Unlock()
		if want := "job_" + strings.TrimPrefix(a.ExternalID, "application_"); len(asked) == 0 || asked[0] != want {
			t.Errorf("JobHistory server asked for %v, want %s (the action's job)", asked, want)
		}
	}
}
