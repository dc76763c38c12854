package bundle

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/internal/xmltree"
	"github.com/gozie/gozie/oozieerr"
)

// NamespacePrefix starts every bundle namespace; the versions are 0.1 and 0.2.
const NamespacePrefix = "uri:oozie:bundle:"

// versions are the schema versions of uri:oozie:bundle:X, oldest first.
var versions = []string{"0.1", "0.2"}

// maxDepth bounds element nesting; a bundle is four levels deep.
const maxDepth = 32

// identifierRE is the IDENTIFIER type of schema 0.1, the type of coordinator names there.
var identifierRE = regexp.MustCompile(`^[a-zA-Z][-_a-zA-Z0-9]*$`)

// Parse reads a bundle application (bundle.xml) and checks it against the schema of its
// namespace (uri:oozie:bundle:0.1 or 0.2): element order and cardinality, required and
// allowed attributes, and in 0.1 the coordinator names' identifier syntax. Errors are *Error
// with code E0700 (not well-formed) or E0701 (not valid), naming the element and line at
// fault. No EL is evaluated here; see Resolve.
func Parse(data []byte) (*App, error) {
	root, err := xmltree.Read(data, maxDepth)
	if err != nil {
		return nil, treeError(err)
	}
	version, ok := strings.CutPrefix(root.Name().Space, NamespacePrefix)
	if root.Name().Local != "bundle-app" || !ok || !slices.Contains(versions, version) {
		return nil, oozieerr.At(oozieerr.E0701, root.Where(),
			"the root element must be <bundle-app> in namespace uri:oozie:bundle:0.1 or 0.2, found <%s> in %q",
			root.Name().Local, root.Name().Space)
	}
	p := parser{ns: root.Name().Space, version: version}
	app, err := p.app(root)
	if err != nil {
		return nil, treeError(err)
	}
	return app, nil
}

// treeError converts an *xmltree.Error into this package's *Error with the same text:
// E0700 for a document that is not well-formed, E0701 for one that breaks the schema.
// Other errors, and errors that already carry a code, are returned unchanged
// (xmltree.Coded).
func treeError(err error) error {
	return xmltree.Coded(err, func(err error) string { return string(ErrorCode(err)) }, func(code string, te *xmltree.Error) error {
		e := &Error{Code: oozieerr.Code(code), Where: te.Where, Msg: te.Msg}
		if te.Err != nil {
			e = oozieerr.WrapAt(e.Code, e.Where, te.Err, "%s", e.Msg)
		}
		return e
	})
}

// parser converts a validated element tree into the App model. Its methods return the
// *xmltree.Error of a failed tree check as it is; the entry points turn it into an *Error
// with treeError, once, on the way out.
type parser struct {
	ns      string
	version string
}

// app converts <bundle-app>.
func (p parser) app(root *xmltree.Node) (*App, error) {
	if err := root.CheckAttrs([]string{"name"}, nil); err != nil {
		return nil, err
	}
	rules := []xmltree.Rule{
		{Name: "parameters", Min: 0, Max: 1}, {Name: "controls", Min: 0, Max: 1},
		{Name: "coordinator", Min: 1, Max: xmltree.Unbounded},
	}
	if p.version == "0.1" {
		rules = rules[1:]
	}
	kids, err := root.Sequence(p.ns, rules)
	if err != nil {
		return nil, err
	}
	a := &App{Namespace: p.ns, Version: p.version}
	a.Name, _ = root.Attr("name")
	if n := kids.First("parameters"); n != nil {
		if a.Parameters, err = p.parameters(n); err != nil {
			return nil, err
		}
	}
	if n := kids.First("controls"); n != nil {
		c, err := n.Sequence(p.ns, []xmltree.Rule{{Name: "kick-off-time", Min: 0, Max: 1}})
		if err != nil {
			return nil, err
		}
		if k := c.First("kick-off-time"); k != nil {
			if a.KickOffTime, err = k.Text(); err != nil {
				return nil, err
			}
		}
	}
	for _, n := range kids["coordinator"] {
		c, err := p.coordinator(n)
		if err != nil {
			return nil, err
		}
		a.Coordinators = append(a.Coordinators, c)
	}
	return a, nil
}

// parameters converts <parameters> (coordinator.ParseParameters); a description must be
// text.
func (p parser) parameters(n *xmltree.Node) ([]Parameter, error) {
	return coordinator.ParseParameters(n, p.ns, true)
}

// coordinator converts one <coordinator>.
func (p parser) coordinator(n *xmltree.Node) (CoordinatorDef, error) {
	optional := []string{"critical", "enabled"}
	if p.version == "0.1" {
		optional = optional[:1]
	}
	if err := n.CheckAttrs([]string{"name"}, optional); err != nil {
		return CoordinatorDef{}, err
	}
	c := CoordinatorDef{Line: n.Line()}
	c.Name, _ = n.Attr("name")
	c.Critical, c.HasCritical = n.Attr("critical")
	c.Enabled, c.HasEnabled = n.Attr("enabled")
	if p.version == "0.1" && !identifierRE.MatchString(c.Name) {
		return CoordinatorDef{}, oozieerr.At(oozieerr.E0701, n.Where(),
			"coordinator name %q is not an identifier (a letter, then letters, digits, '-' or '_')", c.Name)
	}
	kids, err := n.Sequence(p.ns, []xmltree.Rule{
		{Name: "app-path", Min: 1, Max: 1}, {Name: "configuration", Min: 0, Max: 1},
	})
	if err != nil {
		return CoordinatorDef{}, err
	}
	if c.AppPath, err = kids["app-path"][0].Text(); err != nil {
		return CoordinatorDef{}, err
	}
	c.AppPath = strings.TrimSpace(c.AppPath)
	if cn := kids.First("configuration"); cn != nil {
		if c.Configuration, err = p.configuration(cn); err != nil {
			return CoordinatorDef{}, err
		}
	}
	return c, nil
}

// configuration converts a coordinator's <configuration>.
func (p parser) configuration(n *xmltree.Node) ([]conf.Property, error) {
	kids, err := n.Sequence(p.ns, []xmltree.Rule{{Name: "property", Min: 1, Max: xmltree.Unbounded}})
	if err != nil {
		return nil, err
	}
	var out []conf.Property
	for _, prop := range kids["property"] {
		f, err := prop.Sequence(p.ns, []xmltree.Rule{
			{Name: "name", Min: 1, Max: 1}, {Name: "value", Min: 1, Max: 1}, {Name: "description", Min: 0, Max: 1},
		})
		if err != nil {
			return nil, err
		}
		name, err := f["name"][0].Text()
		if err != nil {
			return nil, err
		}
		value, err := f["value"][0].Text()
		if err != nil {
			return nil, err
		}
		if d := f.First("description"); d != nil {
			if _, err := d.Text(); err != nil {
				return nil, err
			}
		}
		out = append(out, conf.Property{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	return out, nil
}
