package workflow

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
)

// Elements that precede <launcher>, <job-xml> and <configuration> in the
// Hadoop action schemas; new elements are inserted after the last of them
// that is present.
var (
	beforeLauncher = []string{"job-tracker", "resource-manager", "name-node", "prepare", "streaming", "pipes"}
	beforeJobXML   = append(append([]string(nil), beforeLauncher...), "launcher")
	beforeConf     = append(append([]string(nil), beforeJobXML...), "job-xml")
)

// ActionXML returns the body of action node name with the <global> section,
// config-default.xml (defaults) and the server defaults of opts merged in,
// EL unresolved: what the action will run with before EL evaluation.
//
// For the Hadoop types (shell, java, map-reduce, hive, hive2) a missing
// job-tracker/resource-manager and name-node come from <global>, then from
// opts; global job-xml files are put before the action's own unless listed
// already; <global><launcher> settings fill the action's launcher where it
// has none (1.0 schemas); the configuration is config-default.xml < global
// < action. The fs action (schema 0.4 and later) takes name-node, job-xml
// and configuration the same way. Other types are returned unchanged.
func (a *App) ActionXML(name string, defaults *conf.Properties, opts Options) (string, error) {
	n := a.Node(name)
	if n == nil || n.Kind != KindAction {
		return "", errorf(oozieerr.E0605, name, "Action does not exist [%s]", name)
	}
	return serialize(a.mergedBody(n, defaults, opts.withDefaults())), nil
}

// mergedBody returns a copy of n's body element with the defaults merged in.
func (a *App) mergedBody(n *Node, defaults *conf.Properties, opts Options) *elem {
	body := n.Action.body.clone()
	g := a.Global
	if g == nil {
		g = &Global{}
	}
	ns := body.Name.Space
	switch {
	case needsCluster[n.Action.Type]:
		modern := strings.HasSuffix(ns, ":1.0")
		if child(body, "job-tracker") == nil && child(body, "resource-manager") == nil {
			rm, tag := g.JobTracker, g.JobTrackerTag
			if rm == "" {
				rm, tag = opts.DefaultResourceManager, "resource-manager"
			}
			if !modern {
				tag = "job-tracker"
			}
			if rm != "" {
				insertAt(body, 0, textElem(ns, tag, rm))
			}
		}
		if child(body, "name-node") == nil {
			nn := g.NameNode
			if nn == "" {
				nn = opts.DefaultNameNode
			}
			if nn != "" {
				insertAfterLast(body, []string{"job-tracker", "resource-manager"}, textElem(ns, "name-node", nn))
			}
		}
		if modern && g.Launcher != nil {
			mergeLauncher(body, g.Launcher)
		}
		mergeJobXMLs(body, g.JobXMLs, beforeJobXML)
		mergeConfiguration(body, defaults, g.Configuration, beforeConf)
	case n.Action.Type == "fs" && ns == a.Namespace && workflowVersions[a.Version] >= wf04:
		if child(body, "name-node") == nil && g.NameNode != "" {
			insertAt(body, 0, textElem(ns, "name-node", g.NameNode))
		}
		mergeJobXMLs(body, g.JobXMLs, []string{"name-node"})
		mergeConfiguration(body, defaults, g.Configuration, []string{"name-node", "job-xml"})
	}
	return body
}

// child returns e's first child called local in e's namespace.
func child(e *elem, local string) *elem {
	for _, k := range e.Children {
		if k.Name.Local == local && k.Name.Space == e.Name.Space {
			return k
		}
	}
	return nil
}

// textElem builds <local>text</local> in namespace ns.
func textElem(ns, local, text string) *elem {
	return &elem{Name: xml.Name{Space: ns, Local: local}, Text: text}
}

// insertAt inserts kids into e's children at index i.
func insertAt(e *elem, i int, kids ...*elem) {
	rest := append([]*elem(nil), e.Children[i:]...)
	e.Children = append(append(e.Children[:i], kids...), rest...)
}

// insertAfterLast inserts kids after the last child of e called one of
// names, or first when there is none.
func insertAfterLast(e *elem, names []string, kids ...*elem) {
	at := 0
	for i, k := range e.Children {
		if k.Name.Space == e.Name.Space && contains(names, k.Name.Local) {
			at = i + 1
		}
	}
	insertAt(e, at, kids...)
}

