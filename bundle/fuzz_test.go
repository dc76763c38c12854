package bundle

import (
	"testing"

	"github.com/gozie/gozie/coordinator"
)

// FuzzParse feeds arbitrary documents to Parse and Resolve: they may fail, with an Oozie
// code, but never panic, and what Resolve accepts reads back from its definition.
func FuzzParse(f *testing.F) {
	f.Add([]byte(doc02))
	f.Add([]byte(`<bundle-app name='b' xmlns='uri:oozie:bundle:0.1'><coordinator name='c'><app-path>/a</app-path></coordinator></bundle-app>`))
	conf := coordinator.Props{{Name: "user.name", Value: "joe"}, {Name: "bundleName", Value: "n"}, {Name: "kickOff", Value: "2025-01-01T00:00Z"},
		{Name: "nameNode", Value: "hdfs://nn"}, {Name: "start", Value: "s"}, {Name: "suffix", Value: "x"}, {Name: "aggEnabled", Value: "true"},
		{Name: "queue", Value: "q"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		app, err := Parse(data)
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		job, err := Resolve(app, Request{Conf: conf})
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		back, err := LoadJob(job.DefinitionXML(testFormat), job.Conf, testFormat)
		if err != nil {
			t.Fatalf("the resolved definition does not read back: %v\n%s", err, job.DefinitionXML(testFormat))
		}
		if back.Name != job.Name || len(back.Coordinators) != len(job.Coordinators) {
			t.Fatalf("read back %+v, want %+v", back, job)
		}
	})
}
