package workflow

// nsGitPrefix is the namespace prefix of the git action
// (uri:oozie:git-action:1.0, Oozie 5's git sharelib).
const nsGitPrefix = "uri:oozie:git-action:"

// gitVersions are the versions of the git action schema.
var gitVersions = map[string]schemaVersion{"1.0": 10}

// Git is a git action (uri:oozie:git-action): the launcher clones GitURI
// (Branch, or the remote's default branch) into DestinationURI, with the
// SSH private key at KeyPath for ssh:// repositories. Its Hadoop head has
// the resource-manager, name-node, prepare and configuration of the schema
// (and, in merged bodies, <global>'s job-xml files and launcher settings).
type Git struct {
	Hadoop
	GitURI         string
	Branch         string
	KeyPath        string
	DestinationURI string
}

func (*Git) actionType() string { return "git" }

// git parses a <git> body. The schema's sequence is resource-manager?,
// name-node, prepare?, git-uri, branch?, key-path?, destination-uri,
// configuration?. A merged body (relaxed) may also carry job-tracker,
// launcher and job-xml elements, and its name-node may come later from
// the server's defaults, so it is read with the Hadoop head's rules
// before the git elements.
func (p *parser) git(e *elem, _ schemaVersion, node string) Body {
	c := newCursor(e, e.Name.Space, node)
	c.attrs(e, nil)
	g := &Git{}
	if p.relaxed {
		p.hadoopHead(c, hadoopSchema{modern: true, multiJobXML: true}, &g.Hadoop, false, nil)
	} else {
		if c.peekIs("resource-manager") {
			g.JobTracker, g.JobTrackerTag = c.text("resource-manager"), "resource-manager"
		}
		g.NameNode = c.reqText("name-node")
		if pe := c.opt("prepare"); pe != nil {
			g.Prepare = p.prepare(pe, c.ns, false)
		}
	}
	g.GitURI = c.reqText("git-uri")
	g.Branch = c.text("branch")
	g.KeyPath = c.text("key-path")
	g.DestinationURI = c.reqText("destination-uri")
	if ce := c.opt("configuration"); ce != nil {
		g.Configuration = append(g.Configuration, p.configuration(ce, c.ns)...)
	}
	p.keep(c.end())
	return g
}
