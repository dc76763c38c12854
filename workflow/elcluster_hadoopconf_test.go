package workflow

import (
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/store"
)

// TestHadoopConfExpands: hadoop:conf answers from the server's Hadoop configuration with
// ${name} references expanded, "" for a name it lacks, and "" for every name without one.
func TestHadoopConfExpands(t *testing.T) {
	t.Parallel()
	hconf := conf.NewHadoop(conf.NewProperties("base", "/data", "dir", "${base}/in"), nil)
	for _, tc := range []struct {
		hconf      *conf.Hadoop
		name, want string
	}{
		{hconf, "dir", "/data/in"},
		{hconf, "not.set", ""},
		{nil, "dir", ""},
	} {
		r := el.NewRegistry()
		RegisterHadoopFunctions(r, tc.hconf)
		c := &Context{Job: &store.WorkflowJob{ID: "w"}}
		got, err := c.Env(r, nil, nil).EvalString("${hadoop:conf('nn:8020', '" + tc.name + "')}")
		if err != nil || got != tc.want {
			t.Errorf("hadoop:conf(%q) with %v = %q, %v; want %q", tc.name, tc.hconf != nil, got, err, tc.want)
		}
	}
}
