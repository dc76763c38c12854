package workflow

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/oozieerr"
)

func TestResolveJobConf(t *testing.T) {
	t.Parallel()
	params := `<parameters>
  <property><name>a</name><value>param-a</value></property>
  <property><name>b</name><value>param-b</value></property>
  <property><name>c</name><value>param-c</value></property>
  <property><name>req1</name></property>
  <property><name>req2</name></property>
</parameters>`
	app := func(version string) *App {
		t.Helper()
		a, err := Parse([]byte(`<workflow-app xmlns="uri:oozie:workflow:` + version + `" name="w">` + params +
			`<start to="e"/><end name="e"/></workflow-app>`))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	tests := []struct {
		name     string
		version  string
		defaults map[string]string
		job      map[string]string
		want     map[string]string
		code     oozieerr.Code
		msg      string
	}{
		{name: "precedence", version: "1.0",
			defaults: map[string]string{"b": "default-b", "c": "default-c"},
			job:      map[string]string{"c": "job-c", "req1": "1", "req2": "2"},
			want:     map[string]string{"a": "param-a", "b": "default-b", "c": "job-c", "req1": "1", "req2": "2"}},
		{name: "required from defaults", version: "0.4",
			defaults: map[string]string{"req1": "x", "req2": "y"},
			want:     map[string]string{"a": "param-a", "req1": "x", "req2": "y"}},
		{name: "missing required", version: "0.5", job: map[string]string{"req2": "2"},
			code: oozieerr.E0738, msg: "The following 1 parameters are required but were not defined and no default values are available: req1"},
		{name: "missing both", version: "1.0",
			code: oozieerr.E0738, msg: "2 parameters are required but were not defined and no default values are available: req1, req2"},
		{name: "0.4.5 is not checked", version: "0.4.5", job: map[string]string{"x": "1"},
			want: map[string]string{"x": "1", "a": ""}},
		{name: "user property", version: "1.0", job: map[string]string{"MB": "1"}, code: oozieerr.E0808, msg: "[MB]"},
		{name: "default user.name", version: "1.0", defaults: map[string]string{"user.name": "root"}, code: oozieerr.E0804, msg: "[user.name]"},
		{name: "default constant", version: "1.0", defaults: map[string]string{"GROUPS": "x"}, code: oozieerr.E0804},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ResolveJobConf(app(tt.version), conf.PropertiesFromMap(tt.defaults), conf.PropertiesFromMap(tt.job))
			if tt.code != "" {
				we := wantCode(t, err, tt.code)
				if !strings.Contains(we.Msg, tt.msg) {
					t.Errorf("message %q does not contain %q", we.Msg, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if tt.name == "0.4.5 is not checked" && k == "a" {
					if _, ok := got.Get(k); ok {
						t.Errorf("parameter default applied for 0.4.5: %v", got)
					}
					continue
				}
				if got.Value(k) != v {
					t.Errorf("%s = %q, want %q (all: %v)", k, got.Value(k), v, got.Map())
				}
			}
		})
	}
}

func TestResolveJobConfEmptyParameterName(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(wf(`<parameters><property><name> </name><value>x</value></property></parameters><start to="e"/><end name="e"/>`)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ResolveJobConf(app, nil, nil)
	wantCode(t, err, oozieerr.E0739)
}

func TestRerunOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		conf map[string]string
		skip []string
		fail bool
		code oozieerr.Code
	}{
		{conf: map[string]string{}, skip: nil},
		{conf: map[string]string{PropRerunSkipNodes: " a, b ,,c "}, skip: []string{"a", "b", "c"}},
		{conf: map[string]string{PropRerunFailNodes: "true"}, fail: true},
		{conf: map[string]string{PropRerunFailNodes: "false"}},
		{conf: map[string]string{PropRerunFailNodes: "true", PropRerunSkipNodes: "a"}, code: oozieerr.E0404},
	}
	for _, tt := range tests {
		skip, fail, err := RerunOptions(conf.PropertiesFromMap(tt.conf))
		if tt.code != "" {
			wantCode(t, err, tt.code)
			continue
		}
		if err != nil || fail != tt.fail || !equalStrings(skip, tt.skip) {
			t.Errorf("RerunOptions(%v) = %v %v %v", tt.conf, skip, fail, err)
		}
	}
}

