package coordinator

import (
	"strings"

	"github.com/gozie/gozie/internal/xmltree"
	"github.com/gozie/gozie/oozieerr"
)

// inputEvents converts <input-events>. Schema 0.5 also lets <and>/<or> stand here; Oozie
// ignores them (only <data-in> children are read), and so does this parser after checking
// that they are well formed.
func (p parser) inputEvents(n *xmltree.Node) ([]DataInDef, error) {
	if err := n.ElementsOnly(); err != nil {
		return nil, err
	}
	var out []DataInDef
	for _, c := range n.Children() {
		if c.Name().Space != p.ns {
			return nil, oozieerr.At(oozieerr.E0701, c.Where(), "element is in namespace %q, expected %q",
				c.Name().Space, p.ns)
		}
		switch {
		case c.Name().Local == "data-in":
			d, err := p.dataIn(c)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		case p.atLeast("0.5") && (c.Name().Local == "and" || c.Name().Local == "or") && len(n.Children()) == 1:
			if _, err := p.logicNode(c); err != nil {
				return nil, err
			}
		default:
			return nil, oozieerr.At(oozieerr.E0701, c.Where(), "element <%s> is not allowed in <input-events>", c.Name().Local)
		}
	}
	if len(n.Children()) == 0 {
		return nil, oozieerr.At(oozieerr.E0701, n.Where(), "<input-events> needs at least one <data-in>")
	}
	return out, nil
}

// dataIn converts <data-in>.
func (p parser) dataIn(n *xmltree.Node) (DataInDef, error) {
	d := DataInDef{Line: n.Line()}
	if err := n.CheckAttrs([]string{"name", "dataset"}, nil); err != nil {
		return d, err
	}
	d.Name, _ = n.Attr("name")
	d.Dataset, _ = n.Attr("dataset")
	d.Name, d.Dataset = strings.TrimSpace(d.Name), strings.TrimSpace(d.Dataset)
	if !identifierRE.MatchString(d.Name) {
		return d, oozieerr.At(oozieerr.E0701, n.Where(), "data-in name %q is not a valid identifier", d.Name)
	}
	if err := n.ElementsOnly(); err != nil {
		return d, err
	}
	if len(n.Children()) > 0 && n.Children()[0].Name().Local == "instance" {
		kids, err := n.Sequence(p.ns, []xmltree.Rule{{Name: "instance", Min: 1, Max: xmltree.Unbounded}})
		if err != nil {
			return d, err
		}
		for _, i := range kids["instance"] {
			s, err := trimmedText(i)
			if err != nil {
				return d, err
			}
			d.Instances = append(d.Instances, s)
		}
		return d, nil
	}
	kids, err := n.Sequence(p.ns, []xmltree.Rule{
		{Name: "start-instance", Min: 1, Max: 1}, {Name: "end-instance", Min: 1, Max: 1},
	})
	if err != nil {
		return d, err
	}
	d.IsRange = true
	if d.StartInstance, err = trimmedText(kids["start-instance"][0]); err != nil {
		return d, err
	}
	if d.EndInstance, err = trimmedText(kids["end-instance"][0]); err != nil {
		return d, err
	}
	return d, nil
}

// outputEvents converts <output-events>.
func (p parser) outputEvents(n *xmltree.Node) ([]DataOutDef, error) {
	kids, err := n.Sequence(p.ns, []xmltree.Rule{{Name: "data-out", Min: 1, Max: xmltree.Unbounded}})
	if err != nil {
		return nil, err
	}
	var out []DataOutDef
	for _, c := range kids["data-out"] {
		optional := []string{"nocleanup"}
		if !p.atLeast("0.4") {
			optional = nil
		}
		if err := c.CheckAttrs([]string{"name", "dataset"}, optional); err != nil {
			return nil, err
		}
		d := DataOutDef{Line: c.Line()}
		d.Name, _ = c.Attr("name")
		d.Dataset, _ = c.Attr("dataset")
		d.Name, d.Dataset = strings.TrimSpace(d.Name), strings.TrimSpace(d.Dataset)
		if !identifierRE.MatchString(d.Name) {
			return nil, oozieerr.At(oozieerr.E0701, c.Where(), "data-out name %q is not a valid identifier", d.Name)
		}
		if v, ok := c.Attr("nocleanup"); ok {
			switch strings.TrimSpace(v) {
			case "true", "1":
				d.NoCleanup = true
			case "false", "0":
			default:
				return nil, oozieerr.At(oozieerr.E0701, c.Where(), "nocleanup=%q is not a boolean", v)
			}
		}
		inst, err := c.Sequence(p.ns, []xmltree.Rule{{Name: "instance", Min: 1, Max: 1}})
		if err != nil {
			return nil, err
		}
		if d.Instance, err = trimmedText(inst["instance"][0]); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// inputLogic converts <input-logic>; Oozie reads it as one expression, so it must hold a
// single top-level node.
func (p parser) inputLogic(n *xmltree.Node) (*LogicNode, error) {
	if err := n.ElementsOnly(); err != nil {
		return nil, err
	}
	if len(n.Children()) != 1 {
		return nil, oozieerr.At(oozieerr.E0701, n.Where(), "<input-logic> must hold exactly one <and>, <or>, <combine> or <data-in>")
	}
	return p.logicNode(n.Children()[0])
}

// logicNode converts one input-logic node and its subtree.
func (p parser) logicNode(n *xmltree.Node) (*LogicNode, error) {
	if n.Name().Space != p.ns {
		return nil, oozieerr.At(oozieerr.E0701, n.Where(), "element is in namespace %q, expected %q", n.Name().Space, p.ns)
	}
	node := &LogicNode{Op: n.Name().Local}
	optional := []string{"name", "min", "wait"}
	switch node.Op {
	case "data-in":
		if err := n.CheckAttrs([]string{"dataset"}, optional); err != nil {
			return nil, err
		}
		if err := n.ElementsOnly(); err != nil {
			return nil, err
		}
		if len(n.Children()) > 0 {
			return nil, oozieerr.At(oozieerr.E0701, n.Children()[0].Where(), "an input-logic <data-in> has no children")
		}
	case "and", "or", "combine":
		if err := n.CheckAttrs(nil, optional); err != nil {
			return nil, err
		}
		if err := n.ElementsOnly(); err != nil {
			return nil, err
		}
		for _, c := range n.Children() {
			if node.Op == "combine" && c.Name().Local != "data-in" {
				return nil, oozieerr.At(oozieerr.E0701, c.Where(), "<combine> holds only <data-in> elements")
			}
			child, err := p.logicNode(c)
			if err != nil {
				return nil, err
			}
			node.Children = append(node.Children, child)
		}
		if node.Op == "combine" && len(node.Children) < 2 {
			return nil, oozieerr.At(oozieerr.E0701, n.Where(), "<combine> needs at least two <data-in> elements")
		}
		if len(node.Children) == 0 {
			return nil, oozieerr.At(oozieerr.E0701, n.Where(), "<%s> needs at least one child", node.Op)
		}
	default:
		return nil, oozieerr.At(oozieerr.E0701, n.Where(), "element <%s> is not allowed in <input-logic>", node.Op)
	}
	node.Name, _ = n.Attr("name")
	node.Min, _ = n.Attr("min")
	node.Wait, _ = n.Attr("wait")
	node.Dataset, _ = n.Attr("dataset")
	node.Name = strings.TrimSpace(node.Name)
	node.Min = strings.TrimSpace(node.Min)
	node.Wait = strings.TrimSpace(node.Wait)
	node.Dataset = strings.TrimSpace(node.Dataset)
	return node, nil
}
