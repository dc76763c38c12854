package launcher

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/hadoop"
)

// local is a launcher whose action directory is on the local filesystem, so
// that runAction can run without a cluster (the YARN side is covered by the
// executor's tests with MiniYARN and the real binary).
type local struct {
	l         *launcher
	fs        *hadoop.Resolver
	actionDir string
	stdout    *bytes.Buffer
}

func newLocal(t *testing.T, spec *Spec) *local {
	t.Helper()
	actionDir := t.TempDir()
	spec.Version = SpecVersion
	spec.ActionDir = "file://" + actionDir
	if err := spec.Validate(); err != nil {
		t.Fatal(err)
	}
	fsys, err := hadoop.NewResolver(hadoop.ResolverConfig{DefaultFS: "file:///"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	out := &bytes.Buffer{}
	env := Env{
		Stdout: out, Stderr: &bytes.Buffer{}, Dir: t.TempDir(),
		Getenv:  func(string) string { return "" },
		Environ: func() []string { return []string{"PATH=/usr/bin:/bin"} },
		Now:     time.Now,
	}
	return &local{l: &launcher{spec: spec, env: env, log: slog.New(slog.DiscardHandler)}, fs: fsys, actionDir: actionDir, stdout: out}
}

func TestRunActionShell(t *testing.T) {
	t.Parallel()
	lc := newLocal(t, &Spec{Type: TypeShell, CaptureOutput: true, MaxOutputData: 64, Resources: []string{"run.sh"},
		Conf:  map[string]string{"k": "v"},
		Shell: &ShellSpec{Exec: "run.sh", Args: []string{"x"}, EnvVars: []string{"A=1"}}})
	writeScript(t, lc.l.env.Dir, "run.sh", "#!/bin/sh\necho a=$A\necho b=$1\ngrep -c '<name>k</name>' \"$OOZIE_ACTION_CONF_XML\" >&2\necho application_1_0002 > \"$GOZIE_EXTERNAL_CHILD_IDS\"\n", 0o755)
	res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001")
	if !res.Succeeded() || res.Output != "a=1\nb=x\n" || *res.ExitCode != 0 || len(res.ExternalChildIDs) != 1 || res.ExternalChildIDs[0] != "application_1_0002" {
		t.Fatalf("result %+v; stderr %q", res, lc.l.env.Stderr.(*bytes.Buffer).String())
	}
	if !strings.Contains(lc.stdout.String(), "a=1") {
		t.Errorf("stdout did not reach the container log: %q", lc.stdout.String())
	}
	// The id guard wrote this launcher's id.
	if b, err := os.ReadFile(filepath.Join(lc.actionDir, IDFile)); err != nil || strings.TrimSpace(string(b)) != "application_1_0001" {
		t.Errorf("launcher.id %q, %v", b, err)
	}
}

func TestRunActionFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		spec    *Spec
		script  string
		prepare func(lc *local)
		code    string
		msg     string
	}{
		{"shell exit code", &Spec{Type: TypeShell, Shell: &ShellSpec{Exec: "run.sh"}}, "#!/bin/sh\nexit 4\n", nil,
			"1", "Shell command [run.sh] exited with code [4]"},
		{"missing resource", &Spec{Type: TypeShell, Resources: []string{"lib.zip"}, Shell: &ShellSpec{Exec: "run.sh"}}, "#!/bin/sh\n", nil,
			"JA008", "File [lib.zip] does not exist"},
		{"exec not found", &Spec{Type: TypeShell, Shell: &ShellSpec{Exec: "nope.sh"}}, "#!/bin/sh\n", nil,
			"JA018", "cannot run program [nope.sh]"},
		{"another launcher ran the action", &Spec{Type: TypeShell, Shell: &ShellSpec{Exec: "run.sh"}}, "#!/bin/sh\n",
			func(lc *local) {
				if err := os.WriteFile(filepath.Join(lc.actionDir, IDFile), []byte("application_1_0009\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			"JA018", "YARN Id mismatch"},
		{"output over the limit", &Spec{Type: TypeShell, CaptureOutput: true, MaxOutputData: 4, Shell: &ShellSpec{Exec: "run.sh"}},
			"#!/bin/sh\necho a=12345\n", nil, "JA018", "output.properties data exceeds its limit [4]"},
		{"prepare fails", &Spec{Type: TypeShell, Prepare: &Prepare{Mkdir: []string{"/dev/null/x"}}, Shell: &ShellSpec{Exec: "run.sh"}},
			"#!/bin/sh\n", nil, "JA018", "Prepare execution in the Launcher AM has failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lc := newLocal(t, tt.spec)
			writeScript(t, lc.l.env.Dir, "run.sh", tt.script, 0o755)
			if tt.prepare != nil {
				tt.prepare(lc)
			}
			res := lc.l.runAction(context.Background(), lc.fs, "application_1_0001")
			if res.Succeeded() || res.ErrorCode != tt.code || !strings.Contains(res.ErrorMessage, tt.msg) {
				t.Errorf("result %+v, want error code %s with %q", res, tt.code, tt.msg)
			}
		})
	}
}

func TestPrepareDeletesGlobsAndMakesDirectories(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, p := range []string{"out/a/part", "out/b/part", "keep/x"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lc := newLocal(t, &Spec{Type: TypeShell, Shell: &ShellSpec{Exec: "true"},
		Prepare: &Prepare{Delete: []string{"file://" + root + "/out/*", "file://" + root + "/never"}, Mkdir: []string{"file://" + root + "/new/dir"}}})
	if err := lc.l.prepare(context.Background(), lc.fs); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "out"))
	if len(entries) != 0 {
		t.Errorf("out still holds %d entries", len(entries))
	}
	for _, p := range []string{"keep/x", "new/dir"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestMainOutsideAContainer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	actionDir := t.TempDir()
	spec := &Spec{Version: SpecVersion, Type: TypeShell, ActionDir: "file://" + actionDir, Shell: &ShellSpec{Exec: "true"}}
	b, err := spec.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SpecFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := &bytes.Buffer{}
	env := Env{Stderr: stderr, Dir: dir, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), nil, env); code != ExitFailed {
		t.Fatalf("Main = %d, want %d; stderr:\n%s", code, ExitFailed, stderr)
	}
	// Without a token file it cannot register, and says so in the result.
	raw, err := os.ReadFile(filepath.Join(actionDir, ResultFile))
	if err != nil {
		t.Fatalf("no result file: %v", err)
	}
	res, err := ParseResult(raw)
	if err != nil || res.Succeeded() || res.ErrorCode != CodeException || !strings.Contains(res.ErrorMessage, "HADOOP_TOKEN_FILE_LOCATION") {
		t.Errorf("result %+v, %v", res, err)
	}
	if code := Main(context.Background(), []string{"stray"}, env); code != ExitUsage {
		t.Errorf("Main with a stray argument = %d, want %d", code, ExitUsage)
	}
	if code := Main(context.Background(), []string{"-spec", filepath.Join(dir, "missing.json")}, env); code != ExitFailed {
		t.Errorf("Main without a spec = %d, want %d", code, ExitFailed)
	}
}
