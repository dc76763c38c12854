package workflow

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/oozieerr"
)

// fsAction is the smallest action: an fs action without operations.
func fsAction(name, ok, errTo string) string {
	return `<action name="` + name + `"><fs/><ok to="` + ok + `"/><error to="` + errTo + `"/></action>`
}

func fork(name string, paths ...string) string {
	s := `<fork name="` + name + `">`
	for _, p := range paths {
		s += `<path start="` + p + `"/>`
	}
	return s + `</fork>`
}

func join(name, to string) string { return `<join name="` + name + `" to="` + to + `"/>` }

func TestValidate(t *testing.T) {
	t.Parallel()
	const k = `<kill name="k"><message>m</message></kill>`
	tests := []struct {
		name string
		body string
		opts Options
		code oozieerr.Code // "" = valid
		node string
		msg  string
	}{
		{name: "minimal", body: `<start to="end"/><end name="end"/>`},
		{name: "fork join", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "j", "k") + fsAction("b", "j", "k") +
			join("j", "end") + k + `<end name="end"/>`},
		{name: "nested forks", body: `<start to="f"/>` + fork("f", "a", "g") + fsAction("a", "j", "k") + fork("g", "c", "d") +
			fsAction("c", "jg", "k") + fsAction("d", "jg", "k") + join("jg", "j") + join("j", "end") + k + `<end name="end"/>`},
		{name: "decision in fork path", body: `<start to="f"/>` + fork("f", "d", "b") +
			`<decision name="d"><switch><case to="a">${true}</case><default to="c"/></switch></decision>` +
			fsAction("a", "c", "k") + fsAction("c", "j", "k") + fsAction("b", "j", "k") + join("j", "end") + k + `<end name="end"/>`},
		{name: "chained decisions reach one node", body: `<start to="d1"/>` +
			`<decision name="d1"><switch><case to="a">${x}</case><default to="d2"/></switch></decision>` +
			`<decision name="d2"><switch><case to="a">${y}</case><default to="b"/></switch></decision>` +
			fsAction("b", "a", "k") + fsAction("a", "end", "k") + k + `<end name="end"/>`},
		{name: "unreachable nodes are fine", body: `<start to="end"/>` + fsAction("a", "end", "end") + k + `<end name="end"/>`},
		{name: "bad name", body: `<start to="9a"/>` + fsAction("9a", "end", "end") + `<end name="end"/>`,
			code: oozieerr.E0724, node: "9a", msg: "must match"},
		{name: "bad name char", body: `<start to="a.b"/>` + fsAction("a.b", "end", "end") + `<end name="end"/>`,
			code: oozieerr.E0724, node: "a.b"},
		{name: "long name", body: `<start to="` + strings.Repeat("a", 129) + `"/>` + fsAction(strings.Repeat("a", 129), "end", "end") + `<end name="end"/>`,
			code: oozieerr.E0724, msg: "128 chars or less"},
		{name: "name limit option", body: `<start to="abcdef"/>` + fsAction("abcdef", "end", "end") + `<end name="end"/>`,
			opts: Options{MaxNodeNameLength: 5}, code: oozieerr.E0724, node: "abcdef"},
		{name: "self transition", body: `<start to="a"/>` + fsAction("a", "a", "end") + `<end name="end"/>`,
			code: oozieerr.E0706, node: "a"},
		{name: "missing target", body: `<start to="a"/>` + fsAction("a", "nowhere", "end") + `<end name="end"/>`,
			code: oozieerr.E0708, node: "a", msg: "transition [nowhere]"},
		{name: "missing start target", body: `<start to="nowhere"/><end name="end"/>`,
			code: oozieerr.E0708, node: ":start:"},
		{name: "EL in transition", body: `<start to="a"/>` + fsAction("a", "${next}", "end") + `<end name="end"/>`,
			code: oozieerr.E0708, node: "a"},
		{name: "loop", body: `<start to="a"/>` + fsAction("a", "b", "end") + fsAction("b", "c", "end") + fsAction("c", "a", "end") + `<end name="end"/>`,
			code: oozieerr.E0707, node: "a", msg: "path [:start:->a->b->c->a]"},
		{name: "loop through error", body: `<start to="a"/>` + fsAction("a", "end", "b") + fsAction("b", "end", "a") + `<end name="end"/>`,
			code: oozieerr.E0707, node: "a"},
		{name: "unsupported", body: `<start to="p"/><action name="p"><flume xmlns="uri:custom:flume-action:0.1"/><ok to="end"/><error to="end"/></action><end name="end"/>`,
			code: oozieerr.E0723, node: "p", msg: "type [flume]"},
		{name: "custom type", body: `<start to="p"/><action name="p"><my-action xmlns="uri:custom:1.0"/><ok to="end"/><error to="end"/></action><end name="end"/>`,
			code: oozieerr.E0723, node: "p", msg: "type [my-action]"},
		{name: "no name-node", body: `<start to="s"/><action name="s"><shell xmlns="uri:oozie:shell-action:1.0"><resource-manager>r</resource-manager><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`,
			code: oozieerr.E0701, node: "s", msg: "No name-node"},
		{name: "no resource-manager", body: `<start to="s"/><action name="s"><shell xmlns="uri:oozie:shell-action:1.0"><name-node>n</name-node><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`,
			code: oozieerr.E0701, node: "s", msg: "No job-tracker or resource-manager"},
		{name: "cluster from global", body: `<global><resource-manager>r</resource-manager><name-node>n</name-node></global><start to="s"/><action name="s"><shell xmlns="uri:oozie:shell-action:1.0"><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`},
		{name: "cluster from options", body: `<start to="s"/><action name="s"><shell xmlns="uri:oozie:shell-action:1.0"><exec>x</exec></shell><ok to="end"/><error to="end"/></action><end name="end"/>`,
			opts: Options{DefaultNameNode: "hdfs://nn", DefaultResourceManager: "rm:8032"}},
		{name: "fork join count", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "end", "k") + fsAction("b", "end", "k") + k + `<end name="end"/>`,
			code: oozieerr.E0730},
		{name: "fork without join", body: `<start to="d"/><decision name="d"><switch><case to="f">${x}</case><default to="j2"/></switch></decision>` +
			fork("f", "a", "b") + fsAction("a", "k", "k") + fsAction("b", "k", "k") + join("j2", "end") + k + `<end name="end"/>`,
			code: oozieerr.E0733, node: "f"},
		{name: "end in fork", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "end", "k") + fsAction("b", "j", "k") +
			join("j", "end") + k + `<end name="end"/>`, code: oozieerr.E0737, node: "a", msg: "from node [a] to node [end]"},
		{name: "end in fork not checked", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "end", "k") + fsAction("b", "j", "k") +
			join("j", "end") + k + `<end name="end"/>`, opts: Options{SkipForkJoinValidation: true}},
		{name: "join without fork", body: `<start to="d"/><decision name="d"><switch><case to="j2">${x}</case><default to="f1"/></switch></decision>` +
			fork("f1", "a", "b") + fsAction("a", "j1", "k") + fsAction("b", "j1", "k") + join("j1", "f2") +
			fork("f2", "c", "e") + fsAction("c", "k", "k") + fsAction("e", "k", "k") + join("j2", "end") + k + `<end name="end"/>`,
			code: oozieerr.E0742, node: "j2"},
		{name: "paths meet before the join", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "c", "k") + fsAction("b", "c", "k") +
			fsAction("c", "j", "k") + join("j", "end") + k + `<end name="end"/>`, code: oozieerr.E0743, node: "c"},
		{name: "fork lists a node twice", body: `<start to="f"/>` + fork("f", "a", "a") + fsAction("a", "j", "k") + join("j", "end") + k + `<end name="end"/>`,
			code: oozieerr.E0744, node: "f", msg: "same node, [a]"},
		{name: "fork with two joins", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "j1", "k") + fsAction("b", "j2", "k") +
			join("j1", "f2") + join("j2", "end") + fork("f2", "c", "e") + fsAction("c", "k", "k") + fsAction("e", "k", "k") + k + `<end name="end"/>`,
			code: oozieerr.E0757, node: "f", msg: "[j1,j2]"},
		{name: "join with two forks", body: `<start to="f1"/>` + fork("f1", "a", "f2") + fsAction("a", "j", "k") + fork("f2", "c", "e") +
			fsAction("c", "j", "k") + fsAction("e", "j2", "k") + join("j", "end") + join("j2", "end") + k + `<end name="end"/>`,
			code: oozieerr.E0758, node: "j"},
		{name: "error path may leave the fork", body: `<start to="f"/>` + fork("f", "a", "b") + fsAction("a", "j", "cleanup") + fsAction("b", "j", "cleanup") +
			fsAction("cleanup", "k", "k") + join("j", "end") + k + `<end name="end"/>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			app, err := Parse([]byte(wf(tt.body)))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			err = Validate(app, tt.opts)
			if tt.code == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			we := wantCode(t, err, tt.code)
			if tt.node != "" && we.Node != tt.node {
				t.Errorf("node = %q, want %q (%v)", we.Node, tt.node, err)
			}
			if !strings.Contains(we.Msg, tt.msg) {
				t.Errorf("message %q does not contain %q", we.Msg, tt.msg)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<start to="a"/>`+fsAction("a", "end", "end")+fsAction("b", "end", "k")+
		`<kill name="k"><message>m</message></kill><end name="end"/>`))
	if got := app.Unreachable(); !equalStrings(got, []string{"b", "k"}) {
		t.Errorf("Unreachable = %v, want [b k]", got)
	}
}

func TestOptionsForJob(t *testing.T) {
	t.Parallel()
	if !OptionsForJob(Options{}, conf.NewProperties(PropValidateForkJoin, " FALSE ")).SkipForkJoinValidation {
		t.Error("oozie.wf.validate.ForkJoin=false did not skip validation")
	}
	if OptionsForJob(Options{}, conf.NewProperties(PropValidateForkJoin, "true")).SkipForkJoinValidation {
		t.Error("oozie.wf.validate.ForkJoin=true skipped validation")
	}
}
