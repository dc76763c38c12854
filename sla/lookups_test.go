package sla_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/store/sqlite"
)

// lookupCounter counts the registrations looked up in a transaction.
type lookupCounter struct {
	store.Tx
	ids []string
}

func (c *lookupCounter) GetSLA(ctx context.Context, id string) (store.SLA, error) {
	c.ids = append(c.ids, id)
	return c.Tx.GetSLA(ctx, id)
}

// TestChangesOfWorkflowsWithoutSLAInfoLookNothingUp: a workflow whose
// definition has no sla:info and that never ran again cannot have
// registrations of its own or of its actions, so its changes look up only
// its parent's; a rerun (whose earlier definition may have had sla:info), a
// definition with sla:info, or a change whose job the runner did not read
// look up every registration they touch.
func TestChangesOfWorkflowsWithoutSLAInfoLookNothingUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "gozie.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := sla.New(sla.Config{Store: st, Logger: testLog()})
	if err != nil {
		t.Fatal(err)
	}
	plain := `<workflow-app xmlns="uri:oozie:workflow:1.0" name="w"><start to="end"/><end name="end"/></workflow-app>`
	withSLA := `<workflow-app xmlns="uri:oozie:workflow:1.0" xmlns:sla="uri:oozie:sla:0.2" name="w"><start to="end"/><end name="end"/></workflow-app>`
	acts := []store.WorkflowAction{{ID: "0000001-x-W@a", Type: "shell"}, {ID: "0000001-x-W@:start:", Type: ":START:"}}
	for _, c := range []struct {
		name       string
		job        *store.WorkflowJob
		jobWritten bool
		want       []string
	}{
		{"no sla:info, the job written", &store.WorkflowJob{ID: "0000001-x-W", Definition: plain}, true, nil},
		{"no sla:info, actions only", &store.WorkflowJob{ID: "0000001-x-W", Definition: plain}, false, nil},
		{"no sla:info, a coordinator's", &store.WorkflowJob{ID: "0000001-x-W", Definition: plain, ParentID: "0000002-x-C@3"}, true,
			[]string{"0000002-x-C@3"}},
		{"no sla:info, rerun", &store.WorkflowJob{ID: "0000001-x-W", Definition: plain, Run: 1}, true,
			[]string{"0000001-x-W", "0000001-x-W@a"}},
		{"sla:info, actions only", &store.WorkflowJob{ID: "0000001-x-W", Definition: withSLA}, false, []string{"0000001-x-W@a"}},
		{"job not read", nil, false, []string{"0000001-x-W@a"}},
	} {
		err := st.Tx(ctx, func(x store.Tx) error {
			cx := &lookupCounter{Tx: x}
			if err := svc.WorkflowChanged(ctx, cx, c.job, c.jobWritten, false, acts); err != nil {
				return err
			}
			if !slices.Equal(cx.ids, c.want) {
				t.Errorf("%s: looked up %v, want %v", c.name, cx.ids, c.want)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
}
