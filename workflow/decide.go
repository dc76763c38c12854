package workflow

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// Row types of control nodes, as Oozie names them.
const (
	TypeStart    = ":START:"
	TypeEnd      = ":END:"
	TypeKill     = ":KILL:"
	TypeFork     = ":FORK:"
	TypeJoin     = ":JOIN:"
	TypeDecision = "switch"
)

// Decide computes what ev changes for the job described by in. It is pure:
// it reads in and returns the change; nothing is written. Hard errors (a
// rerun whose preconditions fail, an unknown action, a corrupt instance) are
// returned as *Error or wrapped errors; events that do not apply to the
// job's current state give an empty Step with Ignored set.
func Decide(in Input, ev Event) (Step, error) {
	r, err := newDecision(&in)
	if err != nil {
		return Step{}, err
	}
	switch ev.Kind {
	case EventStart:
		r.start()
	case EventActionEnd:
		err = r.actionEnd(ev)
	case EventKill:
		r.kill()
	case EventSuspend:
		r.suspend()
	case EventResume:
		r.resume()
	case EventRerun:
		err = r.rerun(ev)
	case EventRetryDue:
		err = r.retryDue(ev.Node)
	default:
		return Step{}, fmt.Errorf("deciding for workflow %s: unknown event kind %q", in.Job.ID, ev.Kind)
	}
	if err != nil {
		return Step{}, err
	}
	st := r.step()
	st.Read = &in.Job
	return st, nil
}

// decision is the working state of one call of Decide.
type decision struct {
	in       *Input
	opts     Options
	now      time.Time
	job      store.WorkflowJob
	inst     *Instance
	rows     map[string]*store.WorkflowAction // current rows by node name
	created  []string                         // names of rows created, in order
	deleted  []string                         // ids of rows deleted
	starts   []string                         // names of actions to launch
	kills    []string                         // names of actions whose external work must die
	retries  []Retry
	warnings []*Error
	ignored  *Error
	done     bool // the job reached a terminal status
	ctx      *Context
	env      *el.Env
}

func newDecision(in *Input) (*decision, error) {
	if in.App == nil {
		return nil, fmt.Errorf("deciding for workflow %s: no app", in.Job.ID)
	}
	inst, err := DecodeInstance(in.Job.Instance)
	if err != nil {
		return nil, fmt.Errorf("deciding for workflow %s: %w", in.Job.ID, err)
	}
	r := &decision{in: in, opts: in.Options.withDefaults(), now: in.Now, job: in.Job, inst: inst,
		rows: make(map[string]*store.WorkflowAction, len(in.Actions))}
	for i := range in.Actions {
		a := in.Actions[i]
		r.rows[a.Name] = &a
	}
	r.ctx = &Context{Job: &r.job, Conf: in.Conf, Actions: r.rows, LastErrorNode: inst.LastErrorNode,
		CallbackURL: in.CallbackURL}
	now := in.Now
	r.env = r.ctx.Env(in.Funcs, func() time.Time { return now }, in.Location)
	return r, nil
}

// ignore records why the event changes nothing.
func (r *decision) ignore(code oozieerr.Code, format string, args ...any) {
	r.ignored = errorf(code, "", format, args...)
}

// setLastErrorNode records the last action that ended in ERROR.
func (r *decision) setLastErrorNode(name string) {
	r.inst.LastErrorNode = name
	r.ctx.LastErrorNode = name
}

// start starts a PREP job at its start node.
func (r *decision) start() {
	if r.job.Status != store.WorkflowPrep {
		r.ignore(oozieerr.E0719, "Job already started, workflow [%s] status [%s]", r.job.ID, r.job.Status)
		return
	}
	r.job.Status = store.WorkflowRunning
	r.job.StartTime = r.now
	row := r.newRow(startNodeName, TypeStart, store.ActionOK)
	row.Transition = r.in.App.Start
	r.inst.Paths[startNodeName] = ""
	r.enter(r.in.App.Start, "", startNodeName)
}

// kill kills the job and its active actions.
func (r *decision) kill() {
	switch r.job.Status {
	case store.WorkflowPrep, store.WorkflowRunning, store.WorkflowSuspended:
		r.terminate(store.WorkflowKilled)
	case store.WorkflowSucceeded, store.WorkflowKilled, store.WorkflowFailed:
		r.ignore(oozieerr.E0725, "Workflow instance can not be killed, %s, status [%s]", r.job.ID, r.job.Status)
	}
}

// suspend suspends a RUNNING job. Running actions go on; their ends are
// kept and acted upon at resume.
func (r *decision) suspend() {
	if r.job.Status != store.WorkflowRunning {
		r.ignore(oozieerr.E0727, "Workflow Job can not be suspended as its not in running state, %s, Status: %s",
			r.job.ID, r.job.Status)
		return
	}
	r.job.Status = store.WorkflowSuspended
}

