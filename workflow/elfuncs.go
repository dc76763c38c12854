package workflow

import (
	"errors"
	"fmt"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/store"
)

// Context is the state the wf: EL functions read: the Data of their el.Env.
type Context struct {
	Job     *store.WorkflowJob
	Conf    *conf.Properties                 // the job configuration
	Actions map[string]*store.WorkflowAction // the job's action rows by node name
	// LastErrorNode is the last action that ended in ERROR.
	LastErrorNode string
	// ActionID is the action whose configuration is being resolved, for
	// wf:callback.
	ActionID string
	// CallbackURL builds wf:callback's URL; nil makes wf:callback an error.
	CallbackURL func(actionID, status string) string
}

// Hadoop counter names Oozie defines as workflow EL constants, for
// hadoop:counters('node')[RECORDS][MAP_IN].
const (
	CounterRecords   = "org.apache.hadoop.mapred.Task$Counter"
	CounterMapIn     = "MAP_INPUT_RECORDS"
	CounterMapOut    = "MAP_OUTPUT_RECORDS"
	CounterReduceIn  = "REDUCE_INPUT_RECORDS"
	CounterReduceOut = "REDUCE_OUTPUT_RECORDS"
	CounterGroups    = "REDUCE_INPUT_GROUPS"
)

// Constants returns the constants of workflow EL: KB, MB, GB, TB, PB and the
// Hadoop counter names RECORDS, MAP_IN, MAP_OUT, REDUCE_IN, REDUCE_OUT,
// GROUPS.
func Constants() map[string]any {
	c := el.Constants()
	c["RECORDS"] = CounterRecords
	c["MAP_IN"] = CounterMapIn
	c["MAP_OUT"] = CounterMapOut
	c["REDUCE_IN"] = CounterReduceIn
	c["REDUCE_OUT"] = CounterReduceOut
	c["GROUPS"] = CounterGroups
	return c
}

// Variables returns the EL variable lookup of a job: every property of conf
// whose name is a Java identifier, value trimmed, over the constants.
func Variables(jobConf *conf.Properties) func(string) (any, bool) {
	vars := make(map[string]any, jobConf.Len())
	for k, v := range jobConf.All() {
		if isJavaIdentifier(k) {
			vars[k] = trimJava(v)
		}
	}
	return el.ChainVars(el.MapVars(vars), el.MapVars(Constants()))
}

// trimJava trims like Java's String.trim: every character up to U+0020.
func trimJava(s string) string {
	start, end := 0, len(s)
	for start < end && s[start] <= ' ' {
		start++
	}
	for end > start && s[end-1] <= ' ' {
		end--
	}
	return s[start:end]
}

// Functions returns a registry with the wf: functions.
func Functions() *el.Registry {
	r := el.NewRegistry()
	RegisterFunctions(r)
	return r
}

