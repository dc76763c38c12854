package ids

import "strings"

// Oozie tells what an id names by its text alone, never by parsing it: the CLI and the
// servlets ask whether the id ends with "-W", "-C" or "-B", or contains "-W@" or "-C@"
// (OozieCLI's job -info, for one). Ids of tests and of other Oozie servers need not be in
// Parse's exact form, so the callers that route a request by kind use these two tests,
// each in the order of checks Oozie uses there, instead of Parse.

// EndsWithKind reports whether s ends with "-" and kind: the text of a job id of that kind
// (Workflow, Coordinator or Bundle), the way Oozie recognises one.
func EndsWithKind(s string, kind byte) bool {
	return len(s) >= 2 && s[len(s)-1] == kind && s[len(s)-2] == '-'
}

// HasActionOf reports whether s contains "-", kind and "@": the text of an action id of a
// job of that kind (Workflow or Coordinator), the way Oozie recognises one.
func HasActionOf(s string, kind byte) bool {
	return strings.Contains(s, string([]byte{'-', kind, '@'}))
}
