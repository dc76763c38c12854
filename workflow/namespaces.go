package workflow

import "strings"

// Namespace prefixes of the documents and action bodies gozie reads.
const (
	nsWorkflowPrefix = "uri:oozie:workflow:"
	nsShellPrefix    = "uri:oozie:shell-action:"
	nsHivePrefix     = "uri:oozie:hive-action:"
	nsHive2Prefix    = "uri:oozie:hive2-action:"
	nsEmailPrefix    = "uri:oozie:email-action:"
	nsSLA01          = "uri:oozie:sla:0.1"
	nsSLA02          = "uri:oozie:sla:0.2"
)

// schemaVersion orders the versions of one schema family. The numbers are
// only compared with each other.
type schemaVersion int

// Workflow schema versions, in order.
const (
	wf01  schemaVersion = 1 // 0.1
	wf02  schemaVersion = 2 // 0.2
	wf025 schemaVersion = 3 // 0.2.5
	wf03  schemaVersion = 4 // 0.3
	wf04  schemaVersion = 5 // 0.4
	wf045 schemaVersion = 6 // 0.4.5
	wf05  schemaVersion = 7 // 0.5
	wf10  schemaVersion = 8 // 1.0
)

var workflowVersions = map[string]schemaVersion{
	"0.1": wf01, "0.2": wf02, "0.2.5": wf025, "0.3": wf03, "0.4": wf04, "0.4.5": wf045, "0.5": wf05, "1.0": wf10,
}

// Versions of the action extension schemas, each family in order.
var (
	shellVersions = map[string]schemaVersion{"0.1": 1, "0.2": 2, "0.3": 3, "1.0": 10}
	hiveVersions  = map[string]schemaVersion{"0.2": 2, "0.3": 3, "0.4": 4, "0.5": 5, "0.6": 6, "1.0": 10}
	hive2Versions = map[string]schemaVersion{"0.1": 1, "0.2": 2, "1.0": 10}
	emailVersions = map[string]schemaVersion{"0.1": 1, "0.2": 2}
)

// versionOf returns the version part of ns when ns starts with prefix.
func versionOf(ns, prefix string) (string, bool) {
	if !strings.HasPrefix(ns, prefix) {
		return "", false
	}
	return ns[len(prefix):], true
}

// hadoopSchema describes how one version of a Hadoop action schema starts:
// whether job-tracker and name-node are required, whether resource-manager
// and launcher exist (1.0 schemas) and whether job-xml may repeat.
type hadoopSchema struct {
	jtRequired  bool
	modern      bool // resource-manager and launcher allowed
	multiJobXML bool
	noJobXML    bool // the schema has no job-xml (distcp)
}

// workflowHadoopSchema is the head of map-reduce and java in a workflow
// schema version.
func workflowHadoopSchema(v schemaVersion) hadoopSchema {
	return hadoopSchema{jtRequired: v < wf04, modern: v >= wf10, multiJobXML: v >= wf04}
}
