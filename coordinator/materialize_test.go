package coordinator

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

func TestMaterialize(t *testing.T) {
	t.Parallel()
	hour := time.Hour
	tests := []struct {
		id      string
		spec    jobSpec
		pause   string
		nextMat string // initial next materialized time ("" for none)
		window  time.Duration
		now     time.Time
		want    []string
		last    int
		next    string
		done    bool
	}{
		{id: "M2", spec: jobSpec{freq: "10-20 * * * *", unit: oozietime.Cron, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z"},
			want: []string{"2013-07-18T00:10Z", "2013-07-18T00:11Z", "2013-07-18T00:12Z", "2013-07-18T00:13Z",
				"2013-07-18T00:14Z", "2013-07-18T00:15Z", "2013-07-18T00:16Z", "2013-07-18T00:17Z", "2013-07-18T00:18Z",
				"2013-07-18T00:19Z", "2013-07-18T00:20Z"}, last: 11, next: "2013-07-18T01:10Z", done: true},
		{id: "M1 (cron list)", spec: jobSpec{freq: "10,20 * * * *", unit: oozietime.Cron, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z"},
			want: []string{"2013-07-18T00:10Z", "2013-07-18T00:20Z"}, last: 2, next: "2013-07-18T01:10Z", done: true},
		{id: "cron no action in window", spec: jobSpec{freq: "0/15 2 * 5-7 4,5", unit: oozietime.Cron, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z"},
			want: nil, last: 0, next: "2013-07-18T02:00Z", done: true},
		{id: "M4", spec: jobSpec{freq: "0/15 * * 5-7 4,5", unit: oozietime.Cron, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z"},
			want: []string{"2013-07-18T00:00Z", "2013-07-18T00:15Z", "2013-07-18T00:30Z", "2013-07-18T00:45Z"}, last: 4,
			next: "2013-07-18T01:00Z", done: true},
		{id: "cron step and day names", spec: jobSpec{freq: "20/15 * * 7,10 THU", unit: oozietime.Cron, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z"},
			want: []string{"2013-07-18T00:20Z", "2013-07-18T00:35Z", "2013-07-18T00:50Z"}, last: 3, next: "2013-07-18T01:20Z", done: true},
		{id: "M6", spec: jobSpec{freq: "20", unit: oozietime.Minute, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z"},
			want: []string{"2013-07-18T00:00Z", "2013-07-18T00:20Z", "2013-07-18T00:40Z"}, last: 3, next: "2013-07-18T01:00Z", done: true},
		{id: "M8", spec: jobSpec{freq: "0/10 * * * *", unit: oozietime.Cron, start: "2013-07-18T00:00Z", end: "2013-07-18T01:00Z", throttle: 3},
			want: []string{"2013-07-18T00:00Z", "2013-07-18T00:10Z", "2013-07-18T00:20Z"}, last: 3, next: "2013-07-18T00:30Z", done: false},
		{id: "M9 (context of M10)", spec: jobSpec{freq: "0 * * * *", unit: oozietime.Cron, start: "2013-03-10T08:00Z", end: "2013-03-11T08:00Z", throttle: 3},
			nextMat: "2013-03-10T08:00Z",
			want:    []string{"2013-03-10T08:00Z", "2013-03-10T09:00Z", "2013-03-10T10:00Z"}, last: 3, next: "2013-03-10T11:00Z", done: false},
		{id: "M10", spec: jobSpec{freq: "0 * * * *", unit: oozietime.Cron, start: "2013-03-10T08:00Z", end: "2013-03-10T10:01Z", throttle: 3},
			nextMat: "2013-03-10T08:00Z",
			want:    []string{"2013-03-10T08:00Z", "2013-03-10T09:00Z", "2013-03-10T10:00Z"}, last: 3, next: "2013-03-10T11:00Z", done: true},
		{id: "throttle above duration", spec: jobSpec{freq: "0 * * * *", unit: oozietime.Cron, start: "2013-03-10T08:00Z", end: "2013-03-10T09:01Z", throttle: 5},
			nextMat: "2013-03-10T08:00Z",
			want:    []string{"2013-03-10T08:00Z", "2013-03-10T09:00Z"}, last: 2, next: "2013-03-10T10:00Z", done: true},
		{id: "M12", spec: jobSpec{freq: "0 * * * *", unit: oozietime.Cron, start: "2013-03-10T08:00Z", end: "2013-03-10T12:00Z"}, window: 4 * hour,
			want: []string{"2013-03-10T08:00Z", "2013-03-10T09:00Z", "2013-03-10T10:00Z", "2013-03-10T11:00Z"}, last: 4,
			next: "2013-03-10T12:00Z", done: true},
		{id: "fall back hourly cron", spec: jobSpec{freq: "0 * * * *", unit: oozietime.Cron, start: "2012-11-04T07:00Z", end: "2012-11-04T11:00Z"}, window: 4 * hour,
			want: []string{"2012-11-04T07:00Z", "2012-11-04T08:00Z", "2012-11-04T09:00Z", "2012-11-04T10:00Z"}, last: 4,
			next: "2012-11-04T11:00Z", done: true},
		{id: "M14", spec: jobSpec{freq: "5", unit: oozietime.Minute, start: "2009-03-06T10:00Z", end: "2009-03-06T10:14Z"}, pause: "2009-03-06T10:04Z",
			want: []string{"2009-03-06T10:00Z"}, last: 1, next: "2009-03-06T10:05Z", done: false},
		{id: "pause after second action", spec: jobSpec{freq: "5", unit: oozietime.Minute, start: "2009-03-06T10:00Z", end: "2009-03-06T10:14Z"},
			pause: "2009-03-06T10:08Z",
			want:  []string{"2009-03-06T10:00Z", "2009-03-06T10:05Z"}, last: 2, next: "2009-03-06T10:10Z", done: false},
		{id: "M22", spec: jobSpec{freq: "1", unit: oozietime.Day, start: "2009-02-01T01:00Z", end: "2009-05-03T23:59Z", throttle: 3},
			nextMat: "2009-02-01T01:00Z",
			want:    []string{"2009-02-01T01:00Z", "2009-02-02T01:00Z", "2009-02-03T01:00Z"}, last: 3, next: "2009-02-04T01:00Z"},
		{id: "hours catch-up", spec: jobSpec{freq: "1", unit: oozietime.Hour, start: "2009-02-01T01:00Z", end: "2009-05-03T23:59Z", throttle: 10},
			nextMat: "2009-02-01T01:00Z", last: 10, next: "2009-02-01T11:00Z",
			want: []string{"2009-02-01T01:00Z", "2009-02-01T02:00Z", "2009-02-01T03:00Z", "2009-02-01T04:00Z", "2009-02-01T05:00Z",
				"2009-02-01T06:00Z", "2009-02-01T07:00Z", "2009-02-01T08:00Z", "2009-02-01T09:00Z", "2009-02-01T10:00Z"}},
		{id: "M30 end of weeks", spec: jobSpec{freq: "1", unit: oozietime.Week, endOf: oozietime.EndOfWeek, tz: "UTC", start: "2016-02-03T01:00Z",
			end: "2016-03-03T23:59Z", throttle: 10},
			want: []string{"2016-02-07T00:00Z", "2016-02-14T00:00Z", "2016-02-21T00:00Z", "2016-02-28T00:00Z"}, last: 4,
			next: "2016-03-06T00:00Z", done: true},
		{id: "M32 EL days(1)", spec: jobSpec{freq: "1", unit: oozietime.Day, start: "2016-03-11T23:10Z", end: "2016-03-15T02:00Z"},
			want: []string{"2016-03-11T23:10Z", "2016-03-12T23:10Z", "2016-03-13T22:10Z", "2016-03-14T22:10Z"}, last: 4,
			next: "2016-03-15T22:10Z", done: true},
		{id: "M32 cron", spec: jobSpec{freq: "10 23 * * *", unit: oozietime.Cron, start: "2016-03-11T23:10Z", end: "2016-03-15T02:00Z"},
			want: []string{"2016-03-11T23:10Z", "2016-03-12T23:10Z", "2016-03-13T22:10Z", "2016-03-14T22:10Z"}, last: 4,
			next: "2016-03-15T23:10Z", done: true},
		{id: "24 hours drift", spec: jobSpec{freq: "24", unit: oozietime.Hour, start: "2016-03-11T23:10Z", end: "2016-03-15T02:00Z"},
			want: []string{"2016-03-11T23:10Z", "2016-03-12T23:10Z", "2016-03-13T23:10Z", "2016-03-14T23:10Z"}, last: 4,
			next: "2016-03-15T23:10Z", done: true},
		{id: "M34 EL hour", spec: jobSpec{freq: "1", unit: oozietime.Hour, start: "2017-03-12T07:10Z", end: "2017-03-12T12:30Z"},
			want: []string{"2017-03-12T07:10Z", "2017-03-12T08:10Z", "2017-03-12T09:10Z", "2017-03-12T10:10Z",
				"2017-03-12T11:10Z", "2017-03-12T12:10Z"}, last: 6, next: "2017-03-12T13:10Z", done: true},
		{id: "M34 cron", spec: jobSpec{freq: "10 * * * *", unit: oozietime.Cron, start: "2017-03-12T07:10Z", end: "2017-03-12T12:30Z"},
			want: []string{"2017-03-12T07:10Z", "2017-03-12T08:10Z", "2017-03-12T09:10Z", "2017-03-12T10:10Z",
				"2017-03-12T11:10Z", "2017-03-12T12:10Z"}, last: 6, next: "2017-03-12T13:10Z", done: true},
		{id: "fall back EL and cron hourly", spec: jobSpec{freq: "10 * * * *", unit: oozietime.Cron, start: "2017-11-05T07:10Z", end: "2017-11-05T10:30Z"},
			want: []string{"2017-11-05T07:10Z", "2017-11-05T08:10Z", "2017-11-05T09:10Z", "2017-11-05T10:10Z"}, last: 4,
			next: "2017-11-05T11:10Z", done: true},
		{id: "M36", spec: jobSpec{freq: "20", unit: oozietime.Day, start: "2016-02-01T13:10Z", end: "2016-12-03T00:00Z"},
			want: []string{"2016-02-01T13:10Z", "2016-02-21T13:10Z", "2016-03-12T13:10Z", "2016-04-01T12:10Z", "2016-04-21T12:10Z",
				"2016-05-11T12:10Z", "2016-05-31T12:10Z", "2016-06-20T12:10Z", "2016-07-10T12:10Z", "2016-07-30T12:10Z",
				"2016-08-19T12:10Z", "2016-09-08T12:10Z", "2016-09-28T12:10Z", "2016-10-18T12:10Z", "2016-11-07T13:10Z",
				"2016-11-27T13:10Z"}, last: 16, next: "2016-12-17T13:10Z", done: true},
		{id: "M38 EL months(3)", spec: jobSpec{freq: "3", unit: oozietime.Month, start: "2016-01-01T13:10Z", end: "2017-12-03T00:00Z"},
			want: []string{"2016-01-01T13:10Z", "2016-04-01T12:10Z", "2016-07-01T12:10Z", "2016-10-01T12:10Z",
				"2017-01-01T13:10Z", "2017-04-01T12:10Z", "2017-07-01T12:10Z", "2017-10-01T12:10Z"}, last: 8,
			next: "2018-01-01T13:10Z", done: true},
		{id: "M38 cron", spec: jobSpec{freq: "10 13 1 */3 *", unit: oozietime.Cron, start: "2016-01-01T13:10Z", end: "2017-12-03T00:00Z"},
			want: []string{"2016-01-01T13:10Z", "2016-04-01T12:10Z", "2016-07-01T12:10Z", "2016-10-01T12:10Z",
				"2017-01-01T13:10Z", "2017-04-01T12:10Z", "2017-07-01T12:10Z", "2017-10-01T12:10Z"}, last: 8,
			next: "2018-01-01T13:10Z", done: true},
		{id: "monthly cron keeps local time", spec: jobSpec{freq: "10 23 1 1-12 *", unit: oozietime.Cron, start: "2016-03-01T23:10Z", end: "2016-12-03T00:00Z"},
			want: []string{"2016-03-01T23:10Z", "2016-04-01T22:10Z", "2016-05-01T22:10Z", "2016-06-01T22:10Z", "2016-07-01T22:10Z",
				"2016-08-01T22:10Z", "2016-09-01T22:10Z", "2016-10-01T22:10Z", "2016-11-01T22:10Z", "2016-12-01T23:10Z"},
			last: 10, next: "2017-01-01T23:10Z", done: true},
		{id: "M40", spec: jobSpec{freq: "20", unit: oozietime.Hour, start: "2016-03-12T13:10Z", end: "2016-03-16T00:00Z"},
			want: []string{"2016-03-12T13:10Z", "2016-03-13T09:10Z", "2016-03-14T05:10Z", "2016-03-15T01:10Z", "2016-03-15T21:10Z"},
			last: 5, next: "2016-03-16T17:10Z", done: true},
		{id: "M42", spec: jobSpec{freq: "20", unit: oozietime.Hour, start: "2016-11-04T23:10Z", end: "2016-11-08T22:00Z"},
			want: []string{"2016-11-04T23:10Z", "2016-11-05T19:10Z", "2016-11-06T15:10Z", "2016-11-07T11:10Z", "2016-11-08T07:10Z"},
			last: 5, next: "2016-11-09T03:10Z", done: true},
		{id: "cron every 20 hours in March", spec: jobSpec{freq: "10 */20 12-14 3 *", unit: oozietime.Cron, start: "2016-01-01T13:10Z", end: "2016-12-03T00:00Z"},
			want: []string{"2016-03-12T00:10Z", "2016-03-12T20:10Z", "2016-03-13T00:10Z", "2016-03-13T20:10Z",
				"2016-03-14T00:10Z", "2016-03-14T20:10Z"}, last: 6, next: "2017-03-12T00:10Z", done: true},
		{id: "half-hourly over spring gap", spec: jobSpec{freq: "*/30 * * * *", unit: oozietime.Cron, start: "2016-03-13T08:00Z", end: "2016-03-13T13:00Z"},
			want: []string{"2016-03-13T08:00Z", "2016-03-13T08:30Z", "2016-03-13T09:00Z", "2016-03-13T09:30Z", "2016-03-13T10:00Z",
				"2016-03-13T10:30Z", "2016-03-13T11:00Z", "2016-03-13T11:30Z", "2016-03-13T12:00Z", "2016-03-13T12:30Z"},
			last: 10, next: "2016-03-13T13:00Z", done: true},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			job, row := newJob(t, tc.spec)
			if tc.pause != "" {
				row.PauseTime = utc(t, tc.pause)
			}
			if tc.nextMat != "" {
				row.NextMaterializedTime = utc(t, tc.nextMat)
			}
			s := DefaultSettings()
			if tc.window != 0 {
				s.Window = tc.window
			}
			now := tc.now
			if now.IsZero() {
				now = farFuture
			}
			res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: s})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Ran {
				t.Fatalf("did not run: %s", res.Reason)
			}
			if got := nominalTimes(res.Actions); !equalStrings(got, tc.want) {
				t.Fatalf("nominal times\n got %v\nwant %v", got, tc.want)
			}
			if res.Job.LastActionNumber != tc.last || oozietime.UTC.Format(res.Job.NextMaterializedTime) != tc.next ||
				res.Job.DoneMaterialization != tc.done {
				t.Fatalf("job: last %d next %s done %v; want %d %s %v", res.Job.LastActionNumber,
					oozietime.UTC.Format(res.Job.NextMaterializedTime), res.Job.DoneMaterialization, tc.last, tc.next, tc.done)
			}
			if res.Job.Status != store.JobRunning {
				t.Fatalf("status %s", res.Job.Status)
			}
			for i, a := range res.Actions {
				if a.Row.ActionNumber != i+1 || a.Row.ID != ActionID(testJobID, i+1) || a.Row.Status != store.CoordActionWaiting ||
					!a.Row.CreatedTime.Equal(now) || a.Timeout != 120 {
					t.Fatalf("action %d row %+v", i, a.Row)
				}
			}
		})
	}
}

func TestMaterializeLookAhead(t *testing.T) {
	t.Parallel()
	now := utc(t, "2020-06-01T12:00Z")
	run := func(job *Job, row store.CoordJob, s Settings) MaterializeResult {
		t.Helper()
		res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: s})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// M18: a PREP job whose start has passed becomes RUNNING.
	job, row := newJob(t, jobSpec{freq: "1", unit: oozietime.Day, start: "2009-02-01T01:00Z", end: "2009-02-03T23:59Z"})
	if res := run(job, row, DefaultSettings()); res.Job.Status != store.JobRunning || len(res.Actions) != 3 {
		t.Fatalf("M18: status %s, %d actions", res.Job.Status, len(res.Actions))
	}
	// M20: start in 180 s is within the 300 s look-ahead.
	job, row = newJob(t, jobSpec{freq: "1", unit: oozietime.Day, start: "2020-06-01T12:03Z", end: "2099-02-03T23:59Z"})
	if res := run(job, row, DefaultSettings()); res.Job.Status != store.JobRunning || len(res.Actions) != 1 {
		t.Fatalf("M20: status %s, %d actions (%s)", res.Job.Status, len(res.Actions), res.Reason)
	}
	// Start in 360 s is beyond it: nothing happens.
	job, row = newJob(t, jobSpec{freq: "1", unit: oozietime.Day, start: "2020-06-01T12:06Z", end: "2099-02-03T23:59Z"})
	if res := run(job, row, DefaultSettings()); res.Ran || res.Job.Status != store.JobPrep || res.Reason == "" ||
		!res.NextAt.Equal(utc(t, "2020-06-01T12:01Z")) {
		t.Fatalf("far start: ran %v status %s reason %q next %v", res.Ran, res.Job.Status, res.Reason, res.NextAt)
	}
	// M24: start now, 5-minute frequency, throttle 20: the one-hour window bounds it to 12
	// actions, and an immediate second pass adds nothing.
	job, row = newJob(t, jobSpec{freq: "5", unit: oozietime.Minute, start: "2020-06-01T12:00Z", end: "2020-06-02T12:00Z", throttle: 20})
	res := run(job, row, DefaultSettings())
	if len(res.Actions) != 12 || res.Job.LastActionNumber != 12 || !res.Job.NextMaterializedTime.Equal(utc(t, "2020-06-01T13:00Z")) {
		t.Fatalf("M24: %d actions, last %d, next %v", len(res.Actions), res.Job.LastActionNumber, res.Job.NextMaterializedTime)
	}
	again := run(job, res.Job, DefaultSettings())
	if again.Ran || len(again.Actions) != 0 || again.Job.LastActionNumber != 12 {
		t.Fatalf("M24 second pass: ran %v, %d actions", again.Ran, len(again.Actions))
	}
	if !again.NextAt.Equal(utc(t, "2020-06-01T12:55Z")) {
		t.Fatalf("M24 next pass at %v", again.NextAt)
	}
	// Within the look-ahead the next window materializes.
	later := again.Job
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: later, Now: utc(t, "2020-06-01T12:56Z"),
		Settings: DefaultSettings()})
	if err != nil || len(res.Actions) != 12 || res.Actions[0].Row.ActionNumber != 13 ||
		!res.Actions[0].Row.NominalTime.Equal(utc(t, "2020-06-01T13:00Z")) {
		t.Fatalf("M24 next window: %v %+v", err, nominalTimes(res.Actions))
	}
	// Throttle: queued (WAITING and READY) actions count against it.
	job, row = newJob(t, jobSpec{freq: "5", unit: oozietime.Minute, start: "2020-06-01T12:00Z", end: "2020-06-02T12:00Z", throttle: 12})
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Queued: 10, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) != 2 || !res.Throttled {
		t.Fatalf("throttle: %v %d actions throttled %v", err, len(res.Actions), res.Throttled)
	}
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Queued: 15, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) != 0 || !res.Throttled || !res.Job.NextMaterializedTime.Equal(row.StartTime) {
		t.Fatalf("over throttle: %v %d actions throttled %v", err, len(res.Actions), res.Throttled)
	}
	// Status gate.
	row.Status = store.JobSuspended
	if res := run(job, row, DefaultSettings()); res.Ran {
		t.Fatal("a SUSPENDED job materialized")
	}
}

