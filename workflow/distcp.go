package workflow

// nsDistcpPrefix is the namespace prefix of distcp action bodies.
const nsDistcpPrefix = "uri:oozie:distcp-action:"

// distcpVersions are the versions of uri:oozie:distcp-action, in order.
var distcpVersions = map[string]schemaVersion{"0.1": 1, "0.2": 2, "1.0": 10}

// Distcp is a distcp action (uri:oozie:distcp-action): Hadoop's DistCp run
// by the cluster's `hadoop distcp` with <java-opts> and the <arg> entries,
// whose MapReduce job is the action's child.
type Distcp struct {
	Hadoop
	JavaOpts string
	Args     []string
}

func (*Distcp) actionType() string { return "distcp" }

// distcp parses a <distcp> body (uri:oozie:distcp-action 0.1 to 1.0). Its
// schemas have no job-xml, file or archive: job-tracker and name-node
// (required in 0.1), prepare, launcher (1.0), configuration, java-opts, arg*.
func (p *parser) distcp(e *elem, v schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	d := &Distcp{}
	p.hadoopHead(c, hadoopSchema{jtRequired: v == 1, modern: v == 10, noJobXML: true}, &d.Hadoop, false, nil)
	d.JavaOpts = c.text("java-opts")
	d.Args = c.texts("arg")
	p.keep(c.end())
	return d
}
