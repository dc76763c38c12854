package e2e

import (
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/internal/testwait"
	_ "modernc.org/sqlite" // the server's database, read by the crash test
)

// The coordinator tests below drive the real gozie binary the way a data
// engineer would: `gozie job -config ... -run | -dryrun | -info`, `gozie jobs
// -jobtype coordinator`, and the REST API where the CLI shows less (the full
// missing dependencies, a workflow's configuration, action counts).

// minuteFormat is Oozie's datetime format in job properties.
const minuteFormat = "2006-01-02T15:04Z"

// noopWorkflow is the workflow of the coordinator apps these tests write:
// it only has to run.
const noopWorkflow = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="noop-wf">
  <start to="end"/>
  <end name="end"/>
</workflow-app>`

// writeCoordApp writes a coordinator app (its coordinator.xml and a no-op
// workflow.xml) into the user's examples dir on the cluster, with a
// job.properties naming it, and returns the job.properties path. Per-job
// values (start, end, ...) are passed as -D at submission.
func (e *env) writeCoordApp(t *testing.T, name, coordXML string) string {
	t.Helper()
	dir := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "apps", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"coordinator.xml": coordXML,
		"workflow.xml":    noopWorkflow,
		"job.properties": "nameNode=hdfs://localhost:8020\nresourceManager=localhost:8032\n" +
			"oozie.coord.application.path=${nameNode}/user/${user.name}/examples/apps/" + name + "\n",
	}
	for f, content := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "job.properties")
}

// localServerWith starts `gozie server -local` in a fresh data dir with
// extra server flags.
func localServerWith(t *testing.T, flags ...string) *env {
	t.Helper()
	dir := t.TempDir()
	_, addr := startServer(t, append([]string{"-local", "-data-dir", dir, "-config-dir", t.TempDir()}, flags...)...)
	return &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
}

// dryrun runs `gozie job -config <props> -dryrun` with the cluster's
// addresses and extra -D values, and returns its output.
func (e *env) dryrun(t *testing.T, jobProps string, extra ...string) string {
	t.Helper()
	args := []string{"job", "-config", jobProps, "-D", "nameNode=" + e.cluster["nameNode"],
		"-D", "resourceManager=" + e.cluster["resourceManager"]}
	for _, kv := range extra {
		args = append(args, "-D", kv)
	}
	out, err := e.cli(t, append(args, "-dryrun")...)
	if err != nil {
		t.Fatalf("gozie job -dryrun: %v\n%s", err, out)
	}
	return out
}

// coordAction is one action row of `gozie job -info <coordinator> -verbose`.
type coordAction struct {
	Number       int
	ID           string
	Status       string
	ExtID        string
	Nominal      time.Time
	FirstMissing string
}

// actionStatuses are the coordinator action statuses; the verbose -info
// writes the status right after the nominal time, with no delimiter.
var actionStatuses = regexp.MustCompile(`^(.*?)(WAITING|READY|SUBMITTED|RUNNING|SUSPENDED|TIMEDOUT|SUCCEEDED|KILLED|FAILED|IGNORED|SKIPPED)$`)

// coordInfo runs `gozie job -info <id> -verbose` (plus extra flags) and
// returns the job's status, its action rows and the raw output.
func (e *env) coordInfo(t *testing.T, id string, extra ...string) (string, []coordAction, string) {
	t.Helper()
	out, err := e.cli(t, append([]string{"job", "-info", id, "-verbose"}, extra...)...)
	if err != nil {
		t.Fatalf("gozie job -info %s: %v\n%s", id, err, out)
	}
	m := statusLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no status in the info of %s:\n%s", id, out)
	}
	var acts []coordAction
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 13 || !strings.HasPrefix(f[0], id+"@") {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("action number %q in %q", f[1], line)
		}
		sm := actionStatuses.FindStringSubmatch(f[10])
		if sm == nil {
			t.Fatalf("no status after the nominal time in %q", line)
		}
		nominal, err := time.Parse("2006-01-02 15:04:05 MST", sm[1])
		if err != nil {
			t.Fatalf("nominal time in %q: %v", line, err)
		}
		acts = append(acts, coordAction{Number: n, ID: f[0], Status: sm[2], ExtID: dash(f[5]), Nominal: nominal.UTC(),
			FirstMissing: dash(f[12])})
	}
	return m[1], acts, out
}

// dash maps the CLI's "-" for a null to "".
func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

// waitCoord polls `gozie job -info <id>` until cond holds on the job's
// status and actions, and returns them.
func (e *env) waitCoord(t *testing.T, id string, timeout time.Duration, what string,
	cond func(status string, acts []coordAction) bool, extra ...string) (string, []coordAction) {
	t.Helper()
	var status string
	var acts []coordAction
	// Polling the CLI as a script would.
	testwait.Poll{Timeout: timeout, Every: 200 * time.Millisecond}.WaitForLast(t, "coordinator "+id+" to reach "+what, func() (bool, string) {
		var out string
		status, acts, out = e.coordInfo(t, id, extra...)
		return cond(status, acts), "info:\n" + out
	})
	return status, acts
}

// coordTerminal reports whether a coordinator job status is final.
func coordTerminal(status string) bool {
	switch status {
	case "SUCCEEDED", "DONEWITHERROR", "KILLED", "FAILED", "IGNORED":
		return true
	}
	return false
}

// coordREST is the part of GET /v2/job/<coordinator id> the tests read.
type coordREST struct {
	Status               string `json:"status"`
	Total                int    `json:"total"`
	NextMaterializedTime string `json:"nextMaterializedTime"`
	Actions              []struct {
		ID                  string `json:"id"`
		ActionNumber        int    `json:"actionNumber"`
		Status              string `json:"status"`
		MissingDependencies string `json:"missingDependencies"`
	} `json:"actions"`
}

// coordJSON reads a coordinator through the REST API with the given query
// (len=0, Oozie's v2 default, answers the count of actions only).
func (e *env) coordJSON(t *testing.T, id string, query url.Values) coordREST {
	t.Helper()
	query.Set("show", "info")
	resp, err := http.Get(e.url + "/v2/job/" + id + "?" + query.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET job %s: %s", id, resp.Status)
	}
	var c coordREST
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatalf("decoding coordinator %s: %v", id, err)
	}
	return c
}

// wfConf returns a workflow job's configuration as the REST API shows it.
func (e *env) wfConf(t *testing.T, id string) map[string]string {
	t.Helper()
	resp, err := http.Get(e.url + "/v2/job/" + id + "?show=info")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var j struct {
		Conf string `json:"conf"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&j); err != nil {
		t.Fatal(err)
	}
	var c struct {
		Props []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal([]byte(j.Conf), &c); err != nil {
		t.Fatalf("configuration of %s: %v\n%s", id, err, j.Conf)
	}
	m := map[string]string{}
	for _, p := range c.Props {
		m[p.Name] = p.Value
	}
	return m
}

