package coordinator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// exampleConf is the job.properties the example applications expect (the union of the
// variables gozie's and Oozie's coordinator apps use).
var exampleConf = []Property{
	{Name: "user.name", Value: "joe"}, {Name: "nameNode", Value: "hdfs://localhost:8020"},
	{Name: "resourceManager", Value: "localhost:8032"}, {Name: "queueName", Value: "default"},
	{Name: "examplesRoot", Value: "examples"}, {Name: "start", Value: "2010-01-01T01:00Z"},
	{Name: "end", Value: "2010-01-01T04:00Z"}, {Name: "workflowAppUri", Value: "hdfs://localhost:8020/user/joe/examples/apps/cron"},
	{Name: "shouldStart", Value: "${10 * MINUTES}"}, {Name: "shouldEnd", Value: "${30 * MINUTES}"},
	{Name: "duration", Value: "${30 * MINUTES}"}, {Name: "alertContact", Value: "joe@example.com"},
	{Name: "notificationMsg", Value: "late"}, {Name: "upstreamApps", Value: "none"},
	{Name: "hcatNode", Value: "hcat://localhost:9083"}, {Name: "db", Value: "default"}, {Name: "table", Value: "invites"},
	{Name: "outputtable", Value: "oozie"}, {Name: "region", Value: "us"}, {Name: "dataOut", Value: "x"},
}

// exampleFeatures are the coordinator apps each source of example apps holds (folder
// names common to gozie's and Oozie's), each with a check of the feature it exists for,
// made on the submitted job and its first materialized action.
var exampleFeatures = map[string]func(t *testing.T, app *App, job *Job, first NewAction){
	"cron": func(t *testing.T, app *App, job *Job, first NewAction) {
		if job.Frequency.Unit != oozietime.Minute || job.Frequency.N == 0 {
			t.Errorf("frequency %+v, want minutes", job.Frequency)
		}
	},
	"cron-schedule": func(t *testing.T, app *App, job *Job, first NewAction) {
		if job.Frequency.Unit != oozietime.Cron || job.Frequency.Cron == nil {
			t.Errorf("frequency %+v, want a cron expression", job.Frequency)
		}
	},
	"aggregator": func(t *testing.T, app *App, job *Job, first NewAction) {
		if len(app.InputEvents) != 1 || !app.InputEvents[0].IsRange || len(app.OutputEvents) != 1 {
			t.Errorf("input events %+v, output events %+v: want a range of instances and an output", app.InputEvents, app.OutputEvents)
		}
		// Nothing exists: every instance of the range is missing.
		if deps := strings.Split(first.Row.MissingDependencies, "#"); len(deps) < 2 {
			t.Errorf("missing dependencies %q, want the range's instances", first.Row.MissingDependencies)
		}
	},
	"hcatalog": func(t *testing.T, app *App, job *Job, first NewAction) {
		// A partition is its own dependency: no done-flag is appended.
		if dep := first.Row.MissingDependencies; !strings.HasPrefix(dep, "hcat://") || strings.Contains(dep, "_SUCCESS") {
			t.Errorf("missing dependencies %q, want the hcat partition itself", dep)
		}
	},
	"coord-input-logic": func(t *testing.T, app *App, job *Job, first NewAction) {
		if job.InputLogic == nil || len(app.InputEvents) < 2 {
			t.Errorf("input logic %+v over %d data-ins", job.InputLogic, len(app.InputEvents))
		}
	},
	"sla": func(t *testing.T, app *App, job *Job, first NewAction) {
		if app.Action.SLA == nil || first.SLA == nil {
			t.Errorf("no SLA: definition %+v, registration %+v", app.Action.SLA, first.SLA)
		}
	},
}

// TestExampleApplications parses, submits and materializes every coordinator of the
// example apps (gozie's own, and Oozie's when GOZIE_OOZIE_EXAMPLES names them), checks the
// feature each app exists for, and that the stored definition reloads unchanged.
func TestExampleApplications(t *testing.T) {
	t.Parallel()
	testapps.Each(t, testExampleApplications)
}

