package e2e

import (
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
)

// localServerSite starts `gozie server -local` with site as its
// gozie-site.xml properties.
func localServerSite(t *testing.T, site map[string]string) *env {
	t.Helper()
	confDir := t.TempDir()
	var b strings.Builder
	b.WriteString("<configuration>\n")
	for k, v := range site {
		b.WriteString("  <property><name>" + k + "</name><value>" + v + "</value></property>\n")
	}
	b.WriteString("</configuration>\n")
	if err := os.WriteFile(filepath.Join(confDir, "gozie-site.xml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, addr := startServer(t, "-local", "-data-dir", dir, "-config-dir", confDir)
	return &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
}

// forward accepts connections on l and relays each to target, until the
// test ends.
func forward(t *testing.T, l net.Listener, target string) {
	t.Helper()
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				u, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer u.Close()
				go func() { _, _ = io.Copy(u, c); u.Close() }()
				_, _ = io.Copy(c, u)
			}()
		}
	}()
}

// TestOozieFidelityOnTheLocalCluster runs, on one server whose transient
// retries are 1 s apart, what third-party apps and new users met: a
// HiveServer2 that does not answer, and a workflow with xsi: attributes, a
// relative <job-xml> and a decision on fs:exists.
func TestOozieFidelityOnTheLocalCluster(t *testing.T) {
	t.Parallel()
	e := localServerSite(t, map[string]string{"gozie.action.retry.interval": "1s"})
	t.Run("unreachable-hive-server", func(t *testing.T) {
		t.Parallel()
		unreachableHiveServerSuspendsUntilResumed(t, e)
	})
	t.Run("xsi-job-xml-fs-el", func(t *testing.T) {
		t.Parallel()
		xsiRelativeJobXMLAndFSDecision(t, e)
	})
}

// unreachableHiveServerSuspendsUntilResumed is the README's nightly
// pipeline run with a JDBC URL where no HiveServer2 answers: its hive2
// action is retried gozie.action.retries.max (3) times, then waits in
// START_MANUAL with the workflow SUSPENDED, as Oozie's does. Once
// HiveServer2 answers at that address, `job -resume` starts the action again
// and the pipeline succeeds.
func unreachableHiveServerSuspendsUntilResumed(t *testing.T, e *env) {
	app := e.copyApp(t, filepath.Join("..", "examples", "nightly-hive"), "nightly-hive")
	hs2, err := url.Parse(strings.TrimPrefix(e.cluster["hive2JdbcUrl"], "jdbc:"))
	if err != nil {
		t.Fatal(err)
	}
	nowhere := freeAddr(t) // nothing listens there until the test says so
	id := e.run(t, filepath.Join(app, "job.properties"), "jdbcURL=jdbc:hive2://"+nowhere+"/default")

	// Until the retries are over; what the job is then is asserted below.
	j := e.jobInfo(t, id)
	testwait.Poll{Timeout: 2 * time.Minute, Every: 200 * time.Millisecond}.Until(func() bool {
		j = e.jobInfo(t, id)
		return j.Status != "RUNNING"
	})
	a := j.action(t, "aggregate")
	if j.Status != "SUSPENDED" || a.Status != "START_MANUAL" || a.ErrorCode == "" || !strings.Contains(a.ErrorMessage, nowhere) {
		t.Fatalf("after the retries: job %s, aggregate %s %s %q", j.Status, a.Status, a.ErrorCode, a.ErrorMessage)
	}

	l, err := net.Listen("tcp", nowhere)
	if err != nil {
		t.Fatalf("HiveServer2's stand-in address %s: %v", nowhere, err)
	}
	forward(t, l, hs2.Host)
	if out, err := e.cli(t, "job", "-resume", id); err != nil {
		t.Fatalf("job -resume: %v\n%s", err, out)
	}
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("after the resume the pipeline ended %s:\n%s", status, info)
	}
	if a := e.jobInfo(t, id).action(t, "aggregate"); a.Status != "OK" {
		t.Errorf("aggregate %+v", a)
	}
}

// fidelityApp carries xsi: attributes on its root and on an action, a
// relative <job-xml>, and a decision on fs:exists; the shell step reports
// whether the job-xml's property reached the action's configuration.
const fidelityApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="fidelity"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="uri:oozie:workflow:1.0 oozie-workflow-1.0.xsd">
  <start to="gate"/>
  <decision name="gate">
    <switch>
      <case to="step">${fs:exists(concat(nameNode, concat('/user/', concat(wf:user(), '/examples/fidelity-in/_SUCCESS'))))}</case>
      <default to="fail"/>
    </switch>
  </decision>
  <action name="step">
    <shell xmlns="uri:oozie:shell-action:1.0" xsi:schemaLocation="uri:oozie:shell-action:1.0 shell-action-1.0.xsd">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <job-xml>./queue-conf.xml</job-xml>
      <exec>bash</exec><argument>-c</argument>
      <argument>echo queue=$(grep -c fidelity-queue-7 "$OOZIE_ACTION_CONF_XML")</argument>
      <capture-output/>
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>no flag, or step failed: ${wf:errorMessage(wf:lastErrorNode())}</message></kill>
  <end name="end"/>
</workflow-app>`

const fidelityQueueConf = `<configuration>
  <property><name>mapreduce.job.queuename</name><value>fidelity-queue-7</value></property>
</configuration>
`

// xsiRelativeJobXMLAndFSDecision runs fidelityApp with its flag in place:
// it succeeds, and the action saw the job-xml's property.
func xsiRelativeJobXMLAndFSDecision(t *testing.T, e *env) {
	props := e.writeApp(t, "fidelity", fidelityApp)
	if err := os.WriteFile(filepath.Join(filepath.Dir(props), "queue-conf.xml"), []byte(fidelityQueueConf), 0o644); err != nil {
		t.Fatal(err)
	}
	e.putData(t, "user/"+e.user+"/examples/fidelity-in/_SUCCESS", "")
	id := e.run(t, props)
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("fidelity app ended %s:\n%s", status, info)
	}
	if data := e.jobInfo(t, id).action(t, "step").Data; !strings.Contains(data, "queue=1") {
		t.Errorf("the step's output %q: the relative job-xml's property did not reach the action", data)
	}
}
