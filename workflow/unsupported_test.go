package workflow

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

// TestUnsupportedActionTypes: an action is refused with E0723, saying gozie
// does not support its type, when the parser does not model it or when the
// server's executors (Options.HasExecutor) do not take its type.
func TestUnsupportedActionTypes(t *testing.T) {
	t.Parallel()
	const email = `<action name="m"><email xmlns="uri:oozie:email-action:0.2"><to>a@b</to><subject>s</subject><body>b</body></email>` +
		`<ok to="end"/><error to="end"/></action>`
	const flume = `<action name="p"><flume xmlns="uri:custom:flume-action:0.1"/><ok to="end"/><error to="end"/></action>`
	const custom = `<action name="c"><my-action xmlns="uri:custom:1.0"/><ok to="end"/><error to="end"/></action>`
	only := func(types ...string) func(string) bool {
		return func(t string) bool { return contains(types, t) }
	}
	tests := []struct {
		name string
		body string
		has  func(string) bool
		node string // "" = valid
		msg  string
	}{
		{"modelled type, no registry", `<start to="m"/>` + email + `<end name="end"/>`, nil, "", ""},
		{"modelled type with an executor", `<start to="m"/>` + email + `<end name="end"/>`, only("email"), "", ""},
		{"modelled type without an executor", `<start to="m"/>` + email + `<end name="end"/>`, only("shell", "fs"),
			"m", "Unsupported action type, node [m] type [email]: gozie does not support email actions"},
		{"type the parser does not model", `<start to="p"/>` + flume + `<end name="end"/>`, func(string) bool { return true },
			"p", "Unsupported action type, node [p] type [flume]: gozie does not support flume (uri:custom:flume-action:0.1) actions"},
		{"custom namespace", `<start to="c"/>` + custom + `<end name="end"/>`, nil,
			"c", "Unsupported action type, node [c] type [my-action]: gozie does not support my-action (uri:custom:1.0) actions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			app, err := Parse([]byte(wf(tt.body)))
			if err != nil {
				t.Fatal(err)
			}
			err = Validate(app, Options{HasExecutor: tt.has})
			if tt.node == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			we := wantCode(t, err, oozieerr.E0723)
			if we.Node != tt.node || we.Msg != tt.msg || we.Line == 0 {
				t.Errorf("error %v (node %q), want node %q and %q with a line", err, we.Node, tt.node, tt.msg)
			}
		})
	}
}

// TestUnsupportedActionsListsEveryNode: UnsupportedActions names every
// action gozie cannot run, in document order, reachable or not.
func TestUnsupportedActionsListsEveryNode(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(wf(`<start to="p"/>` +
		`<action name="p"><flume xmlns="uri:custom:flume-action:0.1"/><ok to="end"/><error to="end"/></action>` +
		fsAction("f", "end", "end") +
		`<action name="unreached"><my-action xmlns="uri:custom:1.0"/><ok to="end"/><error to="end"/></action>` +
		`<end name="end"/>`)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range app.UnsupportedActions(Options{}) {
		got = append(got, e.Node)
	}
	if strings.Join(got, ",") != "p,unreached" {
		t.Errorf("unsupported nodes %v, want p and unreached", got)
	}
	if n := len(app.UnsupportedActions(Options{HasExecutor: func(t string) bool { return t != "fs" }})); n != 3 {
		t.Errorf("%d unsupported without an fs executor, want 3", n)
	}
}
