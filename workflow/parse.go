package workflow

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// DefaultMaxDefinitionLength is Oozie's default limit on the size of a
// workflow definition in bytes
// (oozie.service.WorkflowAppService.WorkflowDefinitionMaxLength).
const DefaultMaxDefinitionLength = 100000

// identifier is the XSD IDENTIFIER pattern of node names and transitions.
var identifier = regexp.MustCompile(`^[a-zA-Z_][\-_a-zA-Z0-9]*$`)

// Parse reads a workflow definition and checks it against the schema of its
// namespace (uri:oozie:workflow:0.1 to 1.0, the shell, hive, hive2 and email
// action schemas and sla 0.1/0.2 blocks). It does not check the graph: see
// Validate, or Load for both. Errors are *Error: E0736 for a definition
// longer than DefaultMaxDefinitionLength, E0700 for XML that is not
// well-formed, E0701 for schema errors, E0705 for a duplicate node name and
// E0731 for a fork with fewer than two paths.
func Parse(def []byte) (*App, error) {
	app, err := parseDefinition(def, DefaultMaxDefinitionLength)
	if err != nil {
		return nil, err
	}
	return app, nil
}

// Load parses and validates a workflow definition with opts.
func Load(def []byte, opts Options) (*App, error) {
	opts = opts.withDefaults()
	app, err := parseDefinition(def, opts.MaxDefinitionLength)
	if err != nil {
		return nil, err
	}
	if err := Validate(app, opts); err != nil {
		return nil, err
	}
	return app, nil
}

// parseDefinition is Parse with an explicit length limit. It returns a typed
// nil-able *Error so callers can keep the concrete type.
func parseDefinition(def []byte, maxLen int) (*App, *Error) {
	if len(def) > maxLen {
		return nil, errorf(oozieerr.E0736, "",
			"Workflow definition length [%d] exceeded maximum allowed length [%d]", len(def), maxLen)
	}
	root, err := parseTree(def)
	if err != nil {
		return nil, err
	}
	version, ok := versionOf(root.Name.Space, nsWorkflowPrefix)
	v, known := workflowVersions[version]
	if root.Name.Local != "workflow-app" || !ok || !known {
		return nil, schemaErr(root.Line, "", "root element must be <workflow-app> in a uri:oozie:workflow namespace (0.1 to 1.0), found <%s>",
			qualified(root, ""))
	}
	p := &parser{ns: root.Name.Space, v: v}
	app := p.app(root)
	if p.err != nil {
		return nil, p.err
	}
	app.Namespace = root.Name.Space
	app.Version = version
	app.Definition = string(def)
	return app, nil
}

// parser holds what every part of one definition's parse needs.
type parser struct {
	ns      string        // the workflow namespace
	v       schemaVersion // its version
	relaxed bool          // reading a merged body: job-xml may repeat, nothing is required of the head
	err     *Error        // the first error
}

// keep records err as the parse's error unless one is recorded already.
func (p *parser) keep(err *Error) {
	if p.err == nil && err != nil {
		p.err = err
	}
}

// app parses the <workflow-app> element.
func (p *parser) app(root *elem) *App {
	c := newCursor(root, p.ns, "")
	c.attrs(root, []string{"name"})
	app := &App{byName: map[string]*Node{}}
	app.Name, _ = root.attr("name")
	if p.v >= wf04 {
		if e := c.opt("parameters"); e != nil {
			app.Parameters = p.parameters(e)
		}
		if e := c.opt("global"); e != nil {
			app.Global = p.global(e)
		}
	}
	if p.v >= wf025 {
		if e := c.opt("credentials"); e != nil {
			app.Credentials = p.credentials(e)
		}
	}
	if start := c.req("start"); start != nil {
		c.attrs(start, []string{"to"})
		c.checkEmpty(withoutAttrs(start))
		app.Start, _ = start.attr("to")
	}
	for c.err == nil && p.err == nil {
		var n *Node
		switch {
		case c.peekIs("decision"):
			n = p.decision(c.next("decision"))
		case c.peekIs("fork"):
			n = p.fork(c.next("fork"))
		case c.peekIs("join"):
			n = p.join(c.next("join"))
		case c.peekIs("kill"):
			n = p.kill(c.next("kill"))
		case c.peekIs("action"):
			n = p.action(c.next("action"))
		}
		if n == nil {
			break
		}
		p.add(app, n)
	}
	if !c.peekIs("end") && c.i < len(root.Children) {
		// Not a node and not <end>: a misspelled or misplaced element.
		c.missing("<decision>, <fork>, <join>, <kill>, <action> or <end>")
	}
	if end := c.req("end"); end != nil {
		c.attrs(end, []string{"name"})
		c.checkEmpty(withoutAttrs(end))
		name, _ := end.attr("name")
		p.add(app, &Node{Name: name, Kind: KindEnd, Line: end.Line})
	}
	if e := p.slaNext(c); e != nil {
		app.SLA = p.sla(e)
	}
	p.keep(c.end())
	return app
}

