package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	f := newCLIFixture(t)
	wf := filepath.Join(f.Apps, "fs", "workflow.xml")
	broken := f.writeFile(t, "broken.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="x">
    <start to="end"/>
</workflow-app>
`)
	coord := f.writeFile(t, "coordinator.xml", `<coordinator-app name="c" frequency="${coord:days(1)}"
    start="2025-01-01T00:00Z" end="2025-12-31T00:00Z" timezone="UTC" xmlns="uri:oozie:coordinator:0.5">
  <action><workflow><app-path>hdfs://nn/apps/wf</app-path></workflow></action>
</coordinator-app>
`)
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(cwd, wf)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		args           []string
		stdout, stderr string
		code           int
	}{
		{"workflow", []string{"validate", wf}, "Valid workflow-app\n", "", 0},
		{"file URI, flags after the file", []string{"validate", "file://" + wf, "-oozie", f.URL}, "Valid workflow-app\n", "", 0},
		{"relative path", []string{"validate", rel}, "Valid workflow-app\n", "", 0},
		{"coordinator", []string{"validate", coord}, "Valid workflow-app\n", "", 0},
		{"invalid", []string{"validate", broken}, "",
			"Error: E0701: XML schema error, " + broken + ", element <end> is required in <workflow-app> (line 1)\n", 255},
		{"missing file", []string{"validate", "/nonexistent/wf.xml"}, "", "Error: File does not exist : /nonexistent/wf.xml\n", 255},
		{"a directory", []string{"validate", f.Apps}, "", "Error: File does not exist : " + f.Apps + "\n", 255},
		{"no file", []string{"validate"}, "", "Error: One file must be specified\n", 255},
		{"two files", []string{"validate", wf, coord}, "", "Error: One file must be specified\n", 255},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := f.run(t, tt.args...)
			if out != tt.stdout || errOut != tt.stderr || code != tt.code {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit %d\nstdout %q\nstderr %q", code, out, errOut, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	if !strings.HasPrefix(rel, "..") {
		t.Fatalf("the relative path %q does not test resolution", rel)
	}
}