// nominals returns the actions' nominal times in Oozie's format, in row order.
func nominals(acts []coordAction) []string {
	var s []string
	for _, a := range acts {
		s = append(s, a.Nominal.Format(minuteFormat))
	}
	return s
}

// checkRanOnce checks that every action succeeded through a workflow of its
// own that succeeded and names the action as its parent.
func (e *env) checkRanOnce(t *testing.T, acts []coordAction) {
	t.Helper()
	seen := map[string]bool{}
	for _, a := range acts {
		if a.Status != "SUCCEEDED" || a.ExtID == "" || seen[a.ExtID] {
			t.Fatalf("action %s: status %s, workflow %q (seen before: %v)", a.ID, a.Status, a.ExtID, seen[a.ExtID])
		}
		seen[a.ExtID] = true
		if wf := e.jobInfo(t, a.ExtID); wf.Status != "SUCCEEDED" || wf.ParentID != a.ID {
			t.Errorf("workflow %s of %s: status %s, parent %q", a.ExtID, a.ID, wf.Status, wf.ParentID)
		}
	}
}

// cronWindow is one run of a cron example: its app, the coordinator name it shows, the
// start and end overrides (none keeps job.properties' values) and the nominal times
// it must materialize.
type cronWindow struct {
	name, app, coordName string
	window               []string
	want                 []string
	// marks is the folder (below the user's examples folder) where each run's workflow
	// makes a directory named after its nominal time (yyyyMMddHHmm); "" for none.
	marks string
	// doneFile is a file each mark directory holds ("" for none).
	doneFile string
}

