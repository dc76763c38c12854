package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bundleCoordRow is one row of the coordinator table of `job -info <bundle id>`.
type bundleCoordRow struct{ id, status string }

// bundleInfo runs `job -info` on a bundle and returns its status, its coordinator rows
// and the whole output.
func (e *env) bundleInfo(t *testing.T, id string) (string, []bundleCoordRow, string) {
	t.Helper()
	out, err := e.cli(t, "job", "-info", id)
	if err != nil {
		t.Fatalf("job -info %s: %v\n%s", id, err, out)
	}
	status := ""
	if m := statusLine.FindStringSubmatch(out); m != nil {
		status = m[1]
	}
	var rows []bundleCoordRow
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.HasSuffix(f[0], "-C") {
			rows = append(rows, bundleCoordRow{id: f[0], status: f[1]})
		}
	}
	return status, rows, out
}

// waitBundleInfo polls `job -info` of a bundle until cond holds, as a script would.
func (e *env) waitBundleInfo(t *testing.T, id, what string, timeout time.Duration,
	cond func(status string, rows []bundleCoordRow) bool) (string, []bundleCoordRow) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		status, rows, out := e.bundleInfo(t, id)
		if cond(status, rows) {
			return status, rows
		}
		if time.Now().After(deadline) {
			t.Fatalf("bundle %s: %s did not happen in %v; last info:\n%s", id, what, timeout, out)
		}
		time.Sleep(100 * time.Millisecond) // polling the CLI as a script would
	}
}

// TestBundleExample runs Oozie's bundle example unchanged, with the aggregator example it
// names, copied into the local cluster and pointed at it with the values of
// local-cluster.properties: having no kick-off time, the bundle kicks off its coordinator at
// once, under the bundle entry's name; suspending the bundle suspends the coordinator and
// resuming it resumes the coordinator; once the inputs are there the coordinator's two
// map-reduce actions run and the bundle ends SUCCEEDED.
func TestBundleExample(t *testing.T) {
	t.Parallel()
	apps := examples(t)
	e := localServer(t)
	e.copyApp(t, filepath.Join(apps, "aggregator"), "aggregator")
	app := e.copyApp(t, filepath.Join(apps, "bundle"), "bundle")
	id := e.run(t, filepath.Join(app, "job.properties"))
	if !strings.HasSuffix(id, "-B") {
		t.Fatalf("job id %s is not a bundle's", id)
	}

	// Kick-off: the coordinator exists and materialized its two actions, which wait for
	// their inputs.
	_, rows := e.waitBundleInfo(t, id, "the kick-off", time.Minute, func(status string, rows []bundleCoordRow) bool {
		return status == "RUNNING" && len(rows) == 1 && rows[0].status == "RUNNING"
	})
	coordID := rows[0].id
	coordOut, err := e.cli(t, "job", "-info", coordID)
	if err != nil || !strings.Contains(coordOut, "Job Name    : coord-1\n") || strings.Count(coordOut, "WAITING") != 2 {
		t.Fatalf("coordinator %s (%v):\n%s", coordID, err, coordOut)
	}
	var j struct {
		BundleJobName   string `json:"bundleJobName"`
		KickoffTime     any    `json:"kickoffTime"`
		StartTime       any    `json:"startTime"`
		BundleCoordJobs []struct {
			CoordJobName string `json:"coordJobName"`
			BundleID     string `json:"bundleId"`
		} `json:"bundleCoordJobs"`
	}
	resp, err := http.Get(e.url + "/v2/job/" + id)
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&j)
	resp.Body.Close()
	if err != nil || j.BundleJobName != "bundle-app" || j.KickoffTime != nil || j.StartTime == nil ||
		len(j.BundleCoordJobs) != 1 || j.BundleCoordJobs[0].CoordJobName != "coord-1" || j.BundleCoordJobs[0].BundleID != id {
		t.Fatalf("bundle JSON %+v (%v)", j, err)
	}

	// Suspend cascades.
	if out, err := e.cli(t, "job", "-suspend", id); err != nil {
		t.Fatalf("job -suspend: %v\n%s", err, out)
	}
	status, rows, out := e.bundleInfo(t, id)
	if status != "SUSPENDED" || len(rows) != 1 || rows[0].status != "SUSPENDED" {
		t.Fatalf("after -suspend:\n%s", out)
	}
	if out, err := e.cli(t, "job", "-info", coordID); err != nil || statusLine.FindStringSubmatch(out)[1] != "SUSPENDED" {
		t.Fatalf("coordinator after the bundle's suspend (%v):\n%s", err, out)
	}

	// The inputs arrive while the bundle is suspended: nothing may start until it resumes.
	raw := "user/" + e.user + "/examples/input-data/rawLogs/2010/01/01/"
	for _, dir := range []string{"00/20", "00/40", "01/00", "01/20", "01/40", "02/00"} {
		e.putData(t, raw+dir+"/part-00000", "log line "+dir+"\n")
		e.putData(t, raw+dir+"/_SUCCESS", "")
	}

	// Resume cascades.
	if out, err := e.cli(t, "job", "-resume", id); err != nil {
		t.Fatalf("job -resume: %v\n%s", err, out)
	}
	status, rows, out = e.bundleInfo(t, id)
	if status == "SUSPENDED" || len(rows) != 1 || rows[0].status == "SUSPENDED" {
		t.Fatalf("after -resume:\n%s", out)
	}

	final, info := e.waitJob(t, id, 4*time.Minute)
	if final != "SUCCEEDED" {
		coordOut, _ := e.cli(t, "job", "-info", coordID)
		t.Fatalf("bundle ended %s:\n%s\ncoordinator:\n%s", final, info, coordOut)
	}
	if _, rows, out := e.bundleInfo(t, id); len(rows) != 1 || rows[0].status != "SUCCEEDED" {
		t.Fatalf("coordinator row at the end:\n%s", out)
	}
	for _, hour := range []string{"01", "02"} {
		dir := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "output-data", "aggregator", "aggregatedLogs", "2010", "01", "01", hour)
		if _, err := os.Stat(filepath.Join(dir, "_SUCCESS")); err != nil {
			t.Errorf("no output for hour %s: %v", hour, err)
		}
	}
	if got := e.readData(t, "user/"+e.user+"/examples/output-data/aggregator/aggregatedLogs/2010/01/01/02"); !strings.Contains(got, "log line 01/20") {
		t.Errorf("output of 02:00 %q lacks its inputs", got)
	}
}
