package coordinator

import (
	"regexp"
	"strings"
)

// Namespaces of the documents this package reads.
const (
	nsCoordinatorPrefix = "uri:oozie:coordinator:"
	nsSLA01             = "uri:oozie:sla:0.1"
	nsSLA02             = "uri:oozie:sla:0.2"
)

// coordinatorVersions are the schema versions of uri:oozie:coordinator:X, oldest first.
var coordinatorVersions = []string{"0.1", "0.2", "0.3", "0.4", "0.5"}

// identifierRE is the IDENTIFIER type of the coordinator schemas (dataset, data-in and
// data-out names).
var identifierRE = regexp.MustCompile(`^[a-zA-Z][-_a-zA-Z0-9]*$`)

// Parse reads a coordinator application (coordinator.xml) and checks it against the
// coordinator schema of its namespace (uri:oozie:coordinator:0.1 to 0.5): element order and
// cardinality, required attributes, identifiers and the sla:info block. Errors are *Error with
// code E0700 (not well-formed) or E0701 (not valid), naming the element and line at fault.
// No EL is evaluated here; see Submit.
func Parse(data []byte) (*App, error) {
	root, err := readTree(data)
	if err != nil {
		return nil, err
	}
	version, ok := coordinatorVersion(root.name.Space)
	if root.name.Local != "coordinator-app" || !ok {
		return nil, newError(CodeInvalidDefinition, root.where(),
			"the root element must be <coordinator-app> in namespace uri:oozie:coordinator:0.1 to 0.5, found <%s> in %q",
			root.name.Local, root.name.Space)
	}
	p := parser{ns: root.name.Space, version: version}
	return p.app(root)
}

// ParseDatasets reads a dataset file named by <include>: a <datasets> root in a coordinator
// namespace holding <dataset> elements.
func ParseDatasets(data []byte) ([]DatasetDef, error) {
	root, err := readTree(data)
	if err != nil {
		return nil, err
	}
	version, ok := coordinatorVersion(root.name.Space)
	if root.name.Local != "datasets" || !ok {
		return nil, newError(CodeInvalidDefinition, root.where(),
			"the root element of a dataset file must be <datasets> in a coordinator namespace, found <%s> in %q",
			root.name.Local, root.name.Space)
	}
	p := parser{ns: root.name.Space, version: version}
	if err := root.checkAttrs(nil, nil); err != nil {
		return nil, err
	}
	_, defs, err := p.datasets(root)
	return defs, err
}

// coordinatorVersion returns the version of a coordinator namespace.
func coordinatorVersion(ns string) (string, bool) {
	v, ok := strings.CutPrefix(ns, nsCoordinatorPrefix)
	return v, ok && contains(coordinatorVersions, v)
}

// parser converts a validated element tree into the App model.
type parser struct {
	ns      string
	version string
}

// atLeast reports whether the document's schema version is v or later.
func (p parser) atLeast(v string) bool { return p.version >= v }

