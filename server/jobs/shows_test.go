package jobs_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/server/oozieapi"
)

func TestMissingDependenciesAndLogs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.StartEngine(t)
	data := filepath.Join(f.Apps, "data")
	id := f.submitCoord(t, f.WriteCoordApp(t, "inputs", jobstest.InputsCoordApp(f.appPath(appNoOp), data)))
	uri := func(hour string) string { return "file://" + data + "/2025012" + hour + "/_SUCCESS" }
	// The hour before the first action is there; the rest is missing.
	if err := os.MkdirAll(filepath.Join(data, "2025012623"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "2025012623", "_SUCCESS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want := oozieapi.MissingDependencies{MissingDependencies: []oozieapi.ActionMissingDependencies{
		{ID: 1, BlockedOn: uri("700"), DataSets: []oozieapi.DataSetDependencies{{DataSet: "this-hour", MissingDependencies: []string{uri("700")}}}},
		{ID: 2, BlockedOn: uri("701"), DataSets: []oozieapi.DataSetDependencies{
			{DataSet: "this-hour", MissingDependencies: []string{uri("701")}},
			{DataSet: "last-hour", MissingDependencies: []string{uri("700")}}}},
	}}
	var got oozieapi.MissingDependencies
	testwait.Poll{Every: 10 * time.Millisecond}.WaitForLast(t, fmt.Sprintf("missing dependencies %+v", want), func() (bool, string) {
		r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=missing-dependencies", "", "")
		decode(t, r.body, &got)
		if equalJSON(t, got, want) {
			return true, ""
		}
		f.Clock.Advance(time.Minute) // the input check's backoff runs on the fake clock
		return false, string(r.body)
	})
	// Narrowed to one action, by number, by date or by the action's id.
	for _, q := range []string{id + "?show=missing-dependencies&action-list=2",
		id + "?show=missing-dependencies&date=2025-01-27T01:00Z", id + "@2?show=missing-dependencies"} {
		r := f.call(t, http.MethodGet, "/oozie/v2/job/"+q, "", "")
		decode(t, r.body, &got)
		if !equalJSON(t, got, oozieapi.MissingDependencies{MissingDependencies: want.MissingDependencies[1:]}) {
			t.Errorf("%s: %s", q, r.body)
		}
	}
	checkError(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=missing-dependencies&action-list=1&date=2025-01-27T01:00Z", "", ""),
		400, "E0302", "E0302: Invalid parameter, give either [action-list] or [date]")

	// The coordinator's log names what each action waits for; nothing is wrong yet.
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=log", "", "")
	if r.status != 200 || !strings.Contains(r.body, "ACTION["+id+"@2] action [2] is [WAITING] on ["+uri("701")+"]") {
		t.Errorf("log: %d\n%s", r.status, r.body)
	}
	if r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=errorlog", "", ""); r.status != 200 || r.body != "" {
		t.Errorf("errorlog of a healthy job: %d %q", r.status, r.body)
	}
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=kill", "", ""); r.status != 200 {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	f.waitCoordStatus(t, id, "KILLED")
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=errorlog", "", "")
	if r.status != 200 || !strings.Contains(r.body, " WARN  ") || !strings.Contains(r.body, "coordinator job is [KILLED]") ||
		strings.Contains(r.body, " INFO ") {
		t.Errorf("errorlog of a killed job: %d\n%s", r.status, r.body)
	}
}

func TestAllRuns(t *testing.T) {
	t.Parallel()
	f, id := setupCoord(t)
	r := f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?action=coord-rerun&type=action&scope=2", "", "")
	if r.status != 200 {
		t.Fatalf("rerun: %d %s", r.status, r.body)
	}
	f.waitCoordStatus(t, id, "SUCCEEDED")
	var runs oozieapi.AllRuns
	for _, q := range []string{id + "@2?show=allruns", id + "?show=allruns&type=action&scope=2"} {
		r := f.call(t, http.MethodGet, "/oozie/v2/job/"+q, "", "")
		decode(t, r.body, &runs)
		if r.status != 200 || len(runs.Workflows) != 2 || runs.Workflows[0].ID == runs.Workflows[1].ID ||
			runs.Workflows[1].Status != "SUCCEEDED" {
			t.Errorf("%s: %d %s", q, r.status, r.body)
		}
	}
	r = f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"@1?show=allruns", "", "")
	decode(t, r.body, &runs)
	if len(runs.Workflows) != 1 {
		t.Errorf("action 1 never rerun: %s", r.body)
	}
	checkError(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"@9?show=allruns", "", ""), 404, "E0605",
		"E0605: Action does not exist ["+id+"@9]")
	checkError(t, f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=allruns", "", ""), 400, "E0302",
		"E0302: Invalid parameter, show=allruns of a coordinator job needs type=action and scope=<action number>")
}

// equalJSON compares two values by their JSON encoding.
func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(x) == string(y)
}
