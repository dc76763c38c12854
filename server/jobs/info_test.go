package jobs_test

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
)

func TestInfo(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id, "", "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != server.ContentTypeJSON {
		t.Fatalf("%d %q %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	var job oozieapi.WorkflowJob
	decode(t, r.body, &job)
	at := time.Date(2025, 1, 27, 9, 18, 57, 0, time.UTC)
	if job.ID != id || job.AppName != "fs-wf" || job.AppPath != f.appPath(appFS) || job.Status != "RUNNING" ||
		job.User != "joe" || !job.CreatedTime.Equal(at) || !job.StartTime.Equal(at) || !job.EndTime.IsZero() ||
		!strings.Contains(job.Conf, "<name>oozie.wf.application.path</name>") ||
		job.ToString != "Workflow id["+id+"] status[RUNNING]" {
		t.Errorf("job %+v", job)
	}
	var got []string
	for _, a := range job.Actions {
		got = append(got, a.ID+" "+a.Type+" "+a.Status+" "+a.Transition)
	}
	want := []string{id + "@:start: :START: OK mkdir", id + "@mkdir fs PREP "}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("actions %q, want %q", got, want)
	}
	mkdir := job.Actions[1]
	if !strings.Contains(mkdir.Conf, "<mkdir path=") || mkdir.ToString != "Action name[mkdir] status[PREP]" || !mkdir.StartTime.IsZero() {
		t.Errorf("mkdir action %+v", mkdir)
	}

	// Paging of the actions, and v1.
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"?offset=2", []string{id + "@mkdir"}},
		{"?len=1", []string{id + "@:start:"}},
		{"?offset=2&len=5", []string{id + "@mkdir"}},
		{"?offset=3", nil},
		{"?show=info&offset=0&len=0", []string{id + "@:start:", id + "@mkdir"}},
	} {
		r := f.call(t, http.MethodGet, "/oozie/v1/job/"+id+tt.query, "", "")
		var j oozieapi.WorkflowJob
		decode(t, r.body, &j)
		var ids []string
		for _, a := range j.Actions {
			ids = append(ids, a.ID)
		}
		if !reflect.DeepEqual(ids, tt.want) {
			t.Errorf("%s: actions %v, want %v", tt.query, ids, tt.want)
		}
	}

	// Another zone.
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?timezone=GMT%2B0530", "", "")
	if !strings.Contains(r.body, `"createdTime":"Mon, 27 Jan 2025 14:48:57 GMT+05:30"`) {
		t.Errorf("GMT+0530 dates: %s", r.body)
	}
}

func TestInfoOfAction(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"@mkdir", "", "")
	var a oozieapi.WorkflowAction
	decode(t, r.body, &a)
	if r.status != http.StatusOK || a.ID != id+"@mkdir" || a.Name != "mkdir" || a.Type != "fs" || a.Status != "PREP" {
		t.Errorf("%d action %+v", r.status, a)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"@:start:?show=status", "", "")
	if r.status != http.StatusOK || strings.TrimSpace(r.body) != `{"status":"OK"}` {
		t.Errorf("status of :start: %d %s", r.status, r.body)
	}
}

