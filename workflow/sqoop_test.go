package workflow

import (
	"slices"
	"strings"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// TestParseSqoop: the sqoop body of each schema version, in its <command>
// and <arg> forms, and what each version refuses.
func TestParseSqoop(t *testing.T) {
	t.Parallel()
	body := func(v, inner string) string {
		return wf(`<start to="s"/><action name="s"><sqoop xmlns="uri:oozie:sqoop-action:` + v + `">` + inner +
			`</sqoop><ok to="end"/><error to="end"/></action><end name="end"/>`)
	}
	const head = `<job-tracker>jt:8032</job-tracker><name-node>hdfs://nn</name-node>`
	tests := []struct {
		name, def string
		errMsg    string // "" = parses
		command   string
		args      []string
		jobXMLs   int
	}{
		{"0.2 command", body("0.2", head+`<prepare><delete path="/out"/></prepare><job-xml>a.xml</job-xml>`+
			`<command>import --table TT -m 1</command><file>db.properties#db.properties</file>`), "", "import --table TT -m 1", nil, 1},
		{"0.3 args and job-xmls", body("0.3", head+`<job-xml>a.xml</job-xml><job-xml>b.xml</job-xml>`+
			`<arg>import</arg><arg>--query</arg><arg>select a, b from t where $CONDITIONS</arg><arg></arg><archive>x.zip</archive>`),
			"", "", []string{"import", "--query", "select a, b from t where $CONDITIONS", ""}, 2},
		{"0.4 without a head", body("0.4", `<arg>version</arg>`), "", "", []string{"version"}, 0},
		{"1.0 resource-manager and launcher", body("1.0", `<resource-manager>rm:8032</resource-manager><name-node>hdfs://nn</name-node>`+
			`<launcher><memory.mb>512</memory.mb></launcher><command>import --table TT</command>`), "", "import --table TT", nil, 0},
		{"0.3 needs a job-tracker", body("0.3", `<name-node>hdfs://nn</name-node><arg>import</arg>`), "job-tracker", "", nil, 0},
		{"one job-xml in 0.2", body("0.2", head+`<job-xml>a.xml</job-xml><job-xml>b.xml</job-xml><arg>import</arg>`), "job-xml", "", nil, 0},
		{"command or arg required", body("1.0", `<file>x</file>`), "<command> or <arg>", "", nil, 0},
		{"not both", body("1.0", `<command>import</command><arg>--table</arg>`), "arg", "", nil, 0},
		{"no launcher before 1.0", body("0.4", `<launcher><memory.mb>512</memory.mb></launcher><arg>import</arg>`), "launcher", "", nil, 0},
		{"unknown version", body("0.5", `<arg>import</arg>`), "sqoop-action:0.5", "", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			app, a := parseActionCase(t, tt.def, tt.errMsg, "s", "sqoop")
			if a == nil {
				return
			}
			s, ok := a.Body.(*Sqoop)
			if !ok {
				t.Fatalf("body %T, want *Sqoop", a.Body)
			}
			if s.Command != tt.command || s.HasCommand != (tt.command != "") || !slices.Equal(s.Args, tt.args) || len(s.JobXMLs) != tt.jobXMLs {
				t.Errorf("command %q (%v), args %q, job-xmls %q", s.Command, s.HasCommand, s.Args, s.JobXMLs)
			}
			if err := Validate(app, Options{DefaultNameNode: "hdfs://nn", DefaultResourceManager: "rm:8032"}); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

// TestSqoopNeedsACluster: a sqoop action with no name-node anywhere is
// refused as the other Hadoop actions are (E0701).
func TestSqoopNeedsACluster(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(wf(`<start to="s"/><action name="s"><sqoop xmlns="uri:oozie:sqoop-action:1.0">` +
		`<resource-manager>rm:8032</resource-manager><arg>import</arg></sqoop><ok to="end"/><error to="end"/></action><end name="end"/>`)))
	if err != nil {
		t.Fatal(err)
	}
	we := wantCode(t, Validate(app, Options{}), oozieerr.E0701)
	if !strings.Contains(we.Msg, "No name-node defined in action [s]") {
		t.Errorf("error %v, want no name-node", we)
	}
}
