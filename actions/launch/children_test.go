package launch_test

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// TestFailedChildIsTheRun: when the launcher of a pig (or distcp) run
// failed, the first child job that failed is the run's outcome: its
// application is the external id and its diagnostics are the error
// message (JA018). Children the RM does not know are passed over; with no
// failed child the tool's own error stands. A shell run is never judged
// by children.
func TestFailedChildIsTheRun(t *testing.T) {
	t.Parallel()
	c := setup(t)
	ctx := ctxT(t)
	// A child job whose AM exits without registering: the RM fails it.
	na, err := c.client.NewApplication(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.client.Submit(ctx, yarn.ApplicationSubmissionContext{
		ApplicationID: na.ApplicationID, ApplicationName: "child", ApplicationType: "MAPREDUCE", MaxAppAttempts: 1,
		Resource:        &yarn.Resource{MemoryMB: 256, VCores: 1},
		AMContainerSpec: yarn.ContainerLaunchContext{Commands: yarn.Commands{"exit 3"}},
	}); err != nil {
		t.Fatal(err)
	}
	child := c.waitFinal(t, na.ApplicationID)
	if child.Succeeded() || strings.TrimSpace(child.Diagnostics) == "" {
		t.Fatalf("child %+v, want a failed application with diagnostics", child)
	}
	launcherApp := yarn.ApplicationID{ClusterTimestamp: 1, Sequence: 9}
	failedLauncher := yarn.AppReport{ID: launcherApp, State: yarn.StateFinished, FinalStatus: yarn.FinalFailed}
	status := func(typ, body string, children ...string) actions.Status {
		t.Helper()
		e := c.executor(t, typ, nil)
		run := c.run(t, typ, "node", "/app", body)
		b, err := (&launcher.Result{Version: launcher.ResultVersion, ApplicationID: launcherApp.String(),
			FinalStatus: launcher.StatusFailed, ErrorCode: launcher.CodeException, ErrorMessage: "the tool's error",
			ExternalChildIDs: children}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.fs.WriteFile(ctx, run.ActionDir+"/"+launcher.ResultFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := e.StatusOf(ctx, run, failedLauncher)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	pig := `<pig xmlns="uri:oozie:workflow:1.0"><script>x.pig</script></pig>`
	unknown := "application_1_999"
	st := status(launcher.TypePig, pig, unknown, child.ID.String())
	if !st.Done || st.Outcome != workflow.OutcomeError || st.ExternalID != child.ID.String() || st.ErrorCode != launcher.CodeException ||
		!strings.Contains(st.ErrorMessage, strings.TrimSpace(child.Diagnostics)) {
		t.Errorf("pig run %+v, want ERROR on %s with its diagnostics %q", st, child.ID, child.Diagnostics)
	}
	if st := status(launcher.TypePig, pig, unknown); st.ExternalID != launcherApp.String() || st.ErrorMessage != "the tool's error" {
		t.Errorf("pig run without a failed child %+v, want the launcher and the tool's error", st)
	}
	if st := status(launcher.TypeShell, shellBody(`<exec>x</exec>`), child.ID.String()); st.ExternalID != launcherApp.String() {
		t.Errorf("shell run %+v judged by a child", st)
	}
}