// resume resumes a SUSPENDED job: PREP, START_RETRY and START_MANUAL
// actions start, due user retries start, the others are scheduled, and the action ends that arrived while
// suspended are acted upon.
func (r *decision) resume() {
	if r.job.Status != store.WorkflowSuspended {
		r.ignore(oozieerr.E0717, "Workflow not suspended, workflow [%s] status [%s]", r.job.ID, r.job.Status)
		return
	}
	r.job.Status = store.WorkflowRunning
	for _, a := range r.in.Actions {
		row := r.rows[a.Name]
		switch {
		case isControlType(row.Type):
		case row.Status == store.ActionPrep, row.Status == store.ActionStartRetry,
			row.Status == store.ActionStartManual:
			// A transient retry whose start came while suspended, or an
			// action that waited for a person, starts again now.
			r.starts = append(r.starts, row.Name)
		case row.Status == store.ActionUserRetry:
			at, ok := r.inst.RetryAt[row.Name]
			if !ok || !at.After(r.now) {
				delete(r.inst.RetryAt, row.Name)
				r.starts = append(r.starts, row.Name)
			} else {
				r.retries = append(r.retries, Retry{ActionID: row.ID, Node: row.Name, At: at})
			}
		}
	}
	for _, name := range sortedKeys(r.inst.Pending) {
		if r.done {
			break
		}
		outcome := r.inst.Pending[name]
		delete(r.inst.Pending, name)
		if row := r.rows[name]; row != nil && row.Status == store.ActionDone {
			r.applyOutcome(row, outcome)
		}
	}
}

// endable lists the action statuses an action may end from.
func endable(s store.ActionStatus) bool {
	switch s {
	case store.ActionPrep, store.ActionRunning, store.ActionStartRetry, store.ActionStartManual,
		store.ActionEndRetry, store.ActionEndManual, store.ActionDone:
		return true
	case store.ActionOK, store.ActionError, store.ActionUserRetry, store.ActionKilled, store.ActionFailed:
	}
	return false
}

// actionEnd acts on an action's end.
func (r *decision) actionEnd(ev Event) error {
	row := r.rows[ev.Node]
	if row == nil || isControlType(row.Type) {
		return errorf(oozieerr.E0605, ev.Node, "Action does not exist [%s]", ids.ActionID(r.job.ID, ev.Node))
	}
	switch ev.Outcome {
	case OutcomeOK, OutcomeError, OutcomeFailed:
	default:
		return fmt.Errorf("action %s ended with unknown outcome %q", row.ID, ev.Outcome)
	}
	if r.job.Status != store.WorkflowRunning && r.job.Status != store.WorkflowSuspended {
		r.ignore(oozieerr.E0813, "Workflow not RUNNING, current status [%s]; end of action [%s] ignored", r.job.Status, row.ID)
		return nil
	}
	if !endable(row.Status) || (row.Status == store.ActionDone && r.job.Status == store.WorkflowSuspended) {
		r.ignore(oozieerr.E0800, "Action it is not running its in [%s] state, action [%s]", row.Status, row.ID)
		return nil
	}
	if ev.ExternalStatus != "" {
		row.ExternalStatus = ev.ExternalStatus
	}
	if ev.Data != "" {
		row.Data = ev.Data
	}
	// The error of an earlier attempt does not outlive a successful one.
	row.ErrorCode, row.ErrorMessage = ev.ErrorCode, ev.ErrorMessage
	row.EndTime = r.now
	if r.job.Status == store.WorkflowSuspended {
		row.Status = store.ActionDone
		r.inst.Pending[row.Name] = ev.Outcome
		return nil
	}
	r.applyOutcome(row, ev.Outcome)
	return nil
}

// applyOutcome moves an ended action on: OK follows ok, ERROR retries or
// follows error, FAILED fails the job.
func (r *decision) applyOutcome(row *store.WorkflowAction, outcome Outcome) {
	n := r.in.App.Node(row.Name)
	if n == nil || n.Kind != KindAction {
		r.failJob(oozieerr.E0708, row.Name, fmt.Sprintf("node [%s] is not an action of the workflow", row.Name))
		return
	}
	path := r.inst.Paths[row.Name]
	switch outcome {
	case OutcomeOK:
		row.Status = store.ActionOK
		row.Transition = n.Action.OK
		r.enter(n.Action.OK, path, row.Name)
	case OutcomeError:
		if at, ok := r.userRetry(n, row); ok {
			row.Status = store.ActionUserRetry
			r.inst.RetryAt[row.Name] = at
			r.retries = append(r.retries, Retry{ActionID: row.ID, Node: row.Name, At: at})
			return
		}
		row.Status = store.ActionError
		row.Transition = n.Action.Error
		r.setLastErrorNode(row.Name)
		r.enter(n.Action.Error, path, row.Name)
	case OutcomeFailed:
		row.Status = store.ActionFailed
		code, msg := row.ErrorCode, row.ErrorMessage
		if msg == "" {
			msg = "action [" + row.Name + "] failed"
		}
		r.failJob(code, row.Name, msg)
	}
}

