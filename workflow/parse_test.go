package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/oozieerr"
)

// TestExampleApps: every workflow of the example apps (gozie's own, and
// Oozie's when testapps.OozieEnv names them) parses and validates, or fails
// only because it uses an action type gozie does not run.
func TestExampleApps(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		// min is how many workflow files the tree holds at least;
		// Every action type of both sets of examples runs.
		min := 8
		if testapps.Source(apps) == testapps.Oozie {
			min = 20
		}
		files, err := filepath.Glob(filepath.Join(apps, "*", "workflow*.xml"))
		if err != nil || len(files) < min {
			t.Fatalf("found %d example workflows under %s (%v), want at least %d", len(files), apps, err, min)
		}
		for _, f := range files {
			app := filepath.Base(filepath.Dir(f))
			t.Run(app+"/"+filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				def, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				parsed, err := Parse(def)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if err := Validate(parsed, Options{}); err != nil {
					t.Fatalf("Validate: %v", err)
				}
				if parsed.Node(parsed.Start) == nil {
					t.Errorf("start target %q not found", parsed.Start)
				}
			})
		}
	})
}

// shellExample is what TestParseShellExample expects of one source's shell
// example: a shell action with captured output, followed by a decision on
// that output.
type shellExample struct {
	name, node             string   // the app's name and the shell node, its start
	exec                   string   // <exec>
	args, envVars, files   []string // <argument>, <env-var>, <file>
	decision, fail         string   // the nodes after the action: ok and error
	caseTo, defaultTo      string   // the decision's one case and its default
	predicatePrefix, rawIn string   // how the case starts; a line of Raw
}

var shellExamples = map[string]shellExample{
	testapps.Gozie: {name: "gozie-shell", node: "report", exec: "report.sh",
		args: []string{"${wf:user()}", "${examplesRoot}"}, envVars: []string{"GREETING=${greeting}"}, files: []string{"report.sh"},
		decision: "check-report", fail: "script-failed", caseTo: "end", defaultTo: "wrong-report",
		predicatePrefix: "${wf:actionData('report')['argc'] eq '2'", rawIn: "<exec>report.sh</exec>"},
	testapps.Oozie: {name: "shell-wf", node: "shell-node", exec: "echo", args: []string{"my_output=Hello Oozie"},
		decision: "check-output", fail: "fail", caseTo: "end", defaultTo: "fail-output",
		predicatePrefix: "${wf:actionData('shell-node')", rawIn: "<exec>echo</exec>"},
}

// TestParseShellExample parses the shell example of each source into its
// typed model.
func TestParseShellExample(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		want := shellExamples[testapps.Source(apps)]
		app := mustLoad(t, readExample(t, apps, "shell"))
		if app.Name != want.name || app.Version != "1.0" || app.Start != want.node {
			t.Fatalf("app = %q %q start %q", app.Name, app.Version, app.Start)
		}
		n := app.Node(want.node)
		sh, ok := n.Action.Body.(*Shell)
		if !ok {
			t.Fatalf("body is %T, want *Shell", n.Action.Body)
		}
		if sh.Exec != want.exec || !equalStrings(sh.Arguments, want.args) || !equalStrings(sh.EnvVars, want.envVars) ||
			!equalStrings(sh.Files, want.files) || !sh.CaptureOutput {
			t.Errorf("shell = %+v", sh)
		}
		if sh.JobTracker != "${resourceManager}" || sh.JobTrackerTag != "resource-manager" || sh.NameNode != "${nameNode}" {
			t.Errorf("head = %q %q %q", sh.JobTracker, sh.JobTrackerTag, sh.NameNode)
		}
		if v, _ := sh.Configuration.Get("mapred.job.queue.name"); v != "${queueName}" {
			t.Errorf("queue = %q", v)
		}
		if n.Action.OK != want.decision || n.Action.Error != want.fail {
			t.Errorf("transitions = %q %q", n.Action.OK, n.Action.Error)
		}
		d := app.Node(want.decision)
		if d.Kind != KindDecision || len(d.Cases) != 1 || d.Cases[0].To != want.caseTo || d.Default != want.defaultTo ||
			!strings.HasPrefix(d.Cases[0].Predicate, want.predicatePrefix) {
			t.Errorf("decision = %+v", d)
		}
		if !strings.Contains(n.Action.Raw, `<shell xmlns="uri:oozie:shell-action:1.0">`) ||
			!strings.Contains(n.Action.Raw, want.rawIn) {
			t.Errorf("raw = %s", n.Action.Raw)
		}
		body, err := ParseBody(n.Action.Raw)
		if err != nil {
			t.Fatalf("ParseBody(Raw): %v", err)
		}
		if again := body.(*Shell); again.Exec != want.exec || !again.CaptureOutput || !equalStrings(again.Arguments, want.args) {
			t.Errorf("ParseBody(Raw) = %+v", again)
		}
	})
}

