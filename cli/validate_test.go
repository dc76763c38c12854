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
	bundle := f.writeFile(t, "bundle.xml", `<bundle-app xmlns="uri:oozie:bundle:0.2" name="b">
  <coordinator name="c"><app-path>hdfs://nn/apps/coord</app-path></coordinator>
</bundle-app>
`)
	badBundle := f.writeFile(t, "bad-bundle.xml", `<bundle-app xmlns="uri:oozie:bundle:0.2" name="b">
  <coordinatr name="c"><app-path>hdfs://nn/apps/coord</app-path></coordinatr>
</bundle-app>
`)
	pig := f.writeFile(t, "pig.xml", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="p">
  <start to="p"/>
  <action name="p"><flume xmlns="uri:custom:flume-action:0.1"/>
    <ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>
`)
	misspelled := f.writeFile(t, "misspelled.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="m">
  <start to="x"/>
  <acton name="x"><fs/><ok to="end"/><error to="end"/></acton>
  <end name="end"/>
</workflow-app>
`)
	xsi := f.writeFile(t, "xsi.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="x"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="uri:oozie:workflow:1.0 workflow.xsd">
  <start to="a"/>
  <action name="a" xsi:schemaLocation="uri:oozie:workflow:1.0 workflow.xsd"><fs/><ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>
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
		{"bundle", []string{"validate", bundle}, "Valid workflow-app\n", "", 0},
		{"invalid bundle", []string{"validate", badBundle}, "", "Error: E0701: XML schema error, " + badBundle +
			", line 2 <coordinatr>: unexpected element <coordinatr> in <bundle-app>, expected <parameters>, <controls> or <coordinator>\n", 255},
		{"unsupported action type", []string{"validate", pig}, "Warning: the workflow-app follows its schema, but a submission would be refused: " +
			"E0723: Unsupported action type, node [p] type [flume]: gozie does not support flume (uri:custom:flume-action:0.1) actions (line 3)\n", "", 0},
		{"misspelled element", []string{"validate", misspelled}, "", "Error: E0701: XML schema error, " + misspelled +
			", unexpected element <acton> in <workflow-app>, expected <decision>, <fork>, <join>, <kill>, <action> or <end> (line 3)\n", 255},
		{"xsi attributes", []string{"validate", xsi}, "Valid workflow-app\n", "", 0},
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