// retryDue restarts an action whose user retry is due.
func (r *decision) retryDue(node string) error {
	row := r.rows[node]
	if row == nil || isControlType(row.Type) {
		return errorf(oozieerr.E0605, node, "Action does not exist [%s]", ids.ActionID(r.job.ID, node))
	}
	if _, scheduled := r.inst.RetryAt[node]; !scheduled || row.Status != store.ActionUserRetry {
		r.ignore(oozieerr.E0800, "Action [%s] is %s, no retry is due", row.ID, row.Status)
		return nil
	}
	if r.job.Status != store.WorkflowRunning {
		r.ignore(oozieerr.E0813, "Workflow not RUNNING, current status [%s]; the retry of [%s] waits", r.job.Status, row.ID)
		return nil
	}
	delete(r.inst.RetryAt, node)
	r.starts = append(r.starts, node)
	return nil
}

// rerun resets a finished job for another run (the engine then starts it).
func (r *decision) rerun(ev Event) error {
	switch r.job.Status {
	case store.WorkflowSucceeded, store.WorkflowKilled, store.WorkflowFailed:
	case store.WorkflowPrep, store.WorkflowRunning, store.WorkflowSuspended:
		return errorf(oozieerr.E0805, "", "Workflow job not completed, status [%s]", r.job.Status)
	}
	skip := map[string]bool{}
	if ev.FailNodes {
		for _, a := range r.in.Actions {
			if a.Status == store.ActionOK {
				skip[a.Name] = true
			}
		}
	} else {
		unmatched := map[string]bool{}
		for _, name := range ev.SkipNodes {
			unmatched[name] = true
		}
		for _, a := range r.in.Actions {
			if !unmatched[a.Name] {
				continue
			}
			if a.Status != store.ActionOK && a.Status != store.ActionError {
				return errorf(oozieerr.E0806, a.Name, "Action did not complete in previous run, action [%s]", a.Name)
			}
			delete(unmatched, a.Name)
			skip[a.Name] = true
		}
		if len(unmatched) > 0 {
			return errorf(oozieerr.E0807, "", "Some skip actions were not executed [%s]",
				strings.Join(sortedKeys(unmatched), ","))
		}
	}
	inst := &Instance{V: instanceVersion}
	inst.init()
	for _, a := range r.in.Actions {
		n := r.in.App.Node(a.Name)
		replayable := n != nil && (n.Kind == KindAction || n.Kind == KindDecision)
		if skip[a.Name] && replayable {
			inst.Skip = append(inst.Skip, a.Name)
			continue
		}
		r.deleted = append(r.deleted, a.ID)
		delete(r.rows, a.Name)
	}
	r.inst = inst
	r.job.Status = store.WorkflowPrep
	r.job.Run++
	r.job.EndTime = time.Time{}
	r.job.ErrorCode, r.job.ErrorMessage = "", ""
	if ev.Conf != "" {
		r.job.Conf = ev.Conf
	}
	if ev.Definition != "" {
		r.job.Definition = ev.Definition
	}
	return nil
}

// isControlType reports whether a row type is a control node's.
func isControlType(t string) bool {
	switch t {
	case TypeStart, TypeEnd, TypeKill, TypeFork, TypeJoin, TypeDecision:
		return true
	}
	return false
}

// step assembles the Step from the run's changes.
func (r *decision) step() Step {
	st := Step{Ignored: r.ignored, Warnings: r.warnings}
	for _, name := range r.created {
		st.Create = append(st.Create, *r.rows[name])
	}
	isDeleted := map[string]bool{}
	for _, id := range r.deleted {
		isDeleted[id] = true
	}
	for _, a := range r.in.Actions {
		if isDeleted[a.ID] {
			continue
		}
		cur := r.rows[a.Name]
		if cur != nil && *cur != a {
			cur.LastModified = r.now
			st.Update = append(st.Update, *cur)
		}
	}
	st.Delete = r.deleted
	if r.job.Status == store.WorkflowRunning {
		for _, name := range r.starts {
			if row := r.rows[name]; row != nil && row.Status.Startable() {
				st.Start = append(st.Start, row.ID)
			}
		}
	}
	for _, name := range r.kills {
		st.Kill = append(st.Kill, r.rows[name].ID)
	}
	st.Retry = r.retries
	sort.Slice(st.Retry, func(i, j int) bool { return st.Retry[i].Node < st.Retry[j].Node })
	if r.done {
		st.Retry = nil
	}
	r.job.Instance = r.inst.Encode()
	if !st.Empty() || !sameJob(r.job, r.in.Job) {
		r.job.LastModified = r.now
		job := r.job
		st.Job = &job
	}
	return st
}

// sameJob reports whether two job rows are equal.
func sameJob(a, b store.WorkflowJob) bool {
	ai, bi := a.Instance, b.Instance
	a.Instance, b.Instance = nil, nil
	if !reflect.DeepEqual(a, b) {
		return false
	}
	if len(bi) == 0 {
		fresh := &Instance{V: instanceVersion}
		fresh.init()
		bi = fresh.Encode()
	}
	return bytes.Equal(ai, bi)
}