// cronWindows are the runs of the cron examples of each source. gozie's run every 15
// minutes (coord:minutes(15)) and at 5/15 past each hour (a cron expression), and mark
// each run with a directory; Oozie's run every 10 minutes both ways. The narrower window
// shows the difference: coord:minutes counts from the start, a cron fires on its own marks,
// the first one at or after start, the last one before end.
var cronWindows = map[string][]cronWindow{
	testapps.Gozie: {
		{"every 15 minutes, job.properties window", "cron", "quarter-hour-coord", nil,
			[]string{"2010-01-01T00:00Z", "2010-01-01T00:15Z", "2010-01-01T00:30Z", "2010-01-01T00:45Z", "2010-01-01T01:00Z"},
			"output-data/cron", ""},
		{"every 15 minutes from 01:10", "cron", "quarter-hour-coord", []string{"start=2010-01-01T01:10Z", "end=2010-01-01T01:50Z"},
			[]string{"2010-01-01T01:10Z", "2010-01-01T01:25Z", "2010-01-01T01:40Z"}, "output-data/cron", ""},
		{"cron 5/15, job.properties window", "cron-schedule", "five-past-quarters-coord", nil,
			[]string{"2010-01-01T00:05Z", "2010-01-01T00:20Z", "2010-01-01T00:35Z", "2010-01-01T00:50Z"},
			"output-data/cron-schedule", "_DONE"},
		{"cron 5/15 from 01:10", "cron-schedule", "five-past-quarters-coord", []string{"start=2010-01-01T01:10Z", "end=2010-01-01T01:50Z"},
			[]string{"2010-01-01T01:20Z", "2010-01-01T01:35Z"}, "output-data/cron-schedule", "_DONE"},
	},
	testapps.Oozie: {
		{"every 10 minutes, job.properties window", "cron", "cron-coord", nil, tenMinutes, "", ""},
		{"every 10 minutes from 00:05", "cron", "cron-coord", []string{"start=2010-01-01T00:05Z", "end=2010-01-01T00:45Z"},
			[]string{"2010-01-01T00:05Z", "2010-01-01T00:15Z", "2010-01-01T00:25Z", "2010-01-01T00:35Z"}, "", ""},
		{"cron 0/10, job.properties window", "cron-schedule", "cron-coord", nil, tenMinutes, "", ""},
		{"cron 0/10 from 00:05", "cron-schedule", "cron-coord", []string{"start=2010-01-01T00:05Z", "end=2010-01-01T00:45Z"},
			[]string{"2010-01-01T00:10Z", "2010-01-01T00:20Z", "2010-01-01T00:30Z", "2010-01-01T00:40Z"}, "", ""},
	},
}

// tenMinutes are the nominal times of Oozie's cron examples with their job.properties.
var tenMinutes = []string{"2010-01-01T00:00Z", "2010-01-01T00:10Z", "2010-01-01T00:20Z", "2010-01-01T00:30Z",
	"2010-01-01T00:40Z", "2010-01-01T00:50Z"}

// TestCoordCronExamplesMaterializeTheirWindow runs the cron examples unchanged (gozie's,
// and Oozie's when GOZIE_OOZIE_EXAMPLES names them), a coord:minutes frequency and a cron
// expression, with their own start and end and with a narrower window: each materializes
// exactly the actions its start, end (exclusive) and frequency give, and every action
// runs its workflow (which, in gozie's apps, leaves a directory for its nominal time).
func TestCoordCronExamplesMaterializeTheirWindow(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		e := localServer(t)
		for _, app := range []string{"cron", "cron-schedule"} {
			e.copyApp(t, filepath.Join(apps, app), app)
		}
		for _, c := range cronWindows[testapps.Source(apps)] {
			t.Run(c.name, func(t *testing.T) {
				props := filepath.Join(e.dir, "dfs", "user", e.user, "examples", "apps", c.app, "job.properties")
				id := e.run(t, props, c.window...)
				status, acts := e.waitCoord(t, id, 2*time.Minute, "a final status",
					func(s string, _ []coordAction) bool { return coordTerminal(s) })
				if status != "SUCCEEDED" {
					t.Fatalf("the job ended %s", status)
				}
				if got := nominals(acts); !slices.Equal(got, c.want) {
					t.Fatalf("nominal times %v, want %v", got, c.want)
				}
				for i, a := range acts {
					if a.Number != i+1 || a.ID != fmt.Sprintf("%s@%d", id, i+1) {
						t.Fatalf("row %d is action %d (%s)", i+1, a.Number, a.ID)
					}
				}
				e.checkRanOnce(t, acts)
				// The name column is 15 wide, as Oozie's: a longer name runs into the status.
				out, err := e.cli(t, "jobs", "-jobtype", "coordinator")
				if err != nil || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(id)+`\s+`+regexp.QuoteMeta(c.coordName)+`\s*SUCCEEDED\s`).MatchString(out) {
					t.Fatalf("jobs -jobtype coordinator does not list %s as %s SUCCEEDED: %v\n%s", id, c.coordName, err, out)
				}
				if c.marks == "" {
					return
				}
				for _, a := range acts {
					mark := filepath.Join(e.dir, "dfs", "user", e.user, "examples", filepath.FromSlash(c.marks), a.Nominal.Format("200601021504"))
					if fi, err := os.Stat(mark); err != nil || !fi.IsDir() {
						t.Errorf("the workflow of %s made no directory %s: %v", a.ID, mark, err)
					}
					if c.doneFile == "" {
						continue
					}
					if _, err := os.Stat(filepath.Join(mark, c.doneFile)); err != nil {
						t.Errorf("the workflow of %s left no %s: %v", a.ID, c.doneFile, err)
					}
				}
			})
		}
	})
}

