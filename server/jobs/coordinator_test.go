package jobs_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/store"
)

// coordConf is the XML configuration of a submission of the coordinator at appPath by joe.
func coordConf(t *testing.T, appPath string) string {
	t.Helper()
	return configXML(t, "user.name", "joe", "oozie.coord.application.path", appPath)
}

// submitCoord submits a coordinator and returns its id.
func (f *fixture) submitCoord(t *testing.T, appPath string) string {
	t.Helper()
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml", coordConf(t, appPath))
	if r.status != http.StatusCreated {
		t.Fatalf("submit coordinator: %d %s %s", r.status, r.header.Get("oozie-error-message"), r.body)
	}
	var out oozieapi.JobID
	decode(t, r.body, &out)
	if !strings.HasSuffix(out.ID, "-C") {
		t.Fatalf("coordinator id %q", out.ID)
	}
	return out.ID
}

// coordInfo reads GET job/<id> with a query and decodes the coordinator.
func (f *fixture) coordInfo(t *testing.T, version, id, query string) oozieapi.CoordinatorJob {
	t.Helper()
	r := f.call(t, http.MethodGet, "/oozie/"+version+"/job/"+id+query, "", "")
	if r.status != http.StatusOK {
		t.Fatalf("info %s%s: %d %s", id, query, r.status, r.body)
	}
	var j oozieapi.CoordinatorJob
	decode(t, r.body, &j)
	return j
}

// waitCoordStatus polls the job's status until it is want, failing after a deadline.
func (f *fixture) waitCoordStatus(t *testing.T, id, want string) {
	t.Helper()
	testwait.WaitForLast(t, testwait.Timeout, "coordinator "+id+" to be "+want, func() (bool, string) {
		r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=status", "", "")
		var st oozieapi.JobStatus
		decode(t, r.body, &st)
		return st.Status == want, st.Status
	})
}

// setupCoord starts the engine and runs an hourly coordinator of five no-op actions to its
// end (the fake clock is hours past it).
func setupCoord(t *testing.T) (*fixture, string) {
	t.Helper()
	f := setup(t)
	f.StartEngine(t)
	app := f.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(f.appPath(appNoOp), "2025-01-27T00:00Z", "2025-01-27T05:00Z"))
	id := f.submitCoord(t, app)
	f.waitCoordStatus(t, id, "SUCCEEDED")
	return f, id
}

func TestCoordinatorInfo(t *testing.T) {
	t.Parallel()
	f, id := setupCoord(t)
	j := f.coordInfo(t, "v1", id, "")
	if j.ID != id || j.AppName != "hourly-coord" || j.Frequency != "60" || j.TimeUnit != "MINUTE" || j.Status != "SUCCEEDED" {
		t.Errorf("job = %+v", j)
	}
	if got := j.ToString; got != "Coordinator application id["+id+"] status[SUCCEEDED]" {
		t.Errorf("toString %q", got)
	}
	if got := j.NextMaterializedTime.Time; !got.Equal(time.Date(2025, 1, 27, 5, 0, 0, 0, time.UTC)) {
		t.Errorf("nextMaterializedTime %v", got)
	}
	if len(j.Actions) != 5 || j.Total != 5 {
		t.Fatalf("%d actions, total %d, want 5", len(j.Actions), j.Total)
	}
	for i, a := range j.Actions {
		if a.ActionNumber != i+1 || a.JobID != id || a.Status != "SUCCEEDED" || !strings.HasSuffix(a.ExternalID, "-W") {
			t.Errorf("action %d = %+v", i, a)
		}
		if want := time.Date(2025, 1, 27, i, 0, 0, 0, time.UTC); !a.NominalTime.Time.Equal(want) {
			t.Errorf("action %d nominal time %v, want %v", i+1, a.NominalTime.Time, want)
		}
	}
	// The raw JSON carries Oozie's names.
	raw := f.call(t, http.MethodGet, "/oozie/v1/job/"+id+"?len=1", "", "").body
	for _, name := range []string{`"coordJobId":`, `"coordJobName":"hourly-coord"`, `"frequency":"60"`, `"timeUnit":"MINUTE"`,
		`"nextMaterializedTime":"Mon, 27 Jan 2025 05:00:00 GMT"`, `"actionNumber":1`, `"nominalTime":"Mon, 27 Jan 2025 00:00:00 GMT"`,
		`"missingDependencies":null`, `"pauseTime":null`, `"total":5`} {
		if !strings.Contains(raw, name) {
			t.Errorf("info JSON lacks %s: %s", name, raw)
		}
	}
}

