package daemon_test

import (
	"context"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/testenv/localcluster"
)

// launcherBinary builds cmd/gozie once for the tests that launch actions on
// YARN: the launcher the containers run.
var launcherBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "gozie-daemon-test")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "gozie")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/gozie").CombinedOutput(); err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "building gozie: " + e.err.Error() + "\n" + e.out }

// serveOnCluster runs a daemon whose actions run on a local cluster
// (MiniDFS, MiniYARN) with the real launcher; it stops when the test ends.
func serveOnCluster(t *testing.T) (*served, *localcluster.Cluster) {
	t.Helper()
	bin, err := launcherBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c, err := localcluster.Start(context.Background(), localcluster.Options{Dir: dir, Env: map[string]string{"PATH": os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := c.Properties()
	s := serveWith(t, map[string]string{"gozie.hadoop.conf.dir": p["hadoopConfDir"],
		"gozie.actions.default.name-node": p["nameNode"], "gozie.actions.default.resource-manager": p["resourceManager"],
		"gozie.filesystems.supported": "hdfs"}, daemon.Options{LauncherBinary: bin})
	return s, c
}

// jobXMLApp is the situation: job-xml files named relative to the
// application, in <global> and in the action; the action reports which of
// their properties it was given, and the decision after it checks both
// (and hadoop:conf, from the server's Hadoop configuration).
const jobXMLApp = `<workflow-app xmlns="uri:oozie:workflow:0.5" name="job-xml">
  <global><job-xml>conf/global.xml</job-xml></global>
  <start to="sh"/>
  <action name="sh">
    <shell xmlns="uri:oozie:shell-action:0.3">
      <job-tracker>${resourceManager}</job-tracker><name-node>${nameNode}</name-node>
      <job-xml>./job-queue-conf.xml</job-xml>
      <exec>check.sh</exec><argument>from.global</argument><argument>from.action</argument>
      <file>check.sh</file><capture-output/>
    </shell>
    <ok to="verify"/><error to="fail"/>
  </action>
  <decision name="verify">
    <switch>
      <case to="end">${wf:actionData('sh')['from.global'] eq 'yes' and wf:actionData('sh')['from.action'] eq 'yes' and
        hadoop:conf(resourceManager, 'fs.defaultFS') eq nameNode}</case>
      <default to="fail"/>
    </switch>
  </decision>
  <kill name="fail"><message>sh: ${wf:errorCode('sh')} ${wf:errorMessage('sh')} data ${wf:actionData('sh')}</message></kill>
  <end name="end"/>
</workflow-app>`

// checkScript prints name=yes for each property name given that the
// action's configuration holds, name=no otherwise.
const checkScript = `#!/bin/bash
for p in "$@"; do
  if grep -q "<name>$p</name>" "$OOZIE_ACTION_CONF_XML"; then echo "$p=yes"; else echo "$p=no"; fi
done
`

// TestRelativeJobXMLThroughTheServer: through the server, on MiniDFS and
// MiniYARN, a workflow whose <global> and action name job-xml files
// relative to the application (conf/global.xml, ./job-queue-conf.xml)
// succeeds, both files' properties in the action's configuration (and
// hadoop:conf reads the cluster's configuration the server was given). Before,
// the NameNode refused "<app>/./job-queue-conf.xml" and the start was
// retried as transient, the workflow never ending.
func TestRelativeJobXMLThroughTheServer(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user: %v", err)
	}
	s, c := serveOnCluster(t)
	app := filepath.Join(c.DFS.Root(), "user", me.Username, "job-xml")
	for name, content := range map[string]string{
		"workflow.xml":       jobXMLApp,
		"check.sh":           checkScript,
		"conf/global.xml":    `<configuration><property><name>from.global</name><value>1</value></property></configuration>`,
		"job-queue-conf.xml": `<configuration><property><name>from.action</name><value>1</value></property></configuration>`,
	} {
		p := filepath.Join(app, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	props := c.Properties()
	id := s.submit(t, me.Username, "oozie.wf.application.path", props["nameNode"]+"/user/"+me.Username+"/job-xml",
		"nameNode", props["nameNode"], "resourceManager", props["resourceManager"])
	info := s.runWorkflow(t, id, me.Username, 2*time.Minute)
	if info.Status != "SUCCEEDED" {
		t.Errorf("workflow %s: %+v, want SUCCEEDED", info.Status, info.Actions)
	}
}
