package coordinator

import "strings"

// inputEvents converts <input-events>. Schema 0.5 also lets <and>/<or> stand here; Oozie
// ignores them (only <data-in> children are read), and so does this parser after checking
// that they are well formed.
func (p parser) inputEvents(n *xnode) ([]DataInDef, error) {
	if err := n.elementsOnly(); err != nil {
		return nil, err
	}
	var out []DataInDef
	for _, c := range n.children {
		if c.name.Space != p.ns {
			return nil, newError(CodeInvalidDefinition, c.where(), "element is in namespace %q, expected %q",
				c.name.Space, p.ns)
		}
		switch {
		case c.name.Local == "data-in":
			d, err := p.dataIn(c)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		case p.atLeast("0.5") && (c.name.Local == "and" || c.name.Local == "or") && len(n.children) == 1:
			if _, err := p.logicNode(c); err != nil {
				return nil, err
			}
		default:
			return nil, newError(CodeInvalidDefinition, c.where(), "element <%s> is not allowed in <input-events>", c.name.Local)
		}
	}
	if len(n.children) == 0 {
		return nil, newError(CodeInvalidDefinition, n.where(), "<input-events> needs at least one <data-in>")
	}
	return out, nil
}

// dataIn converts <data-in>.
func (p parser) dataIn(n *xnode) (DataInDef, error) {
	d := DataInDef{Line: n.line}
	if err := n.checkAttrs([]string{"name", "dataset"}, nil); err != nil {
		return d, err
	}
	d.Name, _ = n.attr("name")
	d.Dataset, _ = n.attr("dataset")
	d.Name, d.Dataset = strings.TrimSpace(d.Name), strings.TrimSpace(d.Dataset)
	if !identifierRE.MatchString(d.Name) {
		return d, newError(CodeInvalidDefinition, n.where(), "data-in name %q is not a valid identifier", d.Name)
	}
	if err := n.elementsOnly(); err != nil {
		return d, err
	}
	if len(n.children) > 0 && n.children[0].name.Local == "instance" {
		kids, err := n.sequence(p.ns, []seqRule{{"instance", 1, -1}})
		if err != nil {
			return d, err
		}
		for _, i := range kids["instance"] {
			s, err := i.textOnly()
			if err != nil {
				return d, err
			}
			d.Instances = append(d.Instances, s)
		}
		return d, nil
	}
	kids, err := n.sequence(p.ns, []seqRule{{"start-instance", 1, 1}, {"end-instance", 1, 1}})
	if err != nil {
		return d, err
	}
	d.IsRange = true
	if d.StartInstance, err = kids["start-instance"][0].textOnly(); err != nil {
		return d, err
	}
	if d.EndInstance, err = kids["end-instance"][0].textOnly(); err != nil {
		return d, err
	}
	return d, nil
}

// outputEvents converts <output-events>.
func (p parser) outputEvents(n *xnode) ([]DataOutDef, error) {
	kids, err := n.sequence(p.ns, []seqRule{{"data-out", 1, -1}})
	if err != nil {
		return nil, err
	}
	var out []DataOutDef
	for _, c := range kids["data-out"] {
		optional := []string{"nocleanup"}
		if !p.atLeast("0.4") {
			optional = nil
		}
		if err := c.checkAttrs([]string{"name", "dataset"}, optional); err != nil {
			return nil, err
		}
		d := DataOutDef{Line: c.line}
		d.Name, _ = c.attr("name")
		d.Dataset, _ = c.attr("dataset")
		d.Name, d.Dataset = strings.TrimSpace(d.Name), strings.TrimSpace(d.Dataset)
		if !identifierRE.MatchString(d.Name) {
			return nil, newError(CodeInvalidDefinition, c.where(), "data-out name %q is not a valid identifier", d.Name)
		}
		if v, ok := c.attr("nocleanup"); ok {
			switch strings.TrimSpace(v) {
			case "true", "1":
				d.NoCleanup = true
			case "false", "0":
			default:
				return nil, newError(CodeInvalidDefinition, c.where(), "nocleanup=%q is not a boolean", v)
			}
		}
		inst, err := c.sequence(p.ns, []seqRule{{"instance", 1, 1}})
		if err != nil {
			return nil, err
		}
		if d.Instance, err = inst["instance"][0].textOnly(); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// inputLogic converts <input-logic>; Oozie reads it as one expression, so it must hold a
// single top-level node.
func (p parser) inputLogic(n *xnode) (*LogicNode, error) {
	if err := n.elementsOnly(); err != nil {
		return nil, err
	}
	if len(n.children) != 1 {
		return nil, newError(CodeInvalidDefinition, n.where(), "<input-logic> must hold exactly one <and>, <or>, <combine> or <data-in>")
	}
	return p.logicNode(n.children[0])
}

// logicNode converts one input-logic node and its subtree.
func (p parser) logicNode(n *xnode) (*LogicNode, error) {
	if n.name.Space != p.ns {
		return nil, newError(CodeInvalidDefinition, n.where(), "element is in namespace %q, expected %q", n.name.Space, p.ns)
	}
	node := &LogicNode{Op: n.name.Local}
	optional := []string{"name", "min", "wait"}
	switch node.Op {
	case "data-in":
		if err := n.checkAttrs([]string{"dataset"}, optional); err != nil {
			return nil, err
		}
		if err := n.elementsOnly(); err != nil {
			return nil, err
		}
		if len(n.children) > 0 {
			return nil, newError(CodeInvalidDefinition, n.children[0].where(), "an input-logic <data-in> has no children")
		}
	case "and", "or", "combine":
		if err := n.checkAttrs(nil, optional); err != nil {
			return nil, err
		}
		if err := n.elementsOnly(); err != nil {
			return nil, err
		}
		for _, c := range n.children {
			if node.Op == "combine" && c.name.Local != "data-in" {
				return nil, newError(CodeInvalidDefinition, c.where(), "<combine> holds only <data-in> elements")
			}
			child, err := p.logicNode(c)
			if err != nil {
				return nil, err
			}
			node.Children = append(node.Children, child)
		}
		if node.Op == "combine" && len(node.Children) < 2 {
			return nil, newError(CodeInvalidDefinition, n.where(), "<combine> needs at least two <data-in> elements")
		}
		if len(node.Children) == 0 {
			return nil, newError(CodeInvalidDefinition, n.where(), "<%s> needs at least one child", node.Op)
		}
	default:
		return nil, newError(CodeInvalidDefinition, n.where(), "element <%s> is not allowed in <input-logic>", node.Op)
	}
	node.Name, _ = n.attr("name")
	node.Min, _ = n.attr("min")
	node.Wait, _ = n.attr("wait")
	node.Dataset, _ = n.attr("dataset")
	node.Name = strings.TrimSpace(node.Name)
	node.Min = strings.TrimSpace(node.Min)
	node.Wait = strings.TrimSpace(node.Wait)
	node.Dataset = strings.TrimSpace(node.Dataset)
	return node, nil
}
