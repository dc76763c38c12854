package coordinator

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
)

// The stored forms of a coordinator follow Oozie's: the job definition is the coordinator-app
// element with submission EL resolved, each event carrying a copy of its dataset, and the
// attributes freq_timeunit and end_of_duration; an action's XML is the same document for one
// nominal time, with the events' <uris> and <unresolved-instances> and the attributes
// instance-number, action-nominal-time and action-actual-time. These types are that format.

// xApp is the coordinator-app element of a definition or an action.
type xApp struct {
	XMLName        xml.Name
	Name           string     `xml:"name,attr"`
	Frequency      string     `xml:"frequency,attr"`
	Start          string     `xml:"start,attr,omitempty"`
	End            string     `xml:"end,attr,omitempty"`
	TimeZone       string     `xml:"timezone,attr"`
	FreqTimeUnit   string     `xml:"freq_timeunit,attr"`
	EndOfDuration  string     `xml:"end_of_duration,attr"`
	InstanceNumber string     `xml:"instance-number,attr,omitempty"`
	NominalTime    string     `xml:"action-nominal-time,attr,omitempty"`
	ActualTime     string     `xml:"action-actual-time,attr,omitempty"`
	Controls       *xControls `xml:"controls"`
	InputEvents    *xInputs   `xml:"input-events"`
	InputLogic     *xLogic    `xml:"input-logic"`
	OutputEvents   *xOutputs  `xml:"output-events"`
	Action         xAction    `xml:"action"`
}

type xControls struct {
	Timeout     string `xml:"timeout"`
	Concurrency string `xml:"concurrency"`
	Execution   string `xml:"execution"`
	Throttle    string `xml:"throttle"`
}

type xInputs struct {
	DataIns []xEvent `xml:"data-in"`
}

type xOutputs struct {
	DataOuts []xEvent `xml:"data-out"`
}

// xEvent is a data-in or data-out with its dataset copy and, in an action, its resolution.
type xEvent struct {
	Name          string   `xml:"name,attr"`
	DatasetName   string   `xml:"dataset,attr"`
	NoCleanup     string   `xml:"nocleanup,attr,omitempty"`
	Dataset       xDataset `xml:"dataset"`
	URIs          *string  `xml:"uris"`
	Unresolved    *string  `xml:"unresolved-instances"`
	Instances     []string `xml:"instance"`
	StartInstance *string  `xml:"start-instance"`
	EndInstance   *string  `xml:"end-instance"`
}

type xDataset struct {
	Name            string  `xml:"name,attr"`
	Frequency       string  `xml:"frequency,attr"`
	InitialInstance string  `xml:"initial-instance,attr"`
	TimeZone        string  `xml:"timezone,attr"`
	FreqTimeUnit    string  `xml:"freq_timeunit,attr"`
	EndOfDuration   string  `xml:"end_of_duration,attr"`
	URITemplate     string  `xml:"uri-template"`
	DoneFlag        *string `xml:"done-flag"`
}

type xLogic struct {
	Nodes []xLogicNode `xml:",any"`
}

type xLogicNode struct {
	XMLName  xml.Name
	Name     string       `xml:"name,attr,omitempty"`
	Min      string       `xml:"min,attr,omitempty"`
	Wait     string       `xml:"wait,attr,omitempty"`
	Dataset  string       `xml:"dataset,attr,omitempty"`
	Children []xLogicNode `xml:",any"`
}

type xAction struct {
	Workflow xWorkflow `xml:"workflow"`
	SLA      *xSLA     `xml:"info"`
}

type xWorkflow struct {
	AppPath       string          `xml:"app-path"`
	Configuration *xConfiguration `xml:"configuration"`
}

type xConfiguration struct {
	Properties []xProperty `xml:"property"`
}

type xProperty struct {
	Name  string `xml:"name"`
	Value string `xml:"value"`
}

type xSLA struct {
	XMLName xml.Name
	Fields  []xField `xml:",any"`
}

type xField struct {
	XMLName xml.Name
	Value   string `xml:",chardata"`
}

// marshalDoc renders a document as indented XML, as xml.MarshalIndent(doc, "", "  ") does
// (see encodeDoc).
func marshalDoc(doc *xApp) string {
	return encodeDoc(doc)
}

// unmarshalDoc reads a stored document.
func unmarshalDoc(text string) (*xApp, error) {
	var doc xApp
	if err := xml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("reading stored coordinator document: %w", err)
	}
	if doc.XMLName.Local != "coordinator-app" {
		return nil, fmt.Errorf("reading stored coordinator document: root is <%s>", doc.XMLName.Local)
	}
	return &doc, nil
}

