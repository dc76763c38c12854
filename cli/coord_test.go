package cli

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

// runCoordScenario starts the engine and runs an hourly coordinator of three no-op actions
// by joe to its end, submitted with `job -run`; it returns the job id and the app path.
func runCoordScenario(t *testing.T, f *cliFixture) (id, app string) {
	t.Helper()
	f.StartEngine(t)
	app = f.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(f.noOp, "2025-01-27T00:00Z", "2025-01-27T03:00Z"))
	props := f.writeFile(t, "coord.properties", "oozie.coord.application.path="+app+"\n")
	out := f.mustRun(t, "job", "-config", props, "-run")
	id = strings.TrimSpace(strings.TrimPrefix(out, "job: "))
	if out != "job: "+id+"\n" || !isCoordinatorID(id) {
		t.Fatalf("-run printed %q", out)
	}
	f.waitStatus(t, id, "SUCCEEDED")
	return id, app
}

// waitStatus polls `job -info` until the coordinator has the status, failing after a deadline.
func (f *cliFixture) waitStatus(t *testing.T, id, status string) {
	t.Helper()
	testwait.WaitForLast(t, testwait.Timeout, id+" to reach "+status, func() (bool, string) {
		out := f.mustRun(t, "job", "-info", id, "-len", "1")
		return strings.Contains(out, "Status      : "+status+"\n"), "\n" + out
	})
}

func TestCoordInfoGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id, app := runCoordScenario(t, f)
	replace := map[string]string{app: "${APP}"}

	golden(t, "coord_info", f.mustRun(t, "job", "-info", id), replace)
	golden(t, "coord_info_page", f.mustRun(t, "job", "-info", id, "-len", "2", "-order", "desc",
		"-filter", "status=SUCCEEDED", "-timezone", "America/Los_Angeles"), replace)
	golden(t, "coord_info_verbose", f.mustRun(t, "job", "-info", id, "-verbose", "-offset", "3"), replace)
	golden(t, "coord_info_action", f.mustRun(t, "job", "-info", id+"@2"), replace)
	golden(t, "coord_jobs", f.mustRun(t, "jobs", "-jobtype", "coordinator"), replace)
	golden(t, "coord_jobs_verbose", f.mustRun(t, "jobs", "-jobtype", "coord", "-verbose", "-filter", "user=joe"), replace)
}

func TestCoordCommands(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id, _ := runCoordScenario(t, f)

	if out := f.mustRun(t, "job", "-kill", id, "-action", "1-3"); out != "No Actions match your criteria!\n" {
		t.Errorf("kill of finished actions printed %q", out)
	}
	out := f.mustRun(t, "job", "-rerun", id, "-date", "2025-01-27T01:00Z::2025-01-27T02:00Z", "-nocleanup")
	want := "Action ID\tNominal Time\n" + ruler + "\n" +
		id + "@2\t2025-01-27 01:00 GMT\n" +
		id + "@3\t2025-01-27 02:00 GMT\n"
	if out != want {
		t.Errorf("rerun printed\n%s\nwant\n%s", out, want)
	}
	f.waitStatus(t, id, "SUCCEEDED")
	f.mustRun(t, "job", "-change", id, "-value", "concurrency=4;endtime=2025-01-27T05:00Z")
	if out := f.mustRun(t, "job", "-info", id, "-len", "1"); !strings.Contains(out, "Concurrency : 4\n") ||
		!strings.Contains(out, "End Time    : 2025-01-27 05:00 GMT\n") {
		t.Errorf("after -change:\n%s", out)
	}
	_, errOut, code := f.run(t, "job", "-ignore", id, "-action", "1")
	if code != 255 || !strings.HasPrefix(errOut, "Error: E1024 : ") {
		t.Errorf("ignore of a succeeded action: exit %d %q", code, errOut)
	}
	_, errOut, code = f.run(t, "job", "-change", id, "-value", "colour=blue")
	if code != 255 || !strings.HasPrefix(errOut, "Error: E1015 : ") {
		t.Errorf("bad change: exit %d %q", code, errOut)
	}
}

func TestCoordDryRunGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	app := f.WriteCoordApp(t, "hourly", jobstest.HourlyCoordApp(f.noOp, "2025-01-27T00:00Z", "2025-01-27T03:00Z"))
	props := f.writeFile(t, "coord.properties", "oozie.coord.application.path="+app+"\n")
	out := f.mustRun(t, "job", "-config", props, "-dryrun")
	golden(t, "coord_dryrun", out, map[string]string{app: "${APP}", f.noOp: "${WF}"})
	if out := f.mustRun(t, "jobs", "-jobtype", "coord"); out != "No Jobs match your criteria!\n" {
		t.Errorf("a dry run stored a job:\n%s", out)
	}
}
