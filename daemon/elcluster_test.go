package daemon_test

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/testenv/minidfs"
)

// fsDecisionApp decides on fs:exists of the job's flag: the done branch
// records the input's size (fs:dirSize in an action's configuration) and
// ends the workflow, the other kills it.
const fsDecisionApp = `<workflow-app xmlns="uri:oozie:workflow:0.5" name="fs-decision">
  <start to="ready"/>
  <decision name="ready">
    <switch>
      <case to="mark">${fs:exists(flag) and fs:fileSize(flag) eq 0}</case>
      <default to="waiting"/>
    </switch>
  </decision>
  <action name="mark">
    <fs><mkdir path="${nameNode}/user/alice/marks/size-${fs:dirSize('in')}"/></fs>
    <ok to="end"/><error to="waiting"/>
  </action>
  <kill name="waiting"><message>no flag at ${flag}</message></kill>
  <end name="end"/>
</workflow-app>`

// TestDecisionOnFSExists: through the server, a decision on fs:exists
// takes its case when the job's user sees the flag (and the action after it
// gets fs:dirSize of a path relative to the user's home in its
// configuration) and its default when the flag is missing; a flag the user may not read fails the decision
// node (EL_ERROR, the NameNode's refusal for the job's user), though the
// server's own user is the NameNode's proxy and could read it.
func TestDecisionOnFSExists(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skipf("no current operating-system user: %v", err)
	}
	if me.Username == "alice" || me.Username == "bob" {
		t.Skipf("the test's users must differ from the server's (%s)", me.Username)
	}
	// The server's user acts for the job's users, as a cluster's
	// administrator allows gozie to; hdfs owns the NameNode.
	dfs, err := minidfs.Start(context.Background(), minidfs.Options{Root: t.TempDir(), Superuser: "hdfs",
		Conf: minidfs.ProxyUserConf(me.Username)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dfs.Close() })
	flags := defaultFilesystems(t)
	flags["gozie.actions.default.name-node"] = dfs.URI()
	s := serve(t, flags)

	put := func(p, content string, perm os.FileMode) {
		t.Helper()
		local := filepath.Join(dfs.Root(), filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(local, []byte(content), perm); err != nil {
			t.Fatal(err)
		}
	}
	app := filepath.Join(dfs.Root(), "user", "alice", "fs-decision")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "workflow.xml"), []byte(fsDecisionApp), 0o644); err != nil {
		t.Fatal(err)
	}
	put("/user/alice/in/_SUCCESS", "", 0o644)
	put("/user/alice/in/part-00000", "abc", 0o644)
	put("/user/bob/private/_SUCCESS", "", 0o644)
	if err := os.Chmod(filepath.Join(dfs.Root(), "user", "bob", "private"), 0o700); err != nil {
		t.Fatal(err)
	}

	run := func(flag string) (string, wfInfo) {
		t.Helper()
		id := s.submit(t, "alice", "oozie.wf.application.path", dfs.URI()+"/user/alice/fs-decision",
			"nameNode", dfs.URI(), "flag", flag)
		info := s.runWorkflow(t, id, "alice", 30*time.Second)
		return info.Status, info
	}

	if status, acts := run(dfs.URI() + "/user/alice/in/_SUCCESS"); status != "SUCCEEDED" || acts.action("ready").Transition != "mark" {
		t.Errorf("flag present: %s, decision %+v; want SUCCEEDED through mark", status, acts.action("ready"))
	}
	if _, err := os.Stat(filepath.Join(dfs.Root(), "user", "alice", "marks", "size-3")); err != nil {
		t.Errorf("the mark action's path did not carry fs:dirSize: %v", err)
	}
	if status, acts := run("/user/alice/in/_DONE"); status != "KILLED" || acts.action("ready").Transition != "waiting" {
		t.Errorf("flag missing: %s, decision %+v; want KILLED through waiting", status, acts.action("ready"))
	}
	status, acts := run("/user/bob/private/_SUCCESS")
	if d := acts.action("ready"); status != "FAILED" || d.ErrorCode != "EL_ERROR" || !strings.Contains(d.ErrorMessage, "Permission denied: user=alice") {
		t.Errorf("flag alice may not see: %s, decision %+v; want FAILED with EL_ERROR and alice's refusal", status, d)
	}
}
