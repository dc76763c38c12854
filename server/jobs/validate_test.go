package jobs_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/workflow"
)

// validateCall posts a document to v2/validate as Oozie's client does for a local file.
func (f *fixture) validateCall(t *testing.T, file, doc string) response {
	t.Helper()
	return f.call(t, http.MethodPost, "/oozie/v2/validate?file="+url.QueryEscape(file)+"&user=joe", "application/xml", doc)
}

// TestValidateExamples validates every workflow, coordinator and bundle document of the
// example apps (gozie's own, and Oozie's when GOZIE_OOZIE_EXAMPLES names them). Oozie's
// workflows with action types gozie does not run (custom types) get the warning that
// names them instead of "Valid".
func TestValidateExamples(t *testing.T) {
	t.Parallel()
	f := setup(t)
	testapps.Each(t, func(t *testing.T, root string) { f.validateExamples(t, root) })
}

func (f *fixture) validateExamples(t *testing.T, root string) {
	var files []string
	for _, pattern := range []string{"*/workflow*.xml", "*/coordinator*.xml", "*/bundle*.xml"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d example documents under %s", len(files), root)
	}
	bundles := 0
	for _, file := range files {
		if strings.HasPrefix(filepath.Base(file), "bundle") {
			bundles++
		}
		t.Run(strings.TrimPrefix(file, root), func(t *testing.T) {
			doc, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := `{"validate":"Valid workflow-app"}`
			if app, err := workflow.Parse(doc); err == nil {
				if u := app.UnsupportedActions(workflow.Options{}); len(u) > 0 {
					want = `{"validate":"Warning: `
				}
			}
			r := f.validateCall(t, file, string(doc))
			if r.status != http.StatusOK || !strings.HasPrefix(strings.TrimSpace(r.body), want) {
				t.Errorf("%d %s %s, want %s", r.status, r.header.Get("oozie-error-message"), r.body, want)
			}
		})
	}
	if bundles == 0 {
		t.Errorf("no bundle document under %s", root)
	}
}

func TestValidateErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	broken, err := os.ReadFile(filepath.Join(f.Apps, appBroken, "workflow.xml"))
	if err != nil {
		t.Fatal(err)
	}
	const file = "/home/joe/app/workflow.xml"
	tests := []struct {
		name        string
		path        string
		contentType string
		body        string
		status      int
		code, msg   string
	}{
		{"schema error", "/oozie/v2/validate?file=" + file + "&user=joe", "application/xml", string(broken), 400, "E0701",
			"E0701: XML schema error, " + file + ", unexpected element <bogus> in <workflow-app>, " +
				"expected <decision>, <fork>, <join>, <kill>, <action> or <end> (line 3)"},
		{"not well-formed", "/oozie/v2/validate?file=" + file + "&user=joe", "application/xml", "<workflow-app", 400, "E0701",
			"E0701: XML schema error, " + file + ", the document is not well-formed XML: XML syntax error on line 1: unexpected EOF"},
		{"empty", "/oozie/v2/validate?file=" + file + "&user=joe", "application/xml", "", 400, "E0701",
			"E0701: XML schema error, " + file + ", the document has no root element"},
		{"invalid bundle", "/oozie/v2/validate?file=b.xml&user=joe", "application/xml",
			"<bundle-app xmlns=\"uri:oozie:bundle:0.2\" name=\"b\">\n<coordinator name=\"c\"><app-pth>/c</app-pth></coordinator></bundle-app>",
			400, "E0701", "E0701: XML schema error, b.xml, line 2 <app-pth>: unexpected element <app-pth> in <coordinator>, expected <app-path>"},
		{"bundle without coordinators", "/oozie/v2/validate?file=b.xml&user=joe", "application/xml",
			`<bundle-app xmlns="uri:oozie:bundle:0.2" name="b"></bundle-app>`,
			400, "E0701", "E0701: XML schema error, b.xml, line 1 <bundle-app>: element <coordinator> is missing in <bundle-app>"},
		{"sla documents cannot be checked yet", "/oozie/v2/validate?file=s.xml&user=joe", "application/xml",
			`<sla-info xmlns="uri:oozie:sla:0.1"/>`,
			400, "E0701", "E0701: XML schema error, s.xml, validating sla-info documents is not supported yet"},
		{"remote file that cannot be read", "/oozie/v2/validate?file=hdfs://127.0.0.1:1/wf.xml&user=joe", "application/xml", "", 400, "E0505",
			"E0505: App definition [File does not exist, hdfs://127.0.0.1:1/wf.xml] does not exist"},
		{"remote file on a filesystem the server does not reach", "/oozie/v2/validate?file=webhdfs://nn/wf.xml&user=joe", "application/xml", "", 400, "E0904",
			"E0904: Scheme [webhdfs] not supported in uri [webhdfs://nn/wf.xml]"},
		{"a local file in capitals is the client's to send", "/oozie/v2/validate?file=FILE:///etc/passwd&user=joe", "application/xml", "", 400, "E0701",
			"E0701: XML schema error, FILE:///etc/passwd, the document has no root element"},
		{"no file", "/oozie/v2/validate?user=joe", "application/xml", "<a/>", 400, "E0305", "E0305: Missing parameter [file]"},
		{"no user", "/oozie/v2/validate?file=x.xml", "application/xml", "<a/>", 400, "E0305", "E0305: Missing parameter [user]"},
		{"not XML", "/oozie/v2/validate?file=x.xml&user=joe", "text/xml", "<a/>", 400, "E0300", "E0300: Invalid content-type [text/xml]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodPost, tt.path, tt.contentType, tt.body), tt.status, tt.code, tt.msg)
		})
	}
}

