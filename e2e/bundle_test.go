package e2e

import (
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
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
	var status string
	var rows []bundleCoordRow
	// Polling the CLI as a script would.
	testwait.Poll{Timeout: timeout, Every: 100 * time.Millisecond}.WaitForLast(t, "bundle "+id+": "+what, func() (bool, string) {
		var out string
		status, rows, out = e.bundleInfo(t, id)
		return cond(status, rows), "info:\n" + out
	})
	return status, rows
}

// bundleExample is the bundle example of one source: its name, the aggregator actions of
// each coordinator (by bundle entry name) and the input dataset's done-flag.
type bundleExample struct {
	name   string
	coords map[string][]aggAction
	flag   string
}

// bundleExamples: gozie's bundle runs the aggregator twice, an hour each; Oozie's once
// for two hours.
var bundleExamples = map[string]bundleExample{
	testapps.Gozie: {name: "clicks-bundle", flag: "_READY", coords: map[string][]aggAction{
		"clicks-first-hour":  aggregatorExamples["gozie"].actions[:1],
		"clicks-second-hour": aggregatorExamples["gozie"].actions[1:],
	}},
	testapps.Oozie: {name: "bundle-app", flag: "_SUCCESS", coords: map[string][]aggAction{
		"coord-1": aggregatorExamples["oozie"].actions,
	}},
}

// jobName is the "Job Name" of a `job -info` output.
var jobName = regexp.MustCompile(`(?m)^Job Name\s*:\s*(\S+)$`)

// TestBundleExample runs the bundle example unchanged (gozie's, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names it), with the aggregator example it names, copied into the
// local cluster and pointed at it with the values of local-cluster.properties: having no
// kick-off time, the bundle kicks off its coordinators at once, each under its bundle
// entry's name; suspending the bundle suspends the coordinators and resuming it resumes
// them; once the inputs are there the coordinators' map-reduce actions run and the bundle
// ends SUCCEEDED.
func TestBundleExample(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		testBundleExample(t, apps, bundleExamples[testapps.Source(apps)])
	})
}

// testBundleExample runs the bundle example of the apps under apps, whose
// expectations are ex.
func testBundleExample(t *testing.T, apps string, ex bundleExample) {
	e := localServer(t)
	e.copyApp(t, filepath.Join(apps, "aggregator"), "aggregator")
	app := e.copyApp(t, filepath.Join(apps, "bundle"), "bundle")
	id := e.run(t, filepath.Join(app, "job.properties"))
	if !strings.HasSuffix(id, "-B") {
		t.Fatalf("job id %s is not a bundle's", id)
	}
	allAre := func(rows []bundleCoordRow, status string) bool {
		for _, r := range rows {
			if r.status != status {
				return false
			}
		}
		return len(rows) == len(ex.coords)
	}

	// Kick-off: the coordinators exist and materialized their actions, which wait for
	// their inputs.
	_, rows := e.waitBundleInfo(t, id, "the kick-off", time.Minute, func(status string, rows []bundleCoordRow) bool {
		return status == "RUNNING" && allAre(rows, "RUNNING")
	})
	names := map[string]string{} // coordinator id → entry name
	for _, r := range rows {
		coordOut, err := e.cli(t, "job", "-info", r.id)
		m := jobName.FindStringSubmatch(coordOut)
		if err != nil || m == nil {
			t.Fatalf("coordinator %s (%v):\n%s", r.id, err, coordOut)
		}
		acts, ok := ex.coords[m[1]]
		if !ok || strings.Count(coordOut, "WAITING") != len(acts) || slices.Contains(slices.Collect(maps.Values(names)), m[1]) {
			t.Fatalf("coordinator %s is %q with %d WAITING, want one of %v with its actions waiting:\n%s",
				r.id, m[1], strings.Count(coordOut, "WAITING"), slices.Sorted(maps.Keys(ex.coords)), coordOut)
		}
		names[r.id] = m[1]
	}
	var j struct {
		BundleJobName   string `json:"bundleJobName"`
		KickoffTime     any    `json:"kickoffTime"`
		StartTime       any    `json:"startTime"`
		BundleCoordJobs []struct {
			CoordJobID   string `json:"coordJobId"`
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
	if err != nil || j.BundleJobName != ex.name || j.KickoffTime != nil || j.StartTime == nil ||
		len(j.BundleCoordJobs) != len(ex.coords) {
		t.Fatalf("bundle JSON %+v (%v)", j, err)
	}
	for _, c := range j.BundleCoordJobs {
		if _, ok := ex.coords[c.CoordJobName]; !ok || c.BundleID != id {
			t.Fatalf("bundle JSON coordinator %+v, want one of %v in %s", c, slices.Sorted(maps.Keys(ex.coords)), id)
		}
	}

	// Suspend cascades.
	if out, err := e.cli(t, "job", "-suspend", id); err != nil {
		t.Fatalf("job -suspend: %v\n%s", err, out)
	}
	status, rows, out := e.bundleInfo(t, id)
	if status != "SUSPENDED" || !allAre(rows, "SUSPENDED") {
		t.Fatalf("after -suspend:\n%s", out)
	}
	for coordID := range names {
		if out, err := e.cli(t, "job", "-info", coordID); err != nil || statusLine.FindStringSubmatch(out)[1] != "SUSPENDED" {
			t.Fatalf("coordinator after the bundle's suspend (%v):\n%s", err, out)
		}
	}

	// The inputs arrive while the bundle is suspended: nothing may start until it resumes.
	userRel := "user/" + e.user + "/examples/"
	for _, acts := range ex.coords {
		for _, a := range acts {
			for _, dir := range a.inputs {
				e.putData(t, userRel+dir+"/part-00000", "log line "+dir+"\n")
				e.putData(t, userRel+dir+"/"+ex.flag, "")
			}
		}
	}

	// Resume cascades.
	if out, err := e.cli(t, "job", "-resume", id); err != nil {
		t.Fatalf("job -resume: %v\n%s", err, out)
	}
	status, rows, out = e.bundleInfo(t, id)
	if status == "SUSPENDED" || len(rows) != len(ex.coords) || slices.ContainsFunc(rows, func(r bundleCoordRow) bool { return r.status == "SUSPENDED" }) {
		t.Fatalf("after -resume:\n%s", out)
	}

	final, info := e.waitJob(t, id, 4*time.Minute)
	if final != "SUCCEEDED" {
		t.Fatalf("bundle ended %s:\n%s", final, info)
	}
	if _, rows, out := e.bundleInfo(t, id); !allAre(rows, "SUCCEEDED") {
		t.Fatalf("coordinator rows at the end:\n%s", out)
	}
	for _, acts := range ex.coords {
		for _, a := range acts {
			if _, err := os.Stat(filepath.Join(e.dir, "dfs", filepath.FromSlash(userRel+a.output), "_SUCCESS")); err != nil {
				t.Errorf("no output %s: %v", a.output, err)
			}
			got := e.readData(t, userRel+a.output)
			for _, dir := range a.inputs {
				if !strings.Contains(got, "log line "+dir) {
					t.Errorf("output %s %q lacks its input %s", a.output, got, dir)
				}
			}
		}
	}
}
