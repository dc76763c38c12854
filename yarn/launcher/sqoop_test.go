package launcher

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestSqoopCommand: the cluster's sqoop gets the action configuration as
// Hadoop's -conf right after the tool name, where Sqoop reads generic
// options; arguments without a tool name go as they are.
func TestSqoopCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeScript(t, dir, "sqoop", "#!/bin/sh\n", 0o755)
	f := newFiles(dir)
	tests := []struct {
		args, want []string
	}{
		{[]string{"import", "--table", "TT"}, []string{"sqoop", "import", "-conf", f.actionConf, "--table", "TT"}},
		{[]string{"version"}, []string{"sqoop", "version", "-conf", f.actionConf}},
		{[]string{"--help"}, []string{"sqoop", "--help"}},
	}
	for _, tt := range tests {
		c, err := sqoopCommand(&Spec{Type: TypeSqoop, Sqoop: &SqoopSpec{Args: tt.args}}, []string{"PATH=" + dir}, f, time.UnixMilli(1))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.args, tt.want) {
			t.Errorf("args %q, want %q", c.args, tt.want)
		}
	}
	good := &Spec{Version: SpecVersion, ActionDir: "hdfs://nn/x", Type: TypeSqoop, Sqoop: &SqoopSpec{Args: []string{"import"}}}
	if err := good.Validate(); err != nil {
		t.Errorf("a good sqoop spec: %v", err)
	}
	for _, s := range []*SqoopSpec{nil, {}} {
		bad := &Spec{Version: SpecVersion, ActionDir: "hdfs://nn/x", Type: TypeSqoop, Sqoop: s}
		if err := bad.Validate(); !errors.Is(err, ErrBadSpec) {
			t.Errorf("sqoop spec %+v: Validate = %v, want ErrBadSpec", s, err)
		}
	}
}

// TestSqoopError: a failed sqoop's message is its last error line, else
// Oozie's words for a main class that exited non-zero.
func TestSqoopError(t *testing.T) {
	t.Parallel()
	sc := &outputScanner{}
	if got, want := sqoopError(sc, 1), "Main Class [org.apache.oozie.action.hadoop.SqoopMain], exit code [1]"; got != want {
		t.Errorf("no output: %q, want %q", got, want)
	}
	w := sc.stream(true)
	w.Write([]byte("INFO mapreduce.Job: Job job_1_2 failed with state FAILED due to: boom\nERROR tool.ImportTool: Import failed: x\n"))
	if got, want := sqoopError(sc, 1), "ERROR tool.ImportTool: Import failed: x"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
