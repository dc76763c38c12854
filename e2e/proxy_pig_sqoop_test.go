package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/yarn"
)

// proxyProps writes the job.properties of a proxy submission below a temporary
// directory: the local cluster's addresses and a library path on the DFS, which the
// server requires to exist.
func (e *env) proxyProps(t *testing.T, root string) string {
	t.Helper()
	e.putData(t, strings.TrimPrefix(root, "/")+"/lib/README", "the jobs' jars would go here\n")
	p := filepath.Join(t.TempDir(), "job.properties")
	lines := []string{
		"fs.default.name=" + e.cluster["nameNode"],
		"yarn.resourcemanager.address=" + e.cluster["resourceManager"],
		"oozie.libpath=" + root + "/lib",
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// submitProxyCLI runs a proxy verb of the CLI and returns the job id it prints.
func (e *env) submitProxyCLI(t *testing.T, args ...string) string {
	t.Helper()
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

// checkProxyChild checks the generated action of a proxy job ran its tool's MapReduce
// job: the action has the type, ended OK, and its external id is the one succeeded
// MapReduce application of the cluster.
func (e *env) checkProxyChild(t *testing.T, id, node, actionType string) {
	t.Helper()
	var jobs []yarn.AppReport
	for _, r := range e.mapReduceApps(t) {
		if r.Succeeded() {
			jobs = append(jobs, r)
		}
	}
	a := e.jobInfo(t, id).action(t, node)
	if len(jobs) != 1 || a.Type != actionType || a.Status != "OK" || a.ExternalID != jobs[0].ID.String() {
		t.Errorf("%s: type %s, status %s, external id %s; want %s, OK and the one succeeded MapReduce job of %+v",
			node, a.Type, a.Status, a.ExternalID, actionType, jobs)
	}
}

// TestProxyPigRuns submits a local Pig script with `gozie pig -file` (Oozie's proxy
// submission): the server writes it as dummy.pig beside a generated pig action, and the
// workflow SUCCEEDS on the local cluster, the script run by the cluster's pig with the -P
// parameters, its MapReduce job the action's external id.
func TestProxyPigRuns(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	root := "/user/" + e.user + "/proxy-pig"
	props := e.proxyProps(t, root)
	e.putData(t, strings.TrimPrefix(root, "/")+"/text/data.txt", "To be or not to be\nthat is the question\n")
	script, err := os.ReadFile(filepath.Join(testapps.App(t, "pig"), "long-lines.pig"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "lines.pig")
	if err := os.WriteFile(file, script, 0o644); err != nil {
		t.Fatal(err)
	}
	id := e.submitProxyCLI(t, "pig", "-file", file, "-config", props, "-P", "INPUT="+root+"/text",
		"-P", "OUTPUT="+root+"/output", "-PMIN=18", "-X", "-Dmapreduce.job.queuename=default")
	status, info := e.waitJob(t, id, 3*time.Minute)
	if status != "SUCCEEDED" || !strings.Contains(info, "Workflow Name : oozie-pig") {
		t.Fatalf("pig job ended %s:\n%s", status, info)
	}
	// Only the line longer than MIN=18 (a -P parameter over the script's %default).
	if got, want := e.readData(t, strings.TrimPrefix(root, "/")+"/output"), "THAT IS THE QUESTION\t20\n"; got != want {
		t.Errorf("pig stored %q, want %q", got, want)
	}
	e.checkProxyChild(t, id, "pig1", "pig")
	def, err := e.cli(t, "job", "-definition", id)
	if err != nil || !strings.Contains(def, "<script>dummy.pig</script>") || !strings.Contains(def, "<param>MIN=18</param>") ||
		!strings.Contains(def, "<name>mapreduce.job.queuename</name>") {
		t.Errorf("job -definition %s (%v):\n%s", id, err, def)
	}
}

// TestProxyPigFailureKills submits a Pig script whose job fails (a STREAM through a
// command that exits 1) with `gozie pig`: the generated workflow takes the error
// transition to its kill node, whose message carries the job's diagnostics.
func TestProxyPigFailureKills(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	root := "/user/" + e.user + "/proxy-pig-fail"
	props := e.proxyProps(t, root)
	e.putData(t, strings.TrimPrefix(root, "/")+"/text/data.txt", "x\ny\n")
	file := filepath.Join(t.TempDir(), "failing.pig")
	script := "A = LOAD '$INPUT';\nB = STREAM A THROUGH `false`;\nSTORE B INTO '$INPUT-out';\n"
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	id := e.submitProxyCLI(t, "pig", "-file", file, "-config", props, "-P", "INPUT="+root+"/text")
	if status, info := e.waitJob(t, id, 3*time.Minute); status != "KILLED" {
		t.Fatalf("pig job ended %s, want KILLED:\n%s", status, info)
	}
	j := e.jobInfo(t, id)
	if a := j.action(t, "pig1"); a.Status != "ERROR" || !strings.Contains(a.ErrorMessage, "ERROR 2055") {
		t.Errorf("pig1: %s %s %q; want ERROR with the job's diagnostics", a.Status, a.ErrorCode, a.ErrorMessage)
	}
	if k := j.action(t, "fail"); !strings.Contains(k.ErrorMessage, "pig failed, error message[") || !strings.Contains(k.ErrorMessage, "ERROR 2055") {
		t.Errorf("kill node message %q, want the generated message with wf:errorMessage", k.ErrorMessage)
	}
}

// TestProxySqoopRuns submits a sqoop import with `gozie sqoop -command` (Oozie's proxy
// submission) against a PostgreSQL table: the generated sqoop action's <arg>s are the
// command's words, and the workflow SUCCEEDS with the rows on the DFS.
func TestProxySqoopRuns(t *testing.T) {
	t.Parallel()
	dbProps := sqoopDatabase(t, testapps.App(t, "sqoop"))
	jdbc, ok1 := strings.CutPrefix(dbProps[0], "jdbcURL=")
	user, ok2 := strings.CutPrefix(dbProps[1], "dbUser=")
	if !ok1 || !ok2 {
		t.Fatalf("database properties %v", dbProps)
	}
	e := localServer(t)
	root := "/user/" + e.user + "/proxy-sqoop"
	props := e.proxyProps(t, root)
	id := e.submitProxyCLI(t, "sqoop", "-command", "import", "--connect", jdbc, "--username", user, "--table", "TT",
		"--target-dir", root+"/output", "-m", "1", "-config", props, "-X", "-Dmapreduce.job.queuename=default")
	status, info := e.waitJob(t, id, 3*time.Minute)
	if status != "SUCCEEDED" || !strings.Contains(info, "Workflow Name : oozie-sqoop") {
		t.Fatalf("sqoop job ended %s:\n%s", status, info)
	}
	if got, want := e.readData(t, strings.TrimPrefix(root, "/")+"/output"), "1,a\n2,a\n3,a\n"; got != want {
		t.Errorf("sqoop imported %q, want %q", got, want)
	}
	e.checkProxyChild(t, id, "sqoop1", "sqoop")
}
