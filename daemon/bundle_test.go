package daemon_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
)

// TestBundleWiring submits a bundle to a daemon through its REST API: the bundle engine
// is registered (the bundle kicks off and submits its coordinator through the coordinator
// engine) and follows its coordinator to the end through the coordinator engine's hook.
func TestBundleWiring(t *testing.T) {
	dir := t.TempDir()
	cfg, err := conf.Load(conf.Sources{ConfigDir: dir, LookupEnv: func(string) (string, bool) { return "", false },
		Flags: map[string]string{"gozie.db.url": "sqlite:" + filepath.Join(dir, "gozie.db"), "gozie.data.dir": dir,
			"gozie.purge.enabled": "false",
			// The apps are on the server's disk, which only an administrator opens.
			"gozie.filesystems.supported": "hdfs,file"}})
	if err != nil {
		t.Fatal(err)
	}
	apps := filepath.Join(dir, "apps")
	write := func(rel, content string) {
		p := filepath.Join(apps, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("wf/workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="no-op"><start to="end"/><end name="end"/></workflow-app>`)
	write("coord/coordinator.xml", `<coordinator-app name="c" frequency="${coord:hours(1)}" start="2025-01-01T00:00Z"
    end="2025-01-01T01:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <action><workflow><app-path>file://`+apps+`/wf</app-path></workflow></action></coordinator-app>`)
	write("bundle/bundle.xml", `<bundle-app name="wired" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="only"><app-path>file://`+apps+`/coord</app-path></coordinator></bundle-app>`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.Open(ctx, daemon.Options{Config: cfg, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	base := "http://" + ln.Addr().String() + "/oozie/v2/"
	var body strings.Builder
	if err := conf.WriteConfigurationXML(&body, conf.NewProperties("user.name", "joe",
		"oozie.bundle.application.path", "file://"+apps+"/bundle")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(base+"jobs?user.name=joe", "application/xml", strings.NewReader(body.String()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submit: %s %s", resp.Status, resp.Header.Get("oozie-error-message"))
	}
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
	deadline := time.Now().Add(30 * time.Second)
	for {
		getJSON(t, base+"job/"+id, &info)
		if info.Status == "SUCCEEDED" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bundle %s never succeeded: %+v", id, info)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition, with the deadline above
	}
	if len(info.BundleCoordJobs) != 1 || info.BundleCoordJobs[0].CoordJobName != "only" || info.BundleCoordJobs[0].Status != "SUCCEEDED" {
		t.Errorf("coordinators %+v", info.BundleCoordJobs)
	}
}
