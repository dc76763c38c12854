package coordinator

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gozie/gozie/internal/xmltree"
	"github.com/gozie/gozie/oozieerr"
)

// Namespaces of the documents this package reads.
const (
	nsCoordinatorPrefix = "uri:oozie:coordinator:"
	nsSLA01             = "uri:oozie:sla:0.1"
	nsSLA02             = "uri:oozie:sla:0.2"
)

// coordinatorVersions are the schema versions of uri:oozie:coordinator:X, oldest first.
var coordinatorVersions = []string{"0.1", "0.2", "0.3", "0.4", "0.5"}

// maxXMLDepth bounds element nesting; input-logic trees are the only deep part of a
// coordinator and never come close.
const maxXMLDepth = 64

// identifierRE is the IDENTIFIER type of the coordinator schemas (dataset, data-in and
// data-out names).
var identifierRE = regexp.MustCompile(`^[a-zA-Z][-_a-zA-Z0-9]*$`)

// Parse reads a coordinator application (coordinator.xml) and checks it against the
// coordinator schema of its namespace (uri:oozie:coordinator:0.1 to 0.5): element order and
// cardinality, required attributes, identifiers and the sla:info block. Errors are *Error with
// code E0700 (not well-formed) or E0701 (not valid), naming the element and line at fault.
// No EL is evaluated here; see Submit.
func Parse(data []byte) (*App, error) {
	root, err := xmltree.Read(data, maxXMLDepth)
	if err != nil {
		return nil, treeError(err)
	}
	version, ok := coordinatorVersion(root.Name().Space)
	if root.Name().Local != "coordinator-app" || !ok {
		return nil, oozieerr.At(oozieerr.E0701, root.Where(),
			"the root element must be <coordinator-app> in namespace uri:oozie:coordinator:0.1 to 0.5, found <%s> in %q",
			root.Name().Local, root.Name().Space)
	}
	p := parser{ns: root.Name().Space, version: version}
	app, err := p.app(root)
	if err != nil {
		return nil, treeError(err)
	}
	return app, nil
}

// ParseDatasets reads a dataset file named by <include>: a <datasets> root in a coordinator
// namespace holding <dataset> elements.
func ParseDatasets(data []byte) ([]DatasetDef, error) {
	root, err := xmltree.Read(data, maxXMLDepth)
	if err != nil {
		return nil, treeError(err)
	}
	version, ok := coordinatorVersion(root.Name().Space)
	if root.Name().Local != "datasets" || !ok {
		return nil, oozieerr.At(oozieerr.E0701, root.Where(),
			"the root element of a dataset file must be <datasets> in a coordinator namespace, found <%s> in %q",
			root.Name().Local, root.Name().Space)
	}
	p := parser{ns: root.Name().Space, version: version}
	if err := root.CheckAttrs(nil, nil); err != nil {
		return nil, treeError(err)
	}
	_, defs, err := p.datasets(root)
	if err != nil {
		return nil, treeError(err)
	}
	return defs, nil
}

// treeError converts an *xmltree.Error into this package's *Error with the same text:
// E0700 for a document that is not well-formed, E0701 for one that breaks the schema.
// Other errors, and errors that already carry a code, are returned unchanged
// (xmltree.Coded).
func treeError(err error) error {
	return xmltree.Coded(err, func(err error) string { return string(ErrorCode(err)) }, func(code string, te *xmltree.Error) error {
		return withCause(&Error{Code: oozieerr.Code(code), Where: te.Where, Msg: te.Msg}, te.Err)
	})
}

// trimmedText returns the text of a simple-content element without surrounding white
// space, which is how Oozie reads every such value of a coordinator.
func trimmedText(n *xmltree.Node) (string, error) {
	s, err := n.Text()
	return strings.TrimSpace(s), err
}

// coordinatorVersion returns the version of a coordinator namespace.
func coordinatorVersion(ns string) (string, bool) {
	v, ok := strings.CutPrefix(ns, nsCoordinatorPrefix)
	return v, ok && slices.Contains(coordinatorVersions, v)
}

// parser converts a validated element tree into the App model. Its methods return the
// *xmltree.Error of a failed tree check as it is; the entry points turn it into an *Error
// with treeError, once, on the way out.
type parser struct {
	ns      string
	version string
}

