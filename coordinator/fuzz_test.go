package coordinator

import (
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
)

// FuzzParse feeds arbitrary documents to Parse and, when they parse, to Submit, Materialize
// and the stored-definition round trip: none may panic, and a stored definition must load back.
func FuzzParse(f *testing.F) {
	f.Add([]byte(minimalApp("0.5", "")))
	f.Add([]byte(appWith("${coord:days(1)}", `<controls><timeout>10</timeout></controls>`)))
	f.Add([]byte(`<coordinator-app xmlns="uri:oozie:coordinator:0.1"/>`))
	entries := append([]Property{}, submitConf...)
	f.Fuzz(func(t *testing.T, data []byte) {
		app, err := Parse(data)
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("parse error without a code: %v", err)
			}
			return
		}
		job, err := Submit(app, SubmitRequest{Conf: conf.PropertiesOf(entries...)})
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("submit error without a code: %v", err)
			}
			return
		}
		loaded, err := LoadJob(job.DefinitionXML(), job.Conf, oozietime.UTC)
		if err != nil {
			t.Fatalf("stored definition does not load: %v\n%s", err, job.DefinitionXML())
		}
		row := loaded.Row()
		row.Throttle = min(row.Throttle, 5)
		_, _ = Materialize(MaterializeRequest{Job: loaded, JobID: "J", Row: row, Now: row.StartTime,
			Settings: Settings{ActionBatchSize: 5}})
	})
}
