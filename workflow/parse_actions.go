package workflow

import (
	"fmt"
	"strings"
)

// parseBody parses an action body element. wfNS and v are the namespace and
// version of the enclosing workflow; bodies in another namespace carry their
// own schema version. Types gozie does not run become *Unsupported.
func parseBody(e *elem, v schemaVersion, wfNS, node string, relaxed bool) (Body, *Error) {
	p := &parser{ns: wfNS, v: v, relaxed: relaxed}
	ns := e.Name.Space
	if ns == wfNS {
		var b Body
		switch e.Name.Local {
		case "map-reduce":
			b = p.mapReduce(e, node)
		case "java":
			b = p.java(e, node)
		case "fs":
			b = p.fs(e, node)
		case "sub-workflow":
			b = p.subWorkflow(e, node)
		case "pig":
			b = p.pig(e, node)
		case "ssh", "http", "email":
			if v != wf01 {
				return nil, schemaErr(e.Line, node, "unexpected element <%s> in action [%s]", e.Name.Local, node)
			}
			if e.Name.Local == "ssh" {
				b = p.ssh(e, ns, node, false)
				break
			}
			b = &Unsupported{Type: e.Name.Local, Namespace: ns}
		default:
			return nil, schemaErr(e.Line, node, "unexpected element <%s> in action [%s], expected an action body", e.Name.Local, node)
		}
		return b, p.err
	}
	type family struct {
		prefix   string
		local    string
		versions map[string]schemaVersion
		parse    func(*elem, schemaVersion, string) Body
	}
	families := []family{
		{nsShellPrefix, "shell", shellVersions, p.shell},
		{nsHivePrefix, "hive", hiveVersions, p.hive},
		{nsHive2Prefix, "hive2", hive2Versions, p.hive2},
		{nsEmailPrefix, "email", emailVersions, p.email},
		{nsGitPrefix, "git", gitVersions, p.git},
		{nsSSHPrefix, "ssh", sshVersions, p.sshAction},
		{nsSparkPrefix, "spark", sparkVersions, p.spark},
		{nsDistcpPrefix, "distcp", distcpVersions, p.distcp},
		{nsSqoopPrefix, "sqoop", sqoopVersions, p.sqoop},
	}
	for _, f := range families {
		version, ok := versionOf(ns, f.prefix)
		if !ok {
			continue
		}
		av, known := f.versions[version]
		if !known {
			return nil, schemaErr(e.Line, node, "unknown schema namespace %q of action [%s]", ns, node)
		}
		if e.Name.Local != f.local {
			return nil, schemaErr(e.Line, node, "element <%s> is not part of namespace %q", e.Name.Local, ns)
		}
		b := f.parse(e, av, node)
		return b, p.err
	}
	return &Unsupported{Type: e.Name.Local, Namespace: ns}, nil
}

// ParseBody parses one action body given as a standalone XML fragment, such
// as Action.Raw or the resolved configuration the engine stores in
// store.WorkflowAction.Conf. Executors use it to read their action. Because
// merged bodies may carry <global> job-xml files and defaults that an old
// schema version would not allow, the head of Hadoop actions is read with
// the latest rules (job-xml may repeat, job-tracker and name-node optional).
func ParseBody(fragment string) (Body, error) {
	root, err := parseTree([]byte(fragment))
	if err != nil {
		return nil, err
	}
	wfNS, v := nsWorkflowPrefix+"1.0", wf10
	if version, ok := versionOf(root.Name.Space, nsWorkflowPrefix); ok {
		known := false
		if v, known = workflowVersions[version]; !known {
			return nil, schemaErr(root.Line, "", "unknown workflow namespace %q", root.Name.Space)
		}
		wfNS = root.Name.Space
	}
	b, perr := parseBody(root, v, wfNS, "", true)
	if perr != nil {
		return nil, perr
	}
	return b, nil
}

// hadoopHead parses the elements Hadoop actions start with, in schema order:
// (job-tracker | resource-manager)?, name-node?, prepare?, [middle], launcher?,
// job-xml*, configuration?. middle parses what a type puts after prepare
// (streaming or pipes for map-reduce).
func (p *parser) hadoopHead(c *cursor, s hadoopSchema, h *Hadoop, skipTrash bool, middle func()) {
	if p.relaxed {
		s.jtRequired, s.multiJobXML = false, true
	}
	switch {
	case s.jtRequired:
		h.JobTracker, h.JobTrackerTag = c.reqText("job-tracker"), "job-tracker"
	case c.peekIs("job-tracker"):
		h.JobTracker, h.JobTrackerTag = c.text("job-tracker"), "job-tracker"
	case s.modern && c.peekIs("resource-manager"):
		h.JobTracker, h.JobTrackerTag = c.text("resource-manager"), "resource-manager"
	}
	if s.jtRequired {
		h.NameNode = c.reqText("name-node")
	} else {
		h.NameNode = c.text("name-node")
	}
	if e := c.opt("prepare"); e != nil {
		h.Prepare = p.prepare(e, c.ns, skipTrash)
	}
	if middle != nil {
		middle()
	}
	if s.modern {
		if e := c.opt("launcher"); e != nil {
			h.Launcher = p.launcher(e, c.ns)
		}
	}
	if s.multiJobXML {
		h.JobXMLs = c.texts("job-xml")
	} else if !s.noJobXML {
		if x := c.opt("job-xml"); x != nil {
			h.JobXMLs = []string{c.stringValue(x)}
		}
	}
	if e := c.opt("configuration"); e != nil {
		h.Configuration = p.configuration(e, c.ns)
	}
}

