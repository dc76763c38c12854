package jobs_test

import (
	"net/http"
	"testing"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

func TestControl(t *testing.T) {
	t.Parallel()
	f := setup(t)
	prep := f.submit(t, appFS, false)
	running := f.submit(t, appFS, true)
	done := f.submit(t, appNoOp, true)
	tests := []struct {
		name   string
		id     string
		action string
		want   store.WorkflowStatus
	}{
		{"start a PREP job", prep, "start", store.WorkflowRunning},
		{"suspend", running, "suspend", store.WorkflowSuspended},
		{"suspend again changes nothing", running, "suspend", store.WorkflowSuspended},
		{"resume", running, "resume", store.WorkflowRunning},
		{"resume a running job changes nothing", running, "resume", store.WorkflowRunning},
		{"kill", running, "kill", store.WorkflowKilled},
		{"kill a finished job changes nothing", done, "kill", store.WorkflowSucceeded},
		{"start a finished job changes nothing", done, "start", store.WorkflowSucceeded},
	}
	for _, tt := range tests {
		// Steps build on each other: no t.Run parallelism.
		r := f.call(t, http.MethodPut, "/oozie/v2/job/"+tt.id+"?action="+tt.action, "", "")
		if r.status != http.StatusOK || r.body != "" {
			t.Errorf("%s: %d %s", tt.name, r.status, r.body)
		}
		if got := f.workflowJob(t, tt.id).Status; got != tt.want {
			t.Errorf("%s: status %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestRerun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	if r := f.call(t, http.MethodPut, "/oozie/v1/job/"+id+"?action=kill", "", ""); r.status != http.StatusOK {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	r := f.call(t, http.MethodPut, "/oozie/v1/job/"+id+"?action=rerun", "application/xml",
		configXML(t, "user.name", "joe", "extra", "yes"))
	if r.status != http.StatusOK {
		t.Fatalf("rerun: %d %s %s", r.status, r.header.Get(server.HeaderErrorMessage), r.body)
	}
	job := f.workflowJob(t, id)
	if job.Status != store.WorkflowRunning || job.Run != 1 {
		t.Errorf("after rerun: %s run %d", job.Status, job.Run)
	}
	// A running job cannot be rerun (E0805 from the engine).
	r = f.call(t, http.MethodPut, "/oozie/v1/job/"+id+"?action=rerun", "application/xml", configXML(t, "user.name", "joe"))
	if r.status != http.StatusBadRequest || r.header.Get(server.HeaderErrorCode) != "E0805" {
		t.Errorf("rerun of a running job: %d %s %s", r.status, r.header.Get(server.HeaderErrorMessage), r.body)
	}
}

func TestControlErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	const ghost = "0000099-250127091857123-gozie-test-W"
	tests := []struct {
		name        string
		path        string
		contentType string
		body        string
		status      int
		code, msg   string
	}{
		{"no action", "/oozie/v2/job/" + id, "", "", 400, "E0305", "E0305: Missing parameter [action]"},
		{"unknown action", "/oozie/v2/job/" + id + "?action=pause", "", "", 400, "E0303", "E0303: Invalid parameter value, [action] = [pause]"},
		{"change of a workflow", "/oozie/v2/job/" + id + "?action=change", "", "", 400, "E1017",
			"E1017: Workflow jobs cannot be changed"},
		{"coordinator rerun of a workflow", "/oozie/v2/job/" + id + "?action=coord-rerun", "", "", 400, "E0302",
			"E0302: Invalid parameter [action=coord-rerun is not supported yet]"},
		{"unknown job", "/oozie/v2/job/" + ghost + "?action=kill", "", "", 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{"rerun of an unknown job", "/oozie/v2/job/" + ghost + "?action=rerun", "application/xml", configXML(t, "user.name", "joe"),
			404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{"not a job id", "/oozie/v1/job/xyz?action=kill", "", "", 404, "E0604", "E0604: Job does not exist [xyz]"},
		{"action id", "/oozie/v1/job/" + id + "@mkdir?action=kill", "", "", 404, "E0604", "E0604: Job does not exist [" + id + "@mkdir]"},
		{"coordinator start", "/oozie/v2/job/0000001-250127091857123-gozie-test-C?action=start", "", "", 400, "E0303",
			"E0303: Invalid parameter value, [action] = [start]"},
		{"unknown coordinator kill", "/oozie/v2/job/0000001-250127091857123-gozie-test-C?action=kill", "", "", 404, "E0604",
			"E0604: Job does not exist [0000001-250127091857123-gozie-test-C]"},
		{"unknown bundle suspend", "/oozie/v2/job/0000001-250127091857123-gozie-test-B?action=suspend", "", "", 404, "E0604",
			"E0604: Job does not exist [0000001-250127091857123-gozie-test-B]"},
		{"rerun without XML", "/oozie/v2/job/" + id + "?action=rerun", "text/plain", "user.name=joe", 400, "E0300",
			"E0300: Invalid content-type [text/plain]"},
		{"rerun with a broken configuration", "/oozie/v2/job/" + id + "?action=rerun", "application/xml", "<configuration>", 400, "E0700",
			"E0700: XML error, configuration:1: invalid XML: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, http.MethodPut, tt.path, tt.contentType, tt.body)
			checkError(t, r, tt.status, tt.code, tt.msg)
		})
	}
	if got := f.workflowJob(t, id).Status; got != store.WorkflowRunning {
		t.Errorf("failed commands changed the job: %s", got)
	}
}

func TestControlRefusedInSafeMode(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	if err := f.Server.SetSystemMode(server.ModeNoWebService); err != nil {
		t.Fatal(err)
	}
	checkError(t, f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill", "", ""), 503, "E0002", "System is in safe mode")
	// Reads go on.
	if r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=status", "", ""); r.status != http.StatusOK {
		t.Errorf("read in NOWEBSERVICE: %d %s", r.status, r.body)
	}
}
