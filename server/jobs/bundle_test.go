package jobs_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/server/oozieapi"
)

// bundleApp writes a bundle of two hourly coordinators of no-op workflows (one of them
// named by EL) and returns its app path.
func (f *fixture) bundleApp(t *testing.T, kickoff string) string {
	t.Helper()
	return f.bundleAppWindow(t, kickoff, "2025-01-27T00:00Z", "2025-01-27T03:00Z")
}

// bundleAppWindow is bundleApp with the coordinators' start and end.
func (f *fixture) bundleAppWindow(t *testing.T, kickoff, start, end string) string {
	t.Helper()
	coord := f.WriteCoordApp(t, "bundled-hourly", jobstest.HourlyCoordApp(f.appPath(appNoOp), start, end))
	controls := ""
	if kickoff != "" {
		controls = "<controls><kick-off-time>" + kickoff + "</kick-off-time></controls>"
	}
	return f.WriteBundleApp(t, "bundle", `<bundle-app name="nightly-${env}" xmlns="uri:oozie:bundle:0.2">`+controls+`
  <coordinator name="load"><app-path>`+coord+`</app-path></coordinator>
  <coordinator name="${second}"><app-path>`+coord+`</app-path></coordinator>
</bundle-app>`)
}

// submitBundle submits a bundle app and returns its id.
func (f *fixture) submitBundle(t *testing.T, app string, extra ...string) string {
	t.Helper()
	body := configXML(t, append([]string{"user.name", "joe", "oozie.bundle.application.path", app, "env", "prod", "second", "publish"},
		extra...)...)
	r := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml;charset=UTF-8", body)
	if r.status != http.StatusCreated {
		t.Fatalf("submit: %d %s %s", r.status, r.header.Get("oozie-error-message"), r.body)
	}
	var out struct{ ID string }
	decode(t, r.body, &out)
	return out.ID
}

// bundleInfo reads a bundle's info.
func (f *fixture) bundleInfo(t *testing.T, id string) oozieapi.BundleJob {
	t.Helper()
	r := f.call(t, http.MethodGet, "/oozie/v2/job/"+id, "", "")
	if r.status != http.StatusOK {
		t.Fatalf("info: %d %s", r.status, r.body)
	}
	var j oozieapi.BundleJob
	decode(t, r.body, &j)
	return j
}

// waitBundle polls a bundle's info until cond holds.
func (f *fixture) waitBundle(t *testing.T, id, what string, cond func(oozieapi.BundleJob) bool) oozieapi.BundleJob {
	t.Helper()
	var j oozieapi.BundleJob
	testwait.WaitForLast(t, 20*time.Second, "bundle "+id+" to be "+what, func() (bool, string) {
		j = f.bundleInfo(t, id)
		return cond(j), fmt.Sprintf("%+v", j)
	})
	return j
}

