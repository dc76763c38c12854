package daemon_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/testenv/minidfs"
)

// defaultFilesystems is gozie.filesystems.supported as the settings table
// defaults it.
func defaultFilesystems(t *testing.T) map[string]string {
	t.Helper()
	for _, st := range conf.Settings() {
		if st.Key == "gozie.filesystems.supported" {
			return map[string]string{st.Key: st.Default}
		}
	}
	t.Fatal("no gozie.filesystems.supported setting")
	return nil
}

// TestServerDiskIsOutOfReach: with the default filesystems, every submission
// naming the server's own disk is 400 E0904 with one message shape, whether
// the path is a directory, a file or nothing at all, in any spelling: the
// answer says nothing about the server's disk.
func TestServerDiskIsOutOfReach(t *testing.T) {
	s := serve(t, defaultFilesystems(t))
	// An app the server could read if it looked: the answer must not change.
	s.write(t, "wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
	tests := []struct{ prop, uri string }{
		{"oozie.wf.application.path", "file:///etc"},
		{"oozie.wf.application.path", "file:///etc/passwd"},
		{"oozie.wf.application.path", "file:///does/not/exist"},
		{"oozie.wf.application.path", "FILE:///etc/passwd"},
		{"oozie.wf.application.path", "File:/etc/passwd"},
		{"oozie.wf.application.path", "file://" + s.apps + "/wf"},
		{"oozie.wf.application.path", "/etc"}, // no scheme: the default filesystem, file:/// here
		{"oozie.coord.application.path", "file:///etc"},
		{"oozie.bundle.application.path", "FILE:///etc/passwd"},
		{"oozie.libpath", "file:///etc"}, // the app path of a submission without one
	}
	for _, tt := range tests {
		var body strings.Builder
		if err := conf.WriteConfigurationXML(&body, conf.NewProperties("user.name", "alice", tt.prop, tt.uri)); err != nil {
			t.Fatal(err)
		}
		status, code, out := s.call(t, http.MethodPost, "/v2/jobs", "alice", body.String())
		var e struct{ ErrorMessage string }
		_ = json.Unmarshal([]byte(out), &e)
		want := "E0904: Scheme [file] not supported in uri [" + tt.uri + "]"
		if status != http.StatusBadRequest || code != "E0904" || e.ErrorMessage != want {
			t.Errorf("%s=%s: %d %s %q, want 400 E0904 %q", tt.prop, tt.uri, status, code, e.ErrorMessage, want)
		}
	}
	// A proxy submission is judged the same way.
	var body strings.Builder
	if err := conf.WriteConfigurationXML(&body, conf.NewProperties("user.name", "alice", "oozie.libpath", "file:///etc",
		"mapred.job.tracker", "rm:8032", "fs.default.name", "hdfs://nn:8020")); err != nil {
		t.Fatal(err)
	}
	if status, code, out := s.call(t, http.MethodPost, "/v1/jobs?jobtype=mapreduce", "alice", body.String()); status != http.StatusBadRequest || code != "E0904" {
		t.Errorf("proxy submission from file:///etc: %d %s %s", status, code, out)
	}
}

// TestFsActionOnTheServerDiskFails: a workflow on HDFS whose fs action names
// the server's own disk runs, and the action ends in ERROR with E0904 and the
// refusal's message, its error transition taken; the disk is untouched.
func TestFsActionOnTheServerDiskFails(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user: %v", err)
	}
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), CreateHomes: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	flags := defaultFilesystems(t)
	flags["gozie.actions.default.name-node"] = dfs.URI()
	s := serve(t, flags)

	local := t.TempDir()
	secret := filepath.Join(local, "secret")
	if err := os.WriteFile(secret, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dfs.Root(), "user", me.Username, "fs-app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	wf := `<workflow-app xmlns="uri:oozie:workflow:0.5" name="fs-local">
  <start to="fs"/>
  <action name="fs"><fs><chmod path="FILE://` + secret + `" permissions="777"/><mkdir path="file://` + local + `/made"/></fs>
    <ok to="end"/><error to="failed"/></action>
  <kill name="failed"><message>fs failed: ${wf:errorCode('fs')}</message></kill>
  <end name="end"/>
</workflow-app>`
	if err := os.WriteFile(filepath.Join(app, "workflow.xml"), []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	id := s.submit(t, me.Username, "oozie.wf.application.path", dfs.URI()+"/user/"+me.Username+"/fs-app")
	info := s.runWorkflow(t, id, me.Username, 30*time.Second)
	var found bool
	for _, a := range info.Actions {
		if a.Name != "fs" {
			continue
		}
		found = true
		want := "Scheme [file] not supported in uri [FILE://" + secret + "]"
		if a.Status != "ERROR" || a.ErrorCode != "E0904" || a.ErrorMessage != want {
			t.Errorf("fs action %s %s %q, want ERROR E0904 %q", a.Status, a.ErrorCode, a.ErrorMessage, want)
		}
	}
	if !found || info.Status != "KILLED" {
		t.Errorf("workflow %s: %+v, want KILLED after the fs action", info.Status, info.Actions)
	}
	if fi, err := os.Stat(secret); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the server's file was touched: %v, %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(local, "made")); err == nil {
		t.Error("the fs action created a directory on the server's disk")
	}
}