// atLeast reports whether the document's schema version is v or later.
func (p parser) atLeast(v string) bool { return p.version >= v }

// app converts <coordinator-app>.
func (p parser) app(root *xmltree.Node) (*App, error) {
	if err := root.CheckAttrs([]string{"name", "frequency", "start", "end", "timezone"}, nil); err != nil {
		return nil, err
	}
	rules := []xmltree.Rule{
		{Name: "parameters", Min: 0, Max: 1}, {Name: "controls", Min: 0, Max: 1},
		{Name: "datasets", Min: 0, Max: 1}, {Name: "input-events", Min: 0, Max: 1},
		{Name: "input-logic", Min: 0, Max: 1}, {Name: "output-events", Min: 0, Max: 1},
		{Name: "action", Min: 1, Max: 1},
	}
	if !p.atLeast("0.4") {
		rules = removeRule(rules, "parameters")
	}
	if !p.atLeast("0.5") {
		rules = removeRule(rules, "input-logic")
	}
	kids, err := root.Sequence(p.ns, rules)
	if err != nil {
		return nil, err
	}
	a := &App{Namespace: p.ns, Version: p.version}
	a.Name, _ = root.Attr("name")
	a.Frequency, _ = root.Attr("frequency")
	a.Start, _ = root.Attr("start")
	a.End, _ = root.Attr("end")
	a.TimeZone, _ = root.Attr("timezone")
	for _, v := range []*string{&a.Name, &a.Frequency, &a.Start, &a.End, &a.TimeZone} {
		*v = strings.TrimSpace(*v)
	}
	if n := kids.First("parameters"); n != nil {
		if a.Parameters, err = p.parameters(n); err != nil {
			return nil, err
		}
	}
	if n := kids.First("controls"); n != nil {
		if a.Controls, err = p.controls(n); err != nil {
			return nil, err
		}
	}
	if n := kids.First("datasets"); n != nil {
		if a.Includes, a.Datasets, err = p.datasets(n); err != nil {
			return nil, err
		}
	}
	if n := kids.First("input-events"); n != nil {
		if a.InputEvents, err = p.inputEvents(n); err != nil {
			return nil, err
		}
	}
	if n := kids.First("input-logic"); n != nil {
		if a.InputLogic, err = p.inputLogic(n); err != nil {
			return nil, err
		}
	}
	if n := kids.First("output-events"); n != nil {
		if a.OutputEvents, err = p.outputEvents(n); err != nil {
			return nil, err
		}
	}
	if a.Action, err = p.action(kids["action"][0]); err != nil {
		return nil, err
	}
	return a, nil
}

// parameters converts <parameters>.
func (p parser) parameters(n *xmltree.Node) ([]Parameter, error) {
	return ParseParameters(n, p.ns, false)
}

// ParseParameters converts a <parameters> element of namespace ns, which coordinator and
// bundle applications share: properties with a name and an optional default value (both
// trimmed) and description. checkDescription reads the descriptions too, as the bundle
// parser does, so that one with child elements is an error.
func ParseParameters(n *xmltree.Node, ns string, checkDescription bool) ([]Parameter, error) {
	kids, err := n.Sequence(ns, []xmltree.Rule{{Name: "property", Min: 1, Max: xmltree.Unbounded}})
	if err != nil {
		return nil, err
	}
	var out []Parameter
	for _, prop := range kids["property"] {
		f, err := prop.Sequence(ns, []xmltree.Rule{
			{Name: "name", Min: 1, Max: 1}, {Name: "value", Min: 0, Max: 1}, {Name: "description", Min: 0, Max: 1},
		})
		if err != nil {
			return nil, err
		}
		var par Parameter
		if par.Name, err = trimmedText(f["name"][0]); err != nil {
			return nil, err
		}
		if v := f.First("value"); v != nil {
			par.HasValue = true
			if par.Value, err = trimmedText(v); err != nil {
				return nil, err
			}
		}
		if d := f.First("description"); d != nil && checkDescription {
			if _, err := d.Text(); err != nil {
				return nil, err
			}
		}
		out = append(out, par)
	}
	return out, nil
}