// jobDoc renders the job as its definition document.
func (j *Job) jobDoc() *xApp {
	freq, _ := j.Frequency.Stored()
	doc := &xApp{
		XMLName:       xml.Name{Space: j.Namespace, Local: "coordinator-app"},
		Name:          j.Name,
		Frequency:     freq,
		Start:         j.Format.Format(j.Start),
		End:           j.Format.Format(j.End),
		TimeZone:      j.TimeZone,
		FreqTimeUnit:  string(j.Frequency.Unit),
		EndOfDuration: string(unitOrNone(j.Frequency.EndOf)),
		Controls: &xControls{
			Timeout:     strconv.Itoa(j.Timeout),
			Concurrency: strconv.Itoa(j.Concurrency),
			Execution:   string(j.Execution),
			Throttle:    strconv.Itoa(j.Throttle),
		},
		Action: xAction{Workflow: xWorkflow{AppPath: j.AppPath}},
	}
	if len(j.DataIns) > 0 {
		doc.InputEvents = &xInputs{}
		for _, d := range j.DataIns {
			e := xEvent{Name: d.Name, DatasetName: d.Dataset.Name, Dataset: j.datasetDoc(d.Dataset),
				Instances: d.Instances}
			if d.IsRange {
				start, end := d.StartInstance, d.EndInstance
				e.StartInstance, e.EndInstance = &start, &end
			}
			doc.InputEvents.DataIns = append(doc.InputEvents.DataIns, e)
		}
	}
	if len(j.DataOuts) > 0 {
		doc.OutputEvents = &xOutputs{}
		for _, d := range j.DataOuts {
			e := xEvent{Name: d.Name, DatasetName: d.Dataset.Name, Dataset: j.datasetDoc(d.Dataset),
				Instances: []string{d.Instance}}
			if d.NoCleanup {
				e.NoCleanup = "true"
			}
			doc.OutputEvents.DataOuts = append(doc.OutputEvents.DataOuts, e)
		}
	}
	if j.InputLogic != nil {
		doc.InputLogic = &xLogic{Nodes: []xLogicNode{logicDoc(j.Namespace, j.InputLogic)}}
	}
	if len(j.Configuration) > 0 {
		c := &xConfiguration{}
		for _, p := range j.Configuration {
			c.Properties = append(c.Properties, xProperty{Name: p.Name, Value: p.Value})
		}
		doc.Action.Workflow.Configuration = c
	}
	if j.SLA != nil {
		doc.Action.SLA = slaDoc(j.SLA)
	}
	return doc
}

// datasetDoc renders a dataset copy.
func (j *Job) datasetDoc(d *Dataset) xDataset {
	x := xDataset{
		Name:            d.Name,
		Frequency:       strconv.Itoa(d.Frequency),
		InitialInstance: j.Format.Format(d.InitialInstance),
		TimeZone:        d.TimeZone,
		FreqTimeUnit:    string(d.Unit),
		EndOfDuration:   string(unitOrNone(d.EndOf)),
		URITemplate:     d.URITemplate,
	}
	if d.HasDoneFlag {
		flag := d.DoneFlag
		x.DoneFlag = &flag
	}
	return x
}

// slaDoc renders an SLA block.
func slaDoc(s *SLADef) *xSLA {
	x := &xSLA{XMLName: xml.Name{Space: s.Namespace, Local: "info"}}
	for _, f := range s.Fields {
		x.Fields = append(x.Fields, xField{XMLName: xml.Name{Space: s.Namespace, Local: f.Name}, Value: f.Value})
	}
	return x
}

// logicDoc renders an input-logic node.
func logicDoc(ns string, n *LogicNode) xLogicNode {
	x := xLogicNode{XMLName: xml.Name{Space: ns, Local: n.Op}, Name: n.Name, Min: n.Min, Wait: n.Wait, Dataset: n.Dataset}
	for _, c := range n.Children {
		x.Children = append(x.Children, logicDoc(ns, c))
	}
	return x
}

// unitOrNone returns u, or NONE when it is empty.
func unitOrNone(u oozietime.Unit) oozietime.Unit {
	if u == "" {
		return oozietime.NoUnit
	}
	return u
}

// DefinitionXML returns the job's stored definition: the coordinator-app document with
// submission EL resolved, in the layout Oozie stores (see LoadJob).
func (j *Job) DefinitionXML() string {
	return marshalDoc(j.jobDoc())
}

