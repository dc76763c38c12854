package clustertools

import (
	"bytes"
	"slices"
	"strings"
)

// Counter groups the stand-in MapReduce job counts in, by the names of
// Hadoop's counter enums (the group names a JobHistory server reports).
const (
	GroupTaskCounter       = "org.apache.hadoop.mapreduce.TaskCounter"
	GroupJobCounter        = "org.apache.hadoop.mapreduce.JobCounter"
	GroupFileSystemCounter = "org.apache.hadoop.mapreduce.FileSystemCounter"
)

// Counters of TaskCounter and JobCounter the stand-in counts.
const (
	CounterMapInputRecords     = "MAP_INPUT_RECORDS"
	CounterMapOutputRecords    = "MAP_OUTPUT_RECORDS"
	CounterReduceInputGroups   = "REDUCE_INPUT_GROUPS"
	CounterReduceInputRecords  = "REDUCE_INPUT_RECORDS"
	CounterReduceOutputRecords = "REDUCE_OUTPUT_RECORDS"
	CounterLaunchedMaps        = "TOTAL_LAUNCHED_MAPS"
	CounterLaunchedReduces     = "TOTAL_LAUNCHED_REDUCES"
)

// Display names of the groups and counters, as Hadoop's resource bundles
// (TaskCounter.properties, JobCounter.properties,
// FileSystemCounter.properties) give them.
var counterDisplay = map[string]string{
	GroupTaskCounter:           "Map-Reduce Framework",
	GroupJobCounter:            "Job Counters",
	GroupFileSystemCounter:     "File System Counters",
	CounterMapInputRecords:     "Map input records",
	CounterMapOutputRecords:    "Map output records",
	CounterReduceInputGroups:   "Reduce input groups",
	CounterReduceInputRecords:  "Reduce input records",
	CounterReduceOutputRecords: "Reduce output records",
	CounterLaunchedMaps:        "Launched map tasks",
	CounterLaunchedReduces:     "Launched reduce tasks",
}

// counter is one counter's value, split as a JobHistory server splits it:
// what map tasks counted and what reduce tasks counted; job-level counters
// (JobCounter) are counted by the AM and have only a total.
type counter struct {
	name               string
	mapValue, redValue int64
	jobValue           int64
}

func (c *counter) total() int64 { return c.mapValue + c.redValue + c.jobValue }

// counterGroup is one group's counters, in the order they were first counted.
type counterGroup struct {
	name     string
	counters []*counter
}

// jobCounters are what a job counted, by group, in the order of Hadoop's
// framework groups (sorted by name).
type jobCounters struct {
	groups []*counterGroup
}

// phase says who counted: a map task, a reduce task, or the AM.
type phase int

const (
	phaseMap phase = iota
	phaseReduce
	phaseJob
)

// add adds n to the counter name of group, for phase p.
func (jc *jobCounters) add(group, name string, p phase, n int64) {
	c := jc.find(group, name)
	switch p {
	case phaseMap:
		c.mapValue += n
	case phaseReduce:
		c.redValue += n
	default:
		c.jobValue += n
	}
}

// find returns the counter, creating its group and itself as needed.
func (jc *jobCounters) find(group, name string) *counter {
	i := slices.IndexFunc(jc.groups, func(g *counterGroup) bool { return g.name == group })
	if i < 0 {
		jc.groups = append(jc.groups, &counterGroup{name: group})
		slices.SortFunc(jc.groups, func(a, b *counterGroup) int { return strings.Compare(a.name, b.name) })
		i = slices.IndexFunc(jc.groups, func(g *counterGroup) bool { return g.name == group })
	}
	g := jc.groups[i]
	for _, c := range g.counters {
		if c.name == name {
			return c
		}
	}
	c := &counter{name: name}
	g.counters = append(g.counters, c)
	return c
}

// value is a counter's total, 0 when nothing counted it.
func (jc *jobCounters) value(group, name string) int64 {
	for _, g := range jc.groups {
		if g.name != group {
			continue
		}
		for _, c := range g.counters {
			if c.name == name {
				return c.total()
			}
		}
	}
	return 0
}

// fsCounter is the FileSystemCounter name of a scheme's counter: HDFS_
// BYTES_READ for hdfs:// and BYTES_READ, as FileSystemCounterGroup names
// them (scheme upper-cased, "_", the counter).
func fsCounter(uri, name string) string {
	scheme, _, ok := strings.Cut(uri, "://")
	if !ok || scheme == "" {
		scheme = "hdfs"
	}
	return strings.ToUpper(scheme) + "_" + name
}

// displayName is the display name of a counter or group, Hadoop's where
// the stand-in knows it, else the name.
func displayName(name string) string {
	if d, ok := counterDisplay[name]; ok {
		return d
	}
	if scheme, what, ok := strings.Cut(name, "_"); ok {
		switch what {
		case "BYTES_READ":
			return scheme + ": Number of bytes read"
		case "BYTES_WRITTEN":
			return scheme + ": Number of bytes written"
		}
	}
	return name
}

// countLines counts the records TextInputFormat's LineRecordReader reads:
// lines, the last one counted even without its newline.
func countLines(data []byte) int64 {
	n := int64(bytes.Count(data, []byte{'\n'}))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// countGroups counts the reduce input groups of sorted records: runs of
// equal keys.
func countGroups(recs []record) int64 {
	var n int64
	for i, r := range recs {
		if i == 0 || r.key != recs[i-1].key {
			n++
		}
	}
	return n
}
