package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gozie/gozie/store"
	"github.com/gozie/gozie/workflow"
)

// wf wraps node XML in a uri:oozie:workflow:1.0 document that starts at
// start.
func wf(start, body string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="test-wf"><start to="` + start + `"/>` + body + `</workflow-app>`
}

// fsAction is an fs action node.
func fsAction(name, ok, errTo string) string {
	return fmt.Sprintf(`<action name="%s"><fs><mkdir path="/data/%s"/></fs><ok to="%s"/><error to="%s"/></action>`, name, name, ok, errTo)
}

// shellAction is a shell action node.
func shellAction(name, ok, errTo string) string {
	return fmt.Sprintf(`<action name="%s"><shell xmlns="uri:oozie:shell-action:1.0">`+
		`<resource-manager>rm:8032</resource-manager><name-node>hdfs://nn:8020</name-node>`+
		`<exec>run.sh</exec></shell><ok to="%s"/><error to="%s"/></action>`, name, ok, errTo)
}

// fork, join, decision, kill and end return control nodes.
func fork(name string, paths ...string) string {
	var b strings.Builder
	b.WriteString(`<fork name="` + name + `">`)
	for _, p := range paths {
		b.WriteString(`<path start="` + p + `"/>`)
	}
	return b.String() + `</fork>`
}

func join(name, to string) string { return `<join name="` + name + `" to="` + to + `"/>` }

func decision(name, def string, cases ...string) string {
	var b strings.Builder
	b.WriteString(`<decision name="` + name + `"><switch>`)
	for i, c := range cases {
		fmt.Fprintf(&b, `<case to="%s">${wf:conf('x') eq '%d'}</case>`, c, i)
	}
	return b.String() + `<default to="` + def + `"/></switch></decision>`
}

func kill(name string) string {
	return `<kill name="` + name + `"><message>failed at ${wf:lastErrorNode()}</message></kill>`
}

func end(name string) string { return `<end name="` + name + `"/>` }

// parse parses a definition without validating its graph.
func parse(t testing.TB, def string) *workflow.App {
	t.Helper()
	app, err := workflow.Parse([]byte(def))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, def)
	}
	return app
}

// load parses and validates a definition.
func load(t testing.TB, def string) *workflow.App {
	t.Helper()
	app, err := workflow.Load([]byte(def), workflow.Options{})
	if err != nil {
		t.Fatalf("Load: %v\n%s", err, def)
	}
	return app
}

// layout lays out app, failing the test on error.
func layout(t testing.TB, app *workflow.App, rows []store.WorkflowAction, opts Options) *Graph {
	t.Helper()
	g, err := Layout(app, rows, opts)
	if err != nil {
		t.Fatalf("Layout: %v", err)
	}
	return g
}

// row is an action row of node name with a status and transition.
func row(name string, s store.ActionStatus, transition string) store.WorkflowAction {
	return store.WorkflowAction{ID: "0000001-250127091857123-gozie-test-W@" + name, Name: name, Status: s, Transition: transition}
}

// chainApp is a long workflow of n actions: a chain with a fork of three
// paths and a decision every ten actions, every error to a kill node.
func chainApp(n int) string {
	var b strings.Builder
	next := func(i int) string {
		if i >= n {
			return "end"
		}
		return fmt.Sprintf("a%d", i)
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("a%d", i)
		switch {
		case i%10 == 3 && i+4 < n:
			b.WriteString(fsAction(name, fmt.Sprintf("f%d", i), "fail"))
			b.WriteString(fork(fmt.Sprintf("f%d", i), fmt.Sprintf("p%d-0", i), fmt.Sprintf("p%d-1", i), fmt.Sprintf("p%d-2", i)))
			for p := range 3 {
				b.WriteString(shellAction(fmt.Sprintf("p%d-%d", i, p), fmt.Sprintf("j%d", i), "fail"))
			}
			b.WriteString(join(fmt.Sprintf("j%d", i), next(i+1)))
		case i%10 == 7:
			b.WriteString(fsAction(name, fmt.Sprintf("d%d", i), "fail"))
			b.WriteString(decision(fmt.Sprintf("d%d", i), next(i+1), next(i+2), next(i+1)))
		default:
			b.WriteString(fsAction(name, next(i+1), "fail"))
		}
	}
	return wf("a0", b.String()+kill("fail")+end("end"))
}