func TestBundleSubmitAndInfo(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.bundleApp(t, "2025-02-01T00:00Z")
	id := f.submitBundle(t, app)
	if !strings.HasSuffix(id, "-B") {
		t.Fatalf("id %s", id)
	}
	j := f.bundleInfo(t, id)
	if j.ID != id || j.AppName != "nightly-prod" || j.AppPath != app || j.Status != "PREP" || j.User != "joe" ||
		j.TimeUnit != "NONE" || len(j.Coordinators) != 0 || j.ToString != "Bundle id["+id+"] status[PREP]" {
		t.Errorf("info %+v", j)
	}
	if !j.KickoffTime.Equal(time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("kickoffTime %v", j.KickoffTime)
	}
	raw := f.call(t, http.MethodGet, "/oozie/v1/job/"+id+"?timezone=America/Los_Angeles", "", "").body
	for _, want := range []string{`"bundleJobId":"` + id + `"`, `"bundleJobName":"nightly-prod"`, `"kickoffTime":"Fri, 31 Jan 2025 16:00:00 PST"`,
		`"startTime":null`, `"bundleCoordJobs":[]`, `"timeOut":0`} {
		if !strings.Contains(raw, want) {
			t.Errorf("info JSON lacks %s: %s", want, raw)
		}
	}
	def := f.call(t, http.MethodGet, "/oozie/v1/job/"+id+"?show=definition", "", "")
	if def.status != http.StatusOK || !strings.Contains(def.body, `name="nightly-${env}"`) {
		t.Errorf("definition %d %s", def.status, def.body)
	}
	if st := f.call(t, http.MethodGet, "/oozie/v2/job/"+id+"?show=status", "", "").body; strings.TrimSpace(st) != `{"status":"PREP"}` {
		t.Errorf("status %s", st)
	}
	checkError(t, f.call(t, http.MethodGet, "/oozie/v2/job/0000099-250127091857123-gozie-test-B", "", ""), http.StatusNotFound,
		"E0604", "E0604: Job does not exist [0000099-250127091857123-gozie-test-B]")
	// Listing.
	r := f.call(t, http.MethodGet, "/oozie/v1/jobs?jobtype=bundle&filter=name%3Dnightly-prod", "", "")
	var l oozieapi.BundleList
	decode(t, r.body, &l)
	if r.status != http.StatusOK || l.Total != 1 || len(l.Jobs) != 1 || l.Jobs[0].ID != id || l.Jobs[0].Conf != "" {
		t.Errorf("list %d %+v", r.status, l)
	}
	if !strings.Contains(r.body, `"bundlejobs":[`) {
		t.Errorf("list JSON %s", r.body)
	}
	// A dry run answers the resolved definition and stores nothing.
	body := configXML(t, "user.name", "joe", "oozie.bundle.application.path", app, "env", "test", "second", "publish")
	dry := f.call(t, http.MethodPost, "/oozie/v1/jobs?action=dryrun", "application/xml", body)
	var out struct{ ID string }
	decode(t, dry.body, &out)
	if dry.status != http.StatusCreated || !strings.Contains(out.ID, `name="nightly-test"`) || !strings.Contains(out.ID, `name="publish"`) {
		t.Errorf("dry run %d %q", dry.status, out.ID)
	}
	r = f.call(t, http.MethodGet, "/oozie/v1/jobs?jobtype=bundle", "", "")
	decode(t, r.body, &l)
	if l.Total != 1 {
		t.Errorf("%d bundles after a dry run, want 1", l.Total)
	}
}

func TestBundleSubmitErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.bundleApp(t, "")
	dup := f.WriteBundleApp(t, "dup", `<bundle-app name="d" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="a"><app-path>/x</app-path></coordinator><coordinator name="a"><app-path>/y</app-path></coordinator></bundle-app>`)
	tests := []struct {
		name  string
		pairs []string
		code  string
	}{
		{"missing app", []string{"user.name", "joe", "oozie.bundle.application.path", f.appPath("none")}, "E1301"},
		{"undefined variable", []string{"user.name", "joe", "oozie.bundle.application.path", app}, "E1004"},
		{"duplicate coordinators", []string{"user.name", "joe", "oozie.bundle.application.path", dup}, "E1304"},
		{"two app paths", []string{"user.name", "joe", "oozie.bundle.application.path", app, "oozie.coord.application.path", app}, "E0302"},
	}
	for _, tc := range tests {
		r := f.call(t, http.MethodPost, "/oozie/v1/jobs", "application/xml", configXML(t, tc.pairs...))
		if r.status != http.StatusBadRequest || r.header.Get("oozie-error-code") != tc.code {
			t.Errorf("%s: %d %s %s, want 400 %s", tc.name, r.status, r.header.Get("oozie-error-code"),
				r.header.Get("oozie-error-message"), tc.code)
		}
	}
}

