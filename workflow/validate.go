package workflow

import (
	"fmt"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// startNodeName is the name Oozie gives the start node (it has none in XML).
const startNodeName = ":start:"

// needsCluster lists the types that need a name-node and a resource manager.
var needsCluster = map[string]bool{"shell": true, "java": true, "map-reduce": true, "hive": true, "hive2": true,
	"distcp": true, "pig": true, "spark": true, "git": true, "sqoop": true}

// Validate checks the graph of a parsed app the way Oozie's validator does:
// node names (E0724), self transitions (E0706), transitions to missing nodes
// (E0708), loops (E0707), action types gozie cannot run (E0723), missing
// name-node or resource manager (E0701) and, unless
// opts.SkipForkJoinValidation, the fork/join rules (E0730, E0733, E0737,
// E0742, E0743, E0744, E0757, E0758). Nodes that cannot be reached from start
// are allowed, as in Oozie; Unreachable lists them.
func Validate(app *App, opts Options) error {
	if err := validate(app, opts.withDefaults()); err != nil {
		return err
	}
	return nil
}

func validate(app *App, opts Options) *Error {
	for _, n := range app.Nodes {
		if err := checkNodeName(n, opts.MaxNodeNameLength); err != nil {
			return err
		}
		for _, t := range n.Transitions() {
			if t == n.Name {
				return &Error{Code: oozieerr.E0706, Node: n.Name, Line: n.Line,
					Msg: "Node cannot transition to itself node [" + n.Name + "]"}
			}
		}
		if n.Kind == KindAction {
			if err := checkCluster(n, app.Global, opts); err != nil {
				return err
			}
		}
	}
	start := &Node{Name: startNodeName, Kind: KindStart}
	w := &basicWalk{app: app, opts: opts, checked: map[string]bool{}, onPath: map[string]bool{}}
	if err := w.walk(start, []string{app.Start}); err != nil {
		return err
	}
	if opts.SkipForkJoinValidation {
		return nil
	}
	if w.forks != w.joins {
		return errorf(oozieerr.E0730, "", "Fork/Join not in pair")
	}
	fj := &forkJoinWalk{app: app, joinFork: map[string]string{}, okParent: map[string]string{},
		okSeen: map[string]bool{}, visited: map[string]bool{}}
	return fj.walk(start, nil, "", true)
}

// checkNodeName applies Oozie's node-name rule: [A-Za-z_][A-Za-z0-9_-]*, at
// most max characters.
func checkNodeName(n *Node, max int) *Error {
	msg := ""
	switch {
	case len(n.Name) > max:
		msg = fmt.Sprintf("name [%s] must be %d chars or less", n.Name, max)
	case !identifier.MatchString(n.Name):
		msg = fmt.Sprintf("name [%s] must match [A-Za-z_][0-9A-Za-z_-]*", n.Name)
	default:
		return nil
	}
	return &Error{Code: oozieerr.E0724, Node: n.Name, Line: n.Line, Msg: "Invalid node name, " + msg}
}

// checkCluster requires a name-node and a resource manager for the action
// types that run on the cluster, from the action, <global> or the server
// defaults.
func checkCluster(n *Node, g *Global, opts Options) *Error {
	if !needsCluster[n.Action.Type] {
		return nil
	}
	h := hadoopOf(n.Action.Body)
	if h == nil {
		return nil
	}
	if h.NameNode == "" && (g == nil || g.NameNode == "") && opts.DefaultNameNode == "" {
		return &Error{Code: oozieerr.E0701, Node: n.Name, Line: n.Line, Msg: schemaLead + "No name-node defined in action [" + n.Name + "]"}
	}
	if h.JobTracker == "" && (g == nil || g.JobTracker == "") && opts.DefaultResourceManager == "" {
		return &Error{Code: oozieerr.E0701, Node: n.Name, Line: n.Line,
			Msg: schemaLead + "No job-tracker or resource-manager defined in action [" + n.Name + "]"}
	}
	return nil
}

// hadoopOf returns the Hadoop head of a body, or nil for bodies without one.
func hadoopOf(b Body) *Hadoop {
	switch t := b.(type) {
	case *Shell:
		return &t.Hadoop
	case *Java:
		return &t.Hadoop
	case *MapReduce:
		return &t.Hadoop
	case *Hive:
		return &t.Hadoop
	case *Hive2:
		return &t.Hadoop
	case *Git:
		return &t.Hadoop
	case *Distcp:
		return &t.Hadoop
	case *Spark:
		return &t.Hadoop
	case *Pig:
		return &t.Hadoop
	case *Sqoop:
		return &t.Hadoop
	}
	return nil
}

// runs reports whether gozie can run action a: the parser must model its
// body (it is not *Unsupported) and, when the server's executors are known,
// one of them must take its type.
func (o Options) runs(a *Action) bool {
	if _, ok := a.Body.(*Unsupported); ok {
		return false
	}
	return o.HasExecutor == nil || o.HasExecutor(a.Type)
}

// unsupportedError is Oozie's E0723 for action node n, saying that gozie
// does not run actions of its type.
func unsupportedError(n *Node) *Error {
	what := n.Action.Type
	if u, ok := n.Action.Body.(*Unsupported); ok && !strings.HasPrefix(u.Namespace, nsWorkflowPrefix) {
		what = u.String() // a custom type: name its namespace too
	}
	return &Error{Code: oozieerr.E0723, Node: n.Name, Line: n.Line,
		Msg: fmt.Sprintf("Unsupported action type, node [%s] type [%s]: gozie does not support %s actions", n.Name, n.Action.Type, what)}
}

// UnsupportedActions returns an E0723 error for every action node of the app,
// reachable or not, in document order, that gozie cannot run under opts:
// types the parser does not model (pig, spark, custom namespaces, ...) and,
// when opts.HasExecutor is set, types without an executor. Validate refuses
// the first reachable one; callers that only warn (the validate endpoint) or
// look into sub-workflows list them all.
func (a *App) UnsupportedActions(opts Options) []*Error {
	var out []*Error
	for _, n := range a.Nodes {
		if n.Kind == KindAction && !opts.runs(n.Action) {
			out = append(out, unsupportedError(n))
		}
	}
	return out
}

// basicWalk walks the graph from start depth-first: it finds loops, missing
// transition targets and unsupported actions, and counts the reachable forks
// and joins. Nodes whose descendants were all checked are not walked again.
type basicWalk struct {
	app          *App
	opts         Options
	checked      map[string]bool
	onPath       map[string]bool
	path         []string
	forks, joins int
}

func (w *basicWalk) walk(n *Node, transitions []string) *Error {
	switch n.Kind {
	case KindAction:
		if !w.opts.runs(n.Action) {
			return unsupportedError(n)
		}
	case KindFork:
		w.forks++
	case KindJoin:
		w.joins++
	case KindStart, KindEnd, KindKill, KindDecision:
	}
	if w.onPath[n.Name] {
		return &Error{Code: oozieerr.E0707, Node: n.Name, Line: n.Line,
			Msg: "Loop detected at parsing, node [" + n.Name + "], path [" + strings.Join(append(w.path, n.Name), "->") + "]"}
	}
	w.onPath[n.Name] = true
	w.path = append(w.path, n.Name)
	for _, t := range transitions {
		next := w.app.Node(t)
		if next == nil {
			return &Error{Code: oozieerr.E0708, Node: n.Name, Line: n.Line,
				Msg: "Invalid transition, node [" + n.Name + "] transition [" + t + "]"}
		}
		if !w.checked[t] {
			if err := w.walk(next, next.Transitions()); err != nil {
				return err
			}
			w.checked[t] = true
		}
	}
	w.path = w.path[:len(w.path)-1]
	delete(w.onPath, n.Name)
	return nil
}

// forkJoinWalk checks that forks and joins pair up and that fork paths stay
// inside their fork. It runs after basicWalk, so the graph is acyclic and
// every transition exists.
//
// It walks from start carrying the fork whose path it is on and the eldest
// decision on the way. Reaching a node twice through "ok" transitions is
// allowed only when both ways come from the same eldest decision (only one
// of them can be taken in a run); anything else means two fork paths meet
// outside a join (E0743).
type forkJoinWalk struct {
	app      *App
	joinFork map[string]string // join name -> the fork it closes
	okParent map[string]string // node -> eldest decision on its first "ok" way in
	okSeen   map[string]bool
	visited  map[string]bool // nodes already walked (joins and ends excluded)
	path     []string
}

func (w *forkJoinWalk) walk(n *Node, fork *Node, topDecision string, okPath bool) *Error {
	w.path = append(w.path, n.Name)
	defer func() { w.path = w.path[:len(w.path)-1] }()

	if okPath && n.Kind != KindKill && n.Kind != KindJoin && n.Kind != KindEnd {
		if w.okSeen[n.Name] {
			prev := w.okParent[n.Name]
			if (prev == "" && topDecision == "") || prev != topDecision {
				return &Error{Code: oozieerr.E0743, Node: n.Name, Line: n.Line,
					Msg: "Multiple \"ok to\" transitions to the same node, [" + n.Name + "], are not allowed"}
			}
		} else {
			w.okSeen[n.Name] = true
			w.okParent[n.Name] = topDecision
		}
	}
	if w.visited[n.Name] {
		return nil
	}
	if n.Kind != KindJoin && n.Kind != KindEnd {
		w.visited[n.Name] = true
	}

	switch n.Kind {
	case KindStart:
		return w.walk(w.app.Node(w.app.Start), fork, topDecision, okPath)
	case KindFork:
		seen := map[string]bool{}
		for _, t := range n.Paths {
			tn := w.app.Node(t)
			if seen[t] && tn.Kind != KindJoin && tn.Kind != KindKill {
				return &Error{Code: oozieerr.E0744, Node: n.Name, Line: n.Line,
					Msg: "A fork, [" + n.Name + "], is not allowed to have multiple transitions to the same node, [" + t + "]"}
			}
			seen[t] = true
		}
		for _, t := range n.Paths {
			if err := w.walk(w.app.Node(t), n, topDecision, okPath); err != nil {
				return err
			}
		}
		var joins []string
		for _, j := range sortedKeys(w.joinFork) {
			if w.joinFork[j] == n.Name {
				joins = append(joins, j)
			}
		}
		switch {
		case len(joins) == 0:
			return &Error{Code: oozieerr.E0733, Node: n.Name, Line: n.Line, Msg: "Fork [" + n.Name + "] without a join"}
		case len(joins) > 1:
			return &Error{Code: oozieerr.E0757, Node: n.Name, Line: n.Line,
				Msg: "Fork node [" + n.Name + "] has multiple joins: [" + strings.Join(joins, ",") + "]"}
		}
		return w.walk(w.app.Node(w.app.Node(joins[0]).To), fork, topDecision, okPath)
	case KindJoin:
		if fork == nil {
			return &Error{Code: oozieerr.E0742, Node: n.Name, Line: n.Line, Msg: "No Fork for Join [" + n.Name + "] to pair with"}
		}
		if f, ok := w.joinFork[n.Name]; ok && f != fork.Name {
			return &Error{Code: oozieerr.E0758, Node: n.Name, Line: n.Line,
				Msg: "Join node [" + n.Name + "] has multiple forks: [" + f + "," + fork.Name + "]"}
		}
		w.joinFork[n.Name] = fork.Name
	case KindDecision:
		parent := topDecision
		if parent == "" {
			parent = n.Name
		}
		for _, t := range n.Transitions() {
			if err := w.walk(w.app.Node(t), fork, parent, okPath); err != nil {
				return err
			}
		}
	case KindEnd:
		if fork != nil {
			prev := ""
			if len(w.path) >= 2 {
				prev = w.path[len(w.path)-2]
			}
			return &Error{Code: oozieerr.E0737, Node: prev, Line: n.Line,
				Msg: "Invalid transition from node [" + prev + "] to node [" + n.Name + "] -- nodes of type 'end' are not allowed within Fork/Join"}
		}
	case KindAction:
		if err := w.walk(w.app.Node(n.Action.OK), fork, topDecision, okPath); err != nil {
			return err
		}
		return w.walk(w.app.Node(n.Action.Error), fork, topDecision, false)
	case KindKill:
	}
	return nil
}

// Unreachable lists, in document order, the nodes that no path from start
// reaches. Oozie accepts them; callers may warn.
func (a *App) Unreachable() []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		n := a.Node(name)
		if n == nil || seen[name] {
			return
		}
		seen[name] = true
		for _, t := range n.Transitions() {
			visit(t)
		}
	}
	visit(a.Start)
	var out []string
	for _, n := range a.Nodes {
		if !seen[n.Name] {
			out = append(out, n.Name)
		}
	}
	return out
}