// aggAction is one action of an aggregator coordinator: its nominal time, its input
// instances (newest first) and its output instance, paths below the user's examples
// folder.
type aggAction struct {
	nominal string
	inputs  []string
	output  string
}

// aggregatorExample is the aggregator example of one source with its own job.properties.
type aggregatorExample struct {
	flag    string // the input dataset's done-flag
	actions []aggAction
}

// aggregatorExamples: gozie's aggregator gathers the four quarter-hour click logs of
// each hour, flagged _READY; Oozie's three 20-minute raw logs, flagged _SUCCESS.
var aggregatorExamples = map[string]aggregatorExample{
	testapps.Gozie: {flag: "_READY", actions: []aggAction{
		{"2010-01-01T02:00Z", withPrefix("input-data/clicks/20100101/", "0200", "0145", "0130", "0115"),
			"output-data/aggregator/clicks-by-hour/20100101/02"},
		{"2010-01-01T03:00Z", withPrefix("input-data/clicks/20100101/", "0300", "0245", "0230", "0215"),
			"output-data/aggregator/clicks-by-hour/20100101/03"},
	}},
	testapps.Oozie: {flag: "_SUCCESS", actions: []aggAction{
		{"2010-01-01T01:00Z", withPrefix("input-data/rawLogs/2010/01/01/", "01/00", "00/40", "00/20"),
			"output-data/aggregator/aggregatedLogs/2010/01/01/01"},
		{"2010-01-01T02:00Z", withPrefix("input-data/rawLogs/2010/01/01/", "02/00", "01/40", "01/20"),
			"output-data/aggregator/aggregatedLogs/2010/01/01/02"},
	}},
}

// withPrefix returns each of names with prefix before it.
func withPrefix(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// TestCoordAggregatorExampleWaitsForItsInputs runs the aggregator example unchanged
// (gozie's, and Oozie's when GOZIE_OOZIE_EXAMPLES names it): its two actions wait with
// their missing dependencies (their range of instances, newest first, with the dataset's
// done-flag) listed; a directory without its done-flag does not count (nor, where the
// dataset names its own flag, Hadoop's _SUCCESS); once an action's instances are complete
// it runs, and its map-reduce workflow receives inputData and outputData as Oozie resolves
// them and copies the input lines.
func TestCoordAggregatorExampleWaitsForItsInputs(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		testCoordAggregator(t, apps, aggregatorExamples[testapps.Source(apps)])
	})
}

