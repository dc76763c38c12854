package clustertools_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/yarn"
)

// submittedApp returns the application of the "Submitted application"
// line of a tool's stderr.
func submittedApp(t *testing.T, stderr string) yarn.ApplicationID {
	t.Helper()
	m := regexp.MustCompile(`Submitted application (application_[0-9]+_[0-9]+)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no Submitted application line in:\n%s", stderr)
	}
	id, err := yarn.ParseApplicationID(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// putAsUser writes a file on the DFS as testUser, with the tools' own
// hadoop fs, so that testUser owns it and the directories made for it.
func (e *env) putAsUser(t *testing.T, p, content string) {
	t.Helper()
	local := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(local, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-mkdir", "-p", pathDir(p)}, {"-put", "-f", local, p}} {
		if r := e.run(t, ctxT(t), append([]string{"hadoop", "fs"}, args...)...); r.code != 0 {
			t.Fatalf("hadoop fs %v: %d %s", args, r.code, r.stderr)
		}
	}
}

func pathDir(p string) string { return p[:strings.LastIndex(p, "/")] }

// TestDistcpCopiesThroughATaggedJob: hadoop distcp copies a directory tree
// and a lone file on the DFS through one map-only MapReduce application
// carrying the configuration's tags (from -conf and -D), and waits for it.
func TestDistcpCopiesThroughATaggedJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "alpha\n")
	e.put(t, "/user/alice/in/sub/b.txt", "beta\n")
	conf := jobFile(t, "mapreduce.job.tags", "tag-child", "mapreduce.job.queuename", "default")
	r := e.run(t, ctxT(t), "hadoop", "distcp", "-conf", conf, "-D", "mapreduce.job.name=copy", "/user/alice/in", "/user/alice/out")
	if r.code != 0 {
		t.Fatalf("distcp exited %d:\n%s", r.code, r.stderr)
	}
	id := submittedApp(t, r.stderr)
	rep := e.waitApp(t, id)
	if !rep.Succeeded() || rep.ApplicationType != "MAPREDUCE" || !rep.HasTag("tag-child") || rep.Name != "distcp: copy" {
		t.Errorf("copy job %+v", rep)
	}
	if !strings.Contains(r.stderr, "Job job_"+strings.TrimPrefix(id.String(), "application_")+" completed successfully") {
		t.Errorf("distcp did not wait for its job:\n%s", r.stderr)
	}
	// The target did not exist: the source directory's contents become it.
	if a, b := e.read(t, "/user/alice/out/a.txt"), e.read(t, "/user/alice/out/sub/b.txt"); a != "alpha\n" || b != "beta\n" {
		t.Errorf("copied %q %q", a, b)
	}
	// Oozie's example: one file to a file path whose directory is missing.
	r = e.run(t, ctxT(t), "hadoop", "distcp", "-update", "-skipcrccheck", "/user/alice/in/a.txt", "/user/alice/out2/data.txt")
	if r.code != 0 {
		t.Fatalf("distcp of one file exited %d:\n%s", r.code, r.stderr)
	}
	if got := e.read(t, "/user/alice/out2/data.txt"); got != "alpha\n" {
		t.Errorf("copied file %q", got)
	}
	// A second source into an existing directory goes below it.
	r = e.run(t, ctxT(t), "hadoop", "distcp", "/user/alice/in/sub", "/user/alice/in/a.txt", "/user/alice/out2")
	if r.code != 0 {
		t.Fatalf("distcp into a directory exited %d:\n%s", r.code, r.stderr)
	}
	if a, b := e.read(t, "/user/alice/out2/a.txt"), e.read(t, "/user/alice/out2/sub/b.txt"); a != "alpha\n" || b != "beta\n" {
		t.Errorf("copied below the target %q %q", a, b)
	}
}

// TestDistcpUpdate: existing files are kept without -update or
// -overwrite; -update copies a file whose content differs (the checksum
// comparison) unless -skipcrccheck and the lengths match; -overwrite
// always copies; -delete removes what the source lacks.
func TestDistcpUpdate(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/src/f.txt", "new1\n")
	cp := func(args ...string) {
		t.Helper()
		r := e.run(t, ctxT(t), append([]string{"hadoop", "distcp"}, args...)...)
		if r.code != 0 {
			t.Fatalf("distcp %v exited %d:\n%s", args, r.code, r.stderr)
		}
	}
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"/user/alice/src", "/user/alice/dst"}, "old1\n"},
		{[]string{"-update", "-skipcrccheck", "/user/alice/src", "/user/alice/dst"}, "old1\n"},
		{[]string{"-update", "/user/alice/src", "/user/alice/dst"}, "new1\n"},
	}
	e.putAsUser(t, "/user/alice/dst/f.txt", "old1\n")
	for _, s := range steps {
		cp(s.args...)
		if got := e.read(t, "/user/alice/dst/f.txt"); got != s.want {
			t.Fatalf("after distcp %v: %q, want %q", s.args, got, s.want)
		}
	}
	e.putAsUser(t, "/user/alice/dst/f.txt", "old\n")
	e.putAsUser(t, "/user/alice/dst/stale.txt", "x\n")
	cp("-overwrite", "-delete", "/user/alice/src", "/user/alice/dst")
	if got := e.read(t, "/user/alice/dst/f.txt"); got != "new1\n" {
		t.Errorf("-overwrite kept %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", "user", "alice", "dst", "stale.txt")); err == nil {
		t.Error("-delete left stale.txt")
	}
}

// TestDistcpRefuses: what DistCp refuses, with its messages and exit codes,
// before any job starts.
func TestDistcpRefuses(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "a\n")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing source", []string{"/user/alice/nothing", "/user/alice/out"}, 255, "/user/alice/nothing doesn't exist"},
		{"skipcrccheck without update", []string{"-skipcrccheck", "/user/alice/in", "/user/alice/out"}, 255, "Skip CRC is valid only with update options"},
		{"update and overwrite", []string{"-update", "-overwrite", "/user/alice/in", "/user/alice/out"}, 255, "Overwrite and update options are mutually exclusive"},
		{"delete alone", []string{"-delete", "/user/alice/in", "/user/alice/out"}, 255, "Delete missing is applicable only with update or overwrite options"},
		{"unknown option", []string{"-nope", "/user/alice/in", "/user/alice/out"}, 255, "Unrecognized option: -nope"},
		{"no source", []string{"/user/alice/out"}, 255, "Neither source file listing nor source paths present"},
		{"bad maps", []string{"-m", "x", "/user/alice/in", "/user/alice/out"}, 255, "Number of maps is invalid: x"},
		{"not implemented", []string{"-atomic", "/user/alice/in", "/user/alice/out"}, 255, "-atomic is not implemented by the stand-in"},
	}
	before := len(e.c.YARN.Apps())
	for _, tt := range tests {
		r := e.run(t, ctxT(t), append([]string{"hadoop", "distcp"}, tt.args...)...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.msg) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s", tt.name, r.code, tt.code, tt.msg, r.stderr)
		}
	}
	if n := len(e.c.YARN.Apps()); n != before {
		t.Errorf("%d applications submitted by refused runs", n-before)
	}
}

// TestDistcpFailedCopyFailsTheJob: a target the user may not write fails
// the copy task, so the job FAILS with the task's error as diagnostics and
// distcp exits with DistCp's UNKNOWN_ERROR naming the job.
func TestDistcpFailedCopyFailsTheJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "a\n")
	// Made by the superuser: alice may traverse it but not write into it.
	if err := e.c.FS.MkdirAll(ctxT(t), e.c.DFS.URI()+"/locked", 0o755); err != nil {
		t.Fatal(err)
	}
	r := e.run(t, ctxT(t), "hadoop", "distcp", "/user/alice/in/a.txt", "/locked/a.txt")
	if r.code != 25 || !strings.Contains(r.stderr, "DistCp failure: Job job_") {
		t.Fatalf("distcp exited %d, want 25 with DistCp's failure:\n%s", r.code, r.stderr)
	}
	rep := e.waitApp(t, submittedApp(t, r.stderr))
	if rep.Succeeded() || !strings.Contains(rep.Diagnostics, "Permission denied") || !strings.Contains(rep.Diagnostics, "File copy failed") {
		t.Errorf("job %s/%s, diagnostics %q", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
}

// TestDistcpBandwidthHoldsTheCopy: -bandwidth throttles the copy task as
// DistCp's ThrottledInputStream does, so a tiny one keeps the job running
// until it is killed; a bandwidth that is not positive is refused.
func TestDistcpBandwidthHoldsTheCopy(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "slow\n")
	if r := e.run(t, ctxT(t), "hadoop", "distcp", "-bandwidth", "0", "/user/alice/in", "/user/alice/out"); r.code != 255 ||
		!strings.Contains(r.stderr, "Bandwidth specified is not positive: 0") {
		t.Fatalf("-bandwidth 0: exit %d:\n%s", r.code, r.stderr)
	}
	r := e.run(t, ctxT(t), "hadoop", "distcp", "-async", "-bandwidth", "0.000000001", "/user/alice/in", "/user/alice/out")
	if r.code != 0 {
		t.Fatalf("distcp -async exited %d:\n%s", r.code, r.stderr)
	}
	id := submittedApp(t, r.stderr)
	testwait.Poll{Timeout: waitTimeout, Every: 20 * time.Millisecond}.WaitForLast(t, "the throttled job to run", func() (bool, string) {
		rep, ok := e.c.YARN.App(id)
		if ok && rep.State.Final() {
			t.Fatalf("the throttled job is not running: %+v", rep)
		}
		return ok && rep.State == yarn.StateRunning, fmt.Sprintf("%+v", rep)
	})
	if k := e.run(t, ctxT(t), "mapred", "job", "-kill", "job_"+strings.TrimPrefix(id.String(), "application_")); k.code != 0 {
		t.Fatalf("kill: %d %s", k.code, k.stderr)
	}
	if rep := e.waitApp(t, id); rep.State != yarn.StateKilled {
		t.Errorf("job ended %s/%s, want KILLED", rep.State, rep.FinalStatus)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "dfs", "user", "alice", "out", "a.txt")); err == nil {
		t.Error("the killed copy wrote its target")
	}
}
