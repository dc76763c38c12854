package clustertools_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testwait"
	"github.com/gozie/gozie/yarn"
)

// jobFile writes a job configuration file and returns its path.
func jobFile(t *testing.T, pairs ...string) string {
	t.Helper()
	var b bytes.Buffer
	if err := conf.WriteConfigurationXML(&b, conf.NewProperties(pairs...)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "job.xml")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// notifications records job-end notifications.
type notifications struct {
	srv *httptest.Server
	got chan string
}

func newNotifications(t *testing.T) *notifications {
	n := &notifications{got: make(chan string, 10)}
	n.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.got <- r.URL.RawQuery
	}))
	t.Cleanup(n.srv.Close)
	return n
}

func (n *notifications) wait(t *testing.T) string {
	t.Helper()
	select {
	case q := <-n.got:
		return q
	case <-time.After(waitTimeout):
		t.Fatal("no job-end notification")
		return ""
	}
}

func TestMapredIdentityJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/input-data/text/data.txt", "hello\nworld\n")
	e.put(t, "/user/alice/input-data/text/_SUCCESS", "")
	n := newNotifications(t)
	job := jobFile(t,
		"mapred.mapper.class", "org.apache.oozie.example.SampleMapper",
		"mapred.reducer.class", "org.apache.oozie.example.SampleReducer",
		"mapred.input.dir", "/user/alice/input-data/text",
		"mapred.output.dir", "output-data/mr",
		"mapreduce.job.tags", "tag-one,tag-two",
		"mapred.job.queue.name", "default",
		"job.end.notification.url", n.srv.URL+"/callback?id=x&job=$jobId&status=$jobStatus")
	r := e.run(t, ctxT(t), "mapred", "job", "-submit", job)
	if r.code != 0 {
		t.Fatalf("submit exited %d: %s", r.code, r.stderr)
	}
	id := createdJob(t, r.stdout)
	if !strings.Contains(r.stderr, "Submitted application "+id.String()) {
		t.Errorf("stderr lacks the submitted application:\n%s", r.stderr)
	}
	rep := e.waitApp(t, id)
	if rep.State != yarn.StateFinished || rep.FinalStatus != yarn.FinalSucceeded {
		t.Fatalf("job ended %s/%s: %s", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
	if rep.ApplicationType != "MAPREDUCE" || !rep.HasTag("tag-one") || !rep.HasTag("tag-two") || rep.User != testUser {
		t.Errorf("report %+v", rep)
	}
	if got, want := e.read(t, "/user/alice/output-data/mr/part-00000"), "0\thello\n6\tworld\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if got := e.read(t, "/user/alice/output-data/mr/_SUCCESS"); got != "" {
		t.Errorf("_SUCCESS holds %q", got)
	}
	jobID := "job_" + strings.TrimPrefix(id.String(), "application_")
	if q := n.wait(t); q != "id=x&job="+jobID+"&status=SUCCEEDED" {
		t.Errorf("notification %q", q)
	}
	st := e.run(t, ctxT(t), "mapred", "job", "-status", jobID)
	if st.code != 0 || !strings.Contains(st.stdout, "Job state: SUCCEEDED") {
		t.Errorf("-status: %d %s %s", st.code, st.stdout, st.stderr)
	}
}

func TestMapredStreamingJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "b 1\na 2\n")
	e.put(t, "/user/alice/in/b.txt", "c 3\n")
	job := jobFile(t,
		"stream.map.streamprocessor", "tr ' ' '\t'",
		"stream.reduce.streamprocessor", "cat",
		"mapreduce.input.fileinputformat.inputdir", "/user/alice/in/*.txt",
		"mapreduce.output.fileoutputformat.outputdir", "/user/alice/out")
	r := e.run(t, ctxT(t), "mapred", "job", "-submit", job)
	if r.code != 0 {
		t.Fatalf("submit exited %d: %s", r.code, r.stderr)
	}
	// Streaming splits the command at blanks outside quotes and runs no
	// shell: tr gets " " and "\t".
	rep := e.waitApp(t, createdJob(t, r.stdout))
	if !rep.Succeeded() {
		t.Fatalf("job ended %s/%s: %s", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
	// The mapper's lines are split at their tab and sorted by key before
	// the reducer sees them.
	if got, want := e.read(t, "/user/alice/out/part-00000"), "a\t2\nb\t1\nc\t3\n"; got != want {
		t.Errorf("reducer output %q, want %q", got, want)
	}
}

func TestMapredFailingMapperFailsJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "x\n")
	n := newNotifications(t)
	job := jobFile(t, "stream.map.streamprocessor", "false", "mapred.input.dir", "/user/alice/in",
		"mapred.output.dir", "/user/alice/out", "mapreduce.job.end-notification.url", n.srv.URL+"?s=$jobStatus")
	r := e.run(t, ctxT(t), "mapred", "job", "-submit", job)
	if r.code != 0 {
		t.Fatalf("submit exited %d: %s", r.code, r.stderr)
	}
	rep := e.waitApp(t, createdJob(t, r.stdout))
	if rep.State != yarn.StateFinished || rep.FinalStatus != yarn.FinalFailed || !strings.Contains(rep.Diagnostics, "Task failed") {
		t.Errorf("report %s/%s %q, want FINISHED/FAILED with a failed task", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
	if q := n.wait(t); q != "s=FAILED" {
		t.Errorf("notification %q", q)
	}
	if _, err := e.c.FS.Stat(ctxT(t), e.c.DFS.URI()+"/user/alice/out"); err == nil {
		t.Error("a failed job left an output directory")
	}
}

func TestMapredSubmitChecksSpecs(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "x\n")
	e.put(t, "/user/alice/exists/part-00000", "old\n")
	for _, tc := range []struct {
		name, in, out, want string
	}{
		{"output exists", "/user/alice/in", "/user/alice/exists", "FileAlreadyExistsException"},
		{"input missing", "/user/alice/nothing", "/user/alice/new", "Input path does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, ctxT(t), "mapred", "job", "-submit", jobFile(t, "mapred.input.dir", tc.in, "mapred.output.dir", tc.out))
			if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want a failure naming %s", r.code, r.stderr, tc.want)
			}
		})
	}
	if n := len(e.c.YARN.Apps()); n != 0 {
		t.Errorf("%d applications submitted by refused jobs", n)
	}
}

func TestMapredKillJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "x\n")
	job := jobFile(t, "stream.map.streamprocessor", "sleep 600", "mapred.input.dir", "/user/alice/in",
		"mapred.output.dir", "/user/alice/out")
	r := e.run(t, ctxT(t), "mapred", "job", "-submit", job)
	if r.code != 0 {
		t.Fatalf("submit exited %d: %s", r.code, r.stderr)
	}
	id := createdJob(t, r.stdout)
	testwait.Poll{Timeout: waitTimeout, Every: 20 * time.Millisecond}.WaitFor(t, "the job to run", func() bool {
		rep, ok := e.c.YARN.App(id)
		return ok && rep.State == yarn.StateRunning
	})
	list := e.run(t, ctxT(t), "mapred", "job", "-list")
	jobID := "job_" + strings.TrimPrefix(id.String(), "application_")
	if !strings.Contains(list.stdout, jobID) {
		t.Errorf("-list does not show %s:\n%s", jobID, list.stdout)
	}
	if k := e.run(t, ctxT(t), "mapred", "job", "-kill", jobID); k.code != 0 {
		t.Fatalf("-kill: %d %s", k.code, k.stderr)
	}
	if rep := e.waitApp(t, id); rep.State != yarn.StateKilled {
		t.Errorf("after the kill: %s", rep.State)
	}
}