// testCoordAggregator runs the aggregator example of the apps under apps, whose
// expectations are ex.
func testCoordAggregator(t *testing.T, apps string, ex aggregatorExample) {
	e := localServer(t)
	app := e.copyApp(t, filepath.Join(apps, "aggregator"), "aggregator")
	id := e.run(t, filepath.Join(app, "job.properties"))
	a1, a2 := ex.actions[0], ex.actions[1]

	userRel := "user/" + e.user + "/examples/"
	uri := func(rel string) string { return e.cluster["nameNode"] + "/" + userRel + rel }
	deps := func(instances ...string) string {
		var s []string
		for _, i := range instances {
			s = append(s, uri(i)+"/"+ex.flag)
		}
		return strings.Join(s, "#")
	}
	missing := func(n int) string {
		c := e.coordJSON(t, id, url.Values{"len": {"10"}})
		for _, a := range c.Actions {
			if a.ActionNumber == n {
				return a.MissingDependencies
			}
		}
		t.Fatalf("coordinator %s has no action %d: %+v", id, n, c.Actions)
		return ""
	}

	_, acts := e.waitCoord(t, id, time.Minute, "two waiting actions", func(_ string, acts []coordAction) bool {
		return len(acts) == 2 && acts[0].Status == "WAITING" && acts[1].Status == "WAITING"
	})
	if got := nominals(acts); !slices.Equal(got, []string{a1.nominal, a2.nominal}) {
		t.Fatalf("nominal times %v", got)
	}
	if acts[0].FirstMissing != deps(a1.inputs[0]) || acts[1].FirstMissing != deps(a2.inputs[0]) {
		t.Fatalf("first missing dependencies %q and %q", acts[0].FirstMissing, acts[1].FirstMissing)
	}
	if got, want := missing(1), deps(a1.inputs...); got != want {
		t.Fatalf("missing dependencies of action 1:\n got %s\nwant %s", got, want)
	}
	if got, want := missing(2), deps(a2.inputs...); got != want {
		t.Fatalf("missing dependencies of action 2:\n got %s\nwant %s", got, want)
	}

	put := func(instance string, doneFlag bool) {
		e.putData(t, userRel+instance+"/part-00000", "log "+instance+"\n")
		switch {
		case doneFlag:
			e.putData(t, userRel+instance+"/"+ex.flag, "")
		case ex.flag != "_SUCCESS":
			// Hadoop's flag is not the dataset's.
			e.putData(t, userRel+instance+"/_SUCCESS", "")
		}
	}
	// The newest instance complete, the next one without its done-flag:
	// action 1 goes on waiting for the older ones.
	put(a1.inputs[0], true)
	put(a1.inputs[1], false)
	e.waitCoord(t, id, time.Minute, "action 1 waiting for "+a1.inputs[1], func(_ string, acts []coordAction) bool {
		return len(acts) == 2 && acts[0].FirstMissing == deps(a1.inputs[1])
	})
	if got, want := missing(1), deps(a1.inputs[1:]...); got != want {
		t.Fatalf("missing dependencies of action 1 after %s arrived:\n got %s\nwant %s", a1.inputs[0], got, want)
	}
	if s, _, _ := e.coordInfo(t, id); s != "RUNNING" {
		t.Fatalf("job status %s while its actions wait", s)
	}
	out, err := e.cli(t, "job", "-info", id+"@1")
	if err != nil || !strings.Contains(out, "First Missing Dependency : "+deps(a1.inputs[1])) ||
		!regexp.MustCompile(`(?m)^Status\s+: WAITING$`).MatchString(out) {
		t.Fatalf("job -info %s@1: %v\n%s", id, err, out)
	}

	for _, i := range a1.inputs[1:] {
		put(i, true)
	}
	_, acts = e.waitCoord(t, id, 2*time.Minute, "action 1 SUCCEEDED", func(_ string, acts []coordAction) bool {
		return len(acts) == 2 && acts[0].Status == "SUCCEEDED"
	})
	if acts[1].Status != "WAITING" {
		t.Fatalf("action 2 is %s without its inputs", acts[1].Status)
	}
	checkWorkflow := func(a coordAction, want aggAction) {
		t.Helper()
		conf := e.wfConf(t, a.ExtID)
		var in []string
		for _, i := range want.inputs {
			in = append(in, uri(i))
		}
		if got, want := conf["inputData"], strings.Join(in, ","); got != want {
			t.Errorf("inputData of %s:\n got %s\nwant %s", a.ID, got, want)
		}
		if got, want := conf["outputData"], uri(want.output); got != want {
			t.Errorf("outputData of %s: got %s, want %s", a.ID, got, want)
		}
		// The map-reduce job copies its input lines (keyed by offset).
		var lines []string
		for _, i := range want.inputs {
			lines = append(lines, "0\tlog "+i)
		}
		got := strings.Split(strings.TrimSpace(e.readData(t, userRel+want.output)), "\n")
		slices.Sort(got)
		slices.Sort(lines)
		if !slices.Equal(got, lines) {
			t.Errorf("output of %s: %q, want %q", a.ID, got, lines)
		}
	}
	checkWorkflow(acts[0], a1)

	for _, i := range a2.inputs {
		put(i, true)
	}
	status, acts := e.waitCoord(t, id, 2*time.Minute, "a final status",
		func(s string, _ []coordAction) bool { return coordTerminal(s) })
	if status != "SUCCEEDED" {
		t.Fatalf("the job ended %s", status)
	}
	e.checkRanOnce(t, acts)
	checkWorkflow(acts[1], a2)
}

// dstCoordinator is a coordinator app named name with the given frequency,
// in the Los Angeles time zone.
func dstCoordinator(name, freq string) string {
	return `<coordinator-app name="` + name + `" frequency="` + freq + `" start="${start}" end="${end}"
    timezone="America/Los_Angeles" xmlns="uri:oozie:coordinator:0.4">
  <action>
    <workflow>
      <app-path>${nameNode}/user/${coord:user()}/examples/apps/` + name + `</app-path>
    </workflow>
  </action>
</coordinator-app>`
}

var actionNominalTime = regexp.MustCompile(`action-nominal-time="([^"]+)"`)