// prepare parses <prepare><delete path=""/>*<mkdir path=""/>*</prepare>.
func (p *parser) prepare(e *elem, ns string, skipTrash bool) *Prepare {
	c := newCursor(e, ns, "")
	c.attrs(e, nil)
	pr := &Prepare{}
	var optional []string
	if skipTrash {
		optional = append(optional, "skip-trash")
	}
	for _, d := range c.many("delete") {
		c.attrs(d, []string{"path"}, optional...)
		c.checkEmpty(withoutAttrs(d))
		var del PrepareDelete
		del.Path, _ = d.attr("path")
		del.SkipTrash, _ = d.attr("skip-trash")
		pr.Deletes = append(pr.Deletes, del)
	}
	for _, m := range c.many("mkdir") {
		c.attrs(m, []string{"path"})
		c.checkEmpty(withoutAttrs(m))
		path, _ := m.attr("path")
		pr.Mkdirs = append(pr.Mkdirs, path)
	}
	p.keep(c.end())
	return pr
}

// mapReduce parses a <map-reduce> body of the workflow namespace.
func (p *parser) mapReduce(e *elem, node string) Body {
	c := newCursor(e, p.ns, node)
	c.attrs(e, nil)
	mr := &MapReduce{}
	p.hadoopHead(c, workflowHadoopSchema(p.v), &mr.Hadoop, p.v == wf05, func() {
		if s := c.opt("streaming"); s != nil {
			sc := newCursor(s, p.ns, node)
			sc.attrs(s, nil)
			mr.Streaming = &Streaming{
				Mapper:              sc.text("mapper"),
				Reducer:             sc.text("reducer"),
				RecordReader:        sc.text("record-reader"),
				RecordReaderMapping: sc.texts("record-reader-mapping"),
				Env:                 sc.texts("env"),
			}
			p.keep(sc.end())
		} else if pe := c.opt("pipes"); pe != nil {
			pc := newCursor(pe, p.ns, node)
			pc.attrs(pe, nil)
			mr.Pipes = &Pipes{
				Map:         pc.text("map"),
				Reduce:      pc.text("reduce"),
				InputFormat: pc.text("inputformat"),
				Partitioner: pc.text("partitioner"),
				Writer:      pc.text("writer"),
				Program:     pc.text("program"),
			}
			p.keep(pc.end())
		}
	})
	if p.v >= wf05 {
		mr.ConfigClass = c.text("config-class")
	}
	mr.Files = c.texts("file")
	mr.Archives = c.texts("archive")
	p.keep(c.end())
	return mr
}

// java parses a <java> body of the workflow namespace.
func (p *parser) java(e *elem, node string) Body {
	c := newCursor(e, p.ns, node)
	c.attrs(e, nil)
	j := &Java{}
	p.hadoopHead(c, workflowHadoopSchema(p.v), &j.Hadoop, p.v == wf05, nil)
	j.MainClass = c.reqText("main-class")
	if c.peekIs("java-opts") {
		j.JavaOpts = c.text("java-opts")
	} else if p.v >= wf04 {
		j.JavaOpt = c.texts("java-opt")
	}
	j.Args = c.texts("arg")
	j.Files = c.texts("file")
	j.Archives = c.texts("archive")
	j.CaptureOutput = c.flag("capture-output")
	p.keep(c.end())
	return j
}

