package coordinator

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/store"
)

// checkEncoding fails t when encodeDoc does not write what xml.MarshalIndent writes for doc.
func checkEncoding(t testing.TB, what string, doc *xApp) {
	t.Helper()
	want, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatalf("%s: xml.MarshalIndent: %v", what, err)
	}
	if got := encodeDoc(doc); got != string(want) {
		at := firstDifference(got, string(want))
		t.Fatalf("%s: encodeDoc differs from xml.MarshalIndent at byte %d:\n got %q\nwant %q\n--- got\n%s\n--- want\n%s",
			what, at, tail(got, at), tail(string(want), at), got, want)
	}
}

// firstDifference is the offset of the first byte where a and b differ.
func firstDifference(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// tail is up to 40 bytes of s from a little before offset at.
func tail(s string, at int) string {
	from := max(at-20, 0)
	return s[from:min(from+40, len(s))]
}

// strPtr returns a pointer to a copy of s.
func strPtr(s string) *string { return &s }

// escapeSamples are strings with every character encoding/xml escapes or replaces, and
// characters it leaves as they are.
var escapeSamples = []string{
	`"quoted" 'single' a&b <tag> x>y`,
	"tab\there\nnewline\r\ncrlf",
	"invalid \xff utf-8 \xe2\x82 truncated \xed\xa0\x80 surrogate \xc0\xaf overlong",
	"replacement \uFFFD itself, \uFFFE and \uFFFF",
	"control \x00 \x01 \x1f \x7f",
	"non-ASCII: héllo wörld, 日本語, 😀, \U0010FFFF, \uE000, \uD7FF",
	"plain text with nothing to escape",
}

// sampleEvent is a data-in with its dataset copy, given pointers and instances.
func sampleEvent(uris, unresolved, start, end, flag *string, instances []string) xEvent {
	return xEvent{Name: "in", DatasetName: "logs",
		Dataset: xDataset{Name: "logs", Frequency: "20", InitialInstance: "2009-01-01T00:00Z", TimeZone: "UTC",
			FreqTimeUnit: "MINUTE", EndOfDuration: "NONE", URITemplate: "hdfs://nn/logs/${YEAR}/${MONTH}", DoneFlag: flag},
		URIs: uris, Unresolved: unresolved, Instances: instances, StartInstance: start, EndInstance: end}
}

// sampleDoc is an action document with every element present, in namespace ns.
func sampleDoc(ns string) *xApp {
	sla := "uri:oozie:sla:0.2"
	return &xApp{XMLName: xml.Name{Space: ns, Local: "coordinator-app"}, Name: "app", Frequency: "60",
		TimeZone: "UTC", FreqTimeUnit: "MINUTE", EndOfDuration: "NONE", InstanceNumber: "1",
		NominalTime: "2009-01-01T00:00Z", ActualTime: "2009-01-01T00:05Z",
		Controls:    &xControls{Timeout: "10", Concurrency: "1", Execution: "FIFO", Throttle: "12"},
		InputEvents: &xInputs{DataIns: []xEvent{sampleEvent(strPtr("a#b"), strPtr("${coord:latest(0)}"), nil, nil, strPtr("_DONE"), nil)}},
		InputLogic: &xLogic{Nodes: []xLogicNode{{XMLName: xml.Name{Space: ns, Local: "and"}, Name: "all", Children: []xLogicNode{
			{XMLName: xml.Name{Space: ns, Local: "or"}, Name: "either", Children: []xLogicNode{
				{XMLName: xml.Name{Space: ns, Local: "data-in"}, Dataset: "in", Wait: "20"},
				{XMLName: xml.Name{Space: ns, Local: "data-in"}, Dataset: "other", Min: "1"}}},
			{XMLName: xml.Name{Space: ns, Local: "combine"}, Name: "merged", Children: []xLogicNode{
				{XMLName: xml.Name{Space: ns, Local: "data-in"}, Dataset: "in"}}}}}}},
		OutputEvents: &xOutputs{DataOuts: []xEvent{sampleEvent(strPtr("hdfs://nn/out"), nil, nil, nil, nil, nil)}},
		Action: xAction{Workflow: xWorkflow{AppPath: "hdfs://nn/wf",
			Configuration: &xConfiguration{Properties: []xProperty{{Name: "input", Value: "${coord:dataIn('in')}"}}}},
			SLA: &xSLA{XMLName: xml.Name{Space: sla, Local: "info"}, Fields: []xField{
				{XMLName: xml.Name{Space: sla, Local: "nominal-time"}, Value: "2009-01-01T00:00Z"},
				{XMLName: xml.Name{Space: sla, Local: "should-end"}, Value: "30"}}}}}
}

// withEvent is sampleDoc with its data-in replaced by ev.
func withEvent(ev xEvent) *xApp {
	doc := sampleDoc("uri:oozie:coordinator:0.4")
	doc.InputEvents.DataIns = []xEvent{ev}
	return doc
}

// escapedDoc is a document with s in every kind of place a string goes: attributes, text,
// SLA chardata, instances and namespaces.
func escapedDoc(s string) *xApp {
	doc := sampleDoc(s)
	doc.Name, doc.TimeZone, doc.ActualTime = s, s, s
	ev := &doc.InputEvents.DataIns[0]
	ev.Name, ev.NoCleanup, ev.Dataset.URITemplate, ev.URIs = s, s, s, &s
	ev.Instances = []string{s, s}
	doc.Controls.Execution = s
	doc.InputLogic.Nodes[0].Name = s
	doc.Action.Workflow.Configuration.Properties[0].Value = s
	doc.Action.SLA.XMLName.Space = s
	doc.Action.SLA.Fields[0].Value = s
	return doc
}

// encodeCases are the hand-made documents TestEncodeDoc compares.
func encodeCases() map[string]*xApp {
	const ns = "uri:oozie:coordinator:0.4"
	cases := map[string]*xApp{
		"nil document":                     nil,
		"zero document":                    {},
		"root without namespace":           {XMLName: xml.Name{Local: "coordinator-app"}, Name: "n"},
		"root namespace":                   {XMLName: xml.Name{Space: ns, Local: "coordinator-app"}, Name: "n"},
		"namespace without local name":     {XMLName: xml.Name{Space: ns}, Name: "n"},
		"escaped namespace":                {XMLName: xml.Name{Space: `uri:"a"&<b>`, Local: "coordinator-app"}},
		"names written as they are":        {XMLName: xml.Name{Space: "x", Local: `a<b&"c"`}},
		"full action document":             sampleDoc(ns),
		"full document without namespaces": sampleDoc(""),
		"definition with start and end": func() *xApp {
			d := sampleDoc(ns)
			d.Start, d.End, d.InstanceNumber, d.NominalTime, d.ActualTime = "2009-01-01T00:00Z", "2009-01-02T00:00Z", "", "", ""
			return d
		}(),
		"every optional part nil": {XMLName: xml.Name{Space: ns, Local: "coordinator-app"}, Name: "n", Frequency: "1",
			Action: xAction{Workflow: xWorkflow{AppPath: "/wf"}}},
		"empty events, logic and configuration": {XMLName: xml.Name{Local: "coordinator-app"},
			Controls: &xControls{}, InputEvents: &xInputs{DataIns: []xEvent{}}, InputLogic: &xLogic{},
			OutputEvents: &xOutputs{}, Action: xAction{Workflow: xWorkflow{Configuration: &xConfiguration{Properties: []xProperty{}}}}},
		"empty pointers":     withEvent(sampleEvent(strPtr(""), strPtr(""), strPtr(""), strPtr(""), strPtr(""), nil)),
		"nil pointers":       withEvent(sampleEvent(nil, nil, nil, nil, nil, nil)),
		"range of instances": withEvent(sampleEvent(nil, nil, strPtr("${coord:current(-2)}"), strPtr("${coord:current(0)}"), nil, nil)),
		"empty instances":    withEvent(sampleEvent(nil, nil, nil, nil, nil, []string{})),
		"instances":          withEvent(sampleEvent(nil, nil, nil, nil, nil, []string{"${coord:current(0)}", "", "${coord:latest(-1)}"})),
		"omitempty attributes set": func() *xApp {
			d := sampleDoc(ns)
			d.Start, d.End = "2009-01-01T00:00Z", "2009-01-02T00:00Z"
			d.OutputEvents.DataOuts[0].NoCleanup = "true"
			d.InputLogic.Nodes[0].Min, d.InputLogic.Nodes[0].Wait, d.InputLogic.Nodes[0].Dataset = "2", "10", "in"
			return d
		}(),
		"attributes without omitempty empty": withEvent(xEvent{}),
		"logic nodes without namespace under a namespaced node": func() *xApp {
			d := sampleDoc(ns)
			d.InputLogic.Nodes[0].Children[0].XMLName.Space = ""
			d.InputLogic.Nodes[0].Children[1].Children[0].XMLName.Space = "other"
			return d
		}(),
		"logic nodes without local names": func() *xApp {
			d := sampleDoc(ns)
			d.InputLogic.Nodes[0].Children[0].XMLName = xml.Name{Space: ns}
			d.InputLogic.Nodes = append(d.InputLogic.Nodes, xLogicNode{Name: "unnamed"})
			return d
		}(),
		"logic without namespaces": {InputLogic: &xLogic{Nodes: []xLogicNode{{XMLName: xml.Name{Local: "or"},
			Children: []xLogicNode{{XMLName: xml.Name{Local: "data-in"}, Dataset: "a"}}}}}},
		"sla fields without namespace": func() *xApp {
			d := sampleDoc(ns)
			d.Action.SLA.Fields[0].XMLName.Space = ""
			d.Action.SLA.Fields = append(d.Action.SLA.Fields, xField{XMLName: xml.Name{Space: "other", Local: "x"}})
			return d
		}(),
		"sla without names": {Action: xAction{SLA: &xSLA{XMLName: xml.Name{Space: "s"},
			Fields: []xField{{Value: "v"}, {XMLName: xml.Name{Space: "s"}, Value: "w"}}}}},
		"sla without fields":    {Action: xAction{SLA: &xSLA{XMLName: xml.Name{Space: "s", Local: "info"}}}},
		"sla without namespace": {Action: xAction{SLA: &xSLA{XMLName: xml.Name{Local: "info"}, Fields: []xField{{XMLName: xml.Name{Local: "f"}}}}}},
	}
	for i, s := range escapeSamples {
		cases["escapes "+strconv.Itoa(i)] = escapedDoc(s)
	}
	cases["all escapes together"] = escapedDoc(strings.Join(escapeSamples, ""))
	return cases
}

// TestEncodeDoc: the hand-written encoder writes what xml.MarshalIndent writes.
func TestEncodeDoc(t *testing.T) {
	t.Parallel()
	for name, doc := range encodeCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkEncoding(t, name, doc)
		})
	}
}

