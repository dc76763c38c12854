package workflow

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/store"
)

// FuzzParse feeds arbitrary documents to the parser. The seeds are two
// small documents, every workflow of gozie's example apps (testapps.Dir),
// and the corpus in testdata/fuzz/FuzzParse. Whatever the
// input, parsing and validation must not panic; an app that parses must
// have action bodies whose Raw form parses again to the same type, and
// starting it must give a consistent step.
func FuzzParse(f *testing.F) {
	f.Add([]byte(wf(`<start to="end"/><end name="end"/>`)))
	f.Add([]byte(wf(`<start to="f"/>` + fork("f", "a", "d") + shell("a", "j", "k", ` retry-max="2"`) +
		`<decision name="d"><switch><case to="b">${wf:conf('x') eq 'y'}</case><default to="j"/></switch></decision>` +
		`<action name="b"><fs><mkdir path="/x"/></fs><ok to="j"/><error to="k"/></action>` +
		join("j", "end") + killNode("k") + `<end name="end"/>`)))
	examples, err := filepath.Glob(filepath.Join(testapps.Dir(), "*", "workflow*.xml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range examples {
		def, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(def)
	}
	f.Fuzz(func(t *testing.T, def []byte) {
		app, err := Parse(def)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse error %T is not *Error: %v", err, err)
			}
			return
		}
		for _, n := range app.Nodes {
			if n.Kind != KindAction {
				continue
			}
			b, err := ParseBody(n.Action.Raw)
			if err != nil {
				t.Fatalf("Raw of %s does not parse: %v\n%s", n.Name, err, n.Action.Raw)
			}
			if b.actionType() != n.Action.Body.actionType() {
				t.Fatalf("Raw of %s parses as %s, was %s", n.Name, b.actionType(), n.Action.Body.actionType())
			}
		}
		opts := Options{DefaultNameNode: "hdfs://nn", DefaultResourceManager: "rm"}
		if err := Validate(app, opts); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Validate error %T is not *Error: %v", err, err)
			}
			return
		}
		app.Unreachable()
		job := store.WorkflowJob{ID: "0000000-250309100000000-fuzz-W", Status: store.WorkflowPrep}
		st, err := Decide(Input{App: app, Job: job, Now: t0, Options: opts}, Event{Kind: EventStart})
		if err != nil {
			t.Fatalf("Decide(start): %v", err)
		}
		if st.Job == nil || st.Job.Status == store.WorkflowPrep {
			t.Fatalf("start left the job %v", st.Job)
		}
	})
}
