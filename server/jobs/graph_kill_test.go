package jobs_test

import (
	"context"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// failThroughKill records what the engine writes when action mkdir of the fs app ends in ERROR:
// its error transition to the kill node "fail", the kill node's row and the job KILLED.
func (f *fixture) failThroughKill(t *testing.T, id string) {
	t.Helper()
	ctx := context.Background()
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		a, err := x.GetWorkflowAction(ctx, id+"@mkdir")
		if err != nil {
			return err
		}
		a.Status, a.Transition, a.ErrorCode, a.ErrorMessage = store.ActionError, "fail", "FS001", "mkdir refused"
		if err := x.UpdateWorkflowAction(ctx, &a, store.ActionPrep); err != nil {
			return err
		}
		kill := store.WorkflowAction{ID: id + "@fail", JobID: id, Name: "fail", Type: workflow.TypeKill,
			Status: store.ActionOK, ErrorCode: oozieerr.E0729, ErrorMessage: "mkdir failed [mkdir refused]",
			CreatedTime: f.Clock.Now(), LastModified: f.Clock.Now()}
		if err := x.InsertWorkflowAction(ctx, &kill); err != nil {
			return err
		}
		j, err := x.GetWorkflowJob(ctx, id)
		if err != nil {
			return err
		}
		j.Status = store.WorkflowKilled
		return x.UpdateWorkflowJob(ctx, &j, store.WorkflowRunning)
	})
	if err != nil {
		t.Fatalf("failing job %s through its kill node: %v", id, err)
	}
}

func TestGraphKillNodes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	const (
		killNode  = `<g class="node" data-name="fail" data-kind="kill" data-status="OK" data-state="failed"><title>fail (kill): OK</title>`
		errorEdge = `<g class="edge" data-from="mkdir" data-to="fail" data-kind="error" data-taken="true"><title>mkdir → fail (error)</title>`
		anyFail   = `data-name="fail"`
		anyInto   = `data-to="fail"`
	)
	svg := func(query string) string {
		t.Helper()
		r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=svg"+query, "", "")
		if r.status != http.StatusOK {
			t.Fatalf("svg%s: %d %s", query, r.status, r.body)
		}
		svgText(t, r.body) // well-formed
		return r.body
	}

	// Running: the kill node is not reached, so not drawn unless asked for.
	if body := svg(""); strings.Contains(body, anyFail) || strings.Contains(body, anyInto) {
		t.Errorf("running job: kill node drawn without show-kill:\n%s", body)
	}
	if body := svg("&show-kill=true"); !strings.Contains(body, `data-name="fail" data-kind="kill" data-status="" data-state="not-reached"`) ||
		!strings.Contains(body, `data-from="mkdir" data-to="fail" data-kind="error" data-taken="false"`) {
		t.Errorf("running job with show-kill=true:\n%s", body)
	}

	f.failThroughKill(t, id)
	// Without show-kill: the kill node the run reached and the error transition it took.
	body := svg("")
	for _, want := range []string{killNode, errorEdge, `<g class="node" data-name="mkdir" data-kind="action" data-type="fs" data-status="ERROR" data-state="failed">`} {
		if !strings.Contains(body, want) {
			t.Errorf("failed job, no show-kill: svg lacks %s\n%s", want, body)
		}
	}
	// show-kill=true draws it too; show-kill=false, as Oozie, leaves it out.
	if body := svg("&show-kill=true"); !strings.Contains(body, killNode) || !strings.Contains(body, errorEdge) {
		t.Errorf("failed job, show-kill=true:\n%s", body)
	}
	if body := svg("&show-kill=false"); strings.Contains(body, anyFail) || strings.Contains(body, anyInto) {
		t.Errorf("failed job, show-kill=false draws the kill node:\n%s", body)
	}
	// DOT and PNG follow the same rule.
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph&format=dot", "", "")
	if !strings.Contains(r.body, `"mkdir" -> "fail" [`) || !strings.Contains(r.body, `"fail" [label="fail", shape=octagon`) {
		t.Errorf("failed job, dot:\n%s", r.body)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=graph", "", "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "image/png" {
		t.Fatalf("png: %d %q", r.status, r.header.Get("Content-Type"))
	}
	if _, err := png.Decode(strings.NewReader(r.body)); err != nil {
		t.Errorf("png: %v", err)
	}
}