// checkJobDocuments compares the encoders on a job's definition and on the documents of the
// actions it materializes now.
func checkJobDocuments(t *testing.T, job *Job) []NewAction {
	t.Helper()
	checkEncoding(t, "definition", job.jobDoc())
	row := job.Row()
	row.ID = testJobID
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) == 0 {
		t.Fatalf("Materialize: %v, %d actions", err, len(res.Actions))
	}
	for _, a := range res.Actions {
		checkActionDoc(t, "action "+strconv.Itoa(a.Doc.Number), a.Doc, a.Row.ActionXML)
	}
	return res.Actions
}

// checkActionDoc compares the encoders on an action's document, after checking that its
// doc is the document stored as text.
func checkActionDoc(t *testing.T, what string, a *ActionDoc, text string) {
	t.Helper()
	doc := a.doc()
	if marshalDoc(doc) != text {
		t.Fatalf("%s: doc is not the stored document:\n%s\n---\n%s", what, marshalDoc(doc), text)
	}
	checkEncoding(t, what, doc)
}

// TestEncodeDocOfExampleApps: the encoders agree on the definitions and action documents of
// gozie's example coordinators.
func TestEncodeDocOfExampleApps(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(testapps.Dir(), "*", "coordinator*.xml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example coordinators: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(filepath.Dir(p)), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			app, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			job, err := Submit(app, SubmitRequest{Conf: conf.PropertiesOf(exampleConf...), Settings: DefaultSettings()})
			if err != nil {
				t.Fatal(err)
			}
			checkJobDocuments(t, job)
		})
	}
}

