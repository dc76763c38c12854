package cli

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/server/jobs/jobstest"
	"github.com/gozie/gozie/store"
)

// update rewrites the golden files with the current output: go test ./cli -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fsOut is the directory the fs app would create (no engine runs it).
const fsOut = "hdfs://nn:8020/user/joe/out"

// cliFixture is a gozie server with the job endpoints and a CLI environment pointing at it.
type cliFixture struct {
	*jobstest.Env
	env   map[string]string // the CLI's environment variables
	fsApp string            // app path of an fs workflow (start → mkdir → end | fail)
	noOp  string            // app path of a no-op workflow
	dir   string            // scratch directory for job.properties files
}

func newCLIFixture(t *testing.T) *cliFixture {
	t.Helper()
	e := jobstest.New(t)
	return &cliFixture{
		Env:   e,
		env:   map[string]string{"OOZIE_URL": e.URL},
		fsApp: e.WriteApp(t, "fs", jobstest.FSApp(fsOut)),
		noOp:  e.WriteApp(t, "no-op", jobstest.NoOpApp),
		dir:   t.TempDir(),
	}
}

// run runs the CLI as user joe and returns its output and exit code.
func (f *cliFixture) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return f.runAs(t, "joe", args...)
}

// runAs runs the CLI as user and returns its output and exit code.
func (f *cliFixture) runAs(t *testing.T, user string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{
		Stdout: &out, Stderr: &errOut, HTTPClient: http.DefaultClient,
		Getenv: func(k string) string { return f.env[k] },
		User:   func() (string, error) { return user, nil },
		Local:  time.FixedZone("GMT-07:00", -7*3600),
		// Connection retries do not wait in tests (their waits are TestOozieBackoff's).
		backoff: func(int) time.Duration { return 0 },
	}
	code = Run(context.Background(), args, env)
	return out.String(), errOut.String(), code
}

// mustRun runs the CLI and fails the test unless it exits 0 without writing to stderr.
func (f *cliFixture) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := f.run(t, args...)
	if code != 0 || errOut != "" {
		t.Fatalf("gozie %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// writeFile writes a scratch file and returns its path.
func (f *cliFixture) writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(f.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// updateAction changes a stored action row, as an executor's results would.
func (f *cliFixture) updateAction(t *testing.T, id string, change func(*store.WorkflowAction)) {
	t.Helper()
	ctx := context.Background()
	err := f.Store.Tx(ctx, func(x store.Tx) error {
		a, err := x.GetWorkflowAction(ctx, id)
		if err != nil {
			return err
		}
		change(&a)
		return x.UpdateWorkflowAction(ctx, &a)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// golden compares got with testdata/<name>.golden after replacing the words of replace
// (value → placeholder) that vary from run to run.
func golden(t *testing.T, name, got string, replace map[string]string) {
	t.Helper()
	for value, placeholder := range replace {
		got = strings.ReplaceAll(got, value, placeholder)
	}
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
