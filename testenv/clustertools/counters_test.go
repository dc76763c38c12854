package clustertools

import "testing"

// TestCountLinesAsLineRecordReader: a last line without its newline is a
// record too; nothing is no record.
func TestCountLinesAsLineRecordReader(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2, "a\nb\n": 2} {
		if got := countLines([]byte(in)); got != want {
			t.Errorf("countLines(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestCountersByPhase: a counter's total is what every phase counted, and
// the history of a phase holds only what that phase counted.
func TestCountersByPhase(t *testing.T) {
	t.Parallel()
	var jc jobCounters
	jc.add(GroupTaskCounter, CounterMapInputRecords, phaseMap, 2)
	jc.add(GroupTaskCounter, CounterMapInputRecords, phaseMap, 3)
	jc.add(GroupTaskCounter, CounterReduceInputGroups, phaseReduce, 4)
	jc.add(GroupJobCounter, CounterLaunchedMaps, phaseJob, 2)
	if got := jc.value(GroupTaskCounter, CounterMapInputRecords); got != 5 {
		t.Errorf("MAP_INPUT_RECORDS = %d, want 5", got)
	}
	if got := jc.value(GroupTaskCounter, "SPILLED_RECORDS"); got != 0 {
		t.Errorf("an uncounted counter = %d", got)
	}
	// Framework groups in name order, as Hadoop's Counters iterate them.
	if jc.groups[0].name != GroupJobCounter || jc.groups[1].name != GroupTaskCounter {
		t.Errorf("groups %s, %s", jc.groups[0].name, jc.groups[1].name)
	}
	total := jc.history("TOTAL_COUNTERS", nil)
	if total.Value(GroupJobCounter, CounterLaunchedMaps) != 2 || total.Value(GroupTaskCounter, CounterReduceInputGroups) != 4 {
		t.Errorf("total %+v", total)
	}
	maps := jc.history("MAP_COUNTERS", func(c *counter) int64 { return c.mapValue })
	if len(maps.Groups) != 1 || len(maps.Groups[0].Counts) != 1 || maps.Groups[0].Counts[0].Value != 5 ||
		maps.Groups[0].DisplayName != "Map-Reduce Framework" || maps.Groups[0].Counts[0].DisplayName != "Map input records" {
		t.Errorf("map counters %+v, want MAP_INPUT_RECORDS 5 alone", maps)
	}
	if got := countGroups([]record{{key: "a"}, {key: "a"}, {key: "b"}, {key: "a"}}); got != 3 {
		t.Errorf("groups of a,a,b,a = %d, want 3 (runs of sorted keys)", got)
	}
	if got := fsCounter("hdfs://nn:8020/x", "BYTES_READ"); got != "HDFS_BYTES_READ" {
		t.Errorf("fsCounter = %s", got)
	}
}