// mergeLauncher fills the action's <launcher> with the global settings it
// does not set itself.
func mergeLauncher(body *elem, g *Launcher) {
	ns := body.Name.Space
	l := child(body, "launcher")
	if l == nil {
		l = &elem{Name: xml.Name{Space: ns, Local: "launcher"}}
		insertAfterLast(body, beforeLauncher, l)
	}
	for _, f := range []struct{ name, value string }{
		{"memory.mb", g.MemoryMB}, {"vcores", g.VCores}, {"java-opts", g.JavaOpts}, {"env", g.Env},
		{"queue", g.Queue}, {"sharelib", g.Sharelib}, {"view-acl", g.ViewACL}, {"modify-acl", g.ModifyACL},
	} {
		if f.value != "" && child(l, f.name) == nil {
			l.Children = append(l.Children, textElem(ns, f.name, f.value))
		}
	}
}

// mergeJobXMLs puts the global job-xml files before the action's own,
// leaving out those the action lists already.
func mergeJobXMLs(body *elem, global []string, before []string) {
	ns := body.Name.Space
	have := map[string]bool{}
	first := -1
	for i, k := range body.Children {
		if k.Name.Space == ns && k.Name.Local == "job-xml" {
			have[strings.TrimSpace(k.Text)] = true
			if first < 0 {
				first = i
			}
		}
	}
	var add []*elem
	for _, x := range global {
		if !have[x] {
			add = append(add, textElem(ns, "job-xml", x))
			have[x] = true
		}
	}
	if len(add) == 0 {
		return
	}
	if first >= 0 {
		insertAt(body, first, add...)
		return
	}
	insertAfterLast(body, before, add...)
}

// mergeConfiguration replaces the action's <configuration> by defaults <
// global < action, properties in order of first appearance (defaults in
// name order). Nothing is added when all three are empty.
func mergeConfiguration(body *elem, defaults *conf.Properties, global Configuration, before []string) {
	ns := body.Name.Space
	var merged Configuration
	index := map[string]int{}
	set := func(p Property) {
		if i, ok := index[p.Name]; ok {
			merged[i] = p
			return
		}
		index[p.Name] = len(merged)
		merged = append(merged, p)
	}
	names := defaults.Keys()
	slices.Sort(names)
	for _, k := range names {
		set(Property{Name: k, Value: defaults.Value(k)})
	}
	for _, p := range global {
		set(p)
	}
	existing := child(body, "configuration")
	if existing != nil {
		for _, pe := range existing.Children {
			var p Property
			for _, f := range pe.Children {
				switch f.Name.Local {
				case "name":
					p.Name = strings.TrimSpace(f.Text)
				case "value":
					p.Value = f.Text
				case "description":
					p.Description = strings.TrimSpace(f.Text)
				}
			}
			set(p)
		}
	}
	if len(merged) == 0 {
		return
	}
	conf := configurationElem(ns, merged)
	if existing != nil {
		*existing = *conf
		return
	}
	insertAfterLast(body, before, conf)
}

// configurationElem builds a <configuration> element.
func configurationElem(ns string, props Configuration) *elem {
	conf := &elem{Name: xml.Name{Space: ns, Local: "configuration"}}
	for _, p := range props {
		pe := &elem{Name: xml.Name{Space: ns, Local: "property"}}
		pe.Children = append(pe.Children, textElem(ns, "name", p.Name), textElem(ns, "value", p.Value))
		if p.Description != "" {
			pe.Children = append(pe.Children, textElem(ns, "description", p.Description))
		}
		conf.Children = append(conf.Children, pe)
	}
	return conf
}

// stringEvaluator evaluates the EL in one text.
type stringEvaluator func(text string) (string, error)

// resolveEL evaluates the EL of every attribute value and every text of e
// and its descendants, in place. The first error names the element.
func resolveEL(e *elem, eval stringEvaluator) error {
	for i, a := range e.Attrs {
		if strings.Contains(a.Value, "${") {
			v, err := eval(a.Value)
			if err != nil {
				return fmt.Errorf("attribute %s of <%s>: %w", a.Name.Local, e.Name.Local, err)
			}
			e.Attrs[i].Value = v
		}
	}
	if strings.Contains(e.Text, "${") {
		v, err := eval(e.Text)
		if err != nil {
			return fmt.Errorf("<%s>: %w", e.Name.Local, err)
		}
		e.Text = v
	}
	for _, k := range e.Children {
		if err := resolveEL(k, eval); err != nil {
			return err
		}
	}
	return nil
}