func TestMaterializeLastOnly(t *testing.T) {
	t.Parallel()
	now := utc(t, "2020-06-01T12:00Z")
	// M26: LAST_ONLY starting now materializes normally: six actions in the hour.
	job, row := newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, start: "2020-06-01T12:00Z", end: "2020-06-01T15:00Z",
		throttle: 12, execution: LastOnly})
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) != 6 {
		t.Fatalf("M26: %v, %d actions", err, len(res.Actions))
	}
	// Started three hours ago, LAST_ONLY ignores window and throttle and materializes every
	// past action (Oozie's test sees 19 because its clock moved past the 19th nominal time).
	job, row = newJob(t, jobSpec{freq: "10", unit: oozietime.Minute, start: "2020-06-01T09:00Z", end: "2020-06-01T15:00Z",
		throttle: 12, execution: LastOnly})
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now.Add(time.Second), Settings: DefaultSettings()})
	if err != nil || len(res.Actions) != 19 {
		t.Fatalf("LAST_ONLY catch-up: %v, %d actions", err, len(res.Actions))
	}
	// M28: a job that ended three hours ago, every minute for 57 hours: one pass creates the
	// batch size (1000), another the next 1000, and so on; -1 is unlimited.
	job, row = newJob(t, jobSpec{freq: "1", unit: oozietime.Minute, start: "2020-05-30T00:00Z", end: "2020-06-01T09:00Z",
		throttle: 12, execution: LastOnly})
	s := DefaultSettings()
	s.ActionBatchSize = 1000
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: s})
	if err != nil || len(res.Actions) != 1000 || res.Job.DoneMaterialization {
		t.Fatalf("M28: %v, %d actions", err, len(res.Actions))
	}
	s.ActionBatchSize = 5000
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: s})
	if err != nil || len(res.Actions) != 57*60 || !res.Job.DoneMaterialization {
		t.Fatalf("single batch: %v, %d actions", err, len(res.Actions))
	}
	s.ActionBatchSize = -1
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: s})
	if err != nil || len(res.Actions) != 57*60 {
		t.Fatalf("unlimited: %v, %d actions", err, len(res.Actions))
	}
	// The same with a cron frequency.
	job, row = newJob(t, jobSpec{freq: "* * * * *", unit: oozietime.Cron, start: "2013-03-10T08:00Z", end: "2013-03-12T17:00Z",
		throttle: 12, execution: LastOnly})
	s.ActionBatchSize = 1000
	res, err = Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: s})
	if err != nil || len(res.Actions) != 1000 {
		t.Fatalf("cron batch: %v, %d actions", err, len(res.Actions))
	}
}