// TestCoordDryRunAcrossDST: `-dryrun` of daily coordinators in
// America/Los_Angeles lists nominal times that keep local midnight (or the
// cron's local wall time) across both DST changes, so they shift by an hour
// in UTC; coord:hours(24) is elapsed time and does not shift. A dry run
// covers one materialization window from the start, as Oozie's does; the
// server's window is set to five days so that it spans the change. Running
// the same jobs materializes the same nominal times.
func TestCoordDryRunAcrossDST(t *testing.T) {
	t.Parallel()
	e := localServerWith(t, "-coord.materialization.window", "120h")
	cases := []struct {
		name, freq, start, end string
		want                   []string
	}{
		{"days(1), DST starts", "${coord:days(1)}", "2013-03-08T08:00Z", "2013-03-12T07:00Z",
			[]string{"2013-03-08T08:00Z", "2013-03-09T08:00Z", "2013-03-10T08:00Z", "2013-03-11T07:00Z"}},
		{"days(1), DST ends", "${coord:days(1)}", "2013-11-01T07:00Z", "2013-11-05T08:00Z",
			[]string{"2013-11-01T07:00Z", "2013-11-02T07:00Z", "2013-11-03T07:00Z", "2013-11-04T08:00Z"}},
		{"daily cron, DST starts", "0 8 * * *", "2013-03-08T08:00Z", "2013-03-12T00:00Z",
			[]string{"2013-03-08T08:00Z", "2013-03-09T08:00Z", "2013-03-10T08:00Z", "2013-03-11T07:00Z"}},
		{"daily cron, DST ends", "0 7 * * *", "2013-11-01T07:00Z", "2013-11-05T00:00Z",
			[]string{"2013-11-01T07:00Z", "2013-11-02T07:00Z", "2013-11-03T07:00Z", "2013-11-04T08:00Z"}},
		{"hours(24) does not shift", "${coord:hours(24)}", "2013-03-08T08:00Z", "2013-03-12T00:00Z",
			[]string{"2013-03-08T08:00Z", "2013-03-09T08:00Z", "2013-03-10T08:00Z", "2013-03-11T08:00Z"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name := fmt.Sprintf("dst-%d", i+1)
			props := e.writeCoordApp(t, name, dstCoordinator(name, c.freq))
			window := []string{"start=" + c.start, "end=" + c.end}
			out := e.dryrun(t, props, window...)
			var got []string
			for _, m := range actionNominalTime.FindAllStringSubmatch(out, -1) {
				got = append(got, m[1])
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("dry run nominal times %v, want %v:\n%s", got, c.want, out)
			}
			if !strings.Contains(out, fmt.Sprintf("***total coord actions is %d ***", len(c.want))) {
				t.Errorf("the dry run does not count %d actions:\n%s", len(c.want), out)
			}
			id := e.run(t, props, window...)
			status, acts := e.waitCoord(t, id, 2*time.Minute, "a final status",
				func(s string, _ []coordAction) bool { return coordTerminal(s) })
			if status != "SUCCEEDED" || !slices.Equal(nominals(acts), c.want) {
				t.Fatalf("the job ended %s with nominal times %v, want SUCCEEDED with %v", status, nominals(acts), c.want)
			}
		})
	}
}

// lastOnlyCoordinator runs LAST_ONLY every hour.
const lastOnlyCoordinator = `<coordinator-app name="last-only" frequency="${coord:hours(1)}" start="${start}" end="${end}"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls>
    <execution>LAST_ONLY</execution>
  </controls>
  <action>
    <workflow>
      <app-path>${nameNode}/user/${coord:user()}/examples/apps/last-only</app-path>
    </workflow>
  </action>
</coordinator-app>`

// TestCoordLastOnlyRunsOnlyTheLatest submits an hourly LAST_ONLY coordinator
// that starts 30 days ago and ends half an hour from now: every action is
// materialized at once, only the latest (whose successor's nominal time has
// not come) runs, the others are SKIPPED, and the job SUCCEEDS.
func TestCoordLastOnlyRunsOnlyTheLatest(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	props := e.writeCoordApp(t, "last-only", lastOnlyCoordinator)
	const n = 30 * 24
	// The latest action's nominal time is half an hour ago, and the job ends
	// half an hour from now: the test has that long before it would be
	// skipped too.
	latest := time.Now().UTC().Truncate(time.Minute).Add(-30 * time.Minute)
	first := latest.Add(-(n - 1) * time.Hour)
	id := e.run(t, props, "start="+first.Format(minuteFormat), "end="+latest.Add(time.Hour).Format(minuteFormat))
	status, acts := e.waitCoord(t, id, 2*time.Minute, "a final status",
		func(s string, _ []coordAction) bool { return coordTerminal(s) })
	if status != "SUCCEEDED" || len(acts) != n {
		t.Fatalf("the job ended %s with %d actions, want SUCCEEDED with %d", status, len(acts), n)
	}
	for i, a := range acts[:n-1] {
		if nt := first.Add(time.Duration(i) * time.Hour); a.Number != i+1 || a.Status != "SKIPPED" || a.ExtID != "" ||
			!a.Nominal.Equal(nt) {
			t.Fatalf("action %+v, want number %d SKIPPED at %s without a workflow", a, i+1, nt.Format(minuteFormat))
		}
	}
	last := acts[n-1]
	if last.Number != n || !last.Nominal.Equal(latest) {
		t.Fatalf("the last action is %+v, want number %d at %s", last, n, latest.Format(minuteFormat))
	}
	e.checkRanOnce(t, acts[n-1:])
	out, err := e.cli(t, "jobs", "-jobtype", "wf")
	if err != nil || strings.Count(out, "-W ") != 1 || !strings.Contains(out, last.ExtID) {
		t.Fatalf("want one workflow, %s: %v\n%s", last.ExtID, err, out)
	}
}