// TestEncodeDocOfCheckedActions: the encoders agree on the documents of the input-check and
// input-logic tests' jobs, and on an action document made READY by an input check.
func TestEncodeDocOfCheckedActions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logic := `<and name="input"><or><data-in dataset="input-1" wait="10"/><data-in dataset="input-2" min="1"/></or>` +
		`<combine><data-in dataset="input-1"/><data-in dataset="input-2"/></combine></and>`
	checkJobDocuments(t, submitXML(t, logicJobXML(dir, logic)))
	job := submitXML(t, strings.ReplaceAll(checkJobXML(dir, "${coord:current(-3)}", "${coord:current(1)}"),
		`start="2009-02-15T23:59Z" end="2009-02-16T23:59Z"`, `start="2009-02-01T23:59Z" end="2009-02-02T23:59Z"`))
	actions := checkJobDocuments(t, job)
	mkdirs(t, dir, "2009/02/05/_SUCCESS", "2009/01/29/_SUCCESS", "2009/01/22/_SUCCESS", "2009/01/15/_SUCCESS",
		"2009/01/08/_SUCCESS")
	row := job.Row()
	row.ID = testJobID
	res := check(t, job, row, actions[0].Row, utc(t, "2009-02-20T00:00Z"), DefaultSettings())
	if res.Status != store.CoordActionReady {
		t.Fatalf("input check: %s %v", res.Status, res.Err)
	}
	ready, err := ParseActionXML(res.ActionXML, job.Conf, job.Format)
	if err != nil {
		t.Fatal(err)
	}
	checkActionDoc(t, "ready action", ready, res.ActionXML)
}