// testExampleApplications is TestExampleApplications on the apps under apps.
func testExampleApplications(t *testing.T, apps string) {
	paths, err := filepath.Glob(filepath.Join(apps, "*", "coordinator*.xml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example coordinators: %v", err)
	}
	found := map[string]bool{}
	for _, p := range paths {
		found[filepath.Base(filepath.Dir(p))] = true
	}
	for name := range exampleFeatures {
		if !found[name] {
			t.Errorf("no coordinator in %s", filepath.Join(apps, name))
		}
	}
	for _, p := range paths {
		folder := filepath.Base(filepath.Dir(p))
		name := folder + "/" + filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			app, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			job, err := Submit(app, SubmitRequest{Conf: conf.PropertiesOf(exampleConf...), Settings: DefaultSettings()})
			if err != nil {
				t.Fatalf("Submit: %v", err)
			}
			row := job.Row()
			row.ID = testJobID
			res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture,
				Settings: DefaultSettings()})
			if err != nil || len(res.Actions) == 0 {
				t.Fatalf("Materialize: %v, %d actions", err, len(res.Actions))
			}
			if check, ok := exampleFeatures[folder]; ok && filepath.Base(p) == "coordinator.xml" {
				check(t, app, job, res.Actions[0])
			}
			// The stored definition reloads into the same job.
			loaded, err := LoadJob(job.DefinitionXML(), job.Conf, oozietime.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if loaded.DefinitionXML() != job.DefinitionXML() {
				t.Fatalf("definition does not round-trip:\n%s\n---\n%s", job.DefinitionXML(), loaded.DefinitionXML())
			}
		})
	}
}

// minimalApp is a valid coordinator in namespace version v with extra elements in body.
func minimalApp(v, body string) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:` + v + `" xmlns:sla="uri:oozie:sla:0.2" name="n" frequency="60"
  start="2009-01-01T00:00Z" end="2009-01-02T00:00Z" timezone="UTC">` + body +
		`<action><workflow><app-path>hdfs:///wf</app-path></workflow></action></coordinator-app>`
}

func TestParseSchema(t *testing.T) {
	t.Parallel()
	dataset := `<datasets><dataset name="a" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC">` +
		`<uri-template>hdfs:///a/${YEAR}</uri-template></dataset></datasets>`
	tests := []struct {
		name string
		doc  string
		code oozieerr.Code // "" means valid
		msg  string
	}{
		{"minimal 0.1", minimalApp("0.1", ""), "", ""},
		{"minimal 0.5", minimalApp("0.5", ""), "", ""},
		{"not XML", "<coordinator-app", oozieerr.E0700, "malformed"},
		{"unknown namespace", strings.Replace(minimalApp("0.5", ""), "coordinator:0.5", "coordinator:0.9", 1), oozieerr.E0701, "root element"},
		{"no namespace", `<coordinator-app name="n"/>`, oozieerr.E0701, "root element"},
		{"workflow root", `<workflow-app xmlns="uri:oozie:workflow:0.5" name="w"/>`, oozieerr.E0701, "root element"},
		{"missing attribute", strings.Replace(minimalApp("0.5", ""), `timezone="UTC"`, "", 1), oozieerr.E0701, `"timezone" is required`},
		{"unknown attribute", strings.Replace(minimalApp("0.5", ""), `timezone="UTC"`, `timezone="UTC" color="red"`, 1), oozieerr.E0701, "not allowed"},
		{"throttle needs 0.2", minimalApp("0.1", "<controls><throttle>3</throttle></controls>"), oozieerr.E0701, "throttle"},
		{"throttle in 0.2", minimalApp("0.2", "<controls><throttle>3</throttle></controls>"), "", ""},
		{"controls order", minimalApp("0.5", "<controls><throttle>3</throttle><timeout>1</timeout></controls>"), oozieerr.E0701, "timeout"},
		{"parameters need 0.4", minimalApp("0.3", "<parameters><property><name>a</name></property></parameters>"), oozieerr.E0701, "parameters"},
		{"parameters in 0.4", minimalApp("0.4", "<parameters><property><name>a</name><value>1</value></property></parameters>"), "", ""},
		{"input-logic needs 0.5", minimalApp("0.4", dataset+`<input-events><data-in name="x" dataset="a"><instance>${coord:current(0)}</instance></data-in></input-events><input-logic><data-in dataset="x"/></input-logic>`), oozieerr.E0701, "input-logic"},
		{"elements out of order", minimalApp("0.5", "<datasets/><controls/>"), oozieerr.E0701, "controls"},
		{"two controls", minimalApp("0.5", "<controls/><controls/>"), oozieerr.E0701, "controls"},
		{"bad dataset name", minimalApp("0.5", strings.Replace(dataset, `name="a"`, `name="1a"`, 1)), oozieerr.E0701, "identifier"},
		{"include after dataset", minimalApp("0.5", strings.Replace(dataset, "</datasets>", "<include>x</include></datasets>", 1)), oozieerr.E0701, "include"},
		{"data-in without instances", minimalApp("0.5", dataset+`<input-events><data-in name="x" dataset="a"/></input-events>`), oozieerr.E0701, "start-instance"},
		{"data-in mixes instance and range", minimalApp("0.5", dataset+`<input-events><data-in name="x" dataset="a"><instance>1</instance><start-instance>1</start-instance></data-in></input-events>`), oozieerr.E0701, "start-instance"},
		{"data-out with two instances", minimalApp("0.5", dataset+`<output-events><data-out name="o" dataset="a"><instance>a</instance><instance>b</instance></data-out></output-events>`), oozieerr.E0701, "instance"},
		{"nocleanup needs 0.4", minimalApp("0.3", dataset+`<output-events><data-out name="o" dataset="a" nocleanup="true"><instance>a</instance></data-out></output-events>`), oozieerr.E0701, "nocleanup"},
		{"nocleanup boolean", minimalApp("0.4", dataset+`<output-events><data-out name="o" dataset="a" nocleanup="yes"><instance>a</instance></data-out></output-events>`), oozieerr.E0701, "boolean"},
		{"text in element-only content", minimalApp("0.5", "<controls>x</controls>"), oozieerr.E0701, "text"},
		{"element in text content", minimalApp("0.5", "<controls><timeout><b/></timeout></controls>"), oozieerr.E0701, "no element"},
		{"DOCTYPE", `<!DOCTYPE x [<!ENTITY a "b">]>` + minimalApp("0.5", ""), oozieerr.E0700, "DOCTYPE"},
		{"combine with one data-in", minimalApp("0.5", dataset+`<input-events><data-in name="x" dataset="a"><instance>1</instance></data-in></input-events><input-logic><combine><data-in dataset="x"/></combine></input-logic>`), oozieerr.E0701, "combine"},
		{"misspelled element", minimalApp("0.5", "<contrls/>"), oozieerr.E0701,
			"unexpected element <contrls> in <coordinator-app>, expected <parameters>, <controls>, <datasets>, <input-events>, <input-logic>, <output-events> or <action>"},
		{"misspelled workflow", strings.Replace(minimalApp("0.5", ""), "workflow>", "wrkflow>", 2), oozieerr.E0701,
			"unexpected element <wrkflow> in <action>, expected <workflow>"},
		{"xsi attributes", strings.Replace(strings.Replace(minimalApp("0.5", dataset), `timezone="UTC">`,
			`timezone="UTC" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="uri:oozie:coordinator:0.5 c.xsd">`, 2),
			"<action>", `<action xsi:noNamespaceSchemaLocation="a.xsd">`, 1), "", ""},
		{"attribute in another namespace", strings.Replace(minimalApp("0.5", ""), `timezone="UTC"`, `timezone="UTC" xmlns:x="uri:x" x:color="red"`, 1),
			oozieerr.E0701, `line 1 <coordinator-app>: attribute "color" in namespace "uri:x" is not allowed`},
		{"two logic roots", minimalApp("0.5", dataset+`<input-events><data-in name="x" dataset="a"><instance>1</instance></data-in></input-events><input-logic><data-in dataset="x"/><data-in dataset="x"/></input-logic>`), oozieerr.E0701, "exactly one"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.doc))
			if tc.code == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			if err == nil || ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Parse error %v, want %s containing %q", err, tc.code, tc.msg)
			}
		})
	}
}

