package workflow

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// newRow creates the row of node name in this run.
func (r *decision) newRow(name, typ string, status store.ActionStatus) *store.WorkflowAction {
	row := &store.WorkflowAction{
		ID:           ids.ActionID(r.job.ID, name),
		JobID:        r.job.ID,
		Name:         name,
		Type:         typ,
		Status:       status,
		CreatedTime:  r.now,
		LastModified: r.now,
	}
	if isControlType(typ) {
		row.StartTime, row.EndTime = r.now, r.now
	}
	r.rows[name] = row
	r.created = append(r.created, name)
	return row
}

// enter moves an execution path on to node name, coming from node from.
// Control nodes are executed at once; actions are created and queued to
// start. Nothing happens once the job has reached a terminal status.
func (r *decision) enter(name, path, from string) {
	if r.done {
		return
	}
	n := r.in.App.Node(name)
	if n == nil {
		r.failJob(oozieerr.E0708, from, fmt.Sprintf("Invalid transition, node [%s] transition [%s]", from, name))
		return
	}
	if n.Kind == KindJoin {
		r.join(n, path, from)
		return
	}
	existing := r.rows[name]
	replay := existing != nil && r.inst.skips(name) &&
		(existing.Status == store.ActionOK || existing.Status == store.ActionError)
	if _, seen := r.inst.Paths[name]; seen || (existing != nil && !replay) {
		r.failJob(oozieerr.E0709, name, "Loop detected at runtime, node ["+name+"]")
		return
	}
	r.inst.Paths[name] = path
	if replay {
		// A rerun skips this node: replay the transition it took last time.
		if existing.Status == store.ActionError {
			r.setLastErrorNode(name)
		}
		r.enter(existing.Transition, path, name)
		return
	}
	switch n.Kind {
	case KindAction:
		r.createAction(n)
	case KindDecision:
		r.decide(n, path)
	case KindFork:
		row := r.newRow(name, TypeFork, store.ActionOK)
		row.Transition = strings.Join(n.Paths, ",")
		key := path + name
		r.inst.Forks[key] = len(n.Paths)
		for i, p := range n.Paths {
			r.enter(p, branchPath(path, name, i), name)
		}
	case KindKill:
		row := r.newRow(name, TypeKill, store.ActionOK)
		msg, err := r.env.EvalString(n.Message)
		if err != nil {
			row.ErrorCode, row.ErrorMessage = oozieerr.E0756, "Exception parsing Kill node message ["+err.Error()+"]"
		} else {
			row.ErrorCode, row.ErrorMessage = oozieerr.E0729, msg
		}
		r.job.ErrorCode, r.job.ErrorMessage = row.ErrorCode, row.ErrorMessage
		r.terminate(store.WorkflowKilled)
	case KindEnd:
		r.newRow(name, TypeEnd, store.ActionOK)
		r.terminate(store.WorkflowSucceeded)
	case KindStart, KindJoin:
		r.failJob(oozieerr.E0708, from, fmt.Sprintf("Invalid transition, node [%s] transition [%s]", from, name))
	}
}

// join records the arrival of a fork path at join n and, when all paths of
// the fork arrived, moves on from the join on the fork's own path.
func (r *decision) join(n *Node, path, from string) {
	parent, fork, i, ok := splitBranch(path)
	if !ok {
		r.failJob(oozieerr.E0720, n.Name, "Fork/join mismatch, node ["+n.Name+"]: reached outside a fork path")
		return
	}
	key := parent + fork
	if other, seen := r.inst.JoinOf[key]; seen && other != n.Name {
		r.failJob(oozieerr.E0720, n.Name, "Fork/join mismatch, node ["+n.Name+"]: fork ["+fork+"] already reached join ["+other+"]")
		return
	}
	r.inst.JoinOf[key] = n.Name
	for _, j := range r.inst.Joined[key] {
		if j == i {
			return // this path arrived already
		}
	}
	r.inst.Joined[key] = append(r.inst.Joined[key], i)
	if len(r.inst.Joined[key]) < r.inst.Forks[key] {
		return
	}
	if _, seen := r.inst.Paths[n.Name]; seen || r.rows[n.Name] != nil {
		r.failJob(oozieerr.E0709, n.Name, "Loop detected at runtime, node ["+n.Name+"]")
		return
	}
	r.inst.Paths[n.Name] = parent
	row := r.newRow(n.Name, TypeJoin, store.ActionOK)
	row.Transition = n.To
	r.enter(n.To, parent, n.Name)
}

// decide evaluates a decision's cases in order and takes the first that is
// "true", else the default. An EL error fails the job.
func (r *decision) decide(n *Node, path string) {
	row := r.newRow(n.Name, TypeDecision, store.ActionOK)
	target := n.Default
	for _, c := range n.Cases {
		v, err := r.env.EvalString(c.Predicate)
		if err != nil {
			row.Status = store.ActionFailed
			row.ErrorCode, row.ErrorMessage = oozieerr.ELError, err.Error()
			r.failJob(oozieerr.ELError, n.Name, err.Error())
			return
		}
		if strings.TrimSpace(v) == "true" {
			target = c.To
			break
		}
	}
	row.Transition = target
	r.enter(target, path, n.Name)
}