// TestBundleCommands runs a bundle on the engine and commands it through the REST API:
// suspend and resume reach its coordinators, change checks its value, a rerun needs a
// scope, kill ends it all.
func TestBundleCommands(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.StartEngine(t)
	// The coordinators' hours are still ahead on the fake clock (09:18), so they are
	// running, not finished, when the bundle is suspended.
	id := f.submitBundle(t, f.bundleAppWindow(t, "2025-01-27T09:00Z", "2025-01-27T10:00Z", "2025-01-27T12:00Z"))
	j := f.waitBundle(t, id, "kicked off", func(j oozieapi.BundleJob) bool { return len(j.Coordinators) == 2 })
	if j.Coordinators[0].AppName != "load" || j.Coordinators[1].AppName != "publish" || j.Coordinators[0].BundleID != id ||
		j.Coordinators[0].Conf != "" {
		t.Fatalf("coordinators %+v", j.Coordinators)
	}
	put := func(query string) response {
		return f.call(t, http.MethodPut, "/oozie/v2/job/"+id+"?"+query, "", "")
	}
	if r := put("action=suspend"); r.status != http.StatusOK {
		t.Fatalf("suspend: %d %s", r.status, r.body)
	}
	// The coordinators are suspended with the bundle: SUSPENDED, or PREPSUSPENDED when
	// they had not materialized yet.
	suspended := func(s string) bool { return strings.HasSuffix(s, "SUSPENDED") }
	j = f.bundleInfo(t, id)
	if j.Status != "SUSPENDED" || !suspended(j.Coordinators[0].Status) || !suspended(j.Coordinators[1].Status) {
		t.Fatalf("after suspend: %s, %s, %s", j.Status, j.Coordinators[0].Status, j.Coordinators[1].Status)
	}
	if r := put("action=resume"); r.status != http.StatusOK {
		t.Fatalf("resume: %d %s", r.status, r.body)
	}
	if j = f.bundleInfo(t, id); suspended(j.Status) || suspended(j.Coordinators[0].Status) || suspended(j.Coordinators[1].Status) {
		t.Fatalf("after resume: %s, %s, %s", j.Status, j.Coordinators[0].Status, j.Coordinators[1].Status)
	}
	for _, tc := range []struct {
		query, code string
	}{
		{"action=change&value=" + url.QueryEscape("concurrency=3"), "E1317"},
		{"action=change", "E0305"},
		{"action=bundle-rerun", "E0305"},
		{"action=ignore", "E0302"}, // "Bundle Ignore Not supported", as Oozie says
		{"action=kill&type=action&scope=1", "E0302"},
	} {
		if r := put(tc.query); r.status != http.StatusBadRequest || r.header.Get("oozie-error-code") != tc.code {
			t.Errorf("%s: %d %s, want 400 %s", tc.query, r.status, r.header.Get("oozie-error-message"), tc.code)
		}
	}
	if r := put("action=change&value=" + url.QueryEscape("pausetime=2026-01-01T00:00Z")); r.status != http.StatusOK {
		t.Fatalf("change: %d %s", r.status, r.header.Get("oozie-error-message"))
	}
	if j = f.bundleInfo(t, id); !j.PauseTime.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) ||
		!j.Coordinators[0].PauseTime.Equal(j.PauseTime.Time) {
		t.Errorf("pause times %v, %v", j.PauseTime, j.Coordinators[0].PauseTime)
	}
	f.Clock.Advance(3 * time.Hour) // past the coordinators' end
	j = f.waitBundle(t, id, "succeeded", func(j oozieapi.BundleJob) bool { return j.Status == "SUCCEEDED" })
	if r := put("action=bundle-rerun&coord-scope=load&refresh=false&nocleanup=true"); r.status != http.StatusOK {
		t.Fatalf("rerun: %d %s", r.status, r.header.Get("oozie-error-message"))
	}
	f.waitBundle(t, id, "succeeded again", func(j oozieapi.BundleJob) bool { return j.Status == "SUCCEEDED" })
	other := f.submitBundle(t, f.bundleApp(t, "2025-01-27T09:00Z"))
	if r := f.call(t, http.MethodPut, "/oozie/v2/job/"+other+"?action=kill", "", ""); r.status != http.StatusOK {
		t.Fatalf("kill: %d %s", r.status, r.body)
	}
	if j := f.bundleInfo(t, other); j.Status != "KILLED" {
		t.Errorf("killed bundle is %s", j.Status)
	}
}