// TestParseBodies covers every typed body of the workflow and action
// namespaces.
func TestParseBodies(t *testing.T) {
	t.Parallel()
	def := wf(`
  <parameters>
    <property><name>queue</name><value>default</value></property>
    <property><name>input</name><description>required</description></property>
  </parameters>
  <global>
    <resource-manager>rm:8032</resource-manager>
    <name-node>hdfs://nn</name-node>
    <launcher><memory.mb>2048</memory.mb><queue>launch</queue></launcher>
    <job-xml>global.xml</job-xml>
    <configuration><property><name>g</name><value>1</value></property></configuration>
  </global>
  <credentials>
    <credential name="hs2" type="hive2">
      <property><name>hive2.jdbc.url</name><value>jdbc:hive2://h:10000</value></property>
    </credential>
  </credentials>
  <start to="fork"/>
  <fork name="fork">
    <path start="mr"/><path start="java"/><path start="hive"/><path start="hive2"/>
    <path start="fs"/><path start="sub"/><path start="mail"/><path start="sh"/>
  </fork>
  <action name="mr" retry-max="2" retry-interval="1" retry-policy="exponential">
    <map-reduce>
      <prepare><delete path="hdfs://nn/out"/><mkdir path="hdfs://nn/tmp"/></prepare>
      <streaming><mapper>cat</mapper><reducer>wc</reducer><env>A=1</env></streaming>
      <configuration><property><name>mapred.input.dir</name><value>/in</value></property></configuration>
      <config-class>org.example.Conf</config-class>
      <file>lib/a.jar#a.jar</file><archive>x.zip</archive>
    </map-reduce>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="java">
    <java>
      <main-class>org.example.Main</main-class>
      <java-opt>-Xmx1g</java-opt><java-opt>-Da=b</java-opt>
      <arg>one</arg><arg>two</arg>
      <capture-output/>
    </java>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="hive">
    <hive xmlns="uri:oozie:hive-action:1.0">
      <query>select 1</query>
      <param>A=1</param><argument>--verbose</argument>
    </hive>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="hive2" cred="hs2">
    <hive2 xmlns="uri:oozie:hive2-action:1.0">
      <jdbc-url>jdbc:hive2://h:10000/default</jdbc-url>
      <password>secret</password>
      <script>s.q</script>
      <param>B=2</param>
    </hive2>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="fs">
    <fs>
      <name-node>hdfs://other</name-node>
      <delete path="/a"/>
      <mkdir path="/b"/>
      <move source="/b" target="/c"/>
      <chmod path="/c" permissions="755" dir-files="false"><recursive/></chmod>
      <touchz path="/c/_SUCCESS"/>
      <chgrp path="/c" group="etl"/>
    </fs>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="sub">
    <sub-workflow>
      <app-path>hdfs://nn/apps/child</app-path>
      <propagate-configuration/>
      <configuration><property><name>x</name><value>y</value></property></configuration>
    </sub-workflow>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="mail">
    <email xmlns="uri:oozie:email-action:0.2">
      <to>a@example.com</to><cc>b@example.com</cc><subject>hi</subject><body>done</body>
      <content_type>text/plain</content_type>
    </email>
    <ok to="join"/><error to="kill"/>
  </action>
  <action name="sh">
    <shell xmlns="uri:oozie:shell-action:0.3">
      <exec>run.sh</exec><argument>a</argument><env-var>K=V</env-var><file>run.sh</file>
    </shell>
    <ok to="join"/><error to="kill"/>
  </action>
  <join name="join" to="end"/>
  <kill name="kill"><message>boom</message></kill>
  <end name="end"/>`)
	app := mustLoad(t, def)
	if len(app.Parameters) != 2 || !app.Parameters[0].HasDefault || app.Parameters[1].HasDefault {
		t.Errorf("parameters = %+v", app.Parameters)
	}
	g := app.Global
	if g.JobTracker != "rm:8032" || g.JobTrackerTag != "resource-manager" || g.Launcher.MemoryMB != "2048" ||
		len(g.JobXMLs) != 1 || len(g.Configuration) != 1 {
		t.Errorf("global = %+v", g)
	}
	if len(app.Credentials) != 1 || app.Credentials[0].Type != "hive2" || len(app.Credentials[0].Properties) != 1 {
		t.Errorf("credentials = %+v", app.Credentials)
	}
	mrNode := app.Node("mr")
	mr := mrNode.Action.Body.(*MapReduce)
	if mr.Streaming == nil || mr.Streaming.Mapper != "cat" || mr.ConfigClass != "org.example.Conf" ||
		len(mr.Prepare.Deletes) != 1 || len(mr.Prepare.Mkdirs) != 1 || len(mr.Files) != 1 || len(mr.Archives) != 1 {
		t.Errorf("map-reduce = %+v", mr)
	}
	if mrNode.Action.RetryMax != "2" || mrNode.Action.RetryInterval != "1" || mrNode.Action.RetryPolicy != "exponential" {
		t.Errorf("retry = %+v", mrNode.Action)
	}
	if j := app.Node("java").Action.Body.(*Java); j.MainClass != "org.example.Main" || len(j.JavaOpt) != 2 ||
		len(j.Args) != 2 || !j.CaptureOutput {
		t.Errorf("java = %+v", j)
	}
	if h := app.Node("hive").Action.Body.(*Hive); h.Query != "select 1" || h.Script != "" || len(h.Params) != 1 || len(h.Arguments) != 1 {
		t.Errorf("hive = %+v", h)
	}
	h2n := app.Node("hive2")
	if h := h2n.Action.Body.(*Hive2); h.JDBCURL != "jdbc:hive2://h:10000/default" || h.Password != "secret" ||
		h.Script != "s.q" || h2n.Action.Cred != "hs2" {
		t.Errorf("hive2 = %+v", h)
	}
	fs := app.Node("fs").Action.Body.(*FS)
	ops := make([]string, 0, len(fs.Ops))
	for _, op := range fs.Ops {
		ops = append(ops, op.Op)
	}
	if !equalStrings(ops, []string{"delete", "mkdir", "move", "chmod", "touchz", "chgrp"}) || fs.NameNode != "hdfs://other" ||
		!fs.Ops[3].Recursive || fs.Ops[3].Permissions != "755" || fs.Ops[3].DirFiles != "false" || fs.Ops[2].Target != "/c" ||
		fs.Ops[5].Group != "etl" {
		t.Errorf("fs = %+v", fs)
	}
	if s := app.Node("sub").Action.Body.(*SubWorkflow); s.AppPath != "hdfs://nn/apps/child" || !s.PropagateConfiguration ||
		len(s.Configuration) != 1 {
		t.Errorf("sub-workflow = %+v", s)
	}
	if m := app.Node("mail").Action.Body.(*Email); m.To != "a@example.com" || m.CC != "b@example.com" || m.Body != "done" ||
		m.ContentType != "text/plain" {
		t.Errorf("email = %+v", m)
	}
	if s := app.Node("sh").Action.Body.(*Shell); s.Exec != "run.sh" || len(s.EnvVars) != 1 || len(s.Files) != 1 {
		t.Errorf("shell 0.3 = %+v", s)
	}
	if k := app.Node("kill"); k.Message != "boom" {
		t.Errorf("kill message = %q", k.Message)
	}
}

