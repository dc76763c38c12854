package workflow

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/store"
)

// mrStats is a map-reduce action's stats as the executor records them:
// Oozie's MRStats JSON, Hadoop 3 group names.
const mrStats = `{"ACTION_TYPE":"MAP_REDUCE",` +
	`"org.apache.hadoop.mapreduce.TaskCounter":{"MAP_INPUT_RECORDS":5,"MAP_OUTPUT_RECORDS":5,` +
	`"REDUCE_INPUT_RECORDS":5,"REDUCE_OUTPUT_RECORDS":5,"REDUCE_INPUT_GROUPS":4},` +
	`"org.apache.hadoop.mapreduce.JobCounter":{"TOTAL_LAUNCHED_MAPS":1},` +
	`"Shuffle Errors":{"BAD_ID":0}}`

func countersEnv(t *testing.T) *el.Env {
	t.Helper()
	c := &Context{
		Job:  &store.WorkflowJob{ID: "0000001-250309100000000-gozie-W", User: "alice"},
		Conf: &conf.Properties{},
		Actions: map[string]*store.WorkflowAction{
			"mr-node": {Name: "mr-node", Type: "map-reduce", Status: store.ActionOK, Stats: mrStats},
			"old-mr": {Name: "old-mr", Type: "map-reduce", Status: store.ActionOK,
				Stats: `{"ACTION_TYPE":"MAP_REDUCE","org.apache.hadoop.mapred.Task$Counter":{"MAP_INPUT_RECORDS":7}}`},
			"failed-mr": {Name: "failed-mr", Type: "map-reduce", Status: store.ActionError},
			"sh":        {Name: "sh", Type: "shell", Status: store.ActionOK, Stats: mrStats},
		},
	}
	reg := el.NewRegistry()
	RegisterHadoopFunctions(reg, nil)
	return c.Env(reg, func() time.Time { return t0 }, nil)
}

// hadoop:counters reads the map-reduce node's stats: group → counter →
// long, RECORDS (the old group name) answering with Hadoop 3's
// TaskCounter group, as in Oozie's hadoop-el example decision.
func TestHadoopCounters(t *testing.T) {
	t.Parallel()
	env := countersEnv(t)
	tests := []struct {
		expr string
		want any
	}{
		{"${hadoop:counters('mr-node')[RECORDS][MAP_IN]}", int64(5)},
		{"${hadoop:counters('mr-node')[RECORDS][GROUPS]}", int64(4)},
		{"${hadoop:counters('mr-node')['org.apache.hadoop.mapreduce.TaskCounter'][REDUCE_OUT]}", int64(5)},
		{"${hadoop:counters('mr-node')['org.apache.hadoop.mapreduce.JobCounter']['TOTAL_LAUNCHED_MAPS']}", int64(1)},
		{"${hadoop:counters('mr-node')['Shuffle Errors']['BAD_ID']}", int64(0)},
		{"${hadoop:counters('mr-node')['ACTION_TYPE']}", "MAP_REDUCE"},
		{"${hadoop:counters('mr-node')['no.such.group']['X']}", nil},
		{"${hadoop:counters('old-mr')[RECORDS][MAP_IN]}", int64(7)},
		{`${(hadoop:counters("mr-node")[RECORDS][MAP_IN] == hadoop:counters("mr-node")[RECORDS][MAP_OUT]) and ` +
			`(hadoop:counters("mr-node")[RECORDS][REDUCE_IN] == hadoop:counters("mr-node")[RECORDS][REDUCE_OUT]) and ` +
			`(hadoop:counters("mr-node")[RECORDS][GROUPS] gt 0)}`, true},
	}
	for _, tt := range tests {
		got, err := env.Eval(tt.expr)
		if err != nil {
			t.Errorf("Eval(%s): %v", tt.expr, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Eval(%s) = %#v, want %#v", tt.expr, got, tt.want)
		}
	}
}

// A node without counters is Oozie's error, whatever the reason: not a
// map-reduce action, not ended OK, not in the workflow.
func TestHadoopCountersUnavailable(t *testing.T) {
	t.Parallel()
	env := countersEnv(t)
	for _, node := range []string{"sh", "failed-mr", "nope"} {
		_, err := env.Eval("${hadoop:counters('" + node + "')[RECORDS][MAP_IN]}")
		var ue *CountersUnavailableError
		if !errors.As(err, &ue) || ue.Node != node {
			t.Errorf("hadoop:counters(%q): err = %v, want CountersUnavailableError", node, err)
			continue
		}
		if want := "Hadoop counters not available for action [" + node + "]"; !strings.Contains(err.Error(), want) {
			t.Errorf("hadoop:counters(%q): %v, want it to say %q", node, err, want)
		}
	}
}

func TestParseCountersRejectsBadStats(t *testing.T) {
	t.Parallel()
	if _, err := ParseCounters("{not json"); err == nil {
		t.Fatal("ParseCounters accepted broken JSON")
	}
}
