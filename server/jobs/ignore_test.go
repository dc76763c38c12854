package jobs_test

import (
	"net/http"
	"testing"

	"github.com/gozie/gozie/server/jobs/jobstest"
)

// TestIgnoreByVersion: Oozie's v1 refuses every ignore, of any job and with or without
// a scope, with 400 E0302 "Not supported in v1", and changes nothing; v2 refuses the
// ignore of a workflow or a bundle in its own words and ignores a killed coordinator.
func TestIgnoreByVersion(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coord := f.submitCoord(t, f.WriteCoordApp(t, "later",
		jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z")))
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+coord+"?action=kill", "", ""); r.status != http.StatusOK {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	wf := f.submit(t, appNoOp, false)
	bundle := f.submitBundle(t, f.bundleApp(t, "2030-01-01T00:00Z"))
	const notInV1 = "E0302: Invalid parameter [Not supported in v1]"
	for _, tc := range []struct {
		name, path string
		status     int
		code, msg  string
	}{
		{"v1 coordinator", "/oozie/v1/job/" + coord + "?action=ignore", 400, "E0302", notInV1},
		{"v1 coordinator actions", "/oozie/v1/job/" + coord + "?action=ignore&type=action&scope=1", 400, "E0302", notInV1},
		{"v1 workflow", "/oozie/v1/job/" + wf + "?action=ignore", 400, "E0302", notInV1},
		{"v1 bundle", "/oozie/v1/job/" + bundle + "?action=ignore", 400, "E0302", notInV1},
		{"v2 workflow", "/oozie/v2/job/" + wf + "?action=ignore", 400, "E0302",
			"E0302: Invalid parameter [Workflow Ignore Not supported]"},
		{"v2 bundle", "/oozie/v2/job/" + bundle + "?action=ignore", 400, "E0302",
			"E0302: Invalid parameter [Bundle Ignore Not supported]"},
		{"v2 unknown id", "/oozie/v2/job/nope?action=ignore", 404, "E0604", "E0604: Job does not exist [nope]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodPut, tc.path, "", ""), tc.status, tc.code, tc.msg)
		})
	}
	if j := f.coordInfo(t, "v2", coord, ""); j.Status != "KILLED" {
		t.Fatalf("the refused v1 ignores left the coordinator %s, want KILLED", j.Status)
	}
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+coord+"?action=ignore", "", ""); r.status != http.StatusOK {
		t.Fatalf("v2 ignore: %d %s", r.status, r.header.Get("oozie-error-message"))
	}
	if j := f.coordInfo(t, "v2", coord, ""); j.Status != "IGNORED" {
		t.Errorf("after the v2 ignore the coordinator is %s, want IGNORED", j.Status)
	}
}