func TestParseSLA(t *testing.T) {
	t.Parallel()
	def := `<workflow-app xmlns="uri:oozie:workflow:0.5" xmlns:sla="uri:oozie:sla:0.2" name="w">
  <start to="a"/>
  <action name="a">
    <fs><mkdir path="/x"/></fs>
    <ok to="end"/><error to="end"/>
    <sla:info>
      <sla:nominal-time>${nominal}</sla:nominal-time>
      <sla:should-end>${30 * MINUTES}</sla:should-end>
      <sla:alert-events>start_miss,end_miss</sla:alert-events>
    </sla:info>
  </action>
  <end name="end"/>
  <sla:info xmlns:sla="uri:oozie:sla:0.1">
    <sla:app-name>w</sla:app-name><sla:nominal-time>n</sla:nominal-time>
    <sla:should-start>1</sla:should-start><sla:should-end>2</sla:should-end>
    <sla:alert-contact>a</sla:alert-contact><sla:dev-contact>d</sla:dev-contact>
    <sla:qa-contact>q</sla:qa-contact><sla:se-contact>s</sla:se-contact>
  </sla:info>
</workflow-app>`
	app := mustLoad(t, def)
	s := app.Node("a").Action.SLA
	if s == nil || s.Namespace != nsSLA02 || s.NominalTime != "${nominal}" || s.ShouldEnd != "${30 * MINUTES}" ||
		s.AlertEvents != "start_miss,end_miss" || s.ShouldStart != "" {
		t.Errorf("action sla = %+v", s)
	}
	if j := app.SLA; j == nil || j.Namespace != nsSLA01 || j.AppName != "w" || j.DevContact != "d" || j.ShouldStart != "1" {
		t.Errorf("job sla = %+v", j)
	}
}

