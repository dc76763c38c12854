package bundle

import (
	"testing"

	"github.com/gozie/gozie/conf"
)

// FuzzParse feeds arbitrary documents to Parse and Resolve: they may fail, with an Oozie
// code, but never panic, and what Resolve accepts reads back from its definition.
func FuzzParse(f *testing.F) {
	f.Add([]byte(doc02))
	f.Add([]byte(`<bundle-app name='b' xmlns='uri:oozie:bundle:0.1'><coordinator name='c'><app-path>/a</app-path></coordinator></bundle-app>`))
	props := conf.NewProperties("user.name", "joe", "bundleName", "n", "kickOff", "2025-01-01T00:00Z",
		"nameNode", "hdfs://nn", "start", "s", "suffix", "x", "aggEnabled", "true", "queue", "q")
	f.Fuzz(func(t *testing.T, data []byte) {
		app, err := Parse(data)
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		job, err := Resolve(app, Request{Conf: props})
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
