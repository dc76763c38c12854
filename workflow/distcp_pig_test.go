package workflow

import (
	"slices"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// TestParseDistcp: the distcp body of each schema version, with its
// java-opts and args in order, and what each version refuses.
func TestParseDistcp(t *testing.T) {
	t.Parallel()
	body := func(v, inner string) string {
		return wf(`<start to="cp"/><action name="cp"><distcp xmlns="uri:oozie:distcp-action:` + v + `">` + inner +
			`</distcp><ok to="end"/><error to="end"/></action><end name="end"/>`)
	}
	const head01 = `<job-tracker>jt:8032</job-tracker><name-node>hdfs://nn</name-node>`
	tests := []struct {
		name, def string
		errMsg    string // "" = parses
		rm, tag   string
	}{
		{"0.1", body("0.1", head01+`<prepare><delete path="/out"/></prepare><configuration><property><name>a</name><value>1</value></property></configuration>`+
			`<java-opts>-Xmx1g -Dx=y</java-opts><arg>-update</arg><arg>/in</arg><arg>/out</arg>`), "", "jt:8032", "job-tracker"},
		{"0.2 without a head", body("0.2", `<arg>/in</arg><arg>/out</arg>`), "", "", ""},
		{"1.0 resource-manager and launcher", body("1.0", `<resource-manager>rm:8032</resource-manager><name-node>hdfs://nn</name-node>`+
			`<launcher><memory.mb>512</memory.mb></launcher><java-opts>-Xmx1g -Dx=y</java-opts><arg>-update</arg><arg>/in</arg><arg>/out</arg>`), "", "rm:8032", "resource-manager"},
		{"0.1 needs a job-tracker", body("0.1", `<name-node>hdfs://nn</name-node><arg>/in</arg>`), "job-tracker", "", ""},
		{"no job-xml in any version", body("1.0", `<job-xml>x.xml</job-xml><arg>/in</arg>`), "job-xml", "", ""},
		{"no launcher before 1.0", body("0.2", `<launcher><memory.mb>512</memory.mb></launcher>`), "launcher", "", ""},
		{"no file", body("1.0", `<arg>/in</arg><file>x</file>`), "file", "", ""},
		{"unknown version", body("0.3", `<arg>/in</arg>`), "distcp-action:0.3", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, a := parseActionCase(t, tt.def, tt.errMsg, "cp", "distcp")
			if a == nil {
				return
			}
			d, ok := a.Body.(*Distcp)
			if !ok {
				t.Fatalf("body %T, want *Distcp", a.Body)
			}
			if d.JobTracker != tt.rm || d.JobTrackerTag != tt.tag {
				t.Errorf("resource manager %q (%s), want %q (%s)", d.JobTracker, d.JobTrackerTag, tt.rm, tt.tag)
			}
			if len(d.Args) == 0 || d.Args[len(d.Args)-1] != "/out" && d.Args[len(d.Args)-1] != "/in" {
				t.Errorf("args %q", d.Args)
			}
		})
	}
	app, err := Parse([]byte(tests[0].def))
	if err != nil {
		t.Fatal(err)
	}
	d := app.Node("cp").Action.Body.(*Distcp)
	if d.JavaOpts != "-Xmx1g -Dx=y" || !slices.Equal(d.Args, []string{"-update", "/in", "/out"}) ||
		d.Prepare == nil || d.Prepare.Deletes[0].Path != "/out" || d.Configuration[0].Name != "a" {
		t.Errorf("distcp 0.1 body %+v", d)
	}
	if err := Validate(app, Options{}); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// TestParsePig: the pig element of the workflow namespace with script,
// params, arguments, files and archives; arguments only from 0.2 on.
func TestParsePig(t *testing.T) {
	t.Parallel()
	def := wf(`<start to="p"/><action name="p"><pig>
      <resource-manager>rm:8032</resource-manager><name-node>hdfs://nn</name-node>
      <prepare><delete path="/out"/></prepare>
      <job-xml>a.xml</job-xml><job-xml>b.xml</job-xml>
      <configuration><property><name>k</name><value>v</value></property></configuration>
      <script>scripts/id.pig</script>
      <param>INPUT=/in</param><param>OUTPUT=/out</param>
      <argument>-verbose</argument>
      <file>lib/udf.jar</file><archive>data.zip#data</archive>
    </pig><ok to="end"/><error to="end"/></action><end name="end"/>`)
	app, err := Load([]byte(def), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := app.Node("p").Action.Body.(*Pig)
	if !ok || app.Node("p").Action.Type != "pig" {
		t.Fatalf("body %T, want *Pig", app.Node("p").Action.Body)
	}
	if p.Script != "scripts/id.pig" || !slices.Equal(p.Params, []string{"INPUT=/in", "OUTPUT=/out"}) ||
		!slices.Equal(p.Arguments, []string{"-verbose"}) || !slices.Equal(p.JobXMLs, []string{"a.xml", "b.xml"}) ||
		!slices.Equal(p.Files, []string{"lib/udf.jar"}) || !slices.Equal(p.Archives, []string{"data.zip#data"}) {
		t.Errorf("pig body %+v", p)
	}
	errs := map[string]string{
		"no script": wf(`<start to="p"/><action name="p"><pig><param>A=1</param></pig><ok to="end"/><error to="end"/></action><end name="end"/>`),
		"argument": `<workflow-app xmlns="uri:oozie:workflow:0.1" name="w"><start to="p"/><action name="p"><pig>` +
			`<job-tracker>jt</job-tracker><name-node>nn</name-node><script>x.pig</script><argument>-v</argument>` +
			`</pig><ok to="end"/><error to="end"/></action><end name="end"/></workflow-app>`,
	}
	for what, def := range errs {
		if _, err := Parse([]byte(def)); err == nil {
			t.Errorf("%s: parsed, want a schema error", what)
		} else {
			wantCode(t, err, oozieerr.E0701)
		}
	}
	// A merged body (ParseBody) takes the head with the latest rules.
	b, err := ParseBody(`<pig xmlns="uri:oozie:workflow:0.2"><job-xml>g.xml</job-xml><job-xml>a.xml</job-xml><script>x.pig</script></pig>`)
	if err != nil {
		t.Fatal(err)
	}
	if pb := b.(*Pig); !slices.Equal(pb.JobXMLs, []string{"g.xml", "a.xml"}) {
		t.Errorf("merged job-xml %q", pb.JobXMLs)
	}
}
