package coordinator

import "github.com/gozie/gozie/conf"

// App is a coordinator application exactly as written in coordinator.xml: every value is the
// raw text (trimmed), with no EL evaluated. Parse builds it; Submit resolves it into a Job.
type App struct {
	// Namespace is the document's namespace, e.g. "uri:oozie:coordinator:0.4".
	Namespace string
	// Version is the schema version of Namespace: "0.1" … "0.5".
	Version string

	Name      string
	Frequency string
	Start     string
	End       string
	TimeZone  string

	// Parameters are the formal parameters (schema 0.4 and later).
	Parameters []Parameter
	Controls   Controls
	// Includes are the dataset files named by <include> elements, in order.
	Includes []string
	Datasets []DatasetDef

	InputEvents []DataInDef
	// InputLogic is the <input-logic> tree (schema 0.5), nil when absent.
	InputLogic   *LogicNode
	OutputEvents []DataOutDef

	Action ActionDef
}

// Parameter is one formal parameter of <parameters>.
type Parameter struct {
	Name string
	// Value is the default; HasValue tells an empty default from none.
	Value    string
	HasValue bool
}

// Controls holds the <controls> values; an empty string means "not given" (Oozie treats an
// empty element like a missing one).
type Controls struct {
	Timeout     string
	Concurrency string
	Execution   string
	Throttle    string
}

// DatasetDef is a <dataset> (or <async-dataset>) definition.
type DatasetDef struct {
	Name            string
	Frequency       string
	InitialInstance string
	TimeZone        string
	URITemplate     string
	// DoneFlag is the <done-flag> text; HasDoneFlag tells an empty element (check the
	// directory itself) from a missing one (check _SUCCESS).
	DoneFlag    string
	HasDoneFlag bool
	// Async marks an <async-dataset>, which Oozie does not implement.
	Async bool
	// Line is where the definition starts in its document, for error messages.
	Line int
}

// DataInDef is a <data-in> of <input-events>: either a list of <instance> elements or a
// <start-instance>/<end-instance> range.
type DataInDef struct {
	Name          string
	Dataset       string
	Instances     []string
	StartInstance string
	EndInstance   string
	// IsRange is set when the data-in uses start-instance/end-instance.
	IsRange bool
	Line    int
}

// DataOutDef is a <data-out> of <output-events>.
type DataOutDef struct {
	Name      string
	Dataset   string
	Instance  string
	NoCleanup bool
	Line      int
}

// LogicNode is one node of an <input-logic> tree. Op is "and", "or", "combine" or "data-in";
// a data-in node names a data-in of <input-events> in Dataset.
type LogicNode struct {
	Op       string
	Name     string
	Min      string
	Wait     string
	Dataset  string
	Children []*LogicNode
}

// ActionDef is the <action>: the workflow to run and an optional SLA.
type ActionDef struct {
	AppPath       string
	Configuration []Property
	SLA           *SLADef
}

// Property is one name/value pair of a configuration: conf.Property, of which the
// coordinator uses the name and the value.
type Property = conf.Property

// SLADef is an <sla:info> element: its namespace and its child elements in order (local
// name and text).
type SLADef struct {
	Namespace string
	Fields    []Property
}

// Field returns the text of the SLA child element name and whether it is present.
func (s *SLADef) Field(name string) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, f := range s.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}