// add appends n to app, refusing a second node of the same name (E0705).
func (p *parser) add(app *App, n *Node) {
	if p.err != nil {
		return
	}
	if n.Name == "" {
		p.keep(&Error{Code: oozieerr.E0724, Node: n.Name, Msg: "Invalid node name, name must not be empty", Line: n.Line})
		return
	}
	if _, dup := app.byName[n.Name]; dup {
		p.keep(&Error{Code: oozieerr.E0705, Node: n.Name, Msg: "Node already defined, node [" + n.Name + "]", Line: n.Line})
		return
	}
	app.byName[n.Name] = n
	app.Nodes = append(app.Nodes, n)
}

// decision parses <decision name=""><switch><case to="">pred</case>...<default to=""/></switch></decision>.
func (p *parser) decision(e *elem) *Node {
	name, _ := e.attr("name")
	n := &Node{Name: name, Kind: KindDecision, Line: e.Line}
	c := newCursor(e, p.ns, name)
	c.attrs(e, []string{"name"})
	if sw := c.req("switch"); sw != nil {
		sc := newCursor(sw, p.ns, name)
		sc.attrs(sw, nil)
		cases := sc.many("case")
		if len(cases) == 0 {
			sc.req("case")
		}
		for _, k := range cases {
			sc.attrs(k, []string{"to"})
			to, _ := k.attr("to")
			n.Cases = append(n.Cases, Case{To: to, Predicate: sc.stringValue(withoutAttrs(k))})
		}
		if def := sc.req("default"); def != nil {
			sc.attrs(def, []string{"to"})
			sc.checkEmpty(withoutAttrs(def))
			n.Default, _ = def.attr("to")
		}
		p.keep(sc.end())
	}
	p.keep(c.end())
	return n
}

// withoutAttrs returns a shallow copy of e without attributes, for content
// checks of elements whose attributes were checked already.
func withoutAttrs(e *elem) *elem {
	c := *e
	c.Attrs = nil
	return &c
}

// fork parses <fork name=""><path start=""/>...</fork>; fewer than two paths
// is E0731.
func (p *parser) fork(e *elem) *Node {
	name, _ := e.attr("name")
	n := &Node{Name: name, Kind: KindFork, Line: e.Line}
	c := newCursor(e, p.ns, name)
	c.attrs(e, []string{"name"})
	for _, k := range c.many("path") {
		c.attrs(k, []string{"start"})
		c.checkEmpty(withoutAttrs(k))
		start, _ := k.attr("start")
		n.Paths = append(n.Paths, start)
	}
	p.keep(c.end())
	if p.err == nil && len(n.Paths) < 2 {
		p.keep(&Error{Code: oozieerr.E0731, Node: name, Line: e.Line,
			Msg: "Fork node [" + name + "] cannot have less than two paths"})
	}
	return n
}

// join parses <join name="" to=""/>.
func (p *parser) join(e *elem) *Node {
	name, _ := e.attr("name")
	c := newCursor(e, p.ns, name)
	c.attrs(e, []string{"name", "to"})
	c.checkEmpty(withoutAttrs(e))
	p.keep(c.end())
	to, _ := e.attr("to")
	return &Node{Name: name, Kind: KindJoin, Line: e.Line, To: to}
}