// fuzzFill hands out a fuzz input's strings and bits to the fields of a document.
type fuzzFill struct {
	strs  []string
	next  int
	shape uint64
}

// str is the next string: the fuzzed strings in turn.
func (g *fuzzFill) str() string {
	s := g.strs[g.next%len(g.strs)]
	g.next++
	return s
}

// flag is the next bit of the shape, which is used round and round.
func (g *fuzzFill) flag() bool {
	b := g.shape&1 == 1
	g.shape = g.shape>>1 | g.shape<<63
	return b
}

// count is a small number (0 to 3) from the next two bits.
func (g *fuzzFill) count() int {
	n := 0
	if g.flag() {
		n++
	}
	if g.flag() {
		n += 2
	}
	return n
}

// ptr is nil or a pointer to the next string.
func (g *fuzzFill) ptr() *string {
	if !g.flag() {
		return nil
	}
	return strPtr(g.str())
}

// name is an element name from the next two strings.
func (g *fuzzFill) name() xml.Name {
	return xml.Name{Space: g.str(), Local: g.str()}
}

// fuzzDoc builds a document from a fuzz input.
func fuzzDoc(g *fuzzFill) *xApp {
	doc := &xApp{XMLName: g.name(), Name: g.str(), Frequency: g.str(), Start: g.str(), End: g.str(),
		TimeZone: g.str(), FreqTimeUnit: g.str(), EndOfDuration: g.str(), InstanceNumber: g.str(),
		NominalTime: g.str(), ActualTime: g.str()}
	if g.flag() {
		doc.Controls = &xControls{Timeout: g.str(), Concurrency: g.str(), Execution: g.str(), Throttle: g.str()}
	}
	if g.flag() {
		doc.InputEvents = &xInputs{DataIns: fuzzEvents(g)}
	}
	if g.flag() {
		doc.InputLogic = &xLogic{Nodes: fuzzNodes(g, 2)}
	}
	if g.flag() {
		doc.OutputEvents = &xOutputs{DataOuts: fuzzEvents(g)}
	}
	doc.Action.Workflow.AppPath = g.str()
	if g.flag() {
		c := &xConfiguration{}
		for range g.count() {
			c.Properties = append(c.Properties, xProperty{Name: g.str(), Value: g.str()})
		}
		doc.Action.Workflow.Configuration = c
	}
	if g.flag() {
		s := &xSLA{XMLName: g.name()}
		for range g.count() {
			s.Fields = append(s.Fields, xField{XMLName: g.name(), Value: g.str()})
		}
		doc.Action.SLA = s
	}
	return doc
}

// fuzzEvents builds up to three events.
func fuzzEvents(g *fuzzFill) []xEvent {
	var out []xEvent
	for range g.count() {
		e := xEvent{Name: g.str(), DatasetName: g.str(), NoCleanup: g.str(),
			Dataset: xDataset{Name: g.str(), Frequency: g.str(), InitialInstance: g.str(), TimeZone: g.str(),
				FreqTimeUnit: g.str(), EndOfDuration: g.str(), URITemplate: g.str(), DoneFlag: g.ptr()},
			URIs: g.ptr(), Unresolved: g.ptr(), StartInstance: g.ptr(), EndInstance: g.ptr()}
		if g.flag() {
			e.Instances = []string{}
			for range g.count() {
				e.Instances = append(e.Instances, g.str())
			}
		}
		out = append(out, e)
	}
	return out
}

