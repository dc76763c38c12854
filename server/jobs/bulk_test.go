package jobs_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/server/oozieapi"
)

func TestBulkWorkflowCommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var prep []string
	for range 3 {
		prep = append(prep, f.submit(t, appNoOp, false))
	}
	other := f.submit(t, appFS, false) // app name "fs-wf"
	r := f.call(t, http.MethodPut, "/oozie/v1/jobs?action=kill&filter=status%3DPREP%3Bname%3Dno-op-wf&len=2", "", "")
	var out oozieapi.WorkflowList
	decode(t, r.body, &out)
	if r.status != 200 || out.Total != 3 || len(out.Workflows) != 2 || out.Len != 2 {
		t.Fatalf("bulk kill: %d %s", r.status, r.body)
	}
	killed := map[string]bool{}
	for _, j := range out.Workflows {
		if j.Status != "KILLED" {
			t.Errorf("%s answered %s after the kill", j.ID, j.Status)
		}
		killed[j.ID] = true
	}
	statuses := map[string]string{}
	for _, id := range append(prep, other) {
		var j oozieapi.WorkflowJob
		decode(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+id, "", "").body, &j)
		statuses[id] = j.Status
	}
	n := 0
	for _, id := range prep {
		if killed[id] != (statuses[id] == "KILLED") {
			t.Errorf("%s: killed %v, status %s", id, killed[id], statuses[id])
		}
		if killed[id] {
			n++
		}
	}
	if n != 2 || statuses[other] != "PREP" {
		t.Errorf("killed %d of the no-op jobs, the fs job is %s", n, statuses[other])
	}
	checkError(t, f.call(t, http.MethodPut, "/oozie/v1/jobs?action=kill", "", ""), 400, "E0305", "E0305: Missing parameter [filter]")
	checkError(t, f.call(t, http.MethodPut, "/oozie/v1/jobs?action=start&filter=status%3DPREP", "", ""), 400, "E0303",
		"E0303: Invalid parameter value, [action] = [start]")
	checkError(t, f.call(t, http.MethodPut, "/oozie/v1/jobs?action=kill&filter=colour%3Dred", "", ""), 400, "E0420",
		"E0420: Invalid jobs filter [colour=red], invalid name [colour]")
}

func TestBulkCoordinatorCommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteCoordApp(t, "later", jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z"))
	ids := []string{f.submitCoord(t, app), f.submitCoord(t, app)}
	sort.Strings(ids)
	r := f.call(t, http.MethodPut, "/oozie/v2/jobs?jobtype=coordinator&action=suspend&filter=status%3DPREP", "", "")
	var out oozieapi.CoordinatorList
	decode(t, r.body, &out)
	var got []string
	for _, j := range out.Jobs {
		got = append(got, j.ID+"="+j.Status)
	}
	sort.Strings(got)
	if want := ids[0] + "=PREPSUSPENDED," + ids[1] + "=PREPSUSPENDED"; r.status != 200 || strings.Join(got, ",") != want {
		t.Errorf("bulk suspend: %d %v, want %s", r.status, got, want)
	}
	r = f.call(t, http.MethodPut, "/oozie/v2/jobs?jobtype=coord&action=resume&filter=id%3D"+ids[0], "", "")
	decode(t, r.body, &out)
	if len(out.Jobs) != 1 || out.Jobs[0].Status != "PREP" || f.coordInfo(t, "v2", ids[1], "").Status != "PREPSUSPENDED" {
		t.Errorf("bulk resume of one: %s", r.body)
	}
}

func TestBulkBundleCommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submitBundle(t, f.bundleApp(t, "2030-01-01T00:00Z")) // kicks off in 2030: PREP
	r := f.call(t, http.MethodPut, "/oozie/v2/jobs?jobtype=bundle&action=suspend&filter=name%3Dnightly-prod", "", "")
	var out oozieapi.BundleList
	decode(t, r.body, &out)
	if r.status != 200 || len(out.Jobs) != 1 || out.Jobs[0].ID != id || out.Jobs[0].Status != "PREPSUSPENDED" {
		t.Errorf("bulk suspend of bundles: %d %s", r.status, r.body)
	}
	r = f.call(t, http.MethodPut, "/oozie/v2/jobs?jobtype=bundle&action=kill&filter=status%3DPREPSUSPENDED", "", "")
	decode(t, r.body, &out)
	if len(out.Jobs) != 1 || out.Jobs[0].Status != "KILLED" {
		t.Errorf("bulk kill of bundles: %s", r.body)
	}
}
