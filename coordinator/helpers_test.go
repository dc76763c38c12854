package coordinator

import (
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// testJobID is the coordinator job id used by the tests.
const testJobID = "0000001-250101000000000-oozie-test-C"

// jobSpec describes a job built directly, for materialization tests that use units the XML
// parser never produces (HOUR) or start from a given state.
type jobSpec struct {
	freq      string // integer, or a cron expression when unit is CRON
	unit      oozietime.Unit
	endOf     oozietime.Unit
	tz        string
	start     string
	end       string
	throttle  int
	execution Execution
}

// newJob builds a Job and its PREP row from a spec.
func newJob(t testing.TB, s jobSpec) (*Job, store.CoordJob) {
	t.Helper()
	if s.tz == "" {
		s.tz = "America/Los_Angeles"
	}
	if s.throttle == 0 {
		s.throttle = 20
	}
	if s.execution == "" {
		s.execution = FIFO
	}
	endOf := s.endOf
	if endOf == "" {
		endOf = oozietime.NoUnit
	}
	f, err := storedFrequency(s.freq, string(s.unit), string(endOf))
	if err != nil {
		t.Fatal(err)
	}
	j := &Job{Namespace: "uri:oozie:coordinator:0.4", Name: "test-coord", Frequency: f,
		Start: utc(t, s.start), End: utc(t, s.end), TimeZone: s.tz, Location: zone(t, s.tz), Timeout: 120,
		Concurrency: 1, Throttle: s.throttle, Execution: s.execution, AppPath: "hdfs:///tmp/workflows/",
		Conf: conf.NewProperties("user.name", "test"), User: "test"}
	row := j.Row()
	row.ID = testJobID
	return j, row
}

// nominalTimes returns the nominal times of new actions, formatted.
func nominalTimes(actions []NewAction) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = oozietime.UTC.Format(a.Row.NominalTime)
	}
	return out
}

// equalStrings compares two string slices.
func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// farFuture is the "now" of tests where now is long after the job ("now ≫ start").
var farFuture = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