func TestValidateUnknownDocument(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.validateCall(t, "x.xml", `<configuration><property><name>a</name><value>b</value></property></configuration>`)
	if r.status != http.StatusBadRequest || r.header.Get("oozie-error-code") != "E0701" ||
		!strings.HasPrefix(r.header.Get("oozie-error-message"), "E0701: XML schema error, x.xml, ") {
		t.Errorf("%d %q", r.status, r.header.Get("oozie-error-message"))
	}
}

// verdict calls validate with doc and returns the verdict of a 200 answer.
func (f *fixture) verdict(t *testing.T, file, doc string) string {
	t.Helper()
	r := f.validateCall(t, file, doc)
	if r.status != http.StatusOK {
		t.Fatalf("validate %s: %d %s %s", file, r.status, r.header.Get("oozie-error-message"), r.body)
	}
	var v struct{ Validate string }
	decode(t, r.body, &v)
	return v.Validate
}

// TestValidateBundle: bundle documents are checked against their schema like workflows
// and coordinators (they used to be refused as "not supported yet").
func TestValidateBundle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, ns := range []string{"uri:oozie:bundle:0.1", "uri:oozie:bundle:0.2"} {
		doc := `<bundle-app xmlns="` + ns + `" name="b">
  <controls><kick-off-time>2025-01-01T00:00Z</kick-off-time></controls>
  <coordinator name="c1"><app-path>hdfs://nn/apps/c1</app-path>
    <configuration><property><name>a</name><value>b</value></property></configuration>
  </coordinator>
  <coordinator name="c2"><app-path>hdfs://nn/apps/c2</app-path></coordinator>
</bundle-app>`
		if got := f.verdict(t, "bundle.xml", doc); got != "Valid workflow-app" {
			t.Errorf("%s: %q", ns, got)
		}
	}
}

// TestValidateWarnsOfUnsupportedActions: a workflow that follows its schema but has
// actions gozie does not run is not "Valid": the answer is a warning naming each such
// action and type with Oozie's code, E0723.
func TestValidateWarnsOfUnsupportedActions(t *testing.T) {
	t.Parallel()
	f := setup(t)
	doc := `<workflow-app xmlns="uri:oozie:workflow:0.5" name="w">
  <start to="p"/>
  <action name="p"><flume xmlns="uri:custom:flume-action:0.1"/>
    <ok to="c"/><error to="end"/></action>
  <action name="c"><my-action xmlns="uri:custom:my-action:0.1"/><ok to="end"/><error to="end"/></action>
  <end name="end"/>
</workflow-app>`
	want := "Warning: the workflow-app follows its schema, but a submission would be refused: " +
		"E0723: Unsupported action type, node [p] type [flume]: gozie does not support flume (uri:custom:flume-action:0.1) actions (line 3); " +
		"E0723: Unsupported action type, node [c] type [my-action]: gozie does not support my-action (uri:custom:my-action:0.1) actions (line 5)"
	if got := f.verdict(t, "wf.xml", doc); got != want {
		t.Errorf("verdict\n got %q\nwant %q", got, want)
	}
}

// TestValidateSchemaInstanceAttributes: xsi: attributes are accepted on any element of a
// workflow, coordinator or bundle, as Oozie's XSD validation accepts them; an attribute
// in another namespace is still refused with E0701 naming it and its element.
func TestValidateSchemaInstanceAttributes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const xsi = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`
	const loc = ` xsi:schemaLocation="uri:x x.xsd"`
	valid := map[string]string{
		"workflow.xml": `<workflow-app xmlns="uri:oozie:workflow:1.0" ` + xsi + ` name="w"` + loc + `>
  <start to="a"/>
  <action name="a"` + loc + `>
    <shell xmlns="uri:oozie:shell-action:1.0"` + loc + `><resource-manager>rm</resource-manager><name-node>nn</name-node><exec` + loc + `>x</exec></shell>
    <ok to="end"/><error to="end"/>
  </action>
  <end name="end"/>