// app converts <coordinator-app>.
func (p parser) app(root *xnode) (*App, error) {
	if err := root.checkAttrs([]string{"name", "frequency", "start", "end", "timezone"}, nil); err != nil {
		return nil, err
	}
	rules := []seqRule{
		{"parameters", 0, 1}, {"controls", 0, 1}, {"datasets", 0, 1}, {"input-events", 0, 1},
		{"input-logic", 0, 1}, {"output-events", 0, 1}, {"action", 1, 1},
	}
	if !p.atLeast("0.4") {
		rules = removeRule(rules, "parameters")
	}
	if !p.atLeast("0.5") {
		rules = removeRule(rules, "input-logic")
	}
	kids, err := root.sequence(p.ns, rules)
	if err != nil {
		return nil, err
	}
	a := &App{Namespace: p.ns, Version: p.version}
	a.Name, _ = root.attr("name")
	a.Frequency, _ = root.attr("frequency")
	a.Start, _ = root.attr("start")
	a.End, _ = root.attr("end")
	a.TimeZone, _ = root.attr("timezone")
	for _, v := range []*string{&a.Name, &a.Frequency, &a.Start, &a.End, &a.TimeZone} {
		*v = strings.TrimSpace(*v)
	}
	if n := first(kids["parameters"]); n != nil {
		if a.Parameters, err = p.parameters(n); err != nil {
			return nil, err
		}
	}
	if n := first(kids["controls"]); n != nil {
		if a.Controls, err = p.controls(n); err != nil {
			return nil, err
		}
	}
	if n := first(kids["datasets"]); n != nil {
		if a.Includes, a.Datasets, err = p.datasets(n); err != nil {
			return nil, err
		}
	}
	if n := first(kids["input-events"]); n != nil {
		if a.InputEvents, err = p.inputEvents(n); err != nil {
			return nil, err
		}
	}
	if n := first(kids["input-logic"]); n != nil {
		if a.InputLogic, err = p.inputLogic(n); err != nil {
			return nil, err
		}
	}
	if n := first(kids["output-events"]); n != nil {
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
func (p parser) parameters(n *xnode) ([]Parameter, error) {
	kids, err := n.sequence(p.ns, []seqRule{{"property", 1, -1}})
	if err != nil {
		return nil, err
	}
	var out []Parameter
	for _, prop := range kids["property"] {
		f, err := prop.sequence(p.ns, []seqRule{{"name", 1, 1}, {"value", 0, 1}, {"description", 0, 1}})
		if err != nil {
			return nil, err
		}
		var par Parameter
		if par.Name, err = f["name"][0].textOnly(); err != nil {
			return nil, err
		}
		if v := first(f["value"]); v != nil {
			par.HasValue = true
			if par.Value, err = v.textOnly(); err != nil {
				return nil, err
			}
		}
		out = append(out, par)
	}
	return out, nil
}

// controls converts <controls>.
func (p parser) controls(n *xnode) (Controls, error) {
	rules := []seqRule{{"timeout", 0, 1}, {"concurrency", 0, 1}, {"execution", 0, 1}, {"throttle", 0, 1}}
	if !p.atLeast("0.2") {
		rules = removeRule(rules, "throttle")
	}
	kids, err := n.sequence(p.ns, rules)
	if err != nil {
		return Controls{}, err
	}
	var c Controls
	for name, dst := range map[string]*string{"timeout": &c.Timeout, "concurrency": &c.Concurrency,
		"execution": &c.Execution, "throttle": &c.Throttle} {
		if e := first(kids[name]); e != nil {
			if *dst, err = e.textOnly(); err != nil {
				return Controls{}, err
			}
		}
	}
	return c, nil
}

// datasets converts <datasets>: <include> elements first, then datasets.
func (p parser) datasets(n *xnode) ([]string, []DatasetDef, error) {
	if err := n.elementsOnly(); err != nil {
		return nil, nil, err
	}
	var includes []string
	var defs []DatasetDef
	for _, c := range n.children {
		if c.name.Space != p.ns {
			return nil, nil, newError(CodeInvalidDefinition, c.where(), "element is in namespace %q, expected %q",
				c.name.Space, p.ns)
		}
		switch c.name.Local {
		case "include":
			if len(defs) > 0 {
				return nil, nil, newError(CodeInvalidDefinition, c.where(), "<include> must come before the datasets")
			}
			s, err := c.textOnly()
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
			return nil, nil, newError(CodeInvalidDefinition, c.where(), "element <%s> is not allowed in <datasets>", c.name.Local)
		}
	}
	return includes, defs, nil
}

// dataset converts <dataset> and <async-dataset>.
func (p parser) dataset(n *xnode) (DatasetDef, error) {
	d := DatasetDef{Line: n.line, Async: n.name.Local == "async-dataset"}
	var kids map[string][]*xnode
	var err error
	if d.Async {
		if err = n.checkAttrs([]string{"name", "sequence-type", "initial-version"}, nil); err != nil {
			return d, err
		}
		kids, err = n.sequence(p.ns, []seqRule{{"uri-template", 1, 1}})
	} else {
		if err = n.checkAttrs([]string{"name", "frequency", "initial-instance", "timezone"}, nil); err != nil {
			return d, err
		}
		kids, err = n.sequence(p.ns, []seqRule{{"uri-template", 1, 1}, {"done-flag", 0, 1}})
	}
	if err != nil {
		return d, err
	}
	d.Name, _ = n.attr("name")
	d.Name = strings.TrimSpace(d.Name)
	if !identifierRE.MatchString(d.Name) {
		return d, newError(CodeInvalidDefinition, n.where(), "dataset name %q is not a valid identifier", d.Name)
	}
	d.Frequency, _ = n.attr("frequency")
	d.InitialInstance, _ = n.attr("initial-instance")
	d.TimeZone, _ = n.attr("timezone")
	d.Frequency = strings.TrimSpace(d.Frequency)
	d.InitialInstance = strings.TrimSpace(d.InitialInstance)
	d.TimeZone = strings.TrimSpace(d.TimeZone)
	if d.URITemplate, err = kids["uri-template"][0].textOnly(); err != nil {
		return d, err
	}
	if f := first(kids["done-flag"]); f != nil {
		d.HasDoneFlag = true
		if d.DoneFlag, err = f.textOnly(); err != nil {
			return d, err
		}
	}
	return d, nil
}

// removeRule returns rules without the rule for name.
func removeRule(rules []seqRule, name string) []seqRule {
	out := rules[:0:0]
	for _, r := range rules {
		if r.name != name {
			out = append(out, r)
		}
	}
	return out
}

// first returns the first node of a list, or nil.
func first(nodes []*xnode) *xnode {
	if len(nodes) == 0 {
		return nil
	}
	return nodes[0]
}
