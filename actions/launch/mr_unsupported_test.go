package launch

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
)

// TestPipesRefusalSaysWhy: a pipes job ends in ERROR naming its program,
// why gozie cannot run it, and what runs instead.
func TestPipesRefusalSaysWhy(t *testing.T) {
	t.Parallel()
	body := `<map-reduce xmlns="uri:oozie:workflow:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node>` +
		`<pipes><program>bin/wordcount#wc</program></pipes></map-reduce>`
	_, err := planFor(t, "map-reduce", body, nil)
	if actions.KindOf(err) != actions.ActionError {
		t.Fatalf("plan: %v, want an action error", err)
	}
	for _, want := range []string{codeUnsupported, "program [bin/wordcount#wc]", "binary pipes protocol", "PipesMain", "<streaming>", "mapred pipes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q lacks %q", err, want)
		}
	}
}

// TestCustomLauncherMainIsRefused: a map-reduce action naming a launcher
// main class of its own ends in ERROR naming it; Oozie's own mains are
// what gozie does anyway.
func TestCustomLauncherMainIsRefused(t *testing.T) {
	t.Parallel()
	body := func(class string) string {
		return `<map-reduce xmlns="uri:oozie:workflow:0.5"><job-tracker>rm</job-tracker><name-node>file:///</name-node>` +
			`<configuration><property><name>` + PropLauncherMainClass + `</name><value>` + class + `</value></property>` +
			`<property><name>mapred.input.dir</name><value>/in</value></property></configuration></map-reduce>`
	}
	_, err := planFor(t, "map-reduce", body("org.apache.oozie.example.DemoMapReduceMain"), nil)
	if actions.KindOf(err) != actions.ActionError || !strings.Contains(err.Error(), codeUnsupported) ||
		!strings.Contains(err.Error(), "[org.apache.oozie.example.DemoMapReduceMain]") {
		t.Errorf("custom main: %v, want %s naming the class", err, codeUnsupported)
	}
	if _, err := planFor(t, "map-reduce", body("org.apache.oozie.action.hadoop.MapReduceMain"), nil); err != nil {
		t.Errorf("Oozie's own MapReduceMain: %v", err)
	}
}
