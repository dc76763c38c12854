package cli

import (
	"strings"
	"testing"
)

func TestJobPoll(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	f.StartEngine(t)
	id := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-run", "-D", "oozie.wf.application.path="+f.noOp), "job: "))
	out := f.mustRun(t, "job", "-poll", id, "-interval", "0.001", "-timeout", "1", "-verbose")
	if !strings.HasSuffix(out, id+"\tSUCCEEDED\n") {
		t.Errorf("-poll printed %q", out)
	}
	prep := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-submit", "-D", "oozie.wf.application.path="+f.noOp), "job: "))
	out, errOut, code := f.run(t, "job", "-poll", prep, "-interval", "0.0002", "-timeout", "0.001")
	if code == 0 || out != "" || !strings.Contains(errOut, prep+" is still PREP after 0.001 minutes") {
		t.Errorf("-poll of a job that never ends: exit %d, %q %q", code, out, errOut)
	}
}