// createAction creates the row of action n with its resolved configuration
// and queues it to start, unless the job is to suspend at n. An EL error in
// the action fails the job.
func (r *decision) createAction(n *Node) {
	row := r.newRow(n.Name, n.Action.Type, store.ActionPrep)
	row.Conf = serialize(n.Action.body)
	max, interval, err := r.retrySettings(n)
	if err == nil {
		row.UserRetryMax, row.UserRetryInterval = max, interval
		row.Conf, err = r.resolveAction(n, row.ID)
	}
	if err != nil {
		row.Status = store.ActionFailed
		row.ErrorCode, row.ErrorMessage = oozieerr.ELError, err.Error()
		row.EndTime = r.now
		r.failJob(oozieerr.ELError, n.Name, err.Error())
		return
	}
	if r.suspendsAt(n.Name) {
		r.job.Status = store.WorkflowSuspended
		return
	}
	r.starts = append(r.starts, n.Name)
}

// resolveAction returns the action's merged body with its EL evaluated.
func (r *decision) resolveAction(n *Node, actionID string) (string, error) {
	body := r.in.App.mergedBody(n, r.in.Defaults, r.opts)
	r.ctx.ActionID = actionID
	defer func() { r.ctx.ActionID = "" }()
	if err := resolveEL(body, r.env.EvalString); err != nil {
		return "", fmt.Errorf("resolving action [%s]: %w", n.Name, err)
	}
	return serialize(body), nil
}

// retrySettings returns the user-retry maximum and interval (minutes) of
// action n: its attributes (EL allowed) or the server defaults, the maximum
// capped by Options.UserRetryMax with an E0820 warning.
func (r *decision) retrySettings(n *Node) (max, interval int, err error) {
	max = r.opts.UserRetryDefault
	if n.Action.RetryMax != "" {
		if max, err = r.evalInt(n.Action.RetryMax, "retry-max"); err != nil {
			return 0, 0, err
		}
	}
	if max > r.opts.UserRetryMax {
		r.warnings = append(r.warnings, errorf(oozieerr.E0820, n.Name,
			"Action user retry max [%d] is over system defined max [%d], re-assign to use system max.", max, r.opts.UserRetryMax))
		max = r.opts.UserRetryMax
	}
	interval = int(r.opts.UserRetryInterval / time.Minute)
	if n.Action.RetryInterval != "" {
		if interval, err = r.evalInt(n.Action.RetryInterval, "retry-interval"); err != nil {
			return 0, 0, err
		}
	}
	return max, interval, nil
}

// evalInt evaluates an attribute to a non-negative integer.
func (r *decision) evalInt(text, attr string) (int, error) {
	v, err := r.env.EvalString(text)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", attr, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a non-negative integer, got %q", attr, v)
	}
	return n, nil
}

// userRetry decides whether an action that ended in ERROR is retried: its
// error code must be retryable and it must have retries left. It returns
// when the retry is due (periodic: the interval; exponential: the interval
// times 2^retries so far) and counts the retry on the row.
func (r *decision) userRetry(n *Node, row *store.WorkflowAction) (time.Time, bool) {
	if row.UserRetryCount >= row.UserRetryMax || !r.opts.retryableCode(row.ErrorCode) {
		return time.Time{}, false
	}
	policy := r.opts.UserRetryPolicy
	if n.Action.RetryPolicy != "" {
		if v, err := r.env.EvalString(n.Action.RetryPolicy); err == nil {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case RetryPeriodic:
				policy = RetryPeriodic
			case RetryExponential:
				policy = RetryExponential
			}
		}
	}
	delay := RetryDelay(policy, time.Duration(row.UserRetryInterval)*time.Minute, row.UserRetryCount)
	row.UserRetryCount++
	return r.now.Add(delay), true
}

// suspendsAt reports whether oozie.suspend.on.nodes names node (or is "*").
func (r *decision) suspendsAt(node string) bool {
	for _, s := range strings.Split(r.in.Conf.Value(PropSuspendOnNodes), ",") {
		if s = strings.TrimSpace(s); s == "*" || s == node {
			return true
		}
	}
	return false
}

// failJob fails the job with an error code and message.
func (r *decision) failJob(code, node, msg string) {
	if r.done {
		return
	}
	r.job.ErrorCode, r.job.ErrorMessage = code, msg
	r.terminate(store.WorkflowFailed)
}

// terminate ends the job with status: every action still active is killed
// (its external work too, when it may have some) and nothing more starts.
func (r *decision) terminate(status store.WorkflowStatus) {
	r.done = true
	r.job.Status = status
	r.job.EndTime = r.now
	names := make([]string, 0, len(r.rows))
	for name := range r.rows {
		names = append(names, name)
	}
	for _, name := range sortedNames(names) {
		row := r.rows[name]
		if isControlType(row.Type) {
			continue
		}
		switch row.Status {
		case store.ActionRunning, store.ActionStartRetry, store.ActionStartManual, store.ActionEndRetry,
			store.ActionEndManual:
			r.kills = append(r.kills, name)
		case store.ActionPrep:
			if row.LaunchTag != "" || row.ExternalID != "" {
				r.kills = append(r.kills, name)
			}
		case store.ActionDone, store.ActionUserRetry:
		case store.ActionOK, store.ActionError, store.ActionKilled, store.ActionFailed:
			continue
		}
		row.Status = store.ActionKilled
		row.EndTime = r.now
	}
	r.starts = nil
	r.inst.Pending = map[string]Outcome{}
	r.inst.RetryAt = map[string]time.Time{}
}

// sortedNames sorts names in place and returns them.
func sortedNames(names []string) []string {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return sortedKeys(m)
}