// kill parses <kill name=""><message>...</message></kill>. The message is
// kept as written, surrounding blanks included, as Oozie does.
func (p *parser) kill(e *elem) *Node {
	name, _ := e.attr("name")
	n := &Node{Name: name, Kind: KindKill, Line: e.Line}
	c := newCursor(e, p.ns, name)
	c.attrs(e, []string{"name"})
	if m := c.req("message"); m != nil {
		c.stringValue(m)
		n.Message = m.Text
	}
	p.keep(c.end())
	return n
}

// action parses <action name="" ...> body ok error [sla:info] </action>.
func (p *parser) action(e *elem) *Node {
	name, _ := e.attr("name")
	n := &Node{Name: name, Kind: KindAction, Line: e.Line}
	c := newCursor(e, p.ns, name)
	var optional []string
	if p.v >= wf025 {
		optional = append(optional, "cred")
	}
	if p.v >= wf03 {
		optional = append(optional, "retry-max", "retry-interval")
	}
	if p.v >= wf05 {
		optional = append(optional, "retry-policy")
	}
	c.attrs(e, []string{"name"}, optional...)
	a := &Action{}
	a.Cred, _ = e.attr("cred")
	a.RetryMax, _ = e.attr("retry-max")
	a.RetryInterval, _ = e.attr("retry-interval")
	a.RetryPolicy, _ = e.attr("retry-policy")
	for _, attr := range []struct{ name, value string }{{"retry-max", a.RetryMax}, {"retry-interval", a.RetryInterval}} {
		if attr.value != "" && !strings.Contains(attr.value, "${") {
			if v, err := strconv.Atoi(strings.TrimSpace(attr.value)); err != nil || v < 0 {
				c.fail(e.Line, "attribute %q of action [%s] must be a non-negative integer, found %q", attr.name, name, attr.value)
			}
		}
	}
	n.Action = a
	if len(e.Children) == 0 {
		c.fail(e.Line, "action [%s] has no action body", name)
		p.keep(c.err)
		return n
	}
	body := e.Children[0]
	c.i = 1
	if c.err == nil {
		b, err := parseBody(body, p.v, p.ns, name, false)
		p.keep(err)
		a.Body = b
		a.Type = body.Name.Local
		a.Namespace = body.Name.Space
		a.body = body
		a.Raw = serialize(body)
	}
	if ok := c.req("ok"); ok != nil {
		c.attrs(ok, []string{"to"})
		c.checkEmpty(withoutAttrs(ok))
		a.OK, _ = ok.attr("to")
	}
	if er := c.req("error"); er != nil {
		c.attrs(er, []string{"to"})
		c.checkEmpty(withoutAttrs(er))
		a.Error, _ = er.attr("to")
	}
	if s := p.slaNext(c); s != nil {
		a.SLA = p.sla(s)
	}
	p.keep(c.end())
	return n
}

// parameters parses <parameters><property><name/><value/>?<description/>?</property>+.
func (p *parser) parameters(e *elem) []Parameter {
	c := newCursor(e, p.ns, "")
	c.attrs(e, nil)
	props := c.many("property")
	if len(props) == 0 {
		c.req("property")
	}
	var out []Parameter
	for _, pe := range props {
		pc := newCursor(pe, p.ns, "")
		pc.attrs(pe, nil)
		var par Parameter
		par.Name = pc.reqText("name")
		if v := pc.opt("value"); v != nil {
			par.Value = pc.stringValue(v)
			par.HasDefault = true
		}
		par.Description = pc.text("description")
		p.keep(pc.end())
		out = append(out, par)
	}
	p.keep(c.end())
	return out
}

// configuration parses a Hadoop-style <configuration> (names trimmed, values
// as written) whose elements are in namespace ns.
func (p *parser) configuration(e *elem, ns string) Configuration {
	c := newCursor(e, ns, "")
	c.attrs(e, nil)
	props := c.many("property")
	if len(props) == 0 {
		c.req("property")
	}
	out := Configuration{}
	for _, pe := range props {
		pc := newCursor(pe, ns, "")
		pc.attrs(pe, nil)
		var prop Property
		prop.Name = pc.reqText("name")
		if v := pc.req("value"); v != nil {
			pc.stringValue(v)
			prop.Value = v.Text
		}
		prop.Description = pc.text("description")
		p.keep(pc.end())
		out = append(out, prop)
	}
	p.keep(c.end())
	return out
}

