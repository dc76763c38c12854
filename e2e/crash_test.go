package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/yarn"
)

// chainApp is four shell actions in a row, each taking a moment.
func chainApp(n int) string {
	var b strings.Builder
	b.WriteString(`<workflow-app xmlns="uri:oozie:workflow:1.0" name="chain"><start to="a1"/>`)
	for i := 1; i <= n; i++ {
		next := fmt.Sprintf("a%d", i+1)
		if i == n {
			next = "end"
		}
		fmt.Fprintf(&b, `<action name="a%d"><shell xmlns="uri:oozie:shell-action:1.0">
<resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
<exec>sleep</exec><argument>1</argument></shell><ok to="%s"/><error to="fail"/></action>`, i, next)
	}
	b.WriteString(`<kill name="fail"><message>chain broke</message></kill><end name="end"/></workflow-app>`)
	return b.String()
}

// TestServerKilledMidChainLaunchesNothingTwice runs the cluster and the
// server as separate processes, kills the server with SIGKILL while a chain
// of actions runs, starts it again, and checks that the workflow completes
// with exactly one YARN application per action.
func TestServerKilledMidChainLaunchesNothingTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start(t, "local cluster started", "minicluster", "-data-dir", dir)
	addr := freeAddr(t)
	db := "sqlite:" + filepath.Join(dir, "gozie.db")
	serverArgs := []string{"server", "-data-dir", dir, "-db", db, "-addr", addr, "-config-dir", t.TempDir(),
		"-engine.lease", "2s"}
	server := start(t, "gozie server started", serverArgs...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}

	const n = 4
	id := e.run(t, e.writeApp(t, "chain", chainApp(n)))
	// Kill the server while the second action runs.
	e.waitYARN(t, func(apps []yarn.AppReport) bool { return len(apps) >= 2 })
	server.kill9(t)
	start(t, "gozie server started", serverArgs...)

	status, info := e.waitJob(t, id, 3*time.Minute)
	if status != "SUCCEEDED" {
		t.Fatalf("ended %s:\n%s", status, info)
	}
	apps := e.yarnApps(t)
	byTag := map[string]int{}
	for _, a := range apps {
		for _, tag := range a.Tags {
			if strings.HasPrefix(tag, "gozie-") && tag != launch.CommonTag {
				byTag[tag]++
			}
		}
	}
	if len(apps) != n {
		t.Fatalf("%d YARN applications for %d actions: %+v", len(apps), n, apps)
	}
	for tag, c := range byTag {
		if c != 1 {
			t.Fatalf("tag %s has %d applications", tag, c)
		}
	}
}