// fuzzNodes builds up to three input-logic nodes, nested depth levels more.
func fuzzNodes(g *fuzzFill, depth int) []xLogicNode {
	var out []xLogicNode
	for range g.count() {
		n := xLogicNode{XMLName: g.name(), Name: g.str(), Min: g.str(), Wait: g.str(), Dataset: g.str()}
		if depth > 0 {
			n.Children = fuzzNodes(g, depth-1)
		}
		out = append(out, n)
	}
	return out
}

// FuzzMarshalDoc: for documents of fuzzed strings in every string field, with fuzzed choices
// of nil pointers and slice lengths, the encoder writes what xml.MarshalIndent writes.
func FuzzMarshalDoc(f *testing.F) {
	f.Add("uri:oozie:coordinator:0.4", "coordinator-app", "", "hdfs://nn/${YEAR}", ^uint64(0))
	f.Add("", "and", "uri:oozie:sla:0.2", "info", uint64(0x5555555555555555))
	f.Add(escapeSamples[0], escapeSamples[1], escapeSamples[2], escapeSamples[3], uint64(0xdeadbeefcafef00d))
	f.Add(escapeSamples[4], escapeSamples[5], "", "x", uint64(0x0123456789abcdef))
	f.Fuzz(func(t *testing.T, a, b, c, d string, shape uint64) {
		g := &fuzzFill{strs: []string{a, b, c, d}, next: int(shape >> 62), shape: shape}
		checkEncoding(t, "fuzzed document", fuzzDoc(g))
	})
}

// benchmarkDoc is a realistic action document: an hourly job's first action, with a range of
// three instances, a data-out, a workflow configuration and an SLA block.
func benchmarkDoc(tb testing.TB) *xApp {
	tb.Helper()
	body := `<datasets><dataset name="a" frequency="${coord:minutes(20)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">` +
		`<uri-template>hdfs://nn/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template></dataset></datasets>` +
		`<input-events><data-in name="in" dataset="a"><start-instance>${coord:current(-2)}</start-instance><end-instance>${coord:current(0)}</end-instance></data-in></input-events>` +
		`<output-events><data-out name="out" dataset="a"><instance>${coord:current(0)}</instance></data-out></output-events>`
	action := `<action><workflow><app-path>${nameNode}/wf</app-path><configuration>` +
		`<property><name>input</name><value>${coord:dataIn('in')}</value></property>` +
		`<property><name>output</name><value>${coord:dataOut('out')}</value></property></configuration></workflow>` +
		`<sla:info><sla:nominal-time>${coord:nominalTime()}</sla:nominal-time><sla:should-end>${30 * MINUTES}</sla:should-end></sla:info></action>`
	doc := strings.Replace(appWith("${coord:hours(1)}", body), `<action><workflow><app-path>${nameNode}/wf</app-path></workflow></action>`, action, 1)
	doc = strings.Replace(doc, `xmlns="uri:oozie:coordinator:0.4"`, `xmlns="uri:oozie:coordinator:0.4" xmlns:sla="uri:oozie:sla:0.2"`, 1)
	job, err := submitDoc(doc, DefaultSettings())
	if err != nil {
		tb.Fatal(err)
	}
	actions, err := DryRun(job, testJobID, farFuture, DefaultSettings())
	if err != nil || len(actions) == 0 {
		tb.Fatalf("%v %d", err, len(actions))
	}
	return actions[0].Doc.doc()
}

// BenchmarkMarshalDoc compares the encoder with xml.MarshalIndent on an action document.
func BenchmarkMarshalDoc(b *testing.B) {
	doc := benchmarkDoc(b)
	b.Run("encodeDoc", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(encodeDoc(doc))))
		for b.Loop() {
			encodeDoc(doc)
		}
	})
	b.Run("xml.MarshalIndent", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(encodeDoc(doc))))
		for b.Loop() {
			if _, err := xml.MarshalIndent(doc, "", "  "); err != nil {
				b.Fatal(err)
			}
		}
	})
}
