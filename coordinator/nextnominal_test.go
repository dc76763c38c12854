package coordinator

import (
	"testing"

	"github.com/gozie/gozie/oozietime"
)

func TestNextNominalTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id      string
		spec    jobSpec
		number  int
		nominal string
		want    string // "" means none
	}{
		{"N1 cron", jobSpec{freq: "10 * * * *", unit: oozietime.Cron, start: "2015-07-21T08:00Z", end: "2015-07-21T13:50Z"}, 5, "2015-07-21T12:10Z", "2015-07-21T13:10Z"},
		{"N2", jobSpec{freq: "10 * * * *", unit: oozietime.Cron, start: "2015-07-21T08:00Z", end: "2015-07-21T13:00Z"}, 5, "2015-07-21T12:10Z", ""},
		{"N3 every 10 hours", jobSpec{freq: "10", unit: oozietime.Hour, start: "2015-07-21T14:00Z", end: "2015-07-25T23:00Z"}, 5, "2015-07-23T06:00Z", "2015-07-23T16:00Z"},
		{"N4", jobSpec{freq: "10", unit: oozietime.Hour, start: "2015-07-21T14:00Z", end: "2015-07-23T09:00Z"}, 5, "2015-07-23T06:00Z", ""},
		{"N5 end of day", jobSpec{freq: "10", unit: oozietime.Day, endOf: oozietime.EndOfDay, start: "2015-07-21T14:00Z", end: "2015-09-21T23:00Z"}, 5, "2015-08-31T07:00Z", "2015-09-10T07:00Z"},
		{"N6", jobSpec{freq: "10", unit: oozietime.Day, endOf: oozietime.EndOfDay, start: "2015-07-21T14:00Z", end: "2015-09-08T23:00Z"}, 5, "2015-08-31T07:00Z", ""},
		{"next equal to end is kept", jobSpec{freq: "10", unit: oozietime.Minute, start: "2015-07-21T14:00Z", end: "2015-07-21T15:00Z"}, 6, "2015-07-21T14:50Z", "2015-07-21T15:00Z"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			job, row := newJob(t, tc.spec)
			next, ok := job.NextNominalTime(row.StartTime, row.EndTime, tc.number, utc(t, tc.nominal))
			if tc.want == "" {
				if ok {
					t.Fatalf("next %s, want none", oozietime.UTC.Format(next))
				}
				return
			}
			if !ok || oozietime.UTC.Format(next) != tc.want {
				t.Fatalf("next %s %v, want %s", oozietime.UTC.Format(next), ok, tc.want)
			}
		})
	}
}
