package workflow

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// xsiDecl declares the xsi prefix for the schema-instance namespace.
const xsiDecl = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`

// TestParseAcceptsSchemaInstanceAttributes: xsi: attributes, which generated
// XML puts on any element, are accepted everywhere, as Oozie's XSD
// validation accepts them: on the root, on control nodes, on an action and
// on its body (workflow and extension namespaces), on string elements and
// on an SLA block. They do not reach the action's stored body.
func TestParseAcceptsSchemaInstanceAttributes(t *testing.T) {
	t.Parallel()
	const loc = ` xsi:schemaLocation="uri:oozie:workflow:1.0 oozie-workflow-1.0.xsd"`
	def := `<workflow-app xmlns="uri:oozie:workflow:1.0" xmlns:sla="uri:oozie:sla:0.2" ` + xsiDecl + ` name="x"` + loc + `>
  <start to="a"` + loc + `/>
  <action name="a"` + loc + `>
    <shell xmlns="uri:oozie:shell-action:1.0" xsi:noNamespaceSchemaLocation="shell.xsd">
      <resource-manager` + loc + `>rm:8032</resource-manager><name-node>hdfs://nn:8020</name-node>
      <exec xsi:type="xs:string">run.sh</exec><capture-output` + loc + `/>
    </shell>
    <ok to="b"` + loc + `/><error to="k"/>
  </action>
  <action name="b">
    <fs` + loc + `><mkdir path="/tmp/x"` + loc + `/></fs>
    <ok to="end"/><error to="k"/>
    <sla:info` + loc + `><sla:nominal-time` + loc + `>n</sla:nominal-time><sla:should-end>1</sla:should-end></sla:info>
  </action>
  <kill name="k"` + loc + `><message` + loc + `>failed</message></kill>
  <end name="end"` + loc + `/>
</workflow-app>`
	app := mustLoad(t, def)
	a := app.Node("a").Action
	if s, ok := a.Body.(*Shell); !ok || s.Exec != "run.sh" || !s.CaptureOutput {
		t.Fatalf("body = %+v", a.Body)
	}
	if strings.Contains(a.Raw, "XMLSchema-instance") || strings.Contains(a.Raw, "schemaLocation") {
		t.Errorf("the stored body keeps the xsi attributes:\n%s", a.Raw)
	}
	if app.Node("b").Action.SLA == nil || app.Node("k").Message != "failed" {
		t.Errorf("b's SLA %v, k's message %q", app.Node("b").Action.SLA, app.Node("k").Message)
	}
}

// TestParseRefusesOtherQualifiedAttributes: an attribute in any namespace
// but xsi's stays an E0701 naming the attribute and the element.
func TestParseRefusesOtherQualifiedAttributes(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, def, msg string }{
		{"on an action", wf(`<start to="a"/><action xmlns:x="uri:x" name="a" x:color="red"><fs/><ok to="end"/><error to="end"/></action><end name="end"/>`),
			"unexpected attribute uri:x:color on <action>"},
		{"on the root", `<workflow-app xmlns="uri:oozie:workflow:1.0" xmlns:x="uri:x" x:y="1" name="w"><start to="end"/><end name="end"/></workflow-app>`,
			"unexpected attribute uri:x:y on <workflow-app>"},
		{"unqualified beside xsi", wf(`<start to="end" ` + xsiDecl + ` xsi:schemaLocation="a b" color="red"/><end name="end"/>`),
			`unexpected attribute "color" on <start>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.def))
			we := wantCode(t, err, oozieerr.E0701)
			if !strings.Contains(we.Msg, tt.msg) || we.Line == 0 {
				t.Errorf("error %v does not say %q with a line", err, tt.msg)
			}
		})
	}
}
