package workflow

import (
	"errors"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/store"
)

func TestWorkflowEL(t *testing.T) {
	t.Parallel()
	job := &store.WorkflowJob{ID: "0000003-250309100000000-gozie-W", AppName: "etl", AppPath: "hdfs://nn/apps/etl",
		User: "alice", Group: "analytics", Run: 2}
	ctx := &Context{
		Job:  job,
		Conf: conf.NewProperties("queueName", "  etl  ", "a.b", "dotted", "nameNode", "hdfs://nn", "GROUPS", "mine"),
		Actions: map[string]*store.WorkflowAction{
			"sh": {Name: "sh", Transition: "next", ExternalID: "application_1_2", TrackerURI: "rm:8088",
				ExternalStatus: "SUCCEEDED", Data: "k=v\nn=42\n"},
			"bad": {Name: "bad", ErrorCode: "JA018", ErrorMessage: "Main Class [x], exit code [1]"},
		},
		LastErrorNode: "bad",
		ActionID:      job.ID + "@sh",
		CallbackURL:   func(id, status string) string { return "http://g/callback?id=" + id + "&status=" + status },
	}
	env := ctx.Env(nil, func() time.Time { return t0 }, nil)
	tests := []struct {
		expr string
		want any
	}{
		{"${wf:id()}", job.ID},
		{"${wf:name()}", "etl"},
		{"${wf:appPath()}", "hdfs://nn/apps/etl"},
		{"${wf:user()}/${wf:group()}", "alice/analytics"},
		{"${wf:run()}", int64(2)},
		{"${wf:conf('a.b')}", "dotted"},
		{"${wf:conf('missing')}", ""},
		{"${queueName}", "etl"},
		{"${nameNode}/user/${wf:user()}", "hdfs://nn/user/alice"},
		{"${wf:callback('$STATUS')}", "http://g/callback?id=" + job.ID + "@sh&status=$STATUS"},
		{"${wf:transition('sh')}", "next"},
		{"${wf:transition('nope')}", ""},
		{"${wf:lastErrorNode()}", "bad"},
		{"${wf:errorCode(wf:lastErrorNode())}", "JA018"},
		{"${wf:errorMessage('bad')}", "Main Class [x], exit code [1]"},
		{"${wf:errorMessage('sh')}", ""},
		{"${wf:actionData('sh')['k']}", "v"},
		{"${wf:actionData('sh')['n'] + 1}", int64(43)},
		{"${wf:actionData('bad')['k']}", nil},
		{"${empty wf:actionData('bad')}", true},
		{"${wf:actionExternalId('sh')}", "application_1_2"},
		{"${wf:actionTrackerUri('sh')}", "rm:8088"},
		{"${wf:actionExternalStatus('sh')}", "SUCCEEDED"},
		{"${wf:actionExternalStatus('nope')}", ""},
		{"${KB * 2}", int64(2048)},
		{"${GROUPS}", "mine"},
		{"${RECORDS}", CounterRecords},
		{"${REDUCE_OUT}", CounterReduceOut},
		{"${concat(wf:name(), '-x')}", "etl-x"},
	}
	for _, tt := range tests {
		got, err := env.Eval(tt.expr)
		if err != nil {
			t.Errorf("Eval(%s): %v", tt.expr, err)
			continue
		}
		if gotMap, ok := got.(map[string]string); ok && len(gotMap) == 0 {
			got = map[string]string(nil)
		}
		if got != tt.want {
			t.Errorf("Eval(%s) = %#v, want %#v", tt.expr, got, tt.want)
		}
	}
}

func TestWorkflowELErrors(t *testing.T) {
	t.Parallel()
	ctx := &Context{Job: &store.WorkflowJob{ID: "w"}, Conf: &conf.Properties{}}
	env := ctx.Env(nil, nil, nil)
	for _, expr := range []string{"${undefinedVar}", "${wf:callback('x')}", "${wf:id(1)}", "${wf:nope()}"} {
		if _, err := env.Eval(expr); err == nil {
			t.Errorf("Eval(%s) succeeded", expr)
		}
	}
	if _, err := env.Eval("${undefinedVar}"); !errors.Is(err, el.ErrUnknownVariable) {
		t.Errorf("unknown variable error = %v", err)
	}
	bare := &el.Env{Funcs: Functions()}
	if _, err := bare.Eval("${wf:id()}"); err == nil {
		t.Error("wf:id() without a context succeeded")
	}
}

func TestExtraFunctions(t *testing.T) {
	t.Parallel()
	extra := el.NewRegistry()
	extra.RegisterArity("fs:exists", 1, func(_ *el.Env, args []any) (any, error) {
		return el.ToString(args[0]) == "hdfs://nn/there", nil
	})
	ctx := &Context{Job: &store.WorkflowJob{ID: "w"}, Conf: &conf.Properties{}}
	env := ctx.Env(extra, nil, nil)
	got, err := env.Eval("${fs:exists('hdfs://nn/there') and wf:id() eq 'w'}")
	if err != nil || got != true {
		t.Errorf("Eval = %v, %v", got, err)
	}
}
