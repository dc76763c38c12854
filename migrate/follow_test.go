package migrate

import (
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/internal/enginetest"
	"github.com/gozie/gozie/internal/stacktest"
	"github.com/gozie/gozie/migrate/oozie"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn"
)

// An action followed in its Oozie launcher (-running-actions=follow) is
// checked by Oozie's tag, the marker the import records, and its end moves
// the workflow on: a launcher that SUCCEEDED goes to the ok transition (the
// workflow and its coordinator action succeed), one that FAILED to the
// error transition (the workflow is killed at its kill node).
func TestFollowedLauncherMovesWorkflowOn(t *testing.T) {
	t.Parallel()
	eachSource(t, func(t *testing.T, src sourceKind) {
		for _, c := range []struct {
			name   string
			end    actions.Status
			wf     store.WorkflowStatus
			coord  store.CoordActionStatus
			action store.ActionStatus
		}{
			{"succeeded", actions.Status{Done: true, Outcome: workflow.OutcomeOK, ExternalStatus: "SUCCEEDED"},
				store.WorkflowSucceeded, store.CoordActionSucceeded, store.ActionOK},
			{"failed", actions.Status{Done: true, Outcome: workflow.OutcomeError, ExternalStatus: "FAILED/KILLED",
				ErrorCode: "JA018", ErrorMessage: "Oozie launcher failed"},
				store.WorkflowKilled, store.CoordActionKilled, store.ActionError},
		} {
			t.Run(c.name, func(t *testing.T) {
				st := engineStack(t, false)
				o := newOozie(t, src, st.NameNode)
				for _, app := range []string{"hourly", "daily", "paused", "bundled", "launcher"} {
					st.Write(t, "/apps/"+app+"/workflow.xml", stacktest.OneActionWorkflow(app+"-wf"))
				}
				opts := since30d
				opts.Running = oozie.FollowRunning
				for _, r := range (&Importer{Store: st.Store, Now: st.Clock.Now}).Import(bg, o.plan(t, opts)) {
					if r.Err != nil {
						t.Fatal(r.Err)
					}
				}
				wf := o.fx.Launcher.Workflows[3]
				// The Oozie launcher ends (the executor reports by the tag it is asked with).
				st.Exec.End(yarn.OozieTag(o.fx.Launcher.ID+"@3@work"), c.end)
				st.Start(t)
				settler := enginetest.Settler{Store: st.Store, Now: st.Clock.Now}
				settler.Settle(t)
				_ = st.Store.Tx(bg, func(x store.Tx) error {
					j, err := x.GetWorkflowJob(bg, wf)
					if err != nil || j.Status != c.wf {
						t.Errorf("workflow %s: %s (%v), want %s", wf, j.Status, err, c.wf)
					}
					a, err := x.GetWorkflowAction(bg, wf+"@work")
					if err != nil || a.Status != c.action || a.ErrorCode != c.end.ErrorCode {
						t.Errorf("action: %s %q (%v), want %s %q", a.Status, a.ErrorCode, err, c.action, c.end.ErrorCode)
					}
					ca, err := x.GetCoordAction(bg, o.fx.Launcher.ID+"@3")
					if err != nil || ca.Status != c.coord {
						t.Errorf("coordinator action: %s (%v), want %s", ca.Status, err, c.coord)
					}
					return nil
				})
			})
		}
	})
}
