package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// runInfoScenario runs an fs workflow by joe that fails: its mkdir action ends in ERROR
// (as a launcher would report it) and the job is killed, and returns the job id.
func runInfoScenario(t *testing.T, f *cliFixture) string {
	t.Helper()
	props := f.writeFile(t, "job.properties", "# the fs example\n"+
		"oozie.wf.application.path="+f.fsApp+"\n"+
		"oozie.job.acl=etl\n"+
		"oozie.wf.parent.id=0000003-250127091857123-gozie-test-C@12\n")
	out := f.mustRun(t, "job", "-config", props, "-run")
	id := strings.TrimSpace(strings.TrimPrefix(out, "job: "))
	if out != "job: "+id+"\n" || !strings.HasSuffix(id, "-W") {
		t.Fatalf("-run printed %q", out)
	}
	f.Clock.Advance(90 * time.Second)
	f.updateAction(t, id+"@mkdir", func(a *store.WorkflowAction) {
		a.Status = store.ActionError
		a.ExternalID = "job_1737969537123_0001"
		a.ExternalStatus = "FAILED/KILLED"
		a.ErrorCode = "JA018"
		a.ErrorMessage = "Main Class [org.apache.oozie.action.hadoop.ShellMain], exit code [1]"
		a.StartTime = f.Clock.Now().Add(-time.Minute)
		a.EndTime = f.Clock.Now()
	})
	f.mustRun(t, "job", "-kill", id)
	return id
}

func TestJobInfoGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	id := runInfoScenario(t, f)
	out := f.mustRun(t, "job", "-info", id)
	golden(t, "job_info", out, map[string]string{f.fsApp: "${APP}"})

	// A zone with an offset of its own is shortened to the offset, as Oozie does.
	out = f.mustRun(t, "job", "-oozie", f.URL, "-info", id, "-timezone", "GMT+0530", "-len", "1")
	golden(t, "job_info_tz_len", out, map[string]string{f.fsApp: "${APP}"})

	out = f.mustRun(t, "job", "-info", id, "-verbose", "-localtime")
	golden(t, "job_info_verbose", out, map[string]string{f.fsApp: "${APP}"})

	out = f.mustRun(t, "job", "-info", id+"@mkdir", "-timezone", "America/Los_Angeles")
	golden(t, "job_info_action", out, nil)

	out = f.mustRun(t, "job", "-info", id+"@:start:", "-verbose")
	golden(t, "job_info_action_verbose", out, nil)
}

func TestJobInfoWithoutActions(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	// A page past the last action shows the job alone.
	id := strings.TrimPrefix(strings.TrimSpace(f.mustRun(t, "job", "-submit", "-D", "oozie.wf.application.path="+f.noOp)), "job: ")
	out := f.mustRun(t, "job", "-info", id, "-offset", "5")
	golden(t, "job_info_no_actions", out, map[string]string{f.noOp: "${APP}"})
}

func TestJobCommands(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	xmlConf := f.writeFile(t, "job.xml", `<configuration>
  <property><name>oozie.wf.application.path</name><value>`+f.fsApp+`</value></property>
  <property><name>user.name</name><value>ann</value></property>
  <property><name>queueName</name><value>from-file</value></property>
</configuration>`)

	// -submit with an XML configuration. The CLI authenticates as its user (joe, sent as
	// user.name), who submits whatever user.name the configuration holds, as with Oozie.
	out := f.mustRun(t, "job", "-config", xmlConf, "-submit")
	id := strings.TrimPrefix(strings.TrimSpace(out), "job: ")
	if job := f.job(t, id); job.Status != store.WorkflowPrep || job.User != "joe" || !strings.Contains(job.Conf, "<value>from-file</value>") {
		t.Errorf("after -submit: %s by %s\n%s", job.Status, job.User, job.Conf)
	}
	// -D wins over the file, in both spellings.
	out = f.mustRun(t, "job", "-config", xmlConf, "-DqueueName=from-flag", "-D", "extra=1", "-run")
	id2 := strings.TrimPrefix(strings.TrimSpace(out), "job: ")
	if job := f.job(t, id2); job.Status != store.WorkflowRunning || job.User != "joe" || !strings.Contains(job.Conf, "<name>extra</name>") ||
		!strings.Contains(job.Conf, "<value>from-flag</value>") || strings.Contains(job.Conf, "from-file") {
		t.Errorf("after -run: %s by %s\n%s", job.Status, job.User, job.Conf)
	}
	steps := []struct {
		args []string
		want store.WorkflowStatus
	}{
		{[]string{"-start", id}, store.WorkflowRunning},
		{[]string{"-suspend", id}, store.WorkflowSuspended},
		{[]string{"-resume", id}, store.WorkflowRunning},
		{[]string{"-kill", id}, store.WorkflowKilled},
		{[]string{"-rerun", id, "-D", "oozie.wf.rerun.failnodes=true"}, store.WorkflowRunning},
	}
	for _, s := range steps {
		if out := f.mustRun(t, append([]string{"job"}, s.args...)...); out != "" {
			t.Errorf("job %v printed %q", s.args, out)
		}
		if got := f.job(t, id).Status; got != s.want {
			t.Errorf("after %v: %s, want %s", s.args, got, s.want)
		}
	}
	if out := f.mustRun(t, "job", "-dryrun", "-config", xmlConf); out != "OK\n" {
		t.Errorf("-dryrun printed %q", out)
	}
	if out := f.mustRun(t, "job", "-definition", id); out != jobstest.FSApp(fsOut)+"\n" {
		t.Errorf("-definition printed %q", out)
	}
	out = f.mustRun(t, "job", "-log", id)
	if !strings.Contains(out, "JOB["+id+"] ACTION[-] workflow job started, run [1]") {
		t.Errorf("-log printed %q", out)
	}
}