func TestMaterializeEndOfMonths(t *testing.T) {
	t.Parallel()
	// M44: UTC endOfMonths(1) started three months ago: three actions, on the first of the
	// next three months, and the next one is moveToEnd(start) + 3 months.
	// Oozie's test reads the clock for the start just before the command reads it for now, so
	// now is a moment after start + 3 months.
	now := utc(t, "2025-06-15T12:00Z").Add(time.Second)
	job, row := newJob(t, jobSpec{freq: "1", unit: oozietime.Month, endOf: oozietime.EndOfMonth, tz: "UTC", start: "2025-03-15T12:00Z",
		end: "2025-09-15T12:00Z", throttle: 10})
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: now, Settings: DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2025-04-01T00:00Z", "2025-05-01T00:00Z", "2025-06-01T00:00Z"}
	if got := nominalTimes(res.Actions); !equalStrings(got, want) || res.Job.LastActionNumber != 3 {
		t.Fatalf("M44: %v", got)
	}
	next := oozietime.AddUnits(oozietime.MoveToEnd(row.StartTime, oozietime.EndOfMonth, time.UTC), oozietime.Month, 3, time.UTC)
	if !res.Job.NextMaterializedTime.Equal(next) {
		t.Fatalf("M44 next %v, want %v", res.Job.NextMaterializedTime, next)
	}
}

