package e2e

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gozie/gozie/actions/launch"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testreq"
	"github.com/gozie/gozie/yarn"
)

// skipOozieCustomMain is why Oozie's custom-main example is not run to
// success: TestCustomMainExampleIsRefused runs it and checks the refusal.
const skipOozieCustomMain = "Oozie's custom-main example names launcher main classes (DemoMapReduceMain, DemoPigMain) " +
	"that only Oozie's JVM launcher runs; gozie refuses it (TestCustomMainExampleIsRefused) and runs its own app of the same form"

// TestCustomMainExampleSucceeds runs gozie's custom-main example: the java
// action's main class, from the app's lib/ jar, submits the action's
// configuration as a job with the cluster's mapred and waits for it; the
// job carries the action's child tag and is reported as its child; the pig
// node then strips the job's offsets, leaving the staged lines.
func TestCustomMainExampleSucceeds(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		if testapps.Source(apps) == testapps.Oozie {
			t.Skip(skipOozieCustomMain)
		}
		t.Parallel()
		for _, tool := range []string{"javac", "jar", "java"} {
			testreq.Program(t, "default-jdk-headless", tool)
		}
		e := exampleServer(t, apps)
		src := filepath.Join(apps, "custom-main")
		app := e.copyApp(t, src, "custom-main")
		buildJar(t, filepath.Join(src, "src"), filepath.Join(app, "lib", "custom-main.jar"))
		text := stagedFile(t, e.stageInput(t, src, nil), "text")
		id := e.run(t, filepath.Join(app, "job.properties"))
		status, info := e.waitJob(t, id, 2*time.Minute)
		if status != "SUCCEEDED" {
			t.Fatalf("custom-main example ended %s:\n%s", status, info)
		}
		a := e.jobInfo(t, id).action(t, "mr-node")
		jobs := e.mapReduceApps(t)
		var submitted []string
		for _, j := range jobs {
			if j.Succeeded() && e.childOfAction(t, j, a.ExternalID) {
				submitted = append(submitted, j.ID.String())
			}
		}
		if len(submitted) != 1 || a.Status != "OK" || a.ExternalChildIDs != submitted[0] {
			t.Errorf("mr-node %s with children %q; want OK with the one succeeded job it tagged %q (jobs %+v)",
				a.Status, a.ExternalChildIDs, submitted, jobs)
		}
		out := "user/" + e.user + "/examples/output-data/custom-main/"
		if got, want := e.readData(t, out+"mr-node"), identityOutput(text); got != want {
			t.Errorf("the job wrote %q, want %q", got, want)
		}
		if got := e.readData(t, out+"pig-node"); got != text {
			t.Errorf("the pig node stored %q, want the staged lines %q", got, text)
		}
	})
}

// childOfAction reports whether job carries the child tag of the launcher
// application launcherID.
func (e *env) childOfAction(t *testing.T, job yarn.AppReport, launcherID string) bool {
	t.Helper()
	l, ok := e.appReport(t, launcherID)
	if !ok {
		return false
	}
	for _, tag := range l.Tags {
		if tag != launch.CommonTag && job.HasTag(launch.ChildTag(tag)) {
			return true
		}
	}
	return false
}
