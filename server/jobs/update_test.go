package jobs_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/server/jobs/jobstest"
)

func TestCoordinatorUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	orig := jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z")
	app := f.WriteCoordApp(t, "later", orig)
	id := f.submitCoord(t, app)
	withControls := strings.Replace(orig, "    <action>", "    <controls><concurrency>3</concurrency></controls>\n    <action>", 1)
	f.WriteCoordApp(t, "later", withControls)

	var out struct {
		Update struct{ Diff string }
	}
	r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=update&dryrun=true", "", "")
	decode(t, r.body, &out)
	if r.status != 200 || !strings.Contains(out.Update.Diff, "**********Job definition changes**********\n") ||
		!strings.Contains(out.Update.Diff, "+") || !strings.Contains(out.Update.Diff, "concurrency") ||
		!strings.Contains(out.Update.Diff, "**********Job conf changes**********\nNo changes\n") {
		t.Fatalf("dry run: %d %q", r.status, out.Update.Diff)
	}
	if j := f.coordInfo(t, "v2", id, ""); j.Concurrency != 1 {
		t.Errorf("a dry run changed concurrency to %d", j.Concurrency)
	}
	r = f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=update", "", "")
	if r.status != 200 {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	if j := f.coordInfo(t, "v2", id, ""); j.Concurrency != 3 || j.Status != "PREP" || j.ID != id {
		t.Errorf("after update: %+v", j)
	}
	var def string
	if r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=definition", "", ""); r.status == 200 {
		def = r.body
	}
	if !strings.Contains(def, "<concurrency>3</concurrency>") {
		t.Errorf("definition after update:\n%s", def)
	}
	// A new start is refused, and so is updating a workflow.
	f.WriteCoordApp(t, "later", strings.Replace(withControls, "2030-01-01T00:00Z", "2030-01-01T01:00Z", 1))
	checkError(t, f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=update", "", ""), 400, "E1023",
		"E1023: Coord Job update Error: [start cannot be updated; change the end time with -change]")
	wf := f.submit(t, appNoOp, false)
	checkError(t, f.call(t, http.MethodPut, "/oozie/v2/job/"+wf+"?action=update", "", ""), 400, "E0303",
		"E0303: Invalid parameter value, [action] = [update]: only coordinator jobs can be updated")
}