func TestDryRun(t *testing.T) {
	t.Parallel()
	// M16: dry run over 10:00–10:14 every 5 minutes with throttle 20.
	job, _ := newJob(t, jobSpec{freq: "5", unit: oozietime.Minute, start: "2009-03-06T10:00Z", end: "2009-03-06T10:14Z", throttle: 20})
	actions, err := DryRun(job, testJobID, farFuture, DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if got := nominalTimes(actions); !equalStrings(got, []string{"2009-03-06T10:00Z", "2009-03-06T10:05Z", "2009-03-06T10:10Z"}) {
		t.Fatalf("M16: %v", got)
	}
	for _, a := range actions {
		if !strings.Contains(a.Row.ActionXML, "action-nominal-time") {
			t.Fatalf("dry-run action without nominal time: %s", a.Row.ActionXML)
		}
	}
	text := FormatDryRun(job, actions, nil)
	if parts := strings.Split(text, "action for new instance"); len(parts) != 4 || !strings.Contains(text, "***actions for instance***") {
		t.Fatalf("dry-run text has %d parts", len(parts))
	}
}

// BenchmarkMaterialize measures materializing an hourly job with one three-instance data-in,
// one data-out and an SLA block (the design target is 2,000 actions per second).
func BenchmarkMaterialize(b *testing.B) {
	doc := appWith("${coord:hours(1)}", `<datasets><dataset name="a" frequency="${coord:minutes(20)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">`+
		`<uri-template>hdfs://nn/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template></dataset></datasets>`+
		`<input-events><data-in name="in" dataset="a"><start-instance>${coord:current(-2)}</start-instance><end-instance>${coord:current(0)}</end-instance></data-in></input-events>`+
		`<output-events><data-out name="out" dataset="a"><instance>${coord:current(0)}</instance></data-out></output-events>`)
	job, err := submitDoc(doc, DefaultSettings(), Property{Name: "end", Value: "2019-01-01T00:00Z"})
	if err != nil {
		b.Fatal(err)
	}
	row := job.Row()
	row.ID, row.Throttle = testJobID, 500
	s := DefaultSettings()
	s.MaxThrottle = 500
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: s})
		if err != nil {
			b.Fatal(err)
		}
		n += len(res.Actions)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "actions/s")
}
