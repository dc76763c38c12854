package launch_test

import (
	"testing"

	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
	"github.com/gozie/gozie/yarn/launcher"
)

// TestResultFileDecidesAfterRMTrouble: a launcher that wrote its command's
// success and then could not unregister (the RM failed its attempt) leaves
// a successful action; a kill, or a result written by another application
// of the run, does not.
func TestResultFileDecidesAfterRMTrouble(t *testing.T) {
	t.Parallel()
	c := setup(t)
	e := c.executor(t, "shell", nil)
	run := c.run(t, "shell", "outage", "/app", shellBody(`<exec>true</exec>`))
	app := yarn.ApplicationID{ClusterTimestamp: 1, Sequence: 7}
	other := yarn.ApplicationID{ClusterTimestamp: 1, Sequence: 6}
	write := func(id yarn.ApplicationID) {
		t.Helper()
		b, err := (&launcher.Result{Version: launcher.ResultVersion, ApplicationID: id.String(),
			FinalStatus: launcher.StatusSucceeded, Output: "k=v\n"}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.fs.WriteFile(ctxT(t), run.ActionDir+"/"+launcher.ResultFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := func(final yarn.FinalStatus) yarn.AppReport {
		state := yarn.StateFailed
		if final == yarn.FinalKilled {
			state = yarn.StateKilled
		}
		return yarn.AppReport{ID: app, State: state, FinalStatus: final,
			Diagnostics: "AM container exited without unregistering"}
	}

	write(app)
	st, err := e.StatusOf(ctxT(t), run, report(yarn.FinalFailed))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.Outcome != workflow.OutcomeOK || st.Data != "k=v\n" {
		t.Errorf("a success the RM could not record: %+v", st)
	}
	st, err = e.StatusOf(ctxT(t), run, report(yarn.FinalKilled))
	if err != nil {
		t.Fatal(err)
	}
	if st.Outcome == workflow.OutcomeOK {
		t.Errorf("a killed application counted as a success: %+v", st)
	}
	write(other)
	st, err = e.StatusOf(ctxT(t), run, report(yarn.FinalFailed))
	if err != nil {
		t.Fatal(err)
	}
	if st.Outcome != workflow.OutcomeError {
		t.Errorf("another application's result decided: %+v", st)
	}
}