func TestActionXMLMergesGlobal(t *testing.T) {
	t.Parallel()
	def := wf(`<global>
    <resource-manager>global-rm</resource-manager>
    <name-node>hdfs://global-nn</name-node>
    <launcher><queue>launchers</queue><memory.mb>512</memory.mb></launcher>
    <job-xml>global.xml</job-xml><job-xml>common.xml</job-xml>
    <configuration>
      <property><name>g.only</name><value>g</value></property>
      <property><name>both</name><value>from-global</value></property>
      <property><name>d.and.g</name><value>from-global</value></property>
    </configuration>
  </global>
  <start to="a"/>
  <action name="a">
    <hive xmlns="uri:oozie:hive-action:1.0">
      <prepare><delete path="hdfs://x/out"/></prepare>
      <launcher><memory.mb>4096</memory.mb></launcher>
      <job-xml>common.xml</job-xml>
      <configuration><property><name>both</name><value>from-action</value></property></configuration>
      <script>s.q</script>
    </hive>
    <ok to="b"/><error to="b"/>
  </action>
  <action name="b">
    <shell xmlns="uri:oozie:shell-action:0.2">
      <job-tracker>own-jt</job-tracker><name-node>hdfs://own</name-node><exec>x</exec>
    </shell>
    <ok to="c"/><error to="c"/>
  </action>
  <action name="c">
    <fs><mkdir path="/x"/></fs>
    <ok to="d"/><error to="d"/>
  </action>
  <action name="d">
    <sub-workflow><app-path>/child</app-path></sub-workflow>
    <ok to="end"/><error to="end"/>
  </action>
  <end name="end"/>`)
	app := mustLoad(t, def)
	defaults := conf.NewProperties("d.only", "d", "d.and.g", "from-defaults")

	got, err := app.ActionXML("a", defaults, Options{})
	if err != nil {
		t.Fatal(err)
	}
	body, err := ParseBody(got)
	if err != nil {
		t.Fatalf("merged body does not parse: %v\n%s", err, got)
	}
	h := body.(*Hive)
	if h.JobTracker != "global-rm" || h.JobTrackerTag != "resource-manager" || h.NameNode != "hdfs://global-nn" {
		t.Errorf("head = %q %q %q", h.JobTracker, h.JobTrackerTag, h.NameNode)
	}
	if h.Launcher.MemoryMB != "4096" || h.Launcher.Queue != "launchers" {
		t.Errorf("launcher = %+v", h.Launcher)
	}
	if !equalStrings(h.JobXMLs, []string{"global.xml", "common.xml"}) {
		t.Errorf("job-xml = %v", h.JobXMLs)
	}
	want := map[string]string{"d.only": "d", "d.and.g": "from-global", "g.only": "g", "both": "from-action"}
	if len(h.Configuration) != len(want) {
		t.Errorf("configuration = %+v", h.Configuration)
	}
	for k, v := range want {
		if got, _ := h.Configuration.Get(k); got != v {
			t.Errorf("configuration %s = %q, want %q", k, got, v)
		}
	}

	got, err = app.ActionXML("b", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh := mustParseBody(t, got).(*Shell)
	if sh.JobTracker != "own-jt" || sh.NameNode != "hdfs://own" || len(sh.JobXMLs) != 2 || sh.Launcher != nil {
		t.Errorf("shell 0.2 merged = %+v", sh)
	}
	if v, _ := sh.Configuration.Get("g.only"); v != "g" {
		t.Errorf("shell configuration = %+v", sh.Configuration)
	}

	got, err = app.ActionXML("c", defaults, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := mustParseBody(t, got).(*FS)
	if fs.NameNode != "hdfs://global-nn" || len(fs.JobXMLs) != 2 || len(fs.Ops) != 1 {
		t.Errorf("fs merged = %+v", fs)
	}
	if v, _ := fs.Configuration.Get("d.only"); v != "d" {
		t.Errorf("fs configuration = %+v", fs.Configuration)
	}

	got, err = app.ActionXML("d", defaults, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sub := mustParseBody(t, got).(*SubWorkflow); len(sub.Configuration) != 0 {
		t.Errorf("sub-workflow got configuration %+v", sub.Configuration)
	}

	if _, err := app.ActionXML("end", nil, Options{}); err == nil {
		t.Error("ActionXML of the end node succeeded")
	}
}

func TestActionXMLServerDefaults(t *testing.T) {
	t.Parallel()
	def := []byte(wf(`<start to="a"/><action name="a"><java><main-class>M</main-class></java><ok to="end"/><error to="end"/></action><end name="end"/>`))
	_, err := Load(def, Options{})
	wantCode(t, err, oozieerr.E0701)
	opts := Options{DefaultNameNode: "hdfs://default-nn", DefaultResourceManager: "default-rm:8032"}
	app, err := Load(def, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := app.ActionXML("a", nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	j := mustParseBody(t, got).(*Java)
	if j.NameNode != "hdfs://default-nn" || j.JobTracker != "default-rm:8032" || j.JobTrackerTag != "resource-manager" {
		t.Errorf("java merged = %+v\n%s", j.Hadoop, got)
	}
}

func mustParseBody(t *testing.T, xml string) Body {
	t.Helper()
	b, err := ParseBody(xml)
	if err != nil {
		t.Fatalf("ParseBody: %v\n%s", err, xml)
	}
	return b
}
