package coordinator

import "testing"

// TestHCatFunctions: the coord: HCatalog functions, phase by phase, with
// HCatELFunctions' outputs.
func TestHCatFunctions(t *testing.T) {
	t.Parallel()
	const (
		in1 = "hcat://ms:9083/mydb/clicks/datastamp=20120230;region=us"
		in2 = "hcat://ms:9083/mydb/clicks/datastamp=20120231;region=us"
		in3 = "hcat://ms:9083/mydb/clicks/datastamp=20120229;region=us"
		out = "hcat://ms:9083/outdb/summary/datastamp=20120230;region=us"
	)
	declared := func(t testing.TB) *ELContext {
		c := b0(t)
		c.DataNames = map[string]string{"ABC": "data-in", "OUT": "data-out"}
		return c
	}
	started := func(t testing.TB) *ELContext {
		c := b0(t)
		c.DataIn = map[string]DataValue{"ABC": {URIs: []string{in1, in2, in3}}, "BAD": {URIs: []string{"hcat://ms:9083/db/t"}},
			"NOKEY": {URIs: []string{in1, "hcat://ms:9083/mydb/clicks/region=eu"}}, "ONE": {URIs: []string{in1}}}
		c.DataOut = map[string]DataValue{"OUT": {URIs: []string{out}}, "TWO": {URIs: []string{out, out}}}
		return c
	}
	waiting := func(t testing.TB) *ELContext {
		c := started(t)
		c.DataIn["ABC"] = DataValue{URIs: []string{in1}, Unresolved: true}
		return c
	}
	runELCases(t, []elCase{
		{"submit databaseIn", declared, PhaseSubmitData, "${coord:databaseIn('ABC')}", "${coord:databaseIn('ABC')}", ""},
		{"submit filter", declared, PhaseSubmitData, "${coord:dataInPartitionFilter('ABC', 'pig')}",
			"${coord:dataInPartitionFilter('ABC', 'pig')}", ""},
		{"submit out value", declared, PhaseSubmitData, "${coord:dataOutPartitionValue('OUT', 'region')}",
			"${coord:dataOutPartitionValue('OUT', 'region')}", ""},
		{"submit undeclared", declared, PhaseSubmitData, "${coord:tableIn('XYZ')}", "", "data set name XYZ is not valid"},
		{"sla-submit databaseOut", declared, PhaseSLASubmit, "${coord:databaseOut('OUT')}", "${coord:databaseOut('OUT')}", ""},
		{"sla-submit has no data-in functions", declared, PhaseSLASubmit, "${coord:databaseIn('ABC')}", "", "databaseIn"},

		{"databaseIn", started, PhaseActionStart, "${coord:databaseIn('ABC')}", "mydb", ""},
		{"tableIn", started, PhaseActionStart, "${coord:tableIn('ABC')}", "clicks", ""},
		{"databaseOut", started, PhaseActionStart, "${coord:databaseOut('OUT')}", "outdb", ""},
		{"tableOut", started, PhaseActionStart, "${coord:tableOut('OUT')}", "summary", ""},
		{"database input", started, PhaseActionStart, "${coord:database('ABC', 'input')}", "mydb", ""},
		{"table output", started, PhaseActionStart, "${coord:table('OUT', 'output')}", "summary", ""},
		{"unknown event", started, PhaseActionStart, "${coord:databaseIn('XYZ')}", "", ""},
		{"bad URI", started, PhaseActionStart, "${coord:tableIn('BAD')}", "",
			"HCat URI can't be parsed java.net.URISyntaxException: URI path is not in expected format: hcat://ms:9083/db/t"},
		{"pig filter", started, PhaseActionStart, "${coord:dataInPartitionFilter('ONE', 'pig')}",
			"(datastamp=='20120230' AND region=='us')", ""},
		{"hive filter of three", started, PhaseActionStart, "${coord:dataInPartitionFilter('ABC', 'hive')}",
			"(datastamp='20120230' AND region='us') OR (datastamp='20120231' AND region='us') OR (datastamp='20120229' AND region='us')", ""},
		{"java filter", started, PhaseActionStart, "${coord:dataInPartitionFilter('ONE', 'java')}",
			"(datastamp='20120230' AND region='us')", ""},
		{"old pig filter", started, PhaseActionStart, "${coord:dataInPartitionPigFilter('ONE')}",
			"(datastamp=='20120230' AND region=='us')", ""},
		{"min", started, PhaseActionStart, "${coord:dataInPartitionMin('ABC', 'datastamp')}", "20120229", ""},
		{"max", started, PhaseActionStart, "${coord:dataInPartitionMax('ABC', 'datastamp')}", "20120231", ""},
		{"min of a missing key", started, PhaseActionStart, "${coord:dataInPartitionMin('ABC', 'hour')}", "",
			"No value in data-in uri for partition key: hour"},
		{"max where a later URI lacks the key", started, PhaseActionStart, "${coord:dataInPartitionMax('NOKEY', 'datastamp')}", "",
			"No value in data-in uri for partition key: datastamp"},
		{"hive-export", started, PhaseActionStart, "${coord:dataInPartitions('ONE', 'hive-export')}",
			"datastamp='20120230',region='us'", ""},
		{"hive-export of several", started, PhaseActionStart, "${coord:dataInPartitions('ABC', 'hive-export')}", "",
			"Multiple partitions not supported for hive-export type. Dataset name: ABC"},
		{"dataInPartitions other type", started, PhaseActionStart, "${coord:dataInPartitions('ONE', 'pig')}", "",
			"Unsupported type: pig dataset name: ONE"},
		{"dataOutPartitions", started, PhaseActionStart, "${coord:dataOutPartitions('OUT')}", "'datastamp=20120230,region=us'", ""},
		{"dataOutPartitions of two instances", started, PhaseActionStart, "${coord:dataOutPartitions('TWO')}", "",
			"Parsing exception for HCatURI"},
		{"dataOutPartitionValue", started, PhaseActionStart, "${coord:dataOutPartitionValue('OUT', 'region')}", "us", ""},
		{"dataOutPartitionValue unknown key", started, PhaseActionStart, "${coord:dataOutPartitionValue('OUT', 'hour')}", "", ""},
		{"sla-create dataOutPartitionValue", started, PhaseSLACreate, "${coord:dataOutPartitionValue('OUT', 'datastamp')}", "20120230", ""},

		{"unresolved filter echoes", waiting, PhaseActionStart, "${coord:dataInPartitionFilter('ABC', 'pig')}",
			"${coord:dataInPartitionFilter('ABC', 'pig')}", ""},
		{"unresolved max echoes", waiting, PhaseActionStart, "${coord:dataInPartitionMax('ABC', 'datastamp')}",
			"${coord:dataInPartitionMax('ABC', 'datastamp')}", ""},
	})
}