func TestParseSLA(t *testing.T) {
	t.Parallel()
	ok := strings.Replace(minimalApp("0.5", ""), "</workflow>", "</workflow><sla:info><sla:nominal-time>${coord:nominalTime()}</sla:nominal-time>"+
		"<sla:should-end>${10 * MINUTES}</sla:should-end></sla:info>", 1)
	app, err := Parse([]byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := app.Action.SLA.Field("should-end"); v != "${10 * MINUTES}" || app.Action.SLA.Namespace != nsSLA02 {
		t.Fatalf("sla %+v", app.Action.SLA)
	}
	for name, doc := range map[string]string{
		"missing should-end": strings.Replace(ok, "<sla:should-end>${10 * MINUTES}</sla:should-end>", "", 1),
		"unknown child":      strings.Replace(ok, "</sla:info>", "<sla:color>red</sla:color></sla:info>", 1),
		"sla 0.2 in 0.3":     strings.Replace(ok, "coordinator:0.5", "coordinator:0.3", 1),
		"two sla blocks":     strings.Replace(ok, "</action>", "<sla:info/></action>", 1),
	} {
		if _, err := Parse([]byte(doc)); ErrorCode(err) != oozieerr.E0701 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseDatasets(t *testing.T) {
	t.Parallel()
	defs, err := ParseDatasets([]byte(`<datasets xmlns="uri:oozie:coordinator:0.2"><dataset name="a" frequency="1"
		initial-instance="2009-01-01T00:00Z" timezone="UTC"><uri-template>x</uri-template><done-flag/></dataset></datasets>`))
	if err != nil || len(defs) != 1 || !defs[0].HasDoneFlag || defs[0].DoneFlag != "" {
		t.Fatalf("%+v %v", defs, err)
	}
	if _, err := ParseDatasets([]byte(`<datasets/>`)); ErrorCode(err) != oozieerr.E0701 {
		t.Fatalf("datasets without namespace: %v", err)
	}
}