// timeoutCoordinator waits for an hourly dataset with a timeout of 0
// minutes: an action whose input is missing times out once it has waited
// more than that, a minute after its creation.
var timeoutCoordinator = hourlyInputCoordinator("timeout-coord", "\n    <timeout>0</timeout>\n    <concurrency>2</concurrency>\n  ",
	"examples/input-data/hourly/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}", "timeout")

// TestCoordTimeoutAndStatusRollup: a waiting action whose input never comes
// turns TIMEDOUT; a finished job with a SUCCEEDED and a TIMEDOUT action is
// DONEWITHERROR; a job still materializing whose actions all timed out stays
// RUNNING (Oozie hides RUNNINGWITHERROR by default) and is DONEWITHERROR
// once a change of its end time finishes it.
func TestCoordTimeoutAndStatusRollup(t *testing.T) {
	t.Parallel()
	e := localServer(t)
	props := e.writeCoordApp(t, "timeout", timeoutCoordinator)
	dataRel := "user/" + e.user + "/examples/input-data/hourly/"
	// Job A: two past hours, the input of the first present.
	e.putData(t, dataRel+"2010/01/01/00/00/_SUCCESS", "")
	a := e.run(t, props, "start=2010-01-01T00:00Z", "end=2010-01-01T02:00Z")
	// Job B: its first two actions are due (90 and 30 minutes ago), its
	// next only in half an hour.
	startB := time.Now().UTC().Truncate(time.Minute).Add(-90 * time.Minute)
	b := e.run(t, props, "start="+startB.Format(minuteFormat), "end="+startB.Add(10*time.Hour).Format(minuteFormat))

	status, acts := e.waitCoord(t, a, time.Minute, "action 1 SUCCEEDED and action 2 WAITING",
		func(_ string, acts []coordAction) bool {
			return len(acts) == 2 && acts[0].Status == "SUCCEEDED" && acts[1].Status == "WAITING"
		})
	if status != "RUNNING" {
		t.Fatalf("job A is %s while an action waits", status)
	}
	if want := e.cluster["nameNode"] + "/" + dataRel + "2010/01/01/01/00/_SUCCESS"; acts[1].FirstMissing != want {
		t.Fatalf("action 2 waits for %q, want %q", acts[1].FirstMissing, want)
	}
	e.checkRanOnce(t, acts[:1])

	status, acts = e.waitCoord(t, a, 3*time.Minute, "a final status",
		func(s string, _ []coordAction) bool { return coordTerminal(s) })
	if status != "DONEWITHERROR" || len(acts) != 2 || acts[0].Status != "SUCCEEDED" || acts[1].Status != "TIMEDOUT" ||
		acts[1].ExtID != "" {
		t.Fatalf("job A ended %s with actions %+v, want DONEWITHERROR with SUCCEEDED and TIMEDOUT", status, acts)
	}

	status, acts = e.waitCoord(t, b, 3*time.Minute, "two TIMEDOUT actions", func(_ string, acts []coordAction) bool {
		return len(acts) == 2 && acts[0].Status == "TIMEDOUT" && acts[1].Status == "TIMEDOUT"
	})
	if status != "RUNNING" {
		t.Fatalf("job B is %s with its actions timed out and more to materialize, want RUNNING", status)
	}
	if got, want := nominals(acts), []string{startB.Format(minuteFormat), startB.Add(time.Hour).Format(minuteFormat)}; !slices.Equal(got, want) {
		t.Fatalf("job B's nominal times %v, want %v", got, want)
	}
	newEnd := startB.Add(2 * time.Hour).Format(minuteFormat)
	if out, err := e.cli(t, "job", "-change", b, "-value", "endtime="+newEnd); err != nil {
		t.Fatalf("job -change: %v\n%s", err, out)
	}
	status, acts = e.waitCoord(t, b, time.Minute, "a final status",
		func(s string, _ []coordAction) bool { return coordTerminal(s) })
	if status != "DONEWITHERROR" || len(acts) != 2 {
		t.Fatalf("job B ended %s with %d actions, want DONEWITHERROR with 2", status, len(acts))
	}
}

