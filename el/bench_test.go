package el

import (
	"fmt"
	"testing"
)

// A workflow start evaluates every property of every action configuration; these texts are
// typical of Oozie examples.
var benchTexts = []string{
	"${jobTracker}",
	"${nameNode}",
	"${queueName}",
	"${nameNode}/user/${wf:user()}/${examplesRoot}/output-data/${outputDir}",
	"mapred.job.queue.name",
	"${wf:conf('oozie.wf.application.path')}/lib",
	"${concat(nameNode, '/tmp')}",
	"${wf:actionData('a')['k'] eq 'v' ? 'yes' : 'no'}",
	"${10 * GB}",
}

func benchEnv() *Env {
	vars := map[string]any{
		"jobTracker": "rm:8032", "nameNode": "hdfs://nn:8020", "queueName": "default",
		"examplesRoot": "examples", "outputDir": "out",
	}
	r := NewRegistry()
	r.RegisterArity("wf:user", 0, func(*Env, []any) (any, error) { return "alice", nil })
	r.RegisterArity("wf:conf", 1, func(_ *Env, args []any) (any, error) { return "hdfs://nn/app", nil })
	data := map[string]string{"k": "v"}
	r.RegisterArity("wf:actionData", 1, func(*Env, []any) (any, error) { return data, nil })
	return &Env{Funcs: Basic().With(r), Vars: ChainVars(MapVars(vars), MapVars(Constants()))}
}

func BenchmarkParse(b *testing.B) {
	text := benchTexts[3]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTemplateEval(b *testing.B) {
	env := benchEnv()
	for _, text := range benchTexts {
		tmpl, err := Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%.30s", text), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tmpl.Eval(env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWorkflowStart evaluates all benchmark texts through Env.EvalString (cache hits),
// about what one workflow start costs; 100 starts per second need well under 10 ms here.
func BenchmarkWorkflowStart(b *testing.B) {
	env := benchEnv()
	b.ReportAllocs()
	for b.Loop() {
		for _, text := range benchTexts {
			if _, err := env.EvalString(text); err != nil {
				b.Fatal(err)
			}
		}
	}
}
