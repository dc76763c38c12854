package cli

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

// runBundleScenario starts the engine and runs a bundle of two hourly coordinators of
// no-op actions by joe to its end, submitted with `job -run`; it returns the bundle id and
// the bundle's app path.
func runBundleScenario(t *testing.T, f *cliFixture) (id, app string) {
	t.Helper()
	f.StartEngine(t)
	coord := f.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(f.noOp, "2025-01-27T00:00Z", "2025-01-27T03:00Z"))
	app = f.WriteBundleApp(t, "bundle", `<bundle-app name="nightly" xmlns="uri:oozie:bundle:0.2">
  <controls><kick-off-time>2025-01-27T09:00Z</kick-off-time></controls>
  <coordinator name="load"><app-path>`+coord+`</app-path></coordinator>
  <coordinator name="publish"><app-path>`+coord+`</app-path></coordinator>
</bundle-app>`)
	props := f.writeFile(t, "bundle.properties", "oozie.bundle.application.path="+app+"\n")
	out := f.mustRun(t, "job", "-config", props, "-run")
	id = strings.TrimSpace(strings.TrimPrefix(out, "job: "))
	if out != "job: "+id+"\n" || !isBundleID(id) {
		t.Fatalf("-run printed %q", out)
	}
	f.waitBundleStatus(t, id, "SUCCEEDED")
	return id, app
}

// waitBundleStatus polls `job -info` until the bundle has the status, failing after a
// deadline.
func (f *cliFixture) waitBundleStatus(t *testing.T, id, status string) {
	t.Helper()
	testwait.WaitForLast(t, testwait.Timeout, id+" to reach "+status, func() (bool, string) {
		out := f.mustRun(t, "job", "-info", id)
		return strings.Contains(out, "Status   : "+status+"\n"), "\n" + out
	})
}

func TestBundleInfoGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id, app := runBundleScenario(t, f)
	replace := map[string]string{app: "${APP}"}
	golden(t, "bundle_info", f.mustRun(t, "job", "-info", id), replace)
	golden(t, "bundle_info_tz", f.mustRun(t, "job", "-info", id, "-timezone", "America/Los_Angeles"), replace)
	golden(t, "bundle_jobs", f.mustRun(t, "jobs", "-jobtype", "bundle"), replace)
	golden(t, "bundle_jobs_verbose", f.mustRun(t, "jobs", "-jobtype", "bundle", "-verbose", "-filter", "user=joe"), replace)
	if out := f.mustRun(t, "jobs", "-jobtype", "bundle", "-filter", "name=other"); out != "No Jobs match your criteria!\n" {
		t.Errorf("empty listing %q", out)
	}
}

func TestBundleCommands(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id, _ := runBundleScenario(t, f)
	if out := f.mustRun(t, "job", "-rerun", id, "-coordinator", "publish", "-nocleanup"); out !=
		"Coordinators [publish] of bundle "+id+" are scheduled to rerun on date ranges [null].\n" {
		t.Errorf("rerun printed %q", out)
	}
	f.waitBundleStatus(t, id, "SUCCEEDED")
	if out := f.mustRun(t, "job", "-rerun", id, "-date", "2025-01-27T01:00Z"); out !=
		"All coordinators of bundle "+id+" are scheduled to rerun on the date ranges [2025-01-27T01:00Z].\n" {
		t.Errorf("rerun printed %q", out)
	}
	f.waitBundleStatus(t, id, "SUCCEEDED")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"job", "-rerun", id, "-action", "1"}, "Error: Invalid options provided for bundle rerun. -action is not valid for bundle rerun\n"},
		{[]string{"job", "-rerun", id}, "Error: E0305 : E0305: Missing parameter [coord-scope or date-scope]\n"},
		{[]string{"job", "-info", id, "-filter", "status=RUNNING"}, "Error: Filter option is not supported for a Bundle job\n"},
		{[]string{"job", "-change", id, "-value", "concurrency=2"}, "E1317"},
	} {
		out, errOut, code := f.run(t, tc.args...)
		if code == 0 || out != "" || !strings.Contains(errOut, strings.TrimSuffix(tc.want, "\n")) {
			t.Errorf("gozie %s: exit %d, stdout %q, stderr %q; want an error with %q", strings.Join(tc.args, " "), code, out, errOut, tc.want)
		}
	}
	f.mustRun(t, "job", "-change", id, "-value", "endtime=2025-01-27T12:00Z")
	if out := f.mustRun(t, "job", "-info", id); !strings.Contains(out, "Status   : RUNNING") && !strings.Contains(out, "Status   : SUCCEEDED") {
		t.Errorf("info after change:\n%s", out)
	}
	f.mustRun(t, "job", "-kill", id)
	f.waitBundleStatus(t, id, "KILLED")
	if def := f.mustRun(t, "job", "-definition", id); !strings.Contains(def, `<bundle-app name="nightly"`) {
		t.Errorf("definition %q", def)
	}
}
