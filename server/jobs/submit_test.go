package jobs_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/store"
)

func TestSubmit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tests := []struct {
		name        string
		path        string
		contentType string
		conf        string
		wantStatus  store.WorkflowStatus
		wantApp     string
	}{
		{"submit leaves the job in PREP", "/oozie/v1/jobs", "application/xml", f.jobConf(t, appFS), store.WorkflowPrep, "fs-wf"},
		{"action=start runs it", "/oozie/v2/jobs?action=start", "application/xml;charset=UTF-8", f.jobConf(t, appFS), store.WorkflowRunning, "fs-wf"},
		{"control nodes only: done at once", "/oozie/v1/jobs?action=start", "Application/XML; charset=utf-8", f.jobConf(t, appNoOp), store.WorkflowSucceeded, "no-op-wf"},
		{"parameters from the configuration", "/oozie/v1/jobs", "application/xml", f.jobConf(t, appParam, "outDir", "file:///tmp/x"), store.WorkflowPrep, "params-wf"},
		{"first libpath entry is the app path", "/oozie/v1/jobs", "application/xml",
			configXML(t, "user.name", "joe", "oozie.libpath", f.appPath(appNoOp)+",hdfs://nn/lib"), store.WorkflowPrep, "no-op-wf"},
		{"values are trimmed", "/oozie/v1/jobs", "application/xml",
			configXML(t, " user.name ", " joe\t", "oozie.wf.application.path", " "+f.appPath(appFS)+" "), store.WorkflowPrep, "fs-wf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, http.MethodPost, tt.path, tt.contentType, tt.conf)
			if r.status != http.StatusCreated || r.header.Get("Content-Type") != server.ContentTypeJSON {
				t.Fatalf("status %d %q: %s", r.status, r.header.Get("Content-Type"), r.body)
			}
			var out map[string]string
			decode(t, r.body, &out)
			job := f.workflowJob(t, out["id"])
			if len(out) != 1 || job.Status != tt.wantStatus || job.AppName != tt.wantApp || job.User != "joe" {
				t.Errorf("answer %v; job %s %s %s user %q", out, job.ID, job.Status, job.AppName, job.User)
			}
		})
	}
}

func TestSubmitDryRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.call(t, http.MethodPost, "/oozie/v2/jobs?action=dryrun", "application/xml", f.jobConf(t, appParam, "outDir", "/tmp/x"))
	if r.status != http.StatusCreated || strings.TrimSpace(r.body) != `{"id":"OK"}` {
		t.Fatalf("dry run: %d %s", r.status, r.body)
	}
	err := f.Store.Tx(context.Background(), func(x store.Tx) error {
		jobs, total, err := x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		if err == nil && (total != 0 || len(jobs) != 0) {
			t.Errorf("a dry run stored %d jobs", total)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSubmitErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	missing := "file://" + f.Apps + "/nope"
	tests := []struct {
		name        string
		path        string
		contentType string
		body        string
		status      int
		code, msg   string
	}{
		{"not XML", "/oozie/v1/jobs", "text/plain; charset=UTF-8", f.jobConf(t, appFS), 400, "E0300", "E0300: Invalid content-type [text/plain]"},
		{"no content type", "/oozie/v1/jobs", "", f.jobConf(t, appFS), 400, "E0300", "E0300: Invalid content-type [null]"},
		{"JSON", "/oozie/v2/jobs", "application/json", "{}", 400, "E0300", "E0300: Invalid content-type [application/json]"},
		{"unknown action", "/oozie/v1/jobs?action=go", "application/xml", f.jobConf(t, appFS), 400, "E0303", "E0303: Invalid parameter value, [action] = [go]"},
		{"proxy submission of an unknown type", "/oozie/v1/jobs?jobtype=spark", "application/xml", f.jobConf(t, appFS), 400, "E0303",
			"E0303: Invalid parameter value, [jobtype] = [spark]"},
		{"malformed configuration", "/oozie/v1/jobs", "application/xml", "<configuration><property>", 400, "E0700", ""},
		{"no user.name", "/oozie/v1/jobs", "application/xml", configXML(t, "oozie.wf.application.path", f.appPath(appFS)),
			400, "E0401", "E0401: Missing configuration property [user.name]"},
		{"empty user.name", "/oozie/v1/jobs", "application/xml", configXML(t, "user.name", " ", "oozie.wf.application.path", f.appPath(appFS)),
			400, "E0401", "E0401: Missing configuration property [user.name]"},
		{"two app paths", "/oozie/v1/jobs", "application/xml", f.jobConf(t, appFS, "oozie.coord.application.path", "hdfs://nn/c"),
			400, "E0302", "E0302: Invalid parameter [Multiple app paths specified, only one is allowed]"},
		{"no app path", "/oozie/v1/jobs", "application/xml", configXML(t, "user.name", "joe"),
			400, "E0405", "E0405: Submission request does not have any application or lib path"},
		{"coordinator app missing", "/oozie/v1/jobs", "application/xml", configXML(t, "user.name", "joe", "oozie.coord.application.path", missing),
			400, "E0504", "E0504: App directory [" + missing + "] does not exist"},
		{"bundle app missing", "/oozie/v2/jobs?action=start", "application/xml", configXML(t, "user.name", "joe", "oozie.bundle.application.path", missing),
			400, "E1301", "E1301: Could not read the bundle job definition, [" + missing + " does not exist]"},
		{"app directory missing", "/oozie/v1/jobs", "application/xml", configXML(t, "user.name", "joe", "oozie.wf.application.path", missing),
			400, "E0504", "E0504: App directory [" + missing + "] does not exist"},
		{"invalid workflow", "/oozie/v1/jobs?action=start", "application/xml", f.jobConf(t, appBroken), 400, "E0701", ""},
		{"required parameter missing", "/oozie/v1/jobs", "application/xml", f.jobConf(t, appParam), 400, "E0738",
			"E0738: The following 1 parameters are required but were not defined and no default values are available: outDir"},
		{"dry run of a missing app directory", "/oozie/v1/jobs?action=dryrun", "application/xml",
			configXML(t, "user.name", "joe", "oozie.wf.application.path", missing+"/wf.xml"),
			400, "E0504", "E0504: App directory [" + missing + "] does not exist"},
		{"dry run of an invalid workflow", "/oozie/v1/jobs?action=dryrun", "application/xml", f.jobConf(t, appBroken), 400, "E0701", ""},
		{"dry run with a parameter missing", "/oozie/v1/jobs?action=dryrun", "application/xml", f.jobConf(t, appParam), 400, "E0738",
			"E0738: The following 1 parameters are required but were not defined and no default values are available: outDir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, http.MethodPost, tt.path, tt.contentType, tt.body)
			if tt.msg == "" {
				// Messages of parser errors are the parser's; check their start.
				if !strings.HasPrefix(r.header.Get(server.HeaderErrorMessage), tt.code+": ") {
					t.Errorf("message %q does not start with %s", r.header.Get(server.HeaderErrorMessage), tt.code)
				}
				tt.msg = r.header.Get(server.HeaderErrorMessage)
			}
			checkError(t, r, tt.status, tt.code, tt.msg)
		})
	}
	// Nothing was stored by any of them.
	err := f.Store.Tx(context.Background(), func(x store.Tx) error {
		_, total, err := x.ListWorkflowJobs(context.Background(), store.JobFilter{})
		if err == nil && total != 0 {
			t.Errorf("failed submissions stored %d jobs", total)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSubmitRefusedInSafeMode(t *testing.T) {
	t.Parallel()
	f := setup(t)
	if err := f.Server.SetSystemMode(server.ModeSafe); err != nil {
		t.Fatal(err)
	}
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml", f.jobConf(t, appFS))
	checkError(t, r, http.StatusServiceUnavailable, "E0002", "System is in safe mode")
}
