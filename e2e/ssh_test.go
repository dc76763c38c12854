package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
)

// TestSSHExampleRunsOnTheHost runs the ssh example unchanged (gozie's own,
// and Oozie's when testapps.OozieEnv names it) on `gozie server -local`:
// the server logs in to the local cluster's SSH host (localhost) as the
// job's user with its key, checking the host's key, and the command runs
// there once, in the run's own directory below the user's home on the
// host, and its end is seen. gozie's example captures what it printed
// (the remote $USER among it) and its decision checks it.
func TestSSHExampleRunsOnTheHost(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "ssh")
		node := actionNode(t, exampleWorkflow(t, src, "workflow.xml"), "ssh")
		app := e.copyApp(t, src, "ssh")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("ssh example ended %s:\n%s", status, info)
		}
		a := e.jobInfo(t, id).action(t, node.Name)
		if a.Status != "OK" || a.ExternalStatus != "OK" || a.ExternalID == "" {
			t.Errorf("action %+v, want OK with the remote pid as external id", a)
		}
		runs, err := filepath.Glob(filepath.Join(e.cluster["sshHome"], "gozie-ssh", id, node.Name+"--ssh", "*", "stdout"))
		if err != nil || len(runs) != 1 {
			t.Fatalf("runs of the action on the host: %v (%v), want one", runs, err)
		}
		out, err := os.ReadFile(runs[0])
		if err != nil {
			t.Fatal(err)
		}
		want := "Hello Oozie!\n"
		if testapps.Source(apps) == testapps.Gozie {
			want = "greeting=Hello from gozie\nuser=" + e.user + "\n"
			if a.Data != want && !strings.Contains(a.Data, "user="+e.user) {
				t.Errorf("action data %q, want %q", a.Data, want)
			}
		}
		if string(out) != want {
			t.Errorf("the command printed %q on the host, want %q", out, want)
		}
	})
}

// sshSleepApp's action sleeps on the host, writing its pid first.
const sshSleepApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="ssh-sleeper">
  <start to="nap"/>
  <action name="nap">
    <ssh xmlns="uri:oozie:ssh-action:0.2">
      <host>localhost</host>
      <command>sh</command><arg>-c</arg><arg>'echo $$ >nap.pid; exec sleep 600'</arg>
    </ssh>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>nap failed</message></kill>
  <end name="end"/>
</workflow-app>`

// TestKillingAnSSHWorkflowKillsTheCommand: killing a workflow whose ssh
// action runs kills the command on the host.
func TestKillingAnSSHWorkflowKillsTheCommand(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	id := e.run(t, e.writeApp(t, "ssh-sleeper", sshSleepApp))
	pidFile := filepath.Join(e.cluster["sshHome"], "nap.pid")
	pid := 0
	// Polling the host's file, as a person would.
	testwait.Poll{Timeout: time.Minute, Every: 50 * time.Millisecond}.WaitForLast(t, "the command to start on the host",
		func() (bool, string) {
			b, err := os.ReadFile(pidFile)
			if err == nil && strings.HasSuffix(string(b), "\n") {
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			return pid != 0, fmt.Sprint(err)
		})
	if out, err := e.cli(t, "job", "-kill", id); err != nil {
		t.Fatalf("-kill: %v %s", err, out)
	}
	if status, info := e.waitJob(t, id, 30*time.Second); status != "KILLED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	testwait.Poll{Timeout: 30 * time.Second, Every: 50 * time.Millisecond}.WaitFor(t,
		fmt.Sprintf("the command (pid %d) on the host to end after the kill", pid),
		func() bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) })
}
