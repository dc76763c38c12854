package daemon_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
	"github.com/gozie/gozie/internal/testwait"
)

// noFileSystemMsg is Hadoop 3's message for a scheme without a FileSystem
// (FileSystem.getFileSystemClass).
const noFileSystemMsg = `No FileSystem for scheme "foo"`

// foreignCoordApp is a coordinator of one hourly action waiting for a dataset
// on foo://, a scheme no filesystem of gozie implements, for at most timeout
// minutes.
func foreignCoordApp(wfPath string, timeout int) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="foreign" frequency="${coord:hours(1)}"
    start="2025-01-27T00:00Z" end="2025-01-27T01:00Z" timezone="UTC">
  <controls><timeout>` + strconv.Itoa(timeout) + `</timeout></controls>
  <datasets>
    <dataset name="logs" frequency="${coord:hours(1)}" initial-instance="2025-01-01T00:00Z" timezone="UTC">
      <uri-template>foo://x/y/${YEAR}</uri-template>
    </dataset>
  </datasets>
  <input-events><data-in name="in" dataset="logs"><instance>${coord:current(0)}</instance></data-in></input-events>
  <action><workflow><app-path>` + wfPath + `</app-path></workflow></action>
</coordinator-app>`
}

// coordActionInfo is what these tests read of a coordinator's actions.
type coordActionInfo struct {
	Status  string
	Actions []struct{ Status, MissingDependencies, ErrorCode, ErrorMessage string }
}

// TestInputOnSchemeWithoutFileSystemWaitsThenTimesOut: when
// gozie.filesystems.supported allows a scheme gozie has no filesystem for
// ("*", or the scheme listed), a coordinator with a dataset on it is
// accepted, as Oozie's is; its action waits with Hadoop's "No FileSystem for
// scheme" shown as the reason its dependency is missing (E1021), and times
// out after its timeout, as Oozie's input check does. A policy that leaves
// the scheme out still refuses the submission with E0904.
func TestInputOnSchemeWithoutFileSystemWaitsThenTimesOut(t *testing.T) {
	for _, supported := range []string{"*", "hdfs,file,foo"} {
		t.Run(supported, func(t *testing.T) {
			clk := clock.NewFake(time.Date(2025, 1, 27, 10, 0, 0, 0, time.UTC))
			s := serveWith(t, map[string]string{"gozie.filesystems.supported": supported}, daemon.Options{Clock: clk})
			s.write(t, "wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
			s.write(t, "coord/coordinator.xml", foreignCoordApp("file://"+s.apps+"/wf", 10))
			id := s.submit(t, "alice", "oozie.coord.application.path", "file://"+s.apps+"/coord")

			const dep = "foo://x/y/2025/_SUCCESS"
			info := s.waitCoordAction(t, id, func(i coordActionInfo) bool {
				return len(i.Actions) == 1 && i.Actions[0].ErrorCode != ""
			}, nil)
			a := info.Actions[0]
			if a.Status != "WAITING" || a.MissingDependencies != dep || a.ErrorCode != "E1021" ||
				!strings.Contains(a.ErrorMessage, noFileSystemMsg) {
				t.Fatalf("action %s missing %q error %s %q, want WAITING on %s with E1021 %q",
					a.Status, a.MissingDependencies, a.ErrorCode, a.ErrorMessage, dep, noFileSystemMsg)
			}
			// The coordinator's log says so too.
			if _, _, out := s.call(t, http.MethodGet, "/v2/job/"+id+"?show=log", "alice", ""); !strings.Contains(out, noFileSystemMsg) {
				t.Errorf("log does not name the failure:\n%s", out)
			}
			// Past its timeout (10 minutes) the action is TIMEDOUT.
			info = s.waitCoordAction(t, id, func(i coordActionInfo) bool {
				return i.Actions[0].Status != "WAITING"
			}, func() { clk.Advance(time.Minute) })
			if a := info.Actions[0]; a.Status != "TIMEDOUT" || a.MissingDependencies != dep {
				t.Errorf("after the timeout: action %s missing %q, want TIMEDOUT on %s", a.Status, a.MissingDependencies, dep)
			}
			if elapsed := clk.Now().Sub(time.Date(2025, 1, 27, 10, 0, 0, 0, time.UTC)); elapsed <= 10*time.Minute {
				t.Errorf("timed out after %s of the action's 10 minutes", elapsed)
			}
		})
	}
	t.Run("refused by the policy", func(t *testing.T) {
		s := serve(t, map[string]string{"gozie.filesystems.supported": "hdfs,file"})
		s.write(t, "wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
		s.write(t, "coord/coordinator.xml", foreignCoordApp("file://"+s.apps+"/wf", 10))
		status, code, out := s.call(t, http.MethodPost, "/v2/jobs", "alice",
			confXML(t, "user.name", "alice", "oozie.coord.application.path", "file://"+s.apps+"/coord"))
		if status != http.StatusBadRequest || code != "E0904" || !strings.Contains(out, "Scheme [foo] not supported in uri [foo://x/y/") {
			t.Errorf("submission: %d %s %s, want 400 E0904", status, code, out)
		}
	})
}

// TestPathsOnSchemeWithoutFileSystemFail: under "*", a workflow app path on a
// scheme gozie has no filesystem for is refused with Hadoop's message, and an
// fs action on one ends in ERROR with it (not retried as transient), its
// error transition taken.
func TestPathsOnSchemeWithoutFileSystemFail(t *testing.T) {
	s := serve(t, map[string]string{"gozie.filesystems.supported": "*"})
	status, code, out := s.call(t, http.MethodPost, "/v2/jobs", "alice",
		confXML(t, "user.name", "alice", "oozie.wf.application.path", "foo://x/app"))
	var e struct{ ErrorMessage string }
	_ = json.Unmarshal([]byte(out), &e)
	if status != http.StatusBadRequest || code != "E0902" || !strings.Contains(e.ErrorMessage, noFileSystemMsg) {
		t.Errorf("app path on foo: %d %s %s, want 400 E0902 with %q, as Oozie's HadoopAccessorService says", status, code, out, noFileSystemMsg)
	}
	status, code, out = s.call(t, http.MethodPost, "/v2/jobs", "alice",
		confXML(t, "user.name", "alice", "oozie.coord.application.path", "foo://x/coord"))
	e.ErrorMessage = ""
	_ = json.Unmarshal([]byte(out), &e)
	if status != http.StatusBadRequest || code != "E0902" || !strings.Contains(e.ErrorMessage, noFileSystemMsg) {
		t.Errorf("coordinator app path on foo: %d %s %s, want 400 E0902 with %q", status, code, out, noFileSystemMsg)
	}

	s.write(t, "fs/workflow.xml", mkdirWorkflow("fs-foreign", "foo://x/made"))
	id := s.submit(t, "alice", "oozie.wf.application.path", "file://"+s.apps+"/fs")
	info := s.runWorkflow(t, id, "alice", 30*time.Second)
	a := info.action("fs")
	if info.Status != "KILLED" || a.Status != "ERROR" || a.Transition != "failed" || !strings.Contains(a.ErrorMessage, noFileSystemMsg) {
		t.Errorf("workflow %s, fs action %s → %s %s %q; want KILLED after an ERROR with %q",
			info.Status, a.Status, a.Transition, a.ErrorCode, a.ErrorMessage, noFileSystemMsg)
	}
}

// waitCoordAction polls the coordinator's info as alice until done holds,
// calling step (when not nil) between polls; it fails the test after 30
// seconds.
func (s *served) waitCoordAction(t *testing.T, id string, done func(coordActionInfo) bool, step func()) coordActionInfo {
	t.Helper()
	var info coordActionInfo
	testwait.WaitForLast(t, testwait.Timeout, "coordinator "+id+" to meet the condition", func() (bool, string) {
		info = coordActionInfo{}
		_, _, out := s.call(t, http.MethodGet, "/v2/job/"+id+"?show=info&len=-1", "alice", "")
		if err := json.Unmarshal([]byte(out), &info); err != nil {
			t.Fatalf("info: %v: %s", err, out)
		}
		if len(info.Actions) > 0 && done(info) {
			return true, ""
		}
		if step != nil {
			step()
		}
		return false, out
	})
	return info
}

// confXML is a job configuration of name=value pairs.
func confXML(t *testing.T, pairs ...string) string {
	t.Helper()
	var body strings.Builder
	if err := conf.WriteConfigurationXML(&body, conf.NewProperties(pairs...)); err != nil {
		t.Fatal(err)
	}
	return body.String()
}

// mkdirWorkflow is a workflow named name of one fs action making the
// directory at path, whose error transition kills the job.
func mkdirWorkflow(name, path string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="` + name + `">
  <start to="fs"/>
  <action name="fs"><fs><mkdir path="` + path + `"/></fs><ok to="end"/><error to="failed"/></action>
  <kill name="failed"><message>fs failed: ${wf:errorCode('fs')}</message></kill>
  <end name="end"/>
</workflow-app>`
}
