package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/server/jobs/jobstest"
)

func TestMissingDepsAndErrorLog(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	f.StartEngine(t)
	data := filepath.Join(f.Apps, "data")
	app := f.WriteCoordApp(t, "inputs", jobstest.InputsCoordApp(f.noOp, data))
	props := f.writeFile(t, "coord.properties", "oozie.coord.application.path="+app+"\n")
	id := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-config", props, "-run"), "job: "))
	uri := func(hour string) string { return "file://" + data + "/2025012" + hour + "/_SUCCESS" }
	want := "CoordAction : " + id + "@2\nBlocked on  : " + uri("701") + "\n" +
		"Dataset     : this-hour\nPending Dependencies :\n\t" + uri("701") + "\n" +
		"Dataset     : last-hour\nPending Dependencies :\n\t" + uri("700") + "\n" + ruler + "\n"
	testwait.Poll{Timeout: 30 * time.Second, Every: 10 * time.Millisecond}.WaitForLast(t, "-missingdeps to print\n"+want,
		func() (bool, string) {
			out := f.mustRun(t, "job", "-missingdeps", id, "-action", "2")
			return out == want, "\n" + out
		})
	if out := f.mustRun(t, "job", "-missingdeps", id+"@2"); out != want {
		t.Errorf("-missingdeps of the action printed\n%s", out)
	}
	if out := f.mustRun(t, "job", "-errorlog", id); out != "" {
		t.Errorf("-errorlog of a healthy coordinator printed %q", out)
	}
	f.mustRun(t, "job", "-kill", id)
	f.waitStatus(t, id, "KILLED")
	if out := f.mustRun(t, "job", "-errorlog", id); !strings.Contains(out, "coordinator job is [KILLED]") {
		t.Errorf("-errorlog of a killed coordinator printed %q", out)
	}
	if out := f.mustRun(t, "job", "-missingdeps", id); out != "No missing dependencies\n" {
		t.Errorf("-missingdeps of a killed coordinator printed %q", out)
	}
}
