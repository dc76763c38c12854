package cli

import (
	"strings"
	"testing"
	"time"
)

// submitJobs submits three jobs a minute apart (fs by joe, started; no-op by ann, run to
// the end; fs by joe, only submitted) and returns their ids, oldest first.
func submitJobs(t *testing.T, f *cliFixture) []string {
	t.Helper()
	var ids []string
	for _, run := range []struct {
		user string
		args []string
	}{
		{"joe", []string{"job", "-run", "-D", "oozie.wf.application.path=" + f.fsApp, "-D", "group.name=etl"}},
		{"ann", []string{"job", "-run", "-D", "oozie.wf.application.path=" + f.noOp}},
		{"joe", []string{"job", "-submit", "-D", "oozie.wf.application.path=" + f.fsApp}},
	} {
		out, errOut, code := f.runAs(t, run.user, run.args...)
		if code != 0 || errOut != "" {
			t.Fatalf("gozie %s as %s: exit %d: %s", strings.Join(run.args, " "), run.user, code, errOut)
		}
		ids = append(ids, strings.TrimPrefix(strings.TrimSpace(out), "job: "))
		f.Clock.Advance(time.Minute)
	}
	return ids
}

func TestJobsGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	submitJobs(t, f)
	tests := []struct {
		golden string
		args   []string
	}{
		{"jobs", []string{"jobs"}},
		{"jobs_filter_page", []string{"jobs", "-jobtype", "wf", "-filter", "user=joe", "-offset", "2", "-len", "5", "-timezone", "America/New_York"}},
		{"jobs_verbose", []string{"jobs", "-verbose", "-filter", "status=SUCCEEDED;status=RUNNING"}},
		{"jobs_none", []string{"jobs", "-filter", "user=nobody"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			golden(t, tt.golden, f.mustRun(t, tt.args...), map[string]string{f.fsApp: "${FS_APP}", f.noOp: "${NOOP_APP}"})
		})
	}
}

func TestJobsErrors(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"jobs", "-filter", "owner=joe"}, "Error: E0420 : E0420: Invalid jobs filter [owner=joe], invalid name [owner]\n"},
		{[]string{"jobs", "-oozie", "http://127.0.0.1:1/oozie", "-len", "1"}, ""},
	}
	for _, tt := range tests {
		out, errOut, code := f.run(t, tt.args...)
		if tt.stderr == "" {
			// An unreachable server: Oozie's IO_ERROR, with what to check.
			if code != 255 || !strings.HasSuffix(errOut, "Error: IO_ERROR : cannot connect to the server at http://127.0.0.1:1/oozie "+
				"(tried 4 times): connection refused\nis the server running at http://127.0.0.1:1/oozie? set -oozie or $OOZIE_URL\n") {
				t.Errorf("%v: exit %d, stderr %q", tt.args, code, errOut)
			}
			continue
		}
		if out != "" || errOut != tt.stderr || code != 255 {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant   %q", tt.args, code, out, errOut, tt.stderr)
		}
	}
}