// RegisterFunctions adds the wf: functions to r:
//
//	wf:id() wf:name() wf:appPath() wf:user() wf:group() wf:run()
//	wf:conf(name)                  a job property, "" when unset
//	wf:callback(status)            the callback URL of the current action
//	wf:transition(node)            the node taken on leaving node, "" if none yet
//	wf:lastErrorNode()             the last action that ended in ERROR, "" if none
//	wf:errorCode(node)  wf:errorMessage(node)
//	wf:actionData(node)            the captured output as a map
//	wf:actionExternalId(node) wf:actionTrackerUri(node) wf:actionExternalStatus(node)
//
// They read the *Context in the Env's Data.
func RegisterFunctions(r *el.Registry) {
	job := func(get func(*store.WorkflowJob) any) el.Func {
		return func(env *el.Env, _ []any) (any, error) {
			c, err := contextOf(env)
			if err != nil {
				return nil, err
			}
			return get(c.Job), nil
		}
	}
	r.RegisterArity("wf:id", 0, job(func(j *store.WorkflowJob) any { return j.ID }))
	r.RegisterArity("wf:name", 0, job(func(j *store.WorkflowJob) any { return j.AppName }))
	r.RegisterArity("wf:appPath", 0, job(func(j *store.WorkflowJob) any { return j.AppPath }))
	r.RegisterArity("wf:user", 0, job(func(j *store.WorkflowJob) any { return j.User }))
	r.RegisterArity("wf:group", 0, job(func(j *store.WorkflowJob) any { return j.Group }))
	r.RegisterArity("wf:run", 0, job(func(j *store.WorkflowJob) any { return int64(j.Run) }))
	r.RegisterArity("wf:conf", 1, func(env *el.Env, args []any) (any, error) {
		c, err := contextOf(env)
		if err != nil {
			return nil, err
		}
		return c.Conf.Value(el.ToString(args[0])), nil
	})
	r.RegisterArity("wf:callback", 1, func(env *el.Env, args []any) (any, error) {
		c, err := contextOf(env)
		if err != nil {
			return nil, err
		}
		if c.CallbackURL == nil || c.ActionID == "" {
			return nil, errors.New("wf:callback is only available in an action's configuration")
		}
		return c.CallbackURL(c.ActionID, el.ToString(args[0])), nil
	})
	r.RegisterArity("wf:lastErrorNode", 0, func(env *el.Env, _ []any) (any, error) {
		c, err := contextOf(env)
		if err != nil {
			return nil, err
		}
		return c.LastErrorNode, nil
	})
	action := func(get func(*store.WorkflowAction) any, none any) el.Func {
		return func(env *el.Env, args []any) (any, error) {
			c, err := contextOf(env)
			if err != nil {
				return nil, err
			}
			a := c.Actions[el.ToString(args[0])]
			if a == nil {
				return none, nil
			}
			return get(a), nil
		}
	}
	r.RegisterArity("wf:transition", 1, action(func(a *store.WorkflowAction) any { return a.Transition }, ""))
	r.RegisterArity("wf:errorCode", 1, action(func(a *store.WorkflowAction) any { return a.ErrorCode }, ""))
	r.RegisterArity("wf:errorMessage", 1, action(func(a *store.WorkflowAction) any { return a.ErrorMessage }, ""))
	r.RegisterArity("wf:actionExternalId", 1, action(func(a *store.WorkflowAction) any { return a.ExternalID }, ""))
	r.RegisterArity("wf:actionTrackerUri", 1, action(func(a *store.WorkflowAction) any { return a.TrackerURI }, ""))
	r.RegisterArity("wf:actionExternalStatus", 1, action(func(a *store.WorkflowAction) any { return a.ExternalStatus }, ""))
	r.RegisterArity("wf:actionData", 1, func(env *el.Env, args []any) (any, error) {
		c, err := contextOf(env)
		if err != nil {
			return nil, err
		}
		a := c.Actions[el.ToString(args[0])]
		if a == nil || a.Data == "" {
			return map[string]string{}, nil
		}
		// A map is what EL indexes: wf:actionData('node')['key'].
		return conf.ParseOutputProperties(a.Data).Map(), nil
	})
}

// contextOf returns the *Context of env.
func contextOf(env *el.Env) (*Context, error) {
	if env != nil {
		if c, ok := env.Data.(*Context); ok && c != nil && c.Job != nil {
			return c, nil
		}
	}
	return nil, fmt.Errorf("wf: functions need a workflow context, got %T", envData(env))
}

func envData(env *el.Env) any {
	if env == nil {
		return nil
	}
	return env.Data
}

// workflowFuncs is the basic and wf: functions, built once and only read.
var workflowFuncs = el.Basic().With(Functions())

// Env returns an el.Env for c: the basic and wf: functions plus extra, the
// job's variables and the constants, the clock and the processing zone.
func (c *Context) Env(extra *el.Registry, now func() time.Time, loc *time.Location) *el.Env {
	funcs := workflowFuncs
	if extra != nil {
		funcs = funcs.With(extra)
	}
	return &el.Env{
		Funcs:    funcs,
		Vars:     Variables(c.Conf),
		Data:     c,
		Now:      now,
		Location: loc,
	}
}