// controls converts <controls>.
func (p parser) controls(n *xmltree.Node) (Controls, error) {
	rules := []xmltree.Rule{
		{Name: "timeout", Min: 0, Max: 1}, {Name: "concurrency", Min: 0, Max: 1},
		{Name: "execution", Min: 0, Max: 1}, {Name: "throttle", Min: 0, Max: 1},
	}
	if !p.atLeast("0.2") {
		rules = removeRule(rules, "throttle")
	}
	kids, err := n.Sequence(p.ns, rules)
	if err != nil {
		return Controls{}, err
	}
	var c Controls
	for name, dst := range map[string]*string{"timeout": &c.Timeout, "concurrency": &c.Concurrency,
		"execution": &c.Execution, "throttle": &c.Throttle} {
		if e := kids.First(name); e != nil {
			if *dst, err = trimmedText(e); err != nil {
				return Controls{}, err
			}
		}
	}
	return c, nil
}

// datasets converts <datasets>: <include> elements first, then datasets.
func (p parser) datasets(n *xmltree.Node) ([]string, []DatasetDef, error) {
	if err := n.ElementsOnly(); err != nil {
		return nil, nil, err
	}
	var includes []string
	var defs []DatasetDef
	for _, c := range n.Children() {
		if c.Name().Space != p.ns {
			return nil, nil, oozieerr.At(oozieerr.E0701, c.Where(), "element is in namespace %q, expected %q",
				c.Name().Space, p.ns)
		}
		switch c.Name().Local {
		case "include":
			if len(defs) > 0 {
				return nil, nil, oozieerr.At(oozieerr.E0701, c.Where(), "<include> must come before the datasets")
			}
			s, err := trimmedText(c)
			if err != nil {
				return nil, nil, err
			}
			includes = append(includes, s)
		case "dataset", "async-dataset":
			d, err := p.dataset(c)
			if err != nil {
				return nil, nil, err
			}
			defs = append(defs, d)
		default:
			return nil, nil, oozieerr.At(oozieerr.E0701, c.Where(), "element <%s> is not allowed in <datasets>", c.Name().Local)
		}
	}
	return includes, defs, nil
}

// dataset converts <dataset> and <async-dataset>.
func (p parser) dataset(n *xmltree.Node) (DatasetDef, error) {
	d := DatasetDef{Line: n.Line(), Async: n.Name().Local == "async-dataset"}
	var kids xmltree.Groups
	var err error
	if d.Async {
		if err = n.CheckAttrs([]string{"name", "sequence-type", "initial-version"}, nil); err != nil {
			return d, err
		}
		kids, err = n.Sequence(p.ns, []xmltree.Rule{{Name: "uri-template", Min: 1, Max: 1}})
	} else {
		if err = n.CheckAttrs([]string{"name", "frequency", "initial-instance", "timezone"}, nil); err != nil {
			return d, err
		}
		kids, err = n.Sequence(p.ns, []xmltree.Rule{
			{Name: "uri-template", Min: 1, Max: 1}, {Name: "done-flag", Min: 0, Max: 1},
		})
	}
	if err != nil {
		return d, err
	}
	d.Name, _ = n.Attr("name")
	d.Name = strings.TrimSpace(d.Name)
	if !identifierRE.MatchString(d.Name) {
		return d, oozieerr.At(oozieerr.E0701, n.Where(), "dataset name %q is not a valid identifier", d.Name)
	}
	d.Frequency, _ = n.Attr("frequency")
	d.InitialInstance, _ = n.Attr("initial-instance")
	d.TimeZone, _ = n.Attr("timezone")
	d.Frequency = strings.TrimSpace(d.Frequency)
	d.InitialInstance = strings.TrimSpace(d.InitialInstance)
	d.TimeZone = strings.TrimSpace(d.TimeZone)
	if d.URITemplate, err = trimmedText(kids["uri-template"][0]); err != nil {
		return d, err
	}
	if f := kids.First("done-flag"); f != nil {
		d.HasDoneFlag = true
		if d.DoneFlag, err = trimmedText(f); err != nil {
			return d, err
		}
	}
	return d, nil
}

// removeRule returns rules without the rule for name.
func removeRule(rules []xmltree.Rule, name string) []xmltree.Rule {
	out := rules[:0:0]
	for _, r := range rules {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}
