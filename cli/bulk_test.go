package cli

import (
	"strings"
	"testing"
)

func TestJobsBulkCommands(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	ids := submitJobs(t, f)
	out := f.mustRun(t, "jobs", "-suspend", "-filter", "id="+ids[0])
	// The first job was started: it is suspended and listed with its new status.
	if !strings.HasPrefix(out, "The following jobs have been suspended\n") || !strings.Contains(out, ids[0]) ||
		!strings.Contains(out, "SUSPENDED") {
		t.Errorf("-suspend printed\n%s", out)
	}
	out = f.mustRun(t, "jobs", "-kill", "-filter", "status=PREP", "-len", "1")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "The following jobs have been killed" || !strings.Contains(out, "KILLED") || strings.Contains(out, "PREP ") {
		t.Errorf("-kill printed\n%s", out)
	}
	if out := f.mustRun(t, "jobs", "-kill", "-filter", "status=RUNNING;name=nothing"); out != "No Jobs match your criteria!\n" {
		t.Errorf("-kill of nothing printed %q", out)
	}
	_, errOut, code := f.run(t, "jobs", "-kill")
	if code == 0 || !strings.Contains(errOut, "-kill of jobs needs -filter") {
		t.Errorf("-kill without a filter: exit %d %q", code, errOut)
	}
}
