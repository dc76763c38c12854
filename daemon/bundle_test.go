package daemon_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
)

// TestBundleWiring submits a bundle to a daemon through its REST API: the bundle engine
// is registered (the bundle kicks off and submits its coordinator through the coordinator
// engine) and follows its coordinator to the end through the coordinator engine's hook.
func TestBundleWiring(t *testing.T) {
	// The apps are on the server's disk, which only an administrator opens.
	s := serve(t, map[string]string{"gozie.filesystems.supported": "hdfs,file"})
	s.write(t, "wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
	s.write(t, "coord/coordinator.xml", `<coordinator-app name="c" frequency="${coord:hours(1)}" start="2025-01-01T00:00Z"
    end="2025-01-01T01:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>file://`+s.apps+`/wf</app-path></workflow></action></coordinator-app>`)
	s.write(t, "bundle/bundle.xml", `<bundle-app name="wired" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="only"><app-path>file://`+s.apps+`/coord</app-path></coordinator></bundle-app>`)
	s.submit(t, "joe", "oozie.bundle.application.path", "file://"+s.apps+"/bundle")
	base := s.base + "/v2/"
	var list struct {
		Bundlejobs []struct{ BundleJobID string }
	}
	getJSON(t, base+"jobs?jobtype=bundle", &list)
	if len(list.Bundlejobs) != 1 {
		t.Fatalf("bundles %+v", list)
	}
	id := list.Bundlejobs[0].BundleJobID
	var info struct {
		Status          string
		BundleCoordJobs []struct{ CoordJobName, Status string }
	}
	testwait.Poll{Timeout: 30 * time.Second, Every: 20 * time.Millisecond}.WaitForLast(t, "bundle "+id+" to succeed", func() (bool, string) {
		getJSON(t, base+"job/"+id, &info)
		return info.Status == "SUCCEEDED", fmt.Sprintf("%+v", info)
	})
	if len(info.BundleCoordJobs) != 1 || info.BundleCoordJobs[0].CoordJobName != "only" || info.BundleCoordJobs[0].Status != "SUCCEEDED" {
		t.Errorf("coordinators %+v", info.BundleCoordJobs)
	}
}
