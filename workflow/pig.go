package workflow

// Pig is a pig action (the <pig> element of uri:oozie:workflow): the
// cluster's `pig` runs Script with <param> substitutions and <argument>s,
// and the MapReduce jobs the script starts are the action's children.
type Pig struct {
	Hadoop
	Script    string
	Params    []string // NAME=VALUE each
	Arguments []string // workflow 0.2 and later
}

func (*Pig) actionType() string { return "pig" }

// pig parses a <pig> body of the workflow namespace: the head of the
// version's Hadoop actions, script, param*, argument* (0.2 and later),
// file*, archive*.
func (p *parser) pig(e *elem, node string) Body {
	c := newCursor(e, p.ns, node)
	c.attrs(e, nil)
	pg := &Pig{}
	p.hadoopHead(c, workflowHadoopSchema(p.v), &pg.Hadoop, p.v == wf05, nil)
	pg.Script = c.reqText("script")
	pg.Params = c.texts("param")
	if p.v >= wf02 {
		pg.Arguments = c.texts("argument")
	}
	pg.Files = c.texts("file")
	pg.Archives = c.texts("archive")
	p.keep(c.end())
	return pg
}
