package cli

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/server/jobs/jobstest"
)

func TestJobUpdate(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	orig := jobstest.HourlyCoordApp(f.noOp, "2030-01-01T00:00Z", "2030-01-02T00:00Z")
	app := f.WriteCoordApp(t, "later", orig)
	props := f.writeFile(t, "coord.properties", "oozie.coord.application.path="+app+"\n")
	id := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-config", props, "-submit"), "job: "))
	f.WriteCoordApp(t, "later", strings.Replace(orig, "    <action>", "    <controls><timeout>15</timeout></controls>\n    <action>", 1))
	out := f.mustRun(t, "job", "-update", id, "-dryrun")
	if !strings.HasPrefix(out, "**********Job definition changes**********\n") || !strings.Contains(out, "timeout") {
		t.Errorf("-update -dryrun printed\n%s", out)
	}
	out = f.mustRun(t, "job", "-update", id, "-config", props, "-D", "queue=etl")
	if !strings.Contains(out, "**********Job conf changes**********\n+") || !strings.Contains(out, "queue") {
		t.Errorf("-update with a configuration printed\n%s", out)
	}
	if out := f.mustRun(t, "job", "-update", id); !strings.HasSuffix(out, "**********Job conf changes**********\nNo changes\n") ||
		!strings.Contains(out, "**********Job definition changes**********\nNo changes\n") {
		t.Errorf("a second update printed\n%s", out)
	}
}