func TestDefinitionStatusAndLog(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	def, err := os.ReadFile(filepath.Join(f.Apps, appFS, "workflow.xml"))
	if err != nil {
		t.Fatal(err)
	}
	r := f.call(t, http.MethodGet, "/oozie/v1/job/"+id+"?show=definition", "", "")
	if r.status != http.StatusOK || r.body != string(def) || r.header.Get("Content-Type") != "application/xml;charset=UTF-8" {
		t.Errorf("definition: %d %q\n%s", r.status, r.header.Get("Content-Type"), r.body)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=status", "", "")
	if r.status != http.StatusOK || strings.TrimSpace(r.body) != `{"status":"RUNNING"}` {
		t.Errorf("status: %d %s", r.status, r.body)
	}

	// The log tells the story so far, in time order; kill the job a minute later first.
	f.Clock.Advance(time.Minute)
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill", "", ""); r.status != http.StatusOK {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=log", "", "")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/plain;charset=UTF-8" {
		t.Fatalf("log: %d %q", r.status, r.header.Get("Content-Type"))
	}
	prefix := "USER[joe] GROUP[-] APP[fs-wf] JOB[" + id + "] "
	want := []string{
		"2025-01-27 09:18:57,123 INFO  " + prefix + "ACTION[-] workflow job submitted, app path [" + f.appPath(appFS) + "]",
		"2025-01-27 09:18:57,123 INFO  " + prefix + "ACTION[-] workflow job started",
		"2025-01-27 09:18:57,123 INFO  " + prefix + "ACTION[" + id + "@:start:] node [:start:] type [:START:] started",
		"2025-01-27 09:18:57,123 INFO  " + prefix + "ACTION[" + id + "@:start:] node [:start:] ended with status [OK], transition [mkdir]",
		"2025-01-27 09:18:57,123 INFO  " + prefix + "ACTION[" + id + "@mkdir] node [mkdir] type [fs] created",
		"2025-01-27 09:19:57,123 INFO  " + prefix + "ACTION[" + id + "@mkdir] node [mkdir] ended with status [KILLED], transition [-]",
		"2025-01-27 09:19:57,123 INFO  " + prefix + "ACTION[-] workflow job ended with status [KILLED]",
	}
	if got := strings.Split(strings.TrimSuffix(r.body, "\n"), "\n"); !reflect.DeepEqual(got, want) {
		t.Errorf("log\n got %q\nwant %q", got, want)
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=log&timezone=UTC", "", "")
	if !strings.HasPrefix(r.body, "2025-01-27 09:18:57,123 INFO") {
		t.Errorf("log in UTC: %s", r.body)
	}
}

func TestGetErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	id := f.submit(t, appFS, true)
	const ghost = "0000099-250127091857123-gozie-test-W"
	tests := []struct {
		path      string
		status    int
		code, msg string
	}{
		{"/oozie/v2/job/" + ghost, 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{"/oozie/v1/job/" + ghost + "?show=definition", 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{"/oozie/v2/job/" + ghost + "?show=log", 404, "E0604", "E0604: Job does not exist [" + ghost + "]"},
		{"/oozie/v2/job/" + id + "@nope", 404, "E0605", "E0605: Action does not exist [" + id + "@nope]"},
		{"/oozie/v2/job/not-an-id", 404, "E0604", "E0604: Job does not exist [not-an-id]"},
		{"/oozie/v2/job/" + id + "?show=everything", 400, "E0303", "E0303: Invalid parameter value, [show] = [everything]"},
		{"/oozie/v2/job/" + id + "?show=retries", 400, "E0303", "E0303: Invalid parameter value, [show] = [retries]: retries are a workflow action's, give <workflow id>@<action name>"},
		{"/oozie/v2/job/" + id + "@mkdir?show=definition", 400, "E0303", "E0303: Invalid parameter value, [show] = [definition]"},
		{"/oozie/v2/job/" + id + "?timezone=Mars/Olympus", 400, "E0303", "E0303: Invalid parameter value, [timezone] = [Mars/Olympus]"},
		{"/oozie/v2/job/" + id + "?len=all", 400, "E0303", "E0303: Invalid parameter value, [len] = [all]"},
		{"/oozie/v2/job/0000001-250127091857123-gozie-test-C", 404, "E0604", "E0604: Job does not exist [0000001-250127091857123-gozie-test-C]"},
		{"/oozie/v2/job/0000001-250127091857123-gozie-test-C@3", 404, "E0605", "E0605: Action does not exist [0000001-250127091857123-gozie-test-C@3]"},
		{"/oozie/v2/job/0000001-250127091857123-gozie-test-B?show=status", 404, "E0604", "E0604: Job does not exist [0000001-250127091857123-gozie-test-B]"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodGet, tt.path, "", ""), tt.status, tt.code, tt.msg)
		})
	}
}
