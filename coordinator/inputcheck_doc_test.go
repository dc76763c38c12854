package coordinator

import (
	"strings"
	"testing"
)

// TestInputCheckWithParsedDoc: a check given the action document already
// parsed decides exactly as one that parses it, and leaves the document as
// it was, so that it can be kept for the next check (coord:latest resolved
// in the check's copy only).
func TestInputCheckWithParsedDoc(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	job := submitXML(t, checkJobXML(dir, "${coord:latest(-3)}", "${coord:latest(0)}"))
	row, na := firstAction(t, job, utc(t, "2009-03-30T00:00Z"))
	a := na.Row
	a.ActionXML = strings.Replace(a.ActionXML, `action-actual-time="2009-03-30T00:00Z"`, `action-actual-time="2009-02-15T01:00Z"`, 1)
	a.CreatedTime = utc(t, "2009-02-15T01:00Z")
	mkdirs(t, dir, "2009/03/05/_SUCCESS", "2009/02/19/_SUCCESS", "2009/02/12/_SUCCESS", "2009/02/05/_SUCCESS",
		"2009/01/22/_SUCCESS", "2009/01/08/_SUCCESS")
	doc, err := ParseActionXML(a.ActionXML, job.Conf, job.Format)
	if err != nil {
		t.Fatal(err)
	}
	before := doc.XML()
	req := InputCheckRequest{Job: job, JobID: testJobID, Row: row, Action: a, RunConf: job.Conf, Timeout: -1,
		Exists: fileExists, Now: utc(t, "2009-03-10T00:00Z"), Settings: DefaultSettings()}
	want := CheckInputs(req)
	req.Doc = doc
	got := CheckInputs(req)
	if got.Status != want.Status || got.ActionXML != want.ActionXML || got.MissingDependencies != want.MissingDependencies {
		t.Fatalf("with the parsed document: %s %q\n%s\nwithout: %s %q\n%s", got.Status, got.MissingDependencies,
			got.ActionXML, want.Status, want.MissingDependencies, want.ActionXML)
	}
	if doc.XML() != before || len(doc.DataIns[0].Unresolved) == 0 {
		t.Fatalf("the check changed the document it was given:\n%s\nwas\n%s", doc.XML(), before)
	}
}