// LoadJob rebuilds a Job from its stored definition (store.CoordJob.Definition) and the job
// configuration. No EL is evaluated: everything the definition holds was resolved at
// submission.
func LoadJob(definition string, props *conf.Properties, format oozietime.Format) (*Job, error) {
	doc, err := unmarshalDoc(definition)
	if err != nil {
		return nil, err
	}
	j := &Job{Namespace: doc.XMLName.Space, Name: doc.Name, TimeZone: doc.TimeZone, Conf: props,
		User: props.Value("user.name"), Format: format, AppPath: strings.TrimSpace(doc.Action.Workflow.AppPath)}
	fail := func(what string, err error) (*Job, error) {
		return nil, fmt.Errorf("stored coordinator definition: %s: %w", what, err)
	}
	if j.Frequency, err = storedFrequency(doc.Frequency, doc.FreqTimeUnit, doc.EndOfDuration); err != nil {
		return fail("frequency", err)
	}
	if j.Start, err = format.Parse(doc.Start); err != nil {
		return fail("start", err)
	}
	if j.End, err = format.Parse(doc.End); err != nil {
		return fail("end", err)
	}
	if j.Location, err = oozietime.LoadZone(doc.TimeZone); err != nil {
		return fail("timezone", err)
	}
	if doc.Controls != nil {
		for _, f := range []struct {
			text string
			dst  *int
		}{{doc.Controls.Timeout, &j.Timeout}, {doc.Controls.Concurrency, &j.Concurrency}, {doc.Controls.Throttle, &j.Throttle}} {
			if *f.dst, err = strconv.Atoi(strings.TrimSpace(f.text)); err != nil {
				return fail("controls", err)
			}
		}
		j.Execution = Execution(strings.TrimSpace(doc.Controls.Execution))
	}
	if doc.InputEvents != nil {
		for _, e := range doc.InputEvents.DataIns {
			ds, err := loadDataset(e.Dataset, format)
			if err != nil {
				return fail("data-in "+e.Name, err)
			}
			d := DataIn{Name: e.Name, Dataset: ds, Instances: e.Instances}
			if e.StartInstance != nil && e.EndInstance != nil {
				d.IsRange, d.StartInstance, d.EndInstance = true, *e.StartInstance, *e.EndInstance
			}
			j.DataIns = append(j.DataIns, d)
		}
	}
	if doc.OutputEvents != nil {
		for _, e := range doc.OutputEvents.DataOuts {
			ds, err := loadDataset(e.Dataset, format)
			if err != nil {
				return fail("data-out "+e.Name, err)
			}
			// A definition holds one instance; an action document holds its resolution instead.
			if len(e.Instances) > 1 {
				return fail("data-out "+e.Name, fmt.Errorf("%d instances", len(e.Instances)))
			}
			instance := ""
			if len(e.Instances) == 1 {
				instance = e.Instances[0]
			}
			j.DataOuts = append(j.DataOuts, DataOut{Name: e.Name, Dataset: ds, Instance: instance,
				NoCleanup: e.NoCleanup == "true"})
		}
	}
	if doc.InputLogic != nil && len(doc.InputLogic.Nodes) == 1 {
		j.InputLogic = loadLogic(doc.InputLogic.Nodes[0])
	}
	if doc.Action.Workflow.Configuration != nil {
		for _, p := range doc.Action.Workflow.Configuration.Properties {
			j.Configuration = append(j.Configuration, Property{Name: p.Name, Value: p.Value})
		}
	}
	j.SLA = loadSLA(doc.Action.SLA)
	return j, nil
}

// storedFrequency rebuilds a Frequency from its stored attributes.
func storedFrequency(freq, unit, endOf string) (Frequency, error) {
	u, ok := oozietime.ParseUnit(unit)
	if !ok {
		return Frequency{}, fmt.Errorf("unknown time unit %q", unit)
	}
	e, ok := oozietime.ParseUnit(endOf)
	if !ok {
		e = oozietime.NoUnit
	}
	if u == oozietime.Cron {
		c, err := oozietime.ParseCron(freq)
		if err != nil {
			return Frequency{}, err
		}
		return Frequency{Unit: oozietime.Cron, EndOf: oozietime.NoUnit, Cron: c}, nil
	}
	n, err := strconv.Atoi(freq)
	if err != nil || n <= 0 {
		return Frequency{}, fmt.Errorf("invalid frequency %q", freq)
	}
	return Frequency{N: n, Unit: u, EndOf: e}, nil
}

// loadDataset rebuilds a dataset from its stored copy.
func loadDataset(x xDataset, format oozietime.Format) (*Dataset, error) {
	f, err := storedFrequency(x.Frequency, x.FreqTimeUnit, x.EndOfDuration)
	if err != nil {
		return nil, err
	}
	if f.Unit == oozietime.Cron {
		return nil, fmt.Errorf("dataset %s has a cron frequency", x.Name)
	}
	initial, err := format.Parse(x.InitialInstance)
	if err != nil {
		return nil, err
	}
	flag, has := "", x.DoneFlag != nil
	if has {
		flag = strings.TrimSpace(*x.DoneFlag)
	}
	return datasetFromDef(x.Name, f.N, f.Unit, f.EndOf, initial, x.TimeZone, strings.TrimSpace(x.URITemplate), flag, has)
}

// loadLogic rebuilds an input-logic node.
func loadLogic(x xLogicNode) *LogicNode {
	n := &LogicNode{Op: x.XMLName.Local, Name: x.Name, Min: x.Min, Wait: x.Wait, Dataset: x.Dataset}
	for _, c := range x.Children {
		n.Children = append(n.Children, loadLogic(c))
	}
	return n
}

// loadSLA rebuilds an SLA block.
func loadSLA(x *xSLA) *SLADef {
	if x == nil {
		return nil
	}
	s := &SLADef{Namespace: x.XMLName.Space}
	for _, f := range x.Fields {
		s.Fields = append(s.Fields, Property{Name: f.XMLName.Local, Value: strings.TrimSpace(f.Value)})
	}
	return s
}
