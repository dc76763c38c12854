package workflow

// nsSqoopPrefix is the namespace prefix of sqoop action bodies.
const nsSqoopPrefix = "uri:oozie:sqoop-action:"

// sqoopVersions are the versions of uri:oozie:sqoop-action, in order.
var sqoopVersions = map[string]schemaVersion{"0.2": 2, "0.3": 3, "0.4": 4, "1.0": 10}

// Sqoop is a sqoop action (uri:oozie:sqoop-action): the cluster's `sqoop`
// run in the launcher with the arguments of <command> (split as Oozie
// splits it) or of the <arg> entries; the MapReduce jobs it starts are the
// action's children.
type Sqoop struct {
	Hadoop
	// Command is the <command> text, trimmed; empty when the action uses
	// <arg> entries.
	Command string
	// Args are the <arg> entries, each trimmed, in order.
	Args []string
	// HasCommand reports a <command> element (which may be empty).
	HasCommand bool
}

func (*Sqoop) actionType() string { return "sqoop" }

// sqoop parses a <sqoop> body (uri:oozie:sqoop-action 0.2 to 1.0):
// job-tracker and name-node (required up to 0.3, resource-manager and
// launcher in 1.0), prepare, job-xml (one in 0.2, any number later),
// configuration, then the required choice of <command> or <arg>+, then
// file* and archive*.
func (p *parser) sqoop(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	s := &Sqoop{}
	p.hadoopHead(c, hadoopSchema{jtRequired: v <= 3, modern: v == 10, multiJobXML: v >= 3}, &s.Hadoop, false, nil)
	switch {
	case c.peekIs("command"):
		s.Command, s.HasCommand = c.text("command"), true
	case c.peekIs("arg"):
		s.Args = c.texts("arg")
	default:
		c.missing("<command> or <arg>")
	}
	s.Files = c.texts("file")
	s.Archives = c.texts("archive")
	p.keep(c.end())
	return s
}
