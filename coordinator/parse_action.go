package coordinator

// action converts <action>: a <workflow> and an optional SLA element.
func (p parser) action(n *xnode) (ActionDef, error) {
	var a ActionDef
	if err := n.checkAttrs(nil, nil); err != nil {
		return a, err
	}
	if err := n.elementsOnly(); err != nil {
		return a, err
	}
	if len(n.children) == 0 || n.children[0].name.Space != p.ns || n.children[0].name.Local != "workflow" {
		return a, newError(CodeInvalidDefinition, n.where(), "<action> must start with <workflow>")
	}
	wf := n.children[0]
	kids, err := wf.sequence(p.ns, []seqRule{{"app-path", 1, 1}, {"configuration", 0, 1}})
	if err != nil {
		return a, err
	}
	if a.AppPath, err = kids["app-path"][0].textOnly(); err != nil {
		return a, err
	}
	if c := first(kids["configuration"]); c != nil {
		if a.Configuration, err = p.configuration(c); err != nil {
			return a, err
		}
	}
	switch len(n.children) {
	case 1:
	case 2:
		if a.SLA, err = p.sla(n.children[1]); err != nil {
			return a, err
		}
	default:
		return a, newError(CodeInvalidDefinition, n.children[2].where(), "<action> holds a <workflow> and at most one sla:info")
	}
	return a, nil
}

// configuration converts a workflow <configuration>.
func (p parser) configuration(n *xnode) ([]Property, error) {
	kids, err := n.sequence(p.ns, []seqRule{{"property", 1, -1}})
	if err != nil {
		return nil, err
	}
	var out []Property
	for _, prop := range kids["property"] {
		f, err := prop.sequence(p.ns, []seqRule{{"name", 1, 1}, {"value", 1, 1}, {"description", 0, 1}})
		if err != nil {
			return nil, err
		}
		var pr Property
		if pr.Name, err = f["name"][0].textOnly(); err != nil {
			return nil, err
		}
		if pr.Value, err = f["value"][0].textOnly(); err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// slaRules are the children of sla:info per SLA schema.
var slaRules = map[string][]seqRule{
	nsSLA02: {
		{"nominal-time", 1, 1}, {"should-start", 0, 1}, {"should-end", 1, 1}, {"max-duration", 0, 1},
		{"alert-events", 0, 1}, {"alert-contact", 0, 1}, {"notification-msg", 0, 1}, {"upstream-apps", 0, 1},
	},
	nsSLA01: {
		{"app-name", 1, 1}, {"nominal-time", 1, 1}, {"should-start", 1, 1}, {"should-end", 1, 1},
		{"parent-client-id", 0, 1}, {"parent-sla-id", 0, 1}, {"notification-msg", 0, 1}, {"alert-contact", 1, 1},
		{"dev-contact", 1, 1}, {"qa-contact", 1, 1}, {"se-contact", 1, 1}, {"alert-frequency", 0, 1},
		{"alert-percentage", 0, 1}, {"upstream-apps", 0, 1},
	},
}

// sla converts the <sla:info> element of an action.
func (p parser) sla(n *xnode) (*SLADef, error) {
	allowed := n.name.Space == nsSLA01 || (n.name.Space == nsSLA02 && p.atLeast("0.4"))
	if !allowed || n.name.Local != "info" {
		return nil, newError(CodeInvalidDefinition, n.where(),
			"only an sla:info element (namespace %s) may follow <workflow> in schema %s", slaNamespaces(p), p.version)
	}
	if err := n.checkAttrs(nil, nil); err != nil {
		return nil, err
	}
	if _, err := n.sequence(n.name.Space, slaRules[n.name.Space]); err != nil {
		return nil, err
	}
	s := &SLADef{Namespace: n.name.Space}
	for _, c := range n.children {
		v, err := c.textOnly()
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, Property{Name: c.name.Local, Value: v})
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
