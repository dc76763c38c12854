package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/yarn"
)

// TestKilledServerRestartedOnAnotherPortFindsTheLostCallback is the case
// of issue 14 as a user meets it, with the real binary: the server is
// killed (SIGKILL) right after it launched an action, the action ends
// while no server runs (its callback, to the dead server's address, is
// lost), and the server starts again on another port. With the per-action
// fallback check an hour away, only the batched poll can find the end: the
// workflow's next action must run and the workflow succeed. The kill often
// lands while the server holds the claim of the action's first check (or
// of the poll): with leases of an hour, the restarted server must take
// those claims back because their holder's process has exited (engine's
// reap.go), not wait for them to expire. (That the poll finds the end
// within two poll intervals is
// TestLostCallbackFoundByTheFirstPollsAfterARestart's, on a fake clock.)
func TestKilledServerRestartedOnAnotherPortFindsTheLostCallback(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start(t, "local cluster started", "minicluster", "-data-dir", dir)
	args := []string{"-data-dir", dir, "-db", "sqlite:" + filepath.Join(dir, "gozie.db"), "-config-dir", t.TempDir(),
		"-action.fallback-check.interval", "1h", "-engine.lease", "1h"}
	first, addr := startServer(t, args...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}

	flag := filepath.Join(t.TempDir(), "flag")
	id := e.run(t, e.writeApp(t, "lost-callback-kill", lostCallbackApp(flag)))
	testwait.WaitFor(t, time.Minute, "the first action to be launched", func() bool {
		a := e.jobInfo(t, id).action(t, "wait")
		return a.Status == "RUNNING" && a.ExternalID != ""
	})
	first.kill9(t)

	// The action ends with no server to call back.
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e.waitYARN(t, func(apps []yarn.AppReport) bool { return len(apps) == 1 && apps[0].State.Final() })

	_, again := startServer(t, args...)
	if again == addr {
		t.Fatalf("the server came back on its old address %s: the callback would not be lost", addr)
	}
	e.url = "http://" + again + "/oozie"
	status, info := e.waitJob(t, id, 2*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("the workflow ended %s:\n%s", status, info)
	}
	j := e.jobInfo(t, id)
	if w, n := j.action(t, "wait"), j.action(t, "next"); w.Status != "OK" || n.Status != "OK" {
		t.Fatalf("wait %s, next %s: want both OK", w.Status, n.Status)
	}
	if apps := e.yarnApps(t); len(apps) != 2 {
		t.Errorf("%d YARN applications for 2 actions: %+v", len(apps), apps)
	}
}