// global parses <global>.
func (p *parser) global(e *elem) *Global {
	c := newCursor(e, p.ns, "")
	c.attrs(e, nil)
	g := &Global{}
	if e := c.opt("job-tracker"); e != nil {
		g.JobTracker, g.JobTrackerTag = c.stringValue(e), "job-tracker"
	} else if p.v >= wf10 {
		if e := c.opt("resource-manager"); e != nil {
			g.JobTracker, g.JobTrackerTag = c.stringValue(e), "resource-manager"
		}
	}
	g.NameNode = c.text("name-node")
	if p.v >= wf10 {
		if e := c.opt("launcher"); e != nil {
			g.Launcher = p.launcher(e, p.ns)
		}
	}
	g.JobXMLs = c.texts("job-xml")
	if e := c.opt("configuration"); e != nil {
		g.Configuration = p.configuration(e, p.ns)
	}
	p.keep(c.end())
	return g
}

// credentials parses <credentials><credential name="" type="">property*</credential>*</credentials>.
func (p *parser) credentials(e *elem) []Credential {
	c := newCursor(e, p.ns, "")
	c.attrs(e, nil)
	var out []Credential
	for _, ce := range c.many("credential") {
		cc := newCursor(ce, p.ns, "")
		cc.attrs(ce, []string{"name", "type"})
		var cred Credential
		cred.Name, _ = ce.attr("name")
		cred.Type, _ = ce.attr("type")
		for _, pe := range cc.many("property") {
			pc := newCursor(pe, p.ns, "")
			pc.attrs(pe, nil)
			var prop Property
			prop.Name = pc.reqText("name")
			if v := pc.req("value"); v != nil {
				pc.stringValue(v)
				prop.Value = v.Text
			}
			prop.Description = pc.text("description")
			p.keep(pc.end())
			cred.Properties = append(cred.Properties, prop)
		}
		p.keep(cc.end())
		out = append(out, cred)
	}
	p.keep(c.end())
	return out
}

// launcher parses a <launcher> block (any order, any repetition; the last
// value of an element wins) whose elements are in namespace ns.
func (p *parser) launcher(e *elem, ns string) *Launcher {
	c := newCursor(e, ns, "")
	c.attrs(e, nil)
	l := &Launcher{}
	fields := map[string]*string{
		"memory.mb": &l.MemoryMB, "vcores": &l.VCores, "java-opts": &l.JavaOpts, "env": &l.Env,
		"queue": &l.Queue, "sharelib": &l.Sharelib, "view-acl": &l.ViewACL, "modify-acl": &l.ModifyACL,
	}
	for c.err == nil && c.i < len(e.Children) {
		k := e.Children[c.i]
		f, ok := fields[k.Name.Local]
		if !ok || k.Name.Space != ns {
			break
		}
		c.i++
		*f = c.stringValue(k)
		if (k.Name.Local == "memory.mb" || k.Name.Local == "vcores") && !strings.Contains(*f, "${") {
			if _, err := strconv.ParseUint(*f, 10, 32); err != nil {
				c.fail(k.Line, "<%s> must be an unsigned integer, found %q", k.Name.Local, *f)
			}
		}
	}
	p.keep(c.end())
	return l
}

// slaNext returns the next child if it is an sla:info block this workflow
// version allows.
func (p *parser) slaNext(c *cursor) *elem {
	if c.err != nil || c.i >= len(c.parent.Children) {
		return nil
	}
	k := c.parent.Children[c.i]
	if k.Name.Local != "info" {
		return nil
	}
	if (k.Name.Space == nsSLA01 && p.v >= wf02) || (k.Name.Space == nsSLA02 && p.v >= wf05) {
		c.i++
		return k
	}
	return nil
}
