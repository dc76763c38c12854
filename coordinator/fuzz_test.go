package coordinator

import (
	"testing"
	"time"
)

// FuzzParse feeds arbitrary documents to Parse and, when they parse, to Submit, Materialize
// and the stored-definition round trip: none may panic, and a stored definition must load back.
func FuzzParse(f *testing.F) {
	f.Add([]byte(minimalApp("0.5", "")))
	f.Add([]byte(appWith("${coord:days(1)}", `<controls><timeout>10</timeout></controls>`)))
	f.Add([]byte(`<coordinator-app xmlns="uri:oozie:coordinator:0.1"/>`))
	conf := append([]Property{}, submitConf...)
	f.Fuzz(func(t *testing.T, data []byte) {
		app, err := Parse(data)
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("parse error without a code: %v", err)
			}
			return
		}
		job, err := Submit(app, SubmitRequest{Conf: conf})
		if err != nil {
			if ErrorCode(err) == "" {
				t.Fatalf("submit error without a code: %v", err)
			}
			return
		}
		loaded, err := LoadJob(job.DefinitionXML(), job.Conf, UTC)
		if err != nil {
			t.Fatalf("stored definition does not load: %v\n%s", err, job.DefinitionXML())
		}
		row := loaded.Row()
		row.Throttle = min(row.Throttle, 5)
		_, _ = Materialize(MaterializeRequest{Job: loaded, JobID: "J", Row: row, Now: row.StartTime,
			Settings: Settings{ActionBatchSize: 5}})
	})
}

// FuzzParseDatetime checks that the datetime parser never panics and that whatever it accepts
// formats back to a string that parses to the same instant.
func FuzzParseDatetime(f *testing.F) {
	for _, s := range []string{"2009-02-01T01:00Z", "2009-1-2T7:00Z", "2009-01-01T24:00Z", " 09-01-01T00:00Z", "2009-02-30T00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := UTC.Parse(s)
		if err != nil {
			return
		}
		back, err := UTC.Parse(UTC.Format(v))
		if err != nil || !back.Equal(v) {
			t.Fatalf("%q parsed as %v, formatted as %q, re-parsed as %v, %v", s, v, UTC.Format(v), back, err)
		}
	})
}

// FuzzParseCron checks that the cron parser never panics and that fire times are strictly
// increasing whole minutes.
func FuzzParseCron(f *testing.F) {
	for _, s := range []string{"0/10 * * * *", "20-30 * 20 5-7 4,5", "0 0 L-3 * ?", "0 0 ? * 6#3", "0 9-16 * * MON-FRI", "0 0 15W * ?"} {
		f.Add(s)
	}
	start := time.Date(2013, 7, 18, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCron(s)
		if err != nil {
			return
		}
		at := start
		for i := 0; i < 3; i++ {
			next, ok := c.Next(at, time.UTC)
			if !ok {
				return
			}
			if !next.After(at) || next.Second() != 0 {
				t.Fatalf("%q after %v: %v", s, at, next)
			}
			at = next
		}
	})
}
