package bundle

import (
	"regexp"
	"strings"

	"github.com/gozie/gozie/coordinator"
)

// NamespacePrefix starts every bundle namespace; the versions are 0.1 and 0.2.
const NamespacePrefix = "uri:oozie:bundle:"

// versions are the schema versions of uri:oozie:bundle:X, oldest first.
var versions = []string{"0.1", "0.2"}

// identifierRE is the IDENTIFIER type of schema 0.1, the type of coordinator names there.
var identifierRE = regexp.MustCompile(`^[a-zA-Z][-_a-zA-Z0-9]*$`)

// Parse reads a bundle application (bundle.xml) and checks it against the schema of its
// namespace (uri:oozie:bundle:0.1 or 0.2): element order and cardinality, required and
// allowed attributes, and in 0.1 the coordinator names' identifier syntax. Errors are *Error
// with code E0700 (not well-formed) or E0701 (not valid), naming the element and line at
// fault. No EL is evaluated here; see Resolve.
func Parse(data []byte) (*App, error) {
	root, err := readTree(data)
	if err != nil {
		return nil, err
	}
	version, ok := strings.CutPrefix(root.name.Space, NamespacePrefix)
	if root.name.Local != "bundle-app" || !ok || !contains(versions, version) {
		return nil, newError(CodeInvalidDefinition, root.where(),
			"the root element must be <bundle-app> in namespace uri:oozie:bundle:0.1 or 0.2, found <%s> in %q",
			root.name.Local, root.name.Space)
	}
	p := parser{ns: root.name.Space, version: version}
	return p.app(root)
}

// parser converts a validated element tree into the App model.
type parser struct {
	ns      string
	version string
}

// app converts <bundle-app>.
func (p parser) app(root *node) (*App, error) {
	if err := root.checkAttrs([]string{"name"}, nil); err != nil {
		return nil, err
	}
	rules := []rule{{"parameters", 0, 1}, {"controls", 0, 1}, {"coordinator", 1, -1}}
	if p.version == "0.1" {
		rules = rules[1:]
	}
	kids, err := root.sequence(p.ns, rules)
	if err != nil {
		return nil, err
	}
	a := &App{Namespace: p.ns, Version: p.version}
	a.Name, _ = root.attr("name")
	if n := first(kids["parameters"]); n != nil {
		if a.Parameters, err = p.parameters(n); err != nil {
			return nil, err
		}
	}
	if n := first(kids["controls"]); n != nil {
		c, err := n.sequence(p.ns, []rule{{"kick-off-time", 0, 1}})
		if err != nil {
			return nil, err
		}
		if k := first(c["kick-off-time"]); k != nil {
			if a.KickOffTime, err = k.textOnly(); err != nil {
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

// parameters converts <parameters>.
func (p parser) parameters(n *node) ([]Parameter, error) {
	kids, err := n.sequence(p.ns, []rule{{"property", 1, -1}})
	if err != nil {
		return nil, err
	}
	var out []Parameter
	for _, prop := range kids["property"] {
		f, err := prop.sequence(p.ns, []rule{{"name", 1, 1}, {"value", 0, 1}, {"description", 0, 1}})
		if err != nil {
			return nil, err
		}
		var par Parameter
		if par.Name, err = f["name"][0].textOnly(); err != nil {
			return nil, err
		}
		par.Name = strings.TrimSpace(par.Name)
		if v := first(f["value"]); v != nil {
			par.HasValue = true
			if par.Value, err = v.textOnly(); err != nil {
				return nil, err
			}
			par.Value = strings.TrimSpace(par.Value)
		}
		if d := first(f["description"]); d != nil {
			if _, err := d.textOnly(); err != nil {
				return nil, err
			}
		}
		out = append(out, par)
	}
	return out, nil
}

// coordinator converts one <coordinator>.
func (p parser) coordinator(n *node) (CoordinatorDef, error) {
	optional := []string{"critical", "enabled"}
	if p.version == "0.1" {
		optional = optional[:1]
	}
	if err := n.checkAttrs([]string{"name"}, optional); err != nil {
		return CoordinatorDef{}, err
	}
	c := CoordinatorDef{Line: n.line}
	c.Name, _ = n.attr("name")
	c.Critical, c.HasCritical = n.attr("critical")
	c.Enabled, c.HasEnabled = n.attr("enabled")
	if p.version == "0.1" && !identifierRE.MatchString(c.Name) {
		return CoordinatorDef{}, newError(CodeInvalidDefinition, n.where(),
			"coordinator name %q is not an identifier (a letter, then letters, digits, '-' or '_')", c.Name)
	}
	kids, err := n.sequence(p.ns, []rule{{"app-path", 1, 1}, {"configuration", 0, 1}})
	if err != nil {
		return CoordinatorDef{}, err
	}
	if c.AppPath, err = kids["app-path"][0].textOnly(); err != nil {
		return CoordinatorDef{}, err
	}
	c.AppPath = strings.TrimSpace(c.AppPath)
	if cn := first(kids["configuration"]); cn != nil {
		if c.Configuration, err = p.configuration(cn); err != nil {
			return CoordinatorDef{}, err
		}
	}
	return c, nil
}

// configuration converts a coordinator's <configuration>.
func (p parser) configuration(n *node) ([]coordinator.Property, error) {
	kids, err := n.sequence(p.ns, []rule{{"property", 1, -1}})
	if err != nil {
		return nil, err
	}
	var out []coordinator.Property
	for _, prop := range kids["property"] {
		f, err := prop.sequence(p.ns, []rule{{"name", 1, 1}, {"value", 1, 1}, {"description", 0, 1}})
		if err != nil {
			return nil, err
		}
		name, err := f["name"][0].textOnly()
		if err != nil {
			return nil, err
		}
		value, err := f["value"][0].textOnly()
		if err != nil {
			return nil, err
		}
		if d := first(f["description"]); d != nil {
			if _, err := d.textOnly(); err != nil {
				return nil, err
			}
		}
		out = append(out, coordinator.Property{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	return out, nil
}
