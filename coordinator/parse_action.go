package coordinator

import (
	"github.com/gozie/gozie/internal/xmltree"
	"github.com/gozie/gozie/oozieerr"
)

// action converts <action>: a <workflow> and an optional SLA element.
func (p parser) action(n *xmltree.Node) (ActionDef, error) {
	var a ActionDef
	if err := n.CheckAttrs(nil, nil); err != nil {
		return a, err
	}
	if err := n.ElementsOnly(); err != nil {
		return a, err
	}
	children := n.Children()
	if len(children) == 0 {
		return a, oozieerr.At(oozieerr.E0701, n.Where(), "<action> must start with <workflow>")
	}
	if first := children[0]; first.Name().Space != p.ns || first.Name().Local != "workflow" {
		return a, oozieerr.At(oozieerr.E0701, first.Where(), "unexpected element <%s> in <action>, expected <workflow>", first.Name().Local)
	}
	wf := children[0]
	kids, err := wf.Sequence(p.ns, []xmltree.Rule{
		{Name: "app-path", Min: 1, Max: 1}, {Name: "configuration", Min: 0, Max: 1},
	})
	if err != nil {
		return a, err
	}
	if a.AppPath, err = trimmedText(kids["app-path"][0]); err != nil {
		return a, err
	}
	if c := kids.First("configuration"); c != nil {
		if a.Configuration, err = p.configuration(c); err != nil {
			return a, err
		}
	}
	switch len(children) {
	case 1:
	case 2:
		if a.SLA, err = p.sla(children[1]); err != nil {
			return a, err
		}
	default:
		return a, oozieerr.At(oozieerr.E0701, children[2].Where(), "<action> holds a <workflow> and at most one sla:info")
	}
	return a, nil
}

// configuration converts a workflow <configuration>.
func (p parser) configuration(n *xmltree.Node) ([]Property, error) {
	kids, err := n.Sequence(p.ns, []xmltree.Rule{{Name: "property", Min: 1, Max: xmltree.Unbounded}})
	if err != nil {
		return nil, err
	}
	var out []Property
	for _, prop := range kids["property"] {
		f, err := prop.Sequence(p.ns, []xmltree.Rule{
			{Name: "name", Min: 1, Max: 1}, {Name: "value", Min: 1, Max: 1}, {Name: "description", Min: 0, Max: 1},
		})
		if err != nil {
			return nil, err
		}
		var pr Property
		if pr.Name, err = trimmedText(f["name"][0]); err != nil {
			return nil, err
		}
		if pr.Value, err = trimmedText(f["value"][0]); err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// slaRules are the children of sla:info per SLA schema.
var slaRules = map[string][]xmltree.Rule{
	nsSLA02: {
		{Name: "nominal-time", Min: 1, Max: 1}, {Name: "should-start", Min: 0, Max: 1},
		{Name: "should-end", Min: 1, Max: 1}, {Name: "max-duration", Min: 0, Max: 1},
		{Name: "alert-events", Min: 0, Max: 1}, {Name: "alert-contact", Min: 0, Max: 1},
		{Name: "notification-msg", Min: 0, Max: 1}, {Name: "upstream-apps", Min: 0, Max: 1},
	},
	nsSLA01: {
		{Name: "app-name", Min: 1, Max: 1}, {Name: "nominal-time", Min: 1, Max: 1},
		{Name: "should-start", Min: 1, Max: 1}, {Name: "should-end", Min: 1, Max: 1},
		{Name: "parent-client-id", Min: 0, Max: 1}, {Name: "parent-sla-id", Min: 0, Max: 1},
		{Name: "notification-msg", Min: 0, Max: 1}, {Name: "alert-contact", Min: 1, Max: 1},
		{Name: "dev-contact", Min: 1, Max: 1}, {Name: "qa-contact", Min: 1, Max: 1},
		{Name: "se-contact", Min: 1, Max: 1}, {Name: "alert-frequency", Min: 0, Max: 1},
		{Name: "alert-percentage", Min: 0, Max: 1}, {Name: "upstream-apps", Min: 0, Max: 1},
	},
}

// sla converts the <sla:info> element of an action.
func (p parser) sla(n *xmltree.Node) (*SLADef, error) {
	allowed := n.Name().Space == nsSLA01 || (n.Name().Space == nsSLA02 && p.atLeast("0.4"))
	if !allowed || n.Name().Local != "info" {
		return nil, oozieerr.At(oozieerr.E0701, n.Where(),
			"only an sla:info element (namespace %s) may follow <workflow> in schema %s", slaNamespaces(p), p.version)
	}
	if err := n.CheckAttrs(nil, nil); err != nil {
		return nil, err
	}
	if _, err := n.Sequence(n.Name().Space, slaRules[n.Name().Space]); err != nil {
		return nil, err
	}
	s := &SLADef{Namespace: n.Name().Space}
	for _, c := range n.Children() {
		v, err := trimmedText(c)
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, Property{Name: c.Name().Local, Value: v})
	}
	return s, nil
}

// slaNamespaces names the SLA namespaces allowed by the document's schema version.
func slaNamespaces(p parser) string {
	if p.atLeast("0.4") {
		return nsSLA01 + " or " + nsSLA02
	}
	return nsSLA01
}