// manyCoordinator materializes one action a minute: at most 500 wait (the
// throttle) while up to 500 run, so a catch-up advances as its no-op
// workflows end.
const manyCoordinator = `<coordinator-app name="many" frequency="${coord:minutes(1)}" start="${start}" end="${end}"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.4">
  <controls>
    <concurrency>500</concurrency>
    <throttle>500</throttle>
  </controls>
  <action>
    <workflow>
      <app-path>${nameNode}/user/${coord:user()}/examples/apps/many</app-path>
    </workflow>
  </action>
</coordinator-app>`

// TestCoordServerKilledDuringMaterialization submits two days of one-minute
// actions, kills the server with SIGKILL once some but not all of them
// exist, starts it again on the same database, and checks that every action
// number 1..N exists exactly once with its own nominal time, and that no
// action got two workflows.
func TestCoordServerKilledDuringMaterialization(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start(t, "local cluster started", "minicluster", "-data-dir", dir)
	addr := freeAddr(t)
	dbPath := filepath.Join(dir, "gozie.db")
	serverArgs := []string{"server", "-data-dir", dir, "-db", "sqlite:" + dbPath, "-addr", addr,
		"-config-dir", t.TempDir(), "-engine.lease", "2s"}
	server := start(t, "gozie server started", serverArgs...)
	e := &env{dir: dir, url: "http://" + addr + "/oozie", cluster: readCluster(t, dir), user: currentUser(t)}
	props := e.writeCoordApp(t, "many", manyCoordinator)

	const n = 2 * 24 * 60
	first := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	id := e.run(t, props, "start="+first.Format(minuteFormat), "end="+first.Add(n*time.Minute).Format(minuteFormat))
	// Polling the REST API for the first actions.
	testwait.Poll{Timeout: time.Minute, Every: 10 * time.Millisecond}.WaitFor(t, "an action to be materialized", func() bool {
		total := e.coordJSON(t, id, url.Values{}).Total
		if total == n {
			t.Fatalf("all %d actions were materialized before the server could be killed; make n larger", n)
		}
		return total > 0
	})
	server.kill9(t)

	db, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func() (rows, distinct, lo, hi int) {
		t.Helper()
		err := db.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT action_number), COALESCE(MIN(action_number), 0),
			COALESCE(MAX(action_number), 0) FROM coord_actions WHERE job_id = ?`, id).Scan(&rows, &distinct, &lo, &hi)
		if err != nil {
			t.Fatalf("counting the actions in the database: %v", err)
		}
		return rows, distinct, lo, hi
	}
	killedAt, _, _, _ := count()
	if killedAt == 0 || killedAt >= n {
		t.Fatalf("%d of %d actions existed when the server was killed; want some but not all", killedAt, n)
	}
	t.Logf("killed with %d of %d actions materialized", killedAt, n)

	start(t, "gozie server started", serverArgs...)
	end := first.Add(n * time.Minute)
	testwait.Poll{Timeout: 4 * time.Minute, Every: 100 * time.Millisecond}.WaitForLast(t,
		"materialization to finish after the restart", func() (bool, string) {
			c := e.coordJSON(t, id, url.Values{})
			next, err := time.Parse(time.RFC1123, c.NextMaterializedTime)
			return c.Total >= n && err == nil && next.Equal(end),
				fmt.Sprintf("%d actions, next materialization %s", c.Total, c.NextMaterializedTime)
		})

	_, acts, _ := e.coordInfo(t, id, "-len", strconv.Itoa(2*n))
	if len(acts) != n {
		t.Fatalf("job -info lists %d actions, want %d", len(acts), n)
	}
	workflows := map[string]string{}
	for i, a := range acts {
		if a.Number != i+1 || a.ID != fmt.Sprintf("%s@%d", id, i+1) || !a.Nominal.Equal(first.Add(time.Duration(i)*time.Minute)) {
			t.Fatalf("row %d is %+v, want action %d at %s", i+1, a, i+1, first.Add(time.Duration(i)*time.Minute).Format(minuteFormat))
		}
		if a.ExtID == "" {
			continue
		}
		if other, dup := workflows[a.ExtID]; dup {
			t.Fatalf("actions %s and %s share workflow %s", other, a.ID, a.ExtID)
		}
		workflows[a.ExtID] = a.ID
	}
	if rows, distinct, lo, hi := count(); rows != n || distinct != n || lo != 1 || hi != n {
		t.Fatalf("database: %d rows, %d distinct numbers from %d to %d; want %d rows numbered 1..%d", rows, distinct, lo, hi, n, n)
	}
	var twice int
	if err := db.QueryRow(`SELECT COUNT(*) FROM (SELECT parent_id FROM wf_jobs WHERE parent_id LIKE ?
		GROUP BY parent_id HAVING COUNT(*) > 1)`, id+"@%").Scan(&twice); err != nil {
		t.Fatal(err)
	}
	if twice != 0 {
		t.Fatalf("%d actions have more than one workflow", twice)
	}
}
