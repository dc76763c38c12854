package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gozie/gozie/el"
)

// CounterRecordsGroup is the name Hadoop 0.23 and later give the group
// RECORDS names by its old name (org.apache.hadoop.mapred.Task$Counter).
const CounterRecordsGroup = "org.apache.hadoop.mapreduce.TaskCounter"

// mapReduceType is the action type whose rows carry job counters.
const mapReduceType = "map-reduce"

// hadoopCounters is hadoop:counters(node): the counters of the map-reduce
// action node, read from its row's Stats (which the map-reduce executor
// fills when the action's job succeeded), as a map of group name to a map
// of counter name to value. As in Oozie (HadoopELFunctions.hadoop_counters),
// the RECORDS group answers under its old name too, and a node without
// counters (not a map-reduce action, not ended OK, unknown, or run where
// no JobHistory server was configured) is an error: "Hadoop counters not
// available for action [node]".
func hadoopCounters(env *el.Env, args []any) (any, error) {
	c, err := contextOf(env)
	if err != nil {
		return nil, err
	}
	node := el.ToString(args[0])
	a := c.Actions[node]
	if a == nil || a.Type != mapReduceType || a.Stats == "" {
		return nil, &CountersUnavailableError{Node: node}
	}
	counters, err := ParseCounters(a.Stats)
	if err != nil {
		return nil, fmt.Errorf("hadoop:counters of action [%s]: %w", node, err)
	}
	return counters, nil
}

// ParseCounters reads a map-reduce action's stats (Oozie's MRStats JSON:
// ACTION_TYPE and one object of counters per group) into the value of
// hadoop:counters: group name to counter name to int64, ACTION_TYPE kept as
// its string. When the stats have no group under RECORDS' old name, the
// group of its new name (CounterRecordsGroup) answers under it as well, as
// Oozie arranges for the RECORDS constant.
func ParseCounters(stats string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(stats)))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("reading the stats JSON: %w", err)
	}
	out := make(map[string]any, len(raw)+1)
	for name, v := range raw {
		group, ok := v.(map[string]any)
		if !ok {
			out[name] = v // ACTION_TYPE
			continue
		}
		counters := make(map[string]any, len(group))
		for cn, cv := range group {
			counters[cn] = counterValue(cv)
		}
		out[name] = counters
	}
	if _, ok := out[CounterRecords]; !ok {
		if g, ok := out[CounterRecordsGroup]; ok {
			out[CounterRecords] = g
		}
	}
	return out, nil
}

// counterValue is a counter's JSON number as an int64 (a Java long), or as
// it was when it is no integer.
func counterValue(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, err := n.Int64(); err == nil {
		return i
	}
	if f, err := n.Float64(); err == nil {
		return f
	}
	return n.String()
}

// CountersUnavailableError is hadoop:counters' error for a node that has
// no counters, with Oozie's message.
type CountersUnavailableError struct {
	Node string
}

func (e *CountersUnavailableError) Error() string {
	return "Hadoop counters not available for action [" + e.Node + "]"
}
