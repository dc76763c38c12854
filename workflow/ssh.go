package workflow

// nsSSHPrefix is the namespace prefix of the ssh action's own schema.
const nsSSHPrefix = "uri:oozie:ssh-action:"

// sshVersions are the versions of uri:oozie:ssh-action, in order: 0.2 adds
// <arg> beside <args>.
var sshVersions = map[string]schemaVersion{"0.1": 1, "0.2": 2}

// SSH is an ssh action (uri:oozie:ssh-action 0.1 and 0.2, and the ssh
// element of uri:oozie:workflow:0.1): the server runs Command on Host over
// SSH as the job's user.
type SSH struct {
	// Host is [user@]host as written.
	Host    string
	Command string
	// Args are the <args> elements: joined with spaces and split again on
	// the remote host, so one element may carry several arguments.
	Args []string
	// Arg are the <arg> elements (0.2): each one argument, spaces kept.
	// A body has Args or Arg, never both.
	Arg           []string
	CaptureOutput bool
}

func (*SSH) actionType() string { return "ssh" }

// ssh parses an <ssh> body: ns is its namespace (the ssh action's, or
// workflow 0.1's) and argAllowed whether the <arg> form exists (ssh-action
// 0.2), as the choice of <args>* or <arg>*.
func (p *parser) ssh(e *elem, ns, node string, argAllowed bool) Body {
	c := newCursor(e, ns, node)
	c.attrs(e, nil)
	s := &SSH{}
	s.Host = c.reqText("host")
	s.Command = c.reqText("command")
	s.Args = c.texts("args")
	if argAllowed && len(s.Args) == 0 {
		s.Arg = c.texts("arg")
	}
	s.CaptureOutput = c.flag("capture-output")
	p.keep(c.end())
	return s
}

// sshAction parses an <ssh> body of the ssh action's own namespace.
func (p *parser) sshAction(e *elem, v schemaVersion, node string) Body {
	return p.ssh(e, e.Name.Space, node, v >= 2)
}
