package enginetest

import (
	"context"
	"testing"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/store"
)

// WorkflowJob returns a workflow job and its actions by node name.
func WorkflowJob(t testing.TB, st store.Store, id string) (store.WorkflowJob, map[string]store.WorkflowAction) {
	t.Helper()
	ctx := context.Background()
	var job store.WorkflowJob
	var acts []store.WorkflowAction
	err := st.Tx(ctx, func(x store.Tx) (err error) {
		if job, err = x.GetWorkflowJob(ctx, id); err != nil {
			return err
		}
		acts, err = x.ListWorkflowActions(ctx, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]store.WorkflowAction{}
	for _, a := range acts {
		m[a.Name] = a
	}
	return job, m
}

// WaitWorkflowStatus waits until workflow job id has status want and
// returns it.
func WaitWorkflowStatus(t testing.TB, st store.Store, id string, want store.WorkflowStatus) store.WorkflowJob {
	t.Helper()
	var job store.WorkflowJob
	testwait.WaitForLast(t, testwait.Timeout, "job "+id+" to be "+string(want), func() (bool, string) {
		job, _ = WorkflowJob(t, st, id)
		return job.Status == want, string(job.Status)
	})
	return job
}
