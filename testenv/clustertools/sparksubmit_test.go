package clustertools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testreq"
)

// TestParseSparkSubmit: what the stand-in's spark-submit accepts, what it
// makes of it, and what it refuses with real spark-submit's words.
func TestParseSparkSubmit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args              []string
		err               string // "" = accepted
		master, mode, cls string
		appArgs           []string
	}{
		{args: []string{"--master", "yarn", "--deploy-mode", "cluster", "--class", "C", "--conf", "spark.yarn.tags=a,b", "app.jar", "x", "--y"},
			master: "yarn", mode: "cluster", cls: "C", appArgs: []string{"x", "--y"}},
		{args: []string{"--master=yarn-cluster", "--name", "n", "--verbose", "pi.py"}, master: "yarn", mode: "cluster"},
		{args: []string{"--master", "local[*]", "--py-files", "a.zip,b.py", "pi.py", "10"}, master: "local[*]", mode: "client", appArgs: []string{"10"}},
		{args: []string{"pi.py"}, master: "local[*]", mode: "client"},
		{args: []string{"--master", "yarn", "--deploy-mode", "elsewhere", "a.py"}, err: "Deploy mode must be either client or cluster"},
		{args: []string{"--master", "local", "--deploy-mode", "cluster", "a.py"}, err: `Cluster deploy mode is not compatible with master "local"`},
		{args: []string{"--master", "yarn-client", "--deploy-mode", "cluster", "a.py"}, err: `Cluster deploy mode is not compatible with master "yarn-client"`},
		{args: []string{"--master", "nowhere", "a.py"}, err: "Master must either be yarn or start with spark, mesos, k8s, or local"},
		{args: []string{"--master", "yarn"}, err: "Must specify a primary resource (JAR or Python or R file)"},
		{args: []string{"--bogus", "1", "a.py"}, err: "Unrecognized option '--bogus'."},
		{args: []string{"--master"}, err: "Missing argument for option '--master'."},
	}
	for _, tt := range tests {
		s, err := parseSparkSubmit(tt.args)
		if err == nil {
			err = s.validate()
		}
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if s.master != tt.master || s.deployMode != tt.mode || s.class != tt.cls || !slices.Equal(s.args, tt.appArgs) {
			t.Errorf("%q: parsed %+v", tt.args, s)
		}
	}
}

// TestSparkSubmitLocalRunsTheApplication: with a local master spark-submit
// runs a Python application in place, with its arguments and --py-files,
// and fails with the application's exit code; a missing application and a
// jar without a main class are refused.
func TestSparkSubmitLocalRunsTheApplication(t *testing.T) {
	t.Parallel()
	py := testreq.Program(t, "python3", "python3")
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("helper.py", "def greet(n):\n    return 'hello ' + n\n")
	write("app.py", "import sys, helper\nprint(helper.greet(sys.argv[1]))\nsys.exit(int(sys.argv[2]))\n")
	write("nomain.jar", "")
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Dir: dir, Environ: os.Environ,
			Getenv: func(k string) string {
				if k == "PYSPARK_PYTHON" {
					return py
				}
				return os.Getenv(k)
			}}
		code := Main(context.Background(), append([]string{"spark-submit"}, args...), env)
		return code, out.String(), errb.String()
	}
	if code, out, _ := run("--master", "local[2]", "--py-files", "helper.py", "app.py", "spark", "0"); code != 0 || out != "hello spark\n" {
		t.Errorf("exit %d, output %q", code, out)
	}
	if code, _, _ := run("--master", "local", "--py-files", "helper.py", "app.py", "spark", "3"); code != 3 {
		t.Errorf("exit %d, want the application's 3", code)
	}
	if code, _, errOut := run("--master", "local", "missing.py"); code == 0 || !strings.Contains(errOut, "java.io.FileNotFoundException") {
		t.Errorf("missing application: exit %d, %q", code, errOut)
	}
	if code, _, errOut := run("--master", "local", "nomain.jar"); code == 0 || !strings.Contains(errOut, "main class") {
		t.Errorf("jar without a main class: exit %d, %q", code, errOut)
	}
}