// fs parses an <fs> body of the workflow namespace.
func (p *parser) fs(e *elem, node string) Body {
	c := newCursor(e, p.ns, node)
	c.attrs(e, nil)
	f := &FS{}
	if p.v >= wf04 {
		f.NameNode = c.text("name-node")
		f.JobXMLs = c.texts("job-xml")
		if ce := c.opt("configuration"); ce != nil {
			f.Configuration = p.configuration(ce, p.ns)
		}
	}
	ops := map[string]bool{"delete": true, "mkdir": true, "move": true, "chmod": true,
		"touchz": p.v >= wf04, "chgrp": p.v >= wf045, "setrep": p.v == wf05}
	for c.err == nil && c.i < len(e.Children) {
		k := e.Children[c.i]
		if k.Name.Space != p.ns || !ops[k.Name.Local] {
			break
		}
		c.i++
		op := FSOp{Op: k.Name.Local}
		op.Path, _ = k.attr("path")
		switch op.Op {
		case "delete":
			if p.v == wf05 {
				c.attrs(k, []string{"path"}, "skip-trash")
			} else {
				c.attrs(k, []string{"path"})
			}
			op.SkipTrash, _ = k.attr("skip-trash")
			c.checkEmpty(withoutAttrs(k))
		case "mkdir", "touchz":
			c.attrs(k, []string{"path"})
			c.checkEmpty(withoutAttrs(k))
		case "move":
			c.attrs(k, []string{"source", "target"})
			c.checkEmpty(withoutAttrs(k))
			op.Source, _ = k.attr("source")
			op.Target, _ = k.attr("target")
		case "chmod", "chgrp":
			if op.Op == "chmod" {
				c.attrs(k, []string{"path", "permissions"}, "dir-files")
				op.Permissions, _ = k.attr("permissions")
			} else {
				c.attrs(k, []string{"path", "group"}, "dir-files")
				op.Group, _ = k.attr("group")
			}
			op.DirFiles, _ = k.attr("dir-files")
			kc := newCursor(k, p.ns, node)
			if p.v >= wf04 {
				op.Recursive = kc.flag("recursive")
			}
			p.keep(kc.end())
		case "setrep":
			c.attrs(k, []string{"path", "replication-factor"})
			c.checkEmpty(withoutAttrs(k))
			op.ReplicationFactor, _ = k.attr("replication-factor")
		}
		f.Ops = append(f.Ops, op)
	}
	p.keep(c.end())
	return f
}

// subWorkflow parses a <sub-workflow> body of the workflow namespace.
func (p *parser) subWorkflow(e *elem, node string) Body {
	c := newCursor(e, p.ns, node)
	c.attrs(e, nil)
	s := &SubWorkflow{}
	s.AppPath = c.reqText("app-path")
	s.PropagateConfiguration = c.flag("propagate-configuration")
	if ce := c.opt("configuration"); ce != nil {
		s.Configuration = p.configuration(ce, p.ns)
	}
	p.keep(c.end())
	return s
}

// shell parses a <shell> body (uri:oozie:shell-action 0.1 to 1.0).
func (p *parser) shell(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	s := &Shell{}
	p.hadoopHead(c, hadoopSchema{jtRequired: v <= 2, modern: v == 10, multiJobXML: v >= 2}, &s.Hadoop, false, nil)
	s.Exec = c.reqText("exec")
	s.Arguments = c.texts("argument")
	s.EnvVars = c.texts("env-var")
	s.Files = c.texts("file")
	s.Archives = c.texts("archive")
	s.CaptureOutput = c.flag("capture-output")
	p.keep(c.end())
	return s
}

// hive parses a <hive> body (uri:oozie:hive-action 0.2 to 1.0).
func (p *parser) hive(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	h := &Hive{}
	p.hadoopHead(c, hadoopSchema{jtRequired: v <= 3, modern: v == 10, multiJobXML: v >= 3}, &h.Hadoop, false, nil)
	h.Script, h.Query = scriptOrQuery(c, v >= 6)
	h.Params = c.texts("param")
	if v >= 5 {
		h.Arguments = c.texts("argument")
	}
	h.Files = c.texts("file")
	h.Archives = c.texts("archive")
	p.keep(c.end())
	return h
}

// hive2 parses a <hive2> body (uri:oozie:hive2-action 0.1 to 1.0).
func (p *parser) hive2(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	h := &Hive2{}
	p.hadoopHead(c, hadoopSchema{modern: v == 10, multiJobXML: true}, &h.Hadoop, false, nil)
	h.JDBCURL = c.reqText("jdbc-url")
	h.Password = c.text("password")
	h.Script, h.Query = scriptOrQuery(c, v >= 2)
	h.Params = c.texts("param")
	h.Arguments = c.texts("argument")
	h.Files = c.texts("file")
	h.Archives = c.texts("archive")
	p.keep(c.end())
	return h
}

// scriptOrQuery reads the required choice of <script> or (when allowed) <query>.
func scriptOrQuery(c *cursor, queryAllowed bool) (script, query string) {
	if queryAllowed && c.peekIs("query") {
		return "", c.text("query")
	}
	if !queryAllowed || c.peekIs("script") {
		return c.reqText("script"), ""
	}
	c.missing("<script> or <query>")
	return "", ""
}

// email parses an <email> body (uri:oozie:email-action 0.1 and 0.2).
func (p *parser) email(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	m := &Email{}
	m.To = c.reqText("to")
	m.CC = c.text("cc")
	if v >= 2 {
		m.BCC = c.text("bcc")
	}
	m.Subject = c.reqText("subject")
	m.Body = c.reqText("body")
	if v >= 2 {
		m.ContentType = c.text("content_type")
		m.Attachment = c.text("attachment")
	}
	p.keep(c.end())
	return m
}

// String describes an unsupported action for messages.
func (u *Unsupported) String() string {
	if u.Namespace == "" {
		return u.Type
	}
	return fmt.Sprintf("%s (%s)", u.Type, strings.TrimSpace(u.Namespace))
}
