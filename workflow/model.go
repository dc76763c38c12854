package workflow

// App is a parsed workflow application (a workflow-app document).
type App struct {
	Name        string // the app name; may contain EL
	Namespace   string // e.g. uri:oozie:workflow:1.0
	Version     string // the namespace's version, e.g. "1.0"
	Parameters  []Parameter
	Global      *Global
	Credentials []Credential
	Start       string  // the node <start to=""> names
	Nodes       []*Node // every node but start, in document order
	SLA         *SLAInfo
	Definition  string // the document as submitted

	byName map[string]*Node
}

// Node returns the node called name, or nil.
func (a *App) Node(name string) *Node {
	return a.byName[name]
}

// EndNode returns the app's end node.
func (a *App) EndNode() *Node {
	for _, n := range a.Nodes {
		if n.Kind == KindEnd {
			return n
		}
	}
	return nil
}

// NodeKind is the kind of a workflow node.
type NodeKind string

// Node kinds, named after their XML elements.
const (
	KindStart    NodeKind = "start"
	KindEnd      NodeKind = "end"
	KindKill     NodeKind = "kill"
	KindDecision NodeKind = "decision"
	KindFork     NodeKind = "fork"
	KindJoin     NodeKind = "join"
	KindAction   NodeKind = "action"
)

// Node is one node of the graph. Which fields are set depends on Kind.
type Node struct {
	Name string
	Kind NodeKind
	Line int // where the node starts in the definition

	To      string   // join: the node after the join
	Message string   // kill: the message (EL allowed)
	Cases   []Case   // decision: the cases in document order
	Default string   // decision: the default transition
	Paths   []string // fork: the first node of each path
	Action  *Action  // action: the action
}

// Transitions lists the names of the nodes n can move to, in document order;
// for an action the ok transition comes first, then the error transition.
func (n *Node) Transitions() []string {
	switch n.Kind {
	case KindJoin:
		return []string{n.To}
	case KindDecision:
		out := make([]string, 0, len(n.Cases)+1)
		for _, c := range n.Cases {
			out = append(out, c.To)
		}
		return append(out, n.Default)
	case KindFork:
		return append([]string(nil), n.Paths...)
	case KindAction:
		return []string{n.Action.OK, n.Action.Error}
	case KindStart, KindEnd, KindKill:
	}
	return nil
}

// Case is one case of a decision: when Predicate evaluates to true, the
// decision moves to To.
type Case struct {
	To        string
	Predicate string
}

// Parameter is one formal parameter of <parameters>. HasDefault is false for
// a required parameter (no <value> element).
type Parameter struct {
	Name        string
	Value       string
	HasDefault  bool
	Description string
}

// Property is one name/value pair of a Hadoop-style configuration.
type Property struct {
	Name        string
	Value       string
	Description string
}

// Configuration is an ordered list of properties, as written.
type Configuration []Property

// Get returns the value of the last property called name.
func (c Configuration) Get(name string) (string, bool) {
	for i := len(c) - 1; i >= 0; i-- {
		if c[i].Name == name {
			return c[i].Value, true
		}
	}
	return "", false
}

// Global is the <global> section: defaults for every action that takes them.
type Global struct {
	JobTracker    string // job-tracker or resource-manager
	JobTrackerTag string // "job-tracker" or "resource-manager", as written; empty if neither
	NameNode      string
	Launcher      *Launcher
	JobXMLs       []string
	Configuration Configuration
}

// Credential is one <credential> of <credentials>.
type Credential struct {
	Name       string
	Type       string
	Properties Configuration
}

// Launcher holds the <launcher> settings of the launcher application.
type Launcher struct {
	MemoryMB  string
	VCores    string
	JavaOpts  string
	Env       string
	Queue     string
	Sharelib  string
	ViewACL   string
	ModifyACL string
}

// Action is an action node's definition.
type Action struct {
	Type          string // the body element's name: shell, java, hive2, pig, ...
	Namespace     string // the body element's namespace
	Cred          string // the cred attribute (comma list of credential names)
	RetryMax      string // the retry-max attribute as written (may contain EL)
	RetryInterval string // the retry-interval attribute, minutes
	RetryPolicy   string // the retry-policy attribute: periodic or exponential
	OK            string // <ok to="">
	Error         string // <error to="">
	SLA           *SLAInfo
	Body          Body   // the typed body
	Raw           string // the body element as a standalone XML fragment, EL unresolved

	body *elem // the parsed body, the source of Raw and of the resolved configuration
}

// Body is the typed body of an action: one of *Shell, *Java, *MapReduce,
// *Hive, *Hive2, *Spark, *FS, *SubWorkflow, *Email (and the other action
// types' own files) or *Unsupported.
type Body interface {
	actionType() string
}