</workflow-app>`,
		"coordinator.xml": `<coordinator-app xmlns="uri:oozie:coordinator:0.4" xmlns:sla="uri:oozie:sla:0.2" ` + xsi + ` name="c"
    frequency="60" start="2025-01-01T00:00Z" end="2025-01-02T00:00Z" timezone="UTC"` + loc + `>
  <datasets` + loc + `><dataset name="d" frequency="60" initial-instance="2025-01-01T00:00Z" timezone="UTC"` + loc + `>
    <uri-template` + loc + `>hdfs://nn/d/${YEAR}</uri-template></dataset></datasets>
  <input-events><data-in name="i" dataset="d"` + loc + `><instance>${coord:current(0)}</instance></data-in></input-events>
  <action` + loc + `><workflow` + loc + `><app-path>hdfs://nn/wf</app-path></workflow>
    <sla:info` + loc + `><sla:nominal-time>${coord:nominalTime()}</sla:nominal-time><sla:should-end>${10 * MINUTES}</sla:should-end></sla:info>
  </action>
</coordinator-app>`,
		"bundle.xml": `<bundle-app xmlns="uri:oozie:bundle:0.2" ` + xsi + ` name="b"` + loc + `>
  <coordinator name="c"` + loc + `><app-path` + loc + `>hdfs://nn/c</app-path></coordinator>
</bundle-app>`,
	}
	for file, doc := range valid {
		if got := f.verdict(t, file, doc); got != "Valid workflow-app" {
			t.Errorf("%s: %q", file, got)
		}
	}
	refused := []struct{ file, doc, msg string }{
		{"workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" xmlns:x="uri:x" name="w"><start to="end" x:color="red"/><end name="end"/></workflow-app>`,
			"E0701: XML schema error, workflow.xml, unexpected attribute uri:x:color on <start> (line 1)"},
		{"coordinator.xml", `<coordinator-app xmlns="uri:oozie:coordinator:0.4" xmlns:x="uri:x" x:color="red" name="c"
    frequency="60" start="2025-01-01T00:00Z" end="2025-01-02T00:00Z" timezone="UTC">
  <action><workflow><app-path>hdfs://nn/wf</app-path></workflow></action>
</coordinator-app>`,
			`E0701: XML schema error, coordinator.xml, line 1 <coordinator-app>: attribute "color" in namespace "uri:x" is not allowed`},
		{"bundle.xml", `<bundle-app xmlns="uri:oozie:bundle:0.2" xmlns:x="uri:x" name="b"><coordinator x:color="red" name="c"><app-path>p</app-path></coordinator></bundle-app>`,
			`E0701: XML schema error, bundle.xml, line 1 <coordinator>: attribute "color" in namespace "uri:x" is not allowed`},
	}
	for _, tt := range refused {
		checkError(t, f.validateCall(t, tt.file, tt.doc), http.StatusBadRequest, "E0701", tt.msg)
	}
}

// TestValidateNamesMisspelledElements: a misspelled element is named, with its line,
// instead of a complaint about the element expected after it.
func TestValidateNamesMisspelledElements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tests := []struct{ file, doc, msg string }{
		{"workflow.xml", `<workflow-app xmlns="uri:oozie:workflow:1.0" name="w">
  <start to="x"/>
  <acton name="x"><fs/><ok to="end"/><error to="end"/></acton>
  <end name="end"/>
</workflow-app>`,
			"E0701: XML schema error, workflow.xml, unexpected element <acton> in <workflow-app>, " +
				"expected <decision>, <fork>, <join>, <kill>, <action> or <end> (line 3)"},
		{"coordinator.xml", `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="c"
    frequency="60" start="2025-01-01T00:00Z" end="2025-01-02T00:00Z" timezone="UTC">
  <actoin><workflow><app-path>hdfs://nn/wf</app-path></workflow></actoin>
</coordinator-app>`,
			"E0701: XML schema error, coordinator.xml, line 3 <actoin>: unexpected element <actoin> in <coordinator-app>, " +
				"expected <parameters>, <controls>, <datasets>, <input-events>, <output-events> or <action>"},
		{"coordinator.xml", `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="c"
    frequency="60" start="2025-01-01T00:00Z" end="2025-01-02T00:00Z" timezone="UTC">
  <action>
    <workfow><app-path>hdfs://nn/wf</app-path></workfow></action>
</coordinator-app>`,
			"E0701: XML schema error, coordinator.xml, line 4 <workfow>: unexpected element <workfow> in <action>, expected <workflow>"},
		{"bundle.xml", `<bundle-app xmlns="uri:oozie:bundle:0.2" name="b">
  <coordinatr name="c"><app-path>p</app-path></coordinatr>
</bundle-app>`,
			"E0701: XML schema error, bundle.xml, line 2 <coordinatr>: unexpected element <coordinatr> in <bundle-app>, " +
				"expected <parameters>, <controls> or <coordinator>"},
	}
	for _, tt := range tests {
		checkError(t, f.validateCall(t, tt.file, tt.doc), http.StatusBadRequest, "E0701", tt.msg)
	}
}