// TestParseErrors: schema-level errors name the code, the node and the line.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	okAction := shell("a", "end", "end", "")
	tests := []struct {
		name string
		def  string
		code oozieerr.Code
		node string
		msg  string
	}{
		{"not xml", `<workflow-app`, oozieerr.E0700, "", "XML error"},
		{"doctype", `<!DOCTYPE x [<!ENTITY a "b">]>` + wf(`<start to="end"/><end name="end"/>`), oozieerr.E0700, "", "DOCTYPE"},
		{"mismatched end tag", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="x"><start to="e"></end></workflow-app>`, oozieerr.E0700, "", "unexpected end element </end>"},
		{"unclosed", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="x"><start to="e"/>`, oozieerr.E0700, "", "unexpected end of document"},
		{"undeclared prefix", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="x"><start to="e"/><end name="e"/><sla:info/></workflow-app>`, oozieerr.E0700, "", "undeclared namespace prefix sla"},
		{"unknown entity", wf(`<start to="k"/><kill name="k"><message>&nbsp;</message></kill><end name="end"/>`), oozieerr.E0700, "", "XML error"},
		{"two roots", wf(`<start to="end"/><end name="end"/>`) + `<x/>`, oozieerr.E0700, "", "more than one root"},
		{"wrong root", `<coordinator-app xmlns="uri:oozie:coordinator:0.4"/>`, oozieerr.E0701, "", "workflow-app"},
		{"unknown version", `<workflow-app xmlns="uri:oozie:workflow:0.9" name="x"><start to="e"/><end name="e"/></workflow-app>`,
			oozieerr.E0701, "", "workflow-app"},
		{"no name", `<workflow-app xmlns="uri:oozie:workflow:1.0"><start to="e"/><end name="e"/></workflow-app>`,
			oozieerr.E0701, "", `attribute "name" is required`},
		{"no start", wf(`<end name="end"/>`), oozieerr.E0701, "", "unexpected element <end> in <workflow-app>, expected <start>"},
		{"no end", wf(`<start to="a"/>` + okAction), oozieerr.E0701, "", "<end> is required"},
		{"unknown element", wf(`<start to="end"/><foo/><end name="end"/>`), oozieerr.E0701, "",
			"unexpected element <foo> in <workflow-app>, expected <decision>, <fork>, <join>, <kill>, <action> or <end>"},
		{"misspelled action", wf(`<start to="x"/>` + "\n" + `<acton name="x"><fs/><ok to="end"/><error to="end"/></acton><end name="end"/>`), oozieerr.E0701, "",
			"unexpected element <acton> in <workflow-app>, expected <decision>, <fork>, <join>, <kill>, <action> or <end> (line 2)"},
		{"misspelled ok", wf(`<start to="a"/><action name="a"><fs/>` + "\n" + `<okk to="end"/><error to="end"/></action><end name="end"/>`), oozieerr.E0701, "a",
			"unexpected element <okk> in <action>, expected <ok> (line 2)"},
		{"misplaced global", wf(`<start to="end"/><global/><end name="end"/>`), oozieerr.E0701, "", "unexpected element <global> in <workflow-app>"},
		{"global in 0.3", `<workflow-app xmlns="uri:oozie:workflow:0.3" name="x"><global/><start to="e"/><end name="e"/></workflow-app>`,
			oozieerr.E0701, "", "unexpected element <global> in <workflow-app>, expected <start>"},
		{"node after end", wf(`<start to="end"/><end name="end"/>` + killNode("k")), oozieerr.E0701, "", "unexpected element <kill>"},
		{"duplicate node", wf(`<start to="a"/>` + okAction + okAction + `<end name="end"/>`), oozieerr.E0705, "a", "already defined"},
		{"end named like action", wf(`<start to="a"/>` + shell("a", "a2", "a2", "") + `<end name="a"/>`), oozieerr.E0705, "a", ""},
		{"fork one path", wf(`<start to="f"/><fork name="f"><path start="end"/></fork><end name="end"/>`), oozieerr.E0731, "f", "less than two paths"},
		{"decision no default", wf(`<start to="d"/><decision name="d"><switch><case to="end">true</case></switch></decision><end name="end"/>`),
			oozieerr.E0701, "d", "<default> is required"},
		{"decision no case", wf(`<start to="d"/><decision name="d"><switch><default to="end"/></switch></decision><end name="end"/>`),
			oozieerr.E0701, "d", "unexpected element <default> in <switch>, expected <case>"},
		{"kill no message", wf(`<start to="k"/><kill name="k"/><end name="end"/>`), oozieerr.E0701, "k", "<message> is required"},
		{"action no ok", wf(`<start to="a"/><action name="a"><fs/><error to="end"/></action><end name="end"/>`), oozieerr.E0701, "a",
			"unexpected element <error> in <action>, expected <ok>"},
		{"action ends early", wf(`<start to="a"/><action name="a"><fs/></action><end name="end"/>`), oozieerr.E0701, "a", "element <ok> is required in <action>"},
		{"action two bodies", wf(`<start to="a"/><action name="a"><fs/><fs/><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <fs> in <action>, expected <ok>"},
		{"action empty", wf(`<start to="a"/><action name="a"></action><end name="end"/>`), oozieerr.E0701, "a", "no action body"},
		{"unknown wf body", wf(`<start to="a"/><action name="a"><shell><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <shell>"},
		{"unknown shell version", wf(`<start to="a"/><action name="a"><shell xmlns="uri:oozie:shell-action:0.9"><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unknown schema namespace"},
		{"shell without exec", wf(`<start to="a"/><action name="a"><shell xmlns="uri:oozie:shell-action:1.0"><argument>x</argument></shell><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <argument> in <shell>, expected <exec>"},
		{"shell element order", wf(`<start to="a"/><action name="a"><shell xmlns="uri:oozie:shell-action:1.0"><exec>x</exec><name-node>n</name-node></shell><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <name-node>"},
		{"shell 0.1 needs job-tracker", wf(`<start to="a"/><action name="a"><shell xmlns="uri:oozie:shell-action:0.1"><name-node>n</name-node><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <name-node> in <shell>, expected <job-tracker>"},
		{"hive 0.5 has no query", wf(`<start to="a"/><action name="a"><hive xmlns="uri:oozie:hive-action:0.5"><query>q</query></hive><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <query> in <hive>, expected <script>"},
		{"hive2 needs jdbc-url", wf(`<start to="a"/><action name="a"><hive2 xmlns="uri:oozie:hive2-action:1.0"><script>s</script></hive2><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <script> in <hive2>, expected <jdbc-url>"},
		{"resource-manager in 0.5", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="x"><start to="a"/><action name="a"><java><resource-manager>r</resource-manager><main-class>M</main-class></java><ok to="e"/><error to="e"/></action><end name="e"/></workflow-app>`,
			oozieerr.E0701, "a", "unexpected element <resource-manager> in <java>, expected <main-class>"},
		{"setrep not in 1.0", wf(`<start to="a"/><action name="a"><fs><setrep path="/a" replication-factor="2"/></fs><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "unexpected element <setrep>"},
		{"retry-policy in 0.4", `<workflow-app xmlns="uri:oozie:workflow:0.4" name="x"><start to="a"/><action name="a" retry-policy="periodic"><fs/><ok to="e"/><error to="e"/></action><end name="e"/></workflow-app>`,
			oozieerr.E0701, "a", `unexpected attribute "retry-policy"`},
		{"retry-max not a number", wf(`<start to="a"/><action name="a" retry-max="x"><fs/><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "non-negative integer"},
		{"bad attribute", wf(`<start to="a"/><action name="a" color="red"><fs/><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", `unexpected attribute "color"`},
		{"mkdir without path", wf(`<start to="a"/><action name="a"><fs><mkdir/></fs><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", `attribute "path" is required`},
		{"property without value", wf(`<start to="a"/><action name="a"><fs><configuration><property><name>a</name></property></configuration></fs><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "", "<value> is required"},
		{"element in string", wf(`<start to="a"/><action name="a"><sub-workflow><app-path><x/></app-path></sub-workflow><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "must not contain elements"},
		{"text in flag", wf(`<start to="a"/><action name="a"><sub-workflow><app-path>p</app-path><propagate-configuration>yes</propagate-configuration></sub-workflow><ok to="end"/><error to="end"/></action><end name="end"/>`),
			oozieerr.E0701, "a", "must be empty"},
		{"sla 0.2 in 0.4", `<workflow-app xmlns="uri:oozie:workflow:0.4" xmlns:sla="uri:oozie:sla:0.2" name="x"><start to="e"/><end name="e"/><sla:info><sla:nominal-time>n</sla:nominal-time><sla:should-end>1</sla:should-end></sla:info></workflow-app>`,
			oozieerr.E0701, "", "unexpected element <{uri:oozie:sla:0.2}info>"},
		{"sla missing should-end", wf(`<start to="end"/><end name="end"/><sla:info xmlns:sla="uri:oozie:sla:0.2"><sla:nominal-time>n</sla:nominal-time></sla:info>`),
			oozieerr.E0701, "", "<should-end> is required"},
		{"text in element content", wf(`<start to="end"/>hello<end name="end"/>`), oozieerr.E0701, "", "must not contain text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.def))
			we := wantCode(t, err, tt.code)
			if we.Node != tt.node {
				t.Errorf("node = %q, want %q (%v)", we.Node, tt.node, err)
			}
			if !strings.Contains(we.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", we.Error(), tt.msg)
			}
			if tt.code != oozieerr.E0700 && tt.name != "wrong root" && tt.name != "unknown version" && we.Line == 0 {
				t.Errorf("error %v has no line", err)
			}
		})
	}
}

func TestParseDefinitionLength(t *testing.T) {
	t.Parallel()
	small := wf(`<start to="end"/><end name="end"/>`)
	padding := "<!--" + strings.Repeat("x", DefaultMaxDefinitionLength) + "-->"
	big := small[:len(small)-len("</workflow-app>")] + padding + "</workflow-app>"
	_, err := Parse([]byte(big))
	we := wantCode(t, err, oozieerr.E0736)
	if !strings.Contains(we.Msg, "[100000]") {
		t.Errorf("message %q lacks the limit", we.Msg)
	}
	if _, err := Load([]byte(big), Options{MaxDefinitionLength: 2 * DefaultMaxDefinitionLength}); err != nil {
		t.Errorf("Load with a larger limit: %v", err)
	}
	if _, err := Load([]byte(small), Options{MaxDefinitionLength: 10}); err == nil {
		t.Error("Load with a 10-byte limit succeeded")
	}
}

// TestParseVersions: features appear with the schema versions that define
// them.
func TestParseVersions(t *testing.T) {
	t.Parallel()
	mr := `<map-reduce><job-tracker>jt</job-tracker><name-node>nn</name-node></map-reduce>`
	tests := []struct {
		version string
		action  string
		ok      bool
	}{
		{"0.1", `<action name="a">` + mr + `<ok to="e"/><error to="e"/></action>`, true},
		{"0.1", `<action name="a"><map-reduce><name-node>nn</name-node></map-reduce><ok to="e"/><error to="e"/></action>`, false},
		{"0.4", `<action name="a"><map-reduce><name-node>nn</name-node></map-reduce><ok to="e"/><error to="e"/></action>`, true},
		{"0.1", `<action name="a" cred="c">` + mr + `<ok to="e"/><error to="e"/></action>`, false},
		{"0.2.5", `<action name="a" cred="c">` + mr + `<ok to="e"/><error to="e"/></action>`, true},
		{"0.2.5", `<action name="a" retry-max="1">` + mr + `<ok to="e"/><error to="e"/></action>`, false},
		{"0.3", `<action name="a" retry-max="1" retry-interval="2">` + mr + `<ok to="e"/><error to="e"/></action>`, true},
		{"0.3", `<action name="a"><fs><touchz path="/x"/></fs><ok to="e"/><error to="e"/></action>`, false},
		{"0.4", `<action name="a"><fs><touchz path="/x"/></fs><ok to="e"/><error to="e"/></action>`, true},
		{"0.4", `<action name="a"><fs><chgrp path="/x" group="g"/></fs><ok to="e"/><error to="e"/></action>`, false},
		{"0.4.5", `<action name="a"><fs><chgrp path="/x" group="g"/></fs><ok to="e"/><error to="e"/></action>`, true},
		{"0.5", `<action name="a"><fs><setrep path="/x" replication-factor="2"/><delete path="/y" skip-trash="true"/></fs><ok to="e"/><error to="e"/></action>`, true},
		{"1.0", `<action name="a"><fs><delete path="/y" skip-trash="true"/></fs><ok to="e"/><error to="e"/></action>`, false},
		{"0.1", `<action name="a"><ssh><host>h</host><command>c</command></ssh><ok to="e"/><error to="e"/></action>`, true},
		{"0.2", `<action name="a"><ssh><host>h</host><command>c</command></ssh><ok to="e"/><error to="e"/></action>`, false},
		{"0.3", `<action name="a"><java><job-tracker>j</job-tracker><name-node>n</name-node><main-class>M</main-class><java-opt>x</java-opt></java><ok to="e"/><error to="e"/></action>`, false},
		{"0.4", `<action name="a"><java><main-class>M</main-class><java-opt>x</java-opt></java><ok to="e"/><error to="e"/></action>`, true},
	}
	for _, tt := range tests {
		t.Run(tt.version+" "+tt.action, func(t *testing.T) {
			t.Parallel()
			def := `<workflow-app xmlns="uri:oozie:workflow:` + tt.version + `" name="x"><start to="a"/>` + tt.action + `<end name="e"/></workflow-app>`
			_, err := Parse([]byte(def))
			if tt.ok && err != nil {
				t.Errorf("Parse: %v", err)
			}
			if !tt.ok {
				wantCode(t, err, oozieerr.E0701)
			}
		})
	}
}

func TestParseBodyFragment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, xml string
		want      string
		wantErr   bool
	}{
		{"shell", `<shell xmlns="uri:oozie:shell-action:0.1"><job-xml>a</job-xml><job-xml>b</job-xml><exec>x</exec></shell>`, "shell", false},
		{"fs", `<fs xmlns="uri:oozie:workflow:0.5"><setrep path="/a" replication-factor="3"/></fs>`, "fs", false},
		{"custom", `<my-action xmlns="uri:custom:1.0"/>`, "my-action", false},
		{"spark", `<spark xmlns="uri:oozie:spark-action:1.0"><master>yarn</master><name>n</name><jar>a.py</jar></spark>`, "spark", false},
		{"bad", `<shell xmlns="uri:oozie:shell-action:1.0"/>`, "", true},
		{"unknown wf version", `<fs xmlns="uri:oozie:workflow:7.0"/>`, "", true},
		{"not xml", `<fs`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := ParseBody(tt.xml)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseBody succeeded: %+v", b)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseBody: %v", err)
			}
			if got := b.actionType(); got != tt.want {
				t.Errorf("type = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSerializeEscapes(t *testing.T) {
	t.Parallel()
	def := wf(`<start to="a"/><action name="a"><fs><mkdir path="/a&amp;&quot;b"/></fs><ok to="end"/><error to="end"/></action>` +
		`<end name="end"/>`)
	app := mustLoad(t, def)
	raw := app.Node("a").Action.Raw
	if !strings.Contains(raw, `path="/a&amp;&quot;b"`) {
		t.Errorf("raw = %s", raw)
	}
	b, err := ParseBody(raw)
	if err != nil {
		t.Fatal(err)
	}
	if p := b.(*FS).Ops[0].Path; p != `/a&"b` {
		t.Errorf("path = %q", p)
	}
}

func TestParseLatin1(t *testing.T) {
	t.Parallel()
	def := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + wf(`<start to="k"/><kill name="k"><message>caf`+"\xe9"+`</message></kill><end name="end"/>`))
	app, err := Parse(def)
	if err != nil {
		t.Fatal(err)
	}
	if m := app.Node("k").Message; m != "café" {
		t.Errorf("message = %q", m)
	}
}

func TestParsePrefixedNamespaces(t *testing.T) {
	t.Parallel()
	def := `<w:workflow-app xmlns:w="uri:oozie:workflow:0.5" xmlns:sh="uri:oozie:shell-action:0.3" name="p">
  <w:start to="a"/>
  <w:action name="a">
    <sh:shell><sh:job-tracker>jt</sh:job-tracker><sh:name-node>nn</sh:name-node><sh:exec>x</sh:exec></sh:shell>
    <w:ok to="e"/><w:error to="e"/>
  </w:action>
  <w:end name="e"/>
</w:workflow-app>`
	app := mustLoad(t, def)
	a := app.Node("a").Action
	if s, ok := a.Body.(*Shell); !ok || s.Exec != "x" || a.Namespace != "uri:oozie:shell-action:0.3" {
		t.Fatalf("body = %+v", a.Body)
	}
	if !strings.HasPrefix(a.Raw, `<shell xmlns="uri:oozie:shell-action:0.3">`) {
		t.Errorf("raw = %s", a.Raw)
	}
	_, err := Parse([]byte(strings.Replace(def, `xmlns:sh="uri:oozie:shell-action:0.3"`, "", 1)))
	if err == nil {
		t.Error("undeclared prefix accepted")
	}
}