func TestCoordinatorInfoPaging(t *testing.T) {
	t.Parallel()
	f, id := setupCoord(t)
	tests := []struct {
		version, query string
		want           []int // action numbers
		total          int
	}{
		{"v1", "", []int{1, 2, 3, 4, 5}, 5},
		{"v1", "?len=0", []int{1, 2, 3, 4, 5}, 5},
		{"v2", "", nil, 5},
		{"v2", "?len=-1", []int{1, 2, 3, 4, 5}, 5},
		{"v2", "?offset=2&len=2", []int{2, 3}, 5},
		{"v2", "?order=desc&len=2", []int{5, 4}, 5},
		{"v2", "?len=10&filter=status%3DSUCCEEDED", []int{1, 2, 3, 4, 5}, 5},
		{"v2", "?len=10&filter=status%21%3DSUCCEEDED", nil, 0},
		{"v2", "?len=10&filter=status%3DKILLED%3Bstatus%3DSUCCEEDED", []int{1, 2, 3, 4, 5}, 5},
		{"v2", "?len=10&filter=nominaltime%3E%3D2025-01-27T03:00Z", []int{4, 5}, 2},
		{"v2", "?len=10&filter=nominaltime%3E2025-01-27T03:00Z", []int{5}, 1},
		{"v2", "?len=10&filter=nominaltime%3C2025-01-27T01:00Z", []int{1}, 1},
		{"v2", "?len=10&filter=nominaltime%3C%3D2025-01-27T01:00Z%3Bnominaltime%3E%3D2025-01-27T01:00Z", []int{2}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.version+tc.query, func(t *testing.T) {
			j := f.coordInfo(t, tc.version, id, tc.query)
			var got []int
			for _, a := range j.Actions {
				got = append(got, a.ActionNumber)
			}
			if !equalInts(got, tc.want) || j.Total != tc.total {
				t.Errorf("actions %v total %d, want %v total %d", got, j.Total, tc.want, tc.total)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCoordinatorInfoErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteCoordApp(t, "later", jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z"))
	id := f.submitCoord(t, app)
	tests := []struct {
		query, code, msg string
		status           int
	}{
		{"?filter=color%3Dred", "E0421", "E0421: Invalid job filter [color=red], invalid filter name color", 400},
		{"?filter=status%3DHAPPY", "E0421", "E0421: Invalid job filter [status=HAPPY], invalid status value HAPPY", 400},
		{"?filter=status%3ESUCCEEDED", "E0421", "E0421: Invalid job filter [status>SUCCEEDED], status takes only = and !=", 400},
		{"?filter=nominaltime%3E%3Dtoday", "E0421",
			"E0421: Invalid job filter [nominaltime>=today], invalid nominal time today, expected yyyy-MM-ddTHH:mmZ", 400},
		{"?filter=nominaltime%3D2030-01-01T00:00Z", "E0421",
			"E0421: Invalid job filter [nominaltime=2030-01-01T00:00Z], nominaltime takes only <, <=, > and >=", 400},
		{"?order=up", "E0303", "E0303: Invalid parameter value, [order] = [up]", 400},
		{"?offset=x", "E0303", "E0303: Invalid parameter value, [offset] = [x]", 400},
		{"?show=graph", "E0302", "E0302: Invalid parameter [show=graph is only for workflow jobs]", 400},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+id+tc.query, "", ""), tc.status, tc.code, tc.msg)
		})
	}
	// definition is the submitted XML, status the job's status.
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=definition", "", "")
	if r.status != 200 || !strings.Contains(r.body, `name="hourly-coord"`) {
		t.Errorf("definition: %d %s", r.status, r.body)
	}
	if j := f.coordInfo(t, "v2", id, ""); j.Status != "PREP" || len(j.Actions) != 0 || j.Total != 0 {
		t.Errorf("job %+v", j)
	}
}

func TestCoordinatorControl(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteCoordApp(t, "later", jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z"))
	id := f.submitCoord(t, app)
	steps := []struct {
		query      string
		status     int
		code       string
		jobStatus  string
		concurrent int
	}{
		{"?action=suspend", 200, "", "PREPSUSPENDED", 1},
		{"?action=resume", 200, "", "PREP", 1},
		{"?action=start", 400, "E0303", "PREP", 1},
		{"?action=rerun", 400, "E0303", "PREP", 1},
		{"?action=change", 400, "E0305", "PREP", 1},
		{"?action=change&value=concurrency%3D3", 200, "", "PREP", 3},
		{"?action=change&value=concurrency%3Dmany", 400, "E1015", "PREP", 3},
		{"?action=coord-rerun&type=action&scope=1", 400, "E1018", "PREP", 3},
		{"?action=coord-rerun", 400, "E0305", "PREP", 3},
		{"?action=kill&type=week&scope=1", 400, "E0303", "PREP", 3},
		{"?action=ignore", 400, "E1024", "PREP", 3},
		{"?action=kill", 200, "", "KILLED", 3},
		{"?action=change&value=concurrency%3D4", 400, "E1016", "KILLED", 3},
	}
	for _, s := range steps {
		r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+s.query, "", "")
		if r.status != s.status || r.header.Get("oozie-error-code") != s.code {
			t.Errorf("%s: %d %q (%s), want %d %q", s.query, r.status, r.header.Get("oozie-error-code"),
				r.header.Get("oozie-error-message"), s.status, s.code)
		}
		j := f.coordInfo(t, "v2", id, "")
		if j.Status != s.jobStatus || j.Concurrency != s.concurrent {
			t.Errorf("after %s: status %s concurrency %d, want %s %d", s.query, j.Status, j.Concurrency, s.jobStatus, s.concurrent)
		}
	}
}

func TestCoordinatorActionCommands(t *testing.T) {
	t.Parallel()
	f, id := setupCoord(t)
	// Killing finished actions kills none.
	r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill&type=action&scope=1-2", "", "")
	if r.status != 200 || strings.TrimSpace(r.body) != `{"actions":[]}` {
		t.Errorf("kill finished actions: %d %s", r.status, r.body)
	}
	// Ignoring succeeded actions is refused.
	r = f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=ignore&type=action&scope=1", "", "")
	if r.status != 400 || r.header.Get("oozie-error-code") != "E1024" {
		t.Errorf("ignore succeeded action: %d %s", r.status, r.header.Get("oozie-error-message"))
	}
	// A rerun of action 2 by date answers it back in WAITING, and it runs again.
	r = f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=coord-rerun&type=date&scope=2025-01-27T01:00Z&nocleanup=true", "", "")
	var out oozieapi.CoordinatorActions
	decode(t, r.body, &out)
	if r.status != 200 || len(out.Actions) != 1 || out.Actions[0].ActionNumber != 2 || out.Actions[0].Status != "WAITING" {
		t.Fatalf("rerun: %d %s", r.status, r.body)
	}
	f.waitCoordStatus(t, id, "SUCCEEDED")
	act := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"@2", "", "")
	var a oozieapi.CoordinatorAction
	decode(t, act.body, &a)
	if a.ID != id+"@2" || a.Status != "SUCCEEDED" || a.ToString != "CoordinatorAction name["+id+"@2] status[SUCCEEDED]" {
		t.Errorf("action after rerun: %s", act.body)
	}
	r = f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=coord-rerun&type=action&scope=2&refresh=maybe", "", "")
	checkError(t, r, 400, "E0303", "E0303: Invalid parameter value, [refresh] = [maybe]")
}

func TestCoordinatorDryRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(f.appPath(appNoOp), "2025-01-27T00:00Z", "2025-01-27T02:00Z"))
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs?action=dryrun", "application/xml", coordConf(t, app))
	var out oozieapi.JobID
	decode(t, r.body, &out)
	// The parsed definition, then the document of each action of the first window.
	if r.status != http.StatusCreated || !strings.Contains(out.ID, "***actions for instance***") ||
		strings.Count(out.ID, "<coordinator-app") < 2 || !strings.Contains(out.ID, `action-nominal-time="2025-01-27T00:00Z"`) {
		t.Errorf("dry run: %d %s", r.status, r.body)
	}
	if got := f.coordInfoList(t); got != 0 {
		t.Errorf("a dry run stored %d coordinator jobs", got)
	}
}

// coordInfoList counts stored coordinator jobs.
func (f *fixture) coordInfoList(t *testing.T) int {
	t.Helper()
	n := 0
	err := f.Store.Tx(t.Context(), func(x store.Tx) error {
		_, total, err := x.ListCoordJobs(t.Context(), store.JobFilter{})
		n = total
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDatasetNotify(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.call(t, http.MethodPut, "/oozie/v2/dataset?action=notify&uri=file:///data/2025/01/27", "", "")
	if r.status != 200 || strings.TrimSpace(r.body) != `{"notified":0}` {
		t.Errorf("notify: %d %s", r.status, r.body)
	}
	checkError(t, f.call(t, http.MethodPut, "/oozie/v2/dataset?action=notify", "", ""), 400, "E0305", "E0305: Missing parameter [uri]")
	checkError(t, f.call(t, http.MethodPut, "/oozie/v2/dataset?action=touch&uri=x", "", ""), 400, "E0303",
		"E0303: Invalid parameter value, [action] = [touch]")
}

func TestCoordinatorList(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteCoordApp(t, "later", jobstest.HourlyCoordApp(f.appPath(appNoOp), "2030-01-01T00:00Z", "2030-01-02T00:00Z"))
	first := f.submitCoord(t, app)
	second := f.submitCoord(t, app)
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+first+"?action=kill", "", ""); r.status != 200 {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	tests := []struct {
		query string
		want  []string
		total int
	}{
		{"jobtype=coordinator", []string{second, first}, 2},
		{"jobtype=coord&filter=status%3DKILLED", []string{first}, 1},
		{"jobtype=coord&filter=status%3DPREP", []string{second}, 1},
		{"jobtype=coord&len=1&offset=2", []string{first}, 2},
		{"jobtype=coord&filter=user%3Dann", nil, 0},
		{"jobtype=coord&filter=frequency%3D1%3Bunit%3Dhours", []string{second, first}, 2},
		{"jobtype=coord&filter=frequency%3D60", []string{second, first}, 2},
		{"jobtype=coord&filter=frequency%3D1%3Bunit%3Ddays", nil, 0},
		{"jobtype=coord&filter=frequency%3D30%3Bstatus%3DPREP", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			r := f.call(t, http.MethodGet, "/oozie/v1/jobs?"+tc.query, "", "")
			var out oozieapi.CoordinatorList
			decode(t, r.body, &out)
			var got []string
			for _, j := range out.Jobs {
				got = append(got, j.ID)
				if j.Conf != "" || len(j.Actions) != 0 || j.AppName != "hourly-coord" {
					t.Errorf("listed job %+v", j)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || out.Total != tc.total {
				t.Errorf("%s: %v (total %d), want %v", tc.query, got, out.Total, tc.want)
			}
			if !strings.Contains(r.body, `"coordinatorjobs":[`) {
				t.Errorf("body %s", r.body)
			}
		})
	}
}