func TestJobErrorsGolden(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	const ghost = "0000042-250127091857123-gozie-test-W"
	tests := []struct {
		name   string
		args   []string
		stderr string
		code   int
	}{
		{"unknown job", []string{"job", "-info", ghost}, "Error: E0604 : E0604: Job does not exist [" + ghost + "]\n", 255},
		{"unknown action", []string{"job", "-info", ghost + "@x"}, "Error: E0605 : E0605: Action does not exist [" + ghost + "@x]\n", 255},
		{"kill of an unknown job", []string{"job", "-kill", ghost}, "Error: E0604 : E0604: Job does not exist [" + ghost + "]\n", 255},
		{"unknown coordinator", []string{"job", "-info", "0000001-250127091857123-gozie-test-C"},
			"Error: E0604 : E0604: Job does not exist [0000001-250127091857123-gozie-test-C]\n", 255},
		{"coordinator action filter", []string{"job", "-info", "0000001-250127091857123-gozie-test-C@1", "-filter", "status=KILLED"},
			"Error: Filter option is not supported for a Coordinator action\n", 255},
		{"coordinator rerun without scope", []string{"job", "-rerun", "0000001-250127091857123-gozie-test-C"},
			"Error: Invalid options provided for rerun: -date or -action expected.\n", 255},
		{"coordinator kill with both scopes", []string{"job", "-kill", "0000001-250127091857123-gozie-test-C", "-action", "1", "-date", "x"},
			"Error: Invalid options provided for kill: either -date or -action expected. Don't use both at the same time.\n", 255},
		{"change without value", []string{"job", "-change", "0000001-250127091857123-gozie-test-C"},
			"Error: -value option is required for -change\n", 255},
		{"no configuration", []string{"job", "-run"}, "Error: configuration is not specified\n", 255},
		{"configuration file missing", []string{"job", "-run", "-config", "/nonexistent/job.properties", "-D", "a=b"},
			"Error: configuration file [/nonexistent/job.properties] not found\n", 255},
		// A -config file that does not exist is named, whether -D is given or not
		// (Oozie's CLI says "configuration is not specified" without -D).
		{"configuration file missing, run", []string{"job", "-config", "missing.properties", "-run"},
			"Error: configuration file [missing.properties] not found\n", 255},
		{"configuration file missing, submit", []string{"job", "-submit", "-config", "missing.properties"},
			"Error: configuration file [missing.properties] not found\n", 255},
		{"configuration file missing, dryrun", []string{"job", "-dryrun", "-config", "missing.xml"},
			"Error: configuration file [missing.xml] not found\n", 255},
		{"configuration file missing, rerun", []string{"job", "-rerun", ghost, "-config", "missing.properties"},
			"Error: configuration file [missing.properties] not found\n", 255},
		{"wrong configuration kind", []string{"job", "-run", "-config", f.writeFile(t, "job.conf", "a=b")},
			"Error: configuration must be a '.properties' or a '.xml' file\n", 255},
		{"app missing", []string{"job", "-run", "-D", "oozie.wf.application.path=file:///nonexistent/app"},
			"Error: E0504 : E0504: App directory [file:///nonexistent/app] does not exist\n", 255},
		{"filter on a workflow", []string{"job", "-info", ghost, "-filter", "status=OK"},
			"Error: Filter option is currently not supported for a Workflow job\n", 255},
		{"bad zone", []string{"job", "-info", ghost, "-timezone", "Mars/Base"},
			"Error: invalid time zone \"Mars/Base\" (see 'oozie info -timezones' for valid ids): Invalid TimeZone: Mars/Base\n", 255},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := f.run(t, tt.args...)
			if out != "" || errOut != tt.stderr || code != tt.code {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, out, errOut, tt.stderr)
			}
		})
	}
}

func TestJobUsage(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	for _, args := range [][]string{
		{"job"},
		{"job", "-info", "x", "-kill", "y"},
		{"job", "-info", ""},
		{"job", "-bogus"},
		{"job", "-info", "x", "stray"},
	} {
		if _, errOut, code := f.run(t, args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// job reads a job row.
func (f *cliFixture) job(t *testing.T, id string) store.WorkflowJob {
	t.Helper()
	var j store.WorkflowJob
	err := f.Store.Tx(t.Context(), func(x store.Tx) error {
		var err error
		j, err = x.GetWorkflowJob(t.Context(), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return j
}