// Hadoop holds the elements common to actions that run on the cluster.
type Hadoop struct {
	JobTracker    string // job-tracker or resource-manager
	JobTrackerTag string // "job-tracker" or "resource-manager", as written; empty if neither
	NameNode      string
	Prepare       *Prepare
	Launcher      *Launcher
	JobXMLs       []string
	Configuration Configuration
	Files         []string
	Archives      []string
}

// Prepare lists the paths to delete, then to create, before launching.
type Prepare struct {
	Deletes []PrepareDelete
	Mkdirs  []string
}

// PrepareDelete is one <delete> of <prepare>.
type PrepareDelete struct {
	Path      string
	SkipTrash string // "true"/"false" as written; empty when absent
}

// Shell is a shell action (uri:oozie:shell-action).
type Shell struct {
	Hadoop
	Exec          string
	Arguments     []string
	EnvVars       []string // NAME=VALUE each
	CaptureOutput bool
}

// Java is a java action.
type Java struct {
	Hadoop
	MainClass     string
	JavaOpts      string   // <java-opts>
	JavaOpt       []string // <java-opt> (alternative to JavaOpts)
	Args          []string
	CaptureOutput bool
}

// MapReduce is a map-reduce action.
type MapReduce struct {
	Hadoop
	Streaming   *Streaming
	Pipes       *Pipes
	ConfigClass string
}

// Streaming configures a streaming map-reduce job.
type Streaming struct {
	Mapper              string
	Reducer             string
	RecordReader        string
	RecordReaderMapping []string
	Env                 []string
}

// Pipes configures a pipes map-reduce job.
type Pipes struct {
	Map         string
	Reduce      string
	InputFormat string
	Partitioner string
	Writer      string
	Program     string
}

// Hive is a hive action (uri:oozie:hive-action), run by beeline in the launcher.
type Hive struct {
	Hadoop
	Script    string
	Query     string
	Params    []string // NAME=VALUE each
	Arguments []string
}

// Hive2 is a hive2 action (uri:oozie:hive2-action), run on HiveServer2.
type Hive2 struct {
	Hadoop
	JDBCURL   string
	Password  string
	Script    string
	Query     string
	Params    []string
	Arguments []string
}

// FS is a synchronous file-system action.
type FS struct {
	NameNode      string
	JobXMLs       []string
	Configuration Configuration
	Ops           []FSOp
}

// FSOp is one operation of an fs action, in document order. Op is the
// element name: delete, mkdir, move, chmod, touchz, chgrp or setrep.
type FSOp struct {
	Op                string
	Path              string // delete, mkdir, chmod, touchz, chgrp, setrep
	SkipTrash         string // delete: "true"/"false" as written
	Source            string // move
	Target            string // move
	Permissions       string // chmod
	Group             string // chgrp
	DirFiles          string // chmod, chgrp: "true"/"false" as written; empty = default (true)
	Recursive         bool   // chmod, chgrp
	ReplicationFactor string // setrep
}

// SubWorkflow is a sub-workflow action.
type SubWorkflow struct {
	AppPath                string
	PropagateConfiguration bool
	Configuration          Configuration
}

// Email is an email action (uri:oozie:email-action).
type Email struct {
	To          string
	CC          string
	BCC         string
	Subject     string
	Body        string
	ContentType string
	Attachment  string
}

// Unsupported is an action of a type gozie does not run (sqoop, ssh,
// custom types). It parses, and fails validation with E0723.
type Unsupported struct {
	Type      string
	Namespace string
}

func (*Shell) actionType() string         { return "shell" }
func (*Java) actionType() string          { return "java" }
func (*MapReduce) actionType() string     { return "map-reduce" }
func (*Hive) actionType() string          { return "hive" }
func (*Hive2) actionType() string         { return "hive2" }
func (*FS) actionType() string            { return "fs" }
func (*SubWorkflow) actionType() string   { return "sub-workflow" }
func (*Email) actionType() string         { return "email" }
func (u *Unsupported) actionType() string { return u.Type }

// SLAInfo is an <sla:info> block (uri:oozie:sla:0.1 or 0.2). Values are kept
// as written (EL allowed); the SLA service resolves them.
type SLAInfo struct {
	Namespace       string
	NominalTime     string
	ShouldStart     string
	ShouldEnd       string
	MaxDuration     string // 0.2
	AlertEvents     string // 0.2
	AlertContact    string
	NotificationMsg string
	UpstreamApps    string

	// Only in uri:oozie:sla:0.1.
	AppName         string
	ParentClientID  string
	ParentSLAID     string
	DevContact      string
	QAContact       string
	SEContact       string
	AlertFrequency  string
	AlertPercentage string
}

// Cluster returns the name node and the resource manager (or job tracker)
// the action names.
func (h *Hadoop) Cluster() (nameNode, resourceManager string) { return h.NameNode, h.JobTracker }
