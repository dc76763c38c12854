package cli

import (
	"strings"
	"testing"
	"time"
)

// TestJobAuditLog: `job -auditlog` prints the trail the commands of the CLI
// left, as the server writes it, narrowed by -logfilter and in -timezone.
func TestJobAuditLog(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	props := f.writeFile(t, "job.properties", "oozie.wf.application.path="+f.fsApp+"\n")
	id := strings.TrimSpace(strings.TrimPrefix(f.mustRun(t, "job", "-config", props, "-run"), "job: "))
	for _, cmd := range []string{"-suspend", "-resume", "-change", "-kill"} {
		f.Clock.Advance(90 * time.Second)
		if cmd == "-change" { // refused: a workflow cannot be changed
			if _, _, code := f.run(t, "job", cmd, id, "-value", "endtime=2030-01-01T00:00Z"); code == 0 {
				t.Fatal("-change of a workflow succeeded")
			}
			continue
		}
		f.mustRun(t, "job", cmd, id)
	}
	replace := map[string]string{id: "${ID}", f.fsApp: "${APP}"}
	golden(t, "job_auditlog", f.mustRun(t, "job", "-auditlog", id), replace)
	golden(t, "job_auditlog_filter", f.mustRun(t, "job", "-auditlog", id, "-logfilter", "text=STATUS [SUCCESS];limit=2",
		"-timezone", "America/Los_Angeles"), replace)

	_, stderr, code := f.run(t, "job", "-auditlog", id, "-logfilter", "limit=none")
	if code == 0 || stderr != "Error: E0303 : E0303: Invalid parameter value, [logfilter] = [limit=none], "+
		"limit [none]: want a positive number of lines\n" {
		t.Errorf("bad -logfilter: exit %d, stderr %q", code, stderr)
	}
	unknown := strings.Replace(id, "0000000", "0000042", 1)
	_, stderr, code = f.run(t, "job", "-auditlog", unknown)
	if code == 0 || stderr != "Error: E0604 : E0604: Job does not exist ["+unknown+"]\n" {
		t.Errorf("-auditlog of an unknown job: exit %d, stderr %q", code, stderr)
	}
}
