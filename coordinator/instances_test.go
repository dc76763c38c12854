package coordinator

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// rangeJob returns a job with one data-in over a dataset (freq, unit, initial, zone) and the
// given start/end instance texts; vars are added to the job configuration.
func rangeJob(t testing.TB, freq int, unit oozietime.Unit, initial, tz, template, start, end string, vars ...Property) *Job {
	t.Helper()
	ds, err := datasetFromDef("a", freq, unit, oozietime.NoUnit, utc(t, initial), tz, template, "", true)
	if err != nil {
		t.Fatal(err)
	}
	job, _ := newJob(t, jobSpec{freq: "1", unit: oozietime.Day, tz: "UTC", start: "2009-08-06T01:00Z", end: "2009-10-10T23:59Z"})
	for _, v := range vars {
		job.Conf.Put(v)
	}
	job.DataIns = []DataIn{{Name: "A", Dataset: ds, IsRange: true, StartInstance: start, EndInstance: end}}
	return job
}

// resolveURIs materializes the job's data-in at a nominal and actual time.
func resolveURIs(t testing.TB, job *Job, nominal, actual string) (string, error) {
	t.Helper()
	ins, _, err := job.resolveEvents(job.actionContextFor(testJobID, 1, utc(t, nominal), utc(t, actual)), 0)
	if err != nil {
		return "", err
	}
	return strings.Join(ins[0].URIs, "#"), nil
}

func TestInstanceRanges(t *testing.T) {
	t.Parallel()
	weekly := "hdfs:///tmp/workflows/${YEAR}/${MONTH}/${DAY};region=us"
	hourly := "hdfs:///tmp/workflows/${YEAR}/${MONTH}/${DAY}/${HOUR};region=us"
	minutes := "hdfs:///tmp/workflows/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE};region=us"
	u := func(paths ...string) string {
		for i, p := range paths {
			paths[i] = "hdfs:///tmp/workflows/" + p + ";region=us"
		}
		return strings.Join(paths, "#")
	}
	type rangeCase struct {
		id              string
		job             func(t testing.TB) *Job
		nominal, actual string
		want            string
		err             string
	}
	absolute := func(start, end string, vars ...Property) func(t testing.TB) *Job {
		return func(t testing.TB) *Job {
			return rangeJob(t, 7, oozietime.Day, "2009-08-06T01:00Z", "UTC", weekly, start, end, vars...)
		}
	}
	daily := func(start string) func(t testing.TB) *Job {
		return func(t testing.TB) *Job {
			return rangeJob(t, 1, oozietime.Day, "2009-06-06T00:00Z", "UTC", weekly, start, "${coord:current(0)}")
		}
	}
	halfHours := func(initial, start string) func(t testing.TB) *Job {
		return func(t testing.TB) *Job {
			return rangeJob(t, 30, oozietime.Minute, initial, "UTC", minutes, start, "${coord:current(0)}")
		}
	}
	every := func(from string, step int, unit oozietime.Unit, count int, layout string) string {
		var out []string
		t0 := utc(t, from)
		for i := 0; i < count; i++ {
			ts := oozietime.AddUnits(t0, unit, -i*step, nil)
			s, _ := oozietime.FormatJava(ts.UTC(), layout)
			out = append(out, "hdfs:///tmp/workflows/"+s+";region=us")
		}
		return strings.Join(out, "#")
	}
	tests := []rangeCase{
		{id: "K1", job: absolute(`${coord:absolute("2009-08-20T01:00Z")}`, "${coord:current(2)}"),
			nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z", want: u("2009/09/03", "2009/08/27", "2009/08/20")},
		{id: "K1 from a variable", job: absolute("${startInstance}", "${endInstance}",
			Property{Name: "startInstance", Value: "coord:absolute(2009-08-20T01:00Z)"},
			Property{Name: "endInstance", Value: "coord:current(2)"}),
			nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z", want: u("2009/09/03", "2009/08/27", "2009/08/20")},
		{id: "absolute before the nominal time", job: absolute(`${coord:absolute("2009-08-20T01:00Z")}`, "${coord:current(2)}"),
			nominal: "2009-09-10T01:00Z", actual: "2009-09-08T01:00Z",
			want: u("2009/09/24", "2009/09/17", "2009/09/10", "2009/09/03", "2009/08/27", "2009/08/20")},
		{id: "K3", job: absolute(`${coord:absolute("2009-08-20T01:00Z")}`, "${coord:current(2)}"),
			nominal: "2009-08-14T01:00Z", actual: "2009-08-14T01:00Z", want: u("2009/08/27", "2009/08/20")},
		{id: "K5", job: absolute(`${coord:absolute("2009-07-01T01:00Z")}`, "${coord:current(2)}"),
			nominal: "2009-08-06T01:00Z", actual: "2009-08-16T01:00Z",
			err: "initial-instance should be equal or earlier than the start-instance"},
		{id: "absolute after the end", job: absolute(`${coord:absolute("2009-08-27T01:00Z")}`, "${coord:current(2)}"),
			nominal: "2009-08-06T01:00Z", actual: "2009-08-16T01:00Z",
			err: "start-instance should be equal or earlier than the end-instance"},
		{id: "absolute out of phase", job: absolute(`${coord:absolute("2009-08-21T01:00Z")}`, "${coord:current(2)}"),
			nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z", err: "not in phase"},
		{id: "absolute with latest end", job: absolute(`${coord:absolute("2009-08-20T01:00Z")}`, "${coord:latest(0)}"),
			nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z", err: "Only start-instance as absolute"},
		{id: "mixed families", job: absolute("${coord:current(-1)}", "${coord:latest(0)}"),
			nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z", err: "both should be either latest or current"},
		{id: "current start after end", job: absolute("${coord:current(1)}", "${coord:current(0)}"),
			nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z", err: "start-instance should be equal or earlier"},
		{id: "K11", job: daily("${coord:endOfMonths(-2)}"), nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z",
			want: every("2009-08-20T00:00Z", 1, oozietime.Day, 51, "yyyy/MM/dd")},
		{id: "endOfMonths(-1)", job: daily("${coord:endOfMonths(-1)}"), nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z",
			want: every("2009-08-20T00:00Z", 1, oozietime.Day, 20, "yyyy/MM/dd")},
		{id: "K13", job: daily("${coord:endOfMonths(-3)}"), nominal: "2009-08-06T01:00Z", actual: "2009-08-06T01:00Z",
			err: "initial-instance should be equal or earlier than the start-instance"},
		{id: "K15", job: daily("${coord:endOfWeeks(-2)}"), nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z",
			want: every("2009-08-20T00:00Z", 1, oozietime.Day, 12, "yyyy/MM/dd")},
		{id: "endOfWeeks after end", job: daily("${coord:endOfWeeks(1)}"), nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z",
			err: "start-instance should be equal or earlier than the end-instance"},
		{id: "K17", job: halfHours("2009-06-06T01:00Z", "${coord:endOfDays(-1)}"), nominal: "2009-08-20T18:00Z", actual: "2009-08-20T18:00Z",
			want: every("2009-08-20T18:00Z", 30, oozietime.Minute, 37, "yyyy/MM/dd/HH/mm")},
		{id: "K19", job: halfHours("2009-08-01T01:00Z", "${coord:endOfDays(-11)}"), nominal: "2009-08-06T18:00Z", actual: "2009-08-16T18:00Z",
			err: "initial-instance should be equal or earlier than the start-instance"},
		{id: "K21", job: func(t testing.TB) *Job {
			return rangeJob(t, 1, oozietime.Day, "2009-08-06T01:00Z", "UTC", hourly, `${coord:offset(-4, "DAY")}`, `${coord:offset(0, "DAY")}`)
		}, nominal: "2009-08-20T10:00Z", actual: "2009-08-20T10:00Z",
			want: u("2009/08/20/01", "2009/08/19/01", "2009/08/18/01", "2009/08/17/01", "2009/08/16/01")},
		{id: "K21 hourly dataset", job: func(t testing.TB) *Job {
			return rangeJob(t, 60, oozietime.Minute, "2009-08-06T01:00Z", "UTC", hourly, "${startInstance}", "${endInstance}",
				Property{Name: "startInstance", Value: "coord:offset(-4,HOUR)"},
				Property{Name: "endInstance", Value: "coord:offset(0,HOUR)"})
		}, nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z",
			want: u("2009/08/20/01", "2009/08/20/00", "2009/08/19/23", "2009/08/19/22", "2009/08/19/21")},
		{id: "offset start after end", job: func(t testing.TB) *Job {
			return rangeJob(t, 1, oozietime.Day, "2009-08-06T01:00Z", "UTC", hourly, `${coord:offset(0, "DAY")}`, `${coord:offset(-1, "DAY")}`)
		}, nominal: "2009-08-20T10:00Z", actual: "2009-08-20T10:00Z", err: "start-instance should be equal or earlier"},
		{id: "offset mixed units Oozie rejects", job: func(t testing.TB) *Job {
			return rangeJob(t, 60, oozietime.Minute, "2009-08-06T01:00Z", "UTC", hourly, `${coord:offset(-1, "DAY")}`, `${coord:offset(-30, "MINUTE")}`)
		}, nominal: "2009-08-20T01:00Z", actual: "2009-08-20T01:00Z",
			want: every("2009-08-20T00:00Z", 60, oozietime.Minute, 24, "yyyy/MM/dd/HH")},
		{id: "offset stops at the initial instance", job: func(t testing.TB) *Job {
			return rangeJob(t, 1, oozietime.Day, "2009-08-18T01:00Z", "UTC", hourly, `${coord:offset(-4, "DAY")}`, `${coord:offset(0, "DAY")}`)
		}, nominal: "2009-08-20T10:00Z", actual: "2009-08-20T10:00Z",
			want: u("2009/08/20/01", "2009/08/19/01", "2009/08/18/01")},
		{id: "current range drops early instances", job: absolute("${coord:current(-3)}", "${coord:current(0)}"),
			nominal: "2009-08-13T01:00Z", actual: "2009-08-13T01:00Z", want: u("2009/08/13", "2009/08/06")},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			got, err := resolveURIs(t, tc.job(t), tc.nominal, tc.actual)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || ErrorCode(err) != oozieerr.E1010 {
					t.Fatalf("got %q, %v; want E1010 containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("uris\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestSpecOffsetTable(t *testing.T) {
	t.Parallel()
	// K23: the spec's offset table, for a daily and a weekly UTC dataset at NT 2009-05-30.
	tests := []struct {
		freq    int
		initial string
		want    []string
	}{
		{1, "2009-01-02T00:00Z", []string{"2009-05-30T00:00Z", "2009-05-31T00:00Z", "2009-05-27T00:00Z", "2009-06-07T00:00Z"}},
		{7, "2009-01-08T00:00Z", []string{"2009-05-28T00:00Z", "2009-05-28T00:00Z", "2009-05-21T00:00Z", "2009-06-04T00:00Z"}},
	}
	exprs := []string{`${coord:offset(0, "DAY")}`, `${coord:offset(1, "DAY")}`, `${coord:offset(-3, "DAY")}`, `${coord:offset(8, "DAY")}`}
	for _, tc := range tests {
		c := dsContext(t, tc.freq, oozietime.Day, tc.initial, "UTC", oozietime.NoUnit, "2009-05-30T00:00Z")
		for i, e := range exprs {
			got, err := c.EvalString(PhaseActionCreate, e)
			if err != nil || got != tc.want[i] {
				t.Errorf("K23 freq %d %s = %q, %v; want %s", tc.freq, e, got, err, tc.want[i])
			}
		}
	}
}

func TestEventKinds(t *testing.T) {
	t.Parallel()
	// latest and future ranges stay unresolved; <instance> lists keep document order and
	// drop empty instances; the missing-dependency string follows Oozie's format.
	ds, err := datasetFromDef("a", 7, oozietime.Day, oozietime.NoUnit, utc(t, "2009-01-01T01:00Z"), "UTC", "hdfs:///d/${YEAR}/${MONTH}/${DAY}", "", false)
	if err != nil {
		t.Fatal(err)
	}
	job, _ := newJob(t, jobSpec{freq: "1", unit: oozietime.Day, tz: "UTC", start: "2009-02-15T23:59Z", end: "2009-02-16T23:59Z"})
	job.DataIns = []DataIn{
		{Name: "L", Dataset: ds, IsRange: true, StartInstance: "${coord:latest(-3)}", EndInstance: "${coord:latest(0)}"},
		{Name: "F", Dataset: ds, IsRange: true, StartInstance: "${coord:future(0,5)}", EndInstance: "${coord:future(3,5)}"},
		{Name: "I", Dataset: ds, Instances: []string{"${coord:current(0)}", "${coord:current(-100)}", "${coord:latest(-1)}", "${coord:current(-1)}"}},
	}
	ins, _, err := job.resolveEvents(job.actionContextFor(testJobID, 1, job.Start, job.Start), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ins[0].Unresolved, "#"); got != "${coord:latestRange(-3,0)}" {
		t.Errorf("latest range: %q", got)
	}
	if got := strings.Join(ins[1].Unresolved, "#"); got != "${coord:futureRange(0,3,'5')}" {
		t.Errorf("future range: %q", got)
	}
	if got := strings.Join(ins[2].URIs, "#"); got != "hdfs:///d/2009/02/12#hdfs:///d/2009/02/05" {
		t.Errorf("instances: %q", got)
	}
	want := "hdfs:///d/2009/02/12/_SUCCESS#hdfs:///d/2009/02/05/_SUCCESS!!${coord:latestRange(-3,0)}" +
		"!!${coord:futureRange(0,3,'5')}!!${coord:latest(-1)}"
	if got := pullDependencies(ins); got != want {
		t.Errorf("missing dependencies\n got %s\nwant %s", got, want)
	}
	// latest or future in a data-out is refused.
	job.DataOuts = []DataOut{{Name: "O", Dataset: ds, Instance: "${coord:latest(0)}"}}
	if _, _, err := job.resolveEvents(job.actionContextFor(testJobID, 1, job.Start, job.Start), 0); ErrorCode(err) != oozieerr.E1006 {
		t.Errorf("latest in data-out: %v", err)
	}
}

func TestMaterializeFailure(t *testing.T) {
	t.Parallel()
	// An instance error fails the job and keeps no action (K5 through Materialize).
	job := rangeJob(t, 7, oozietime.Day, "2009-08-06T01:00Z", "UTC", "hdfs:///w/${YEAR}", `${coord:absolute("2009-07-01T01:00Z")}`,
		"${coord:current(2)}")
	row := job.Row()
	row.ID = testJobID
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: DefaultSettings()})
	if ErrorCode(err) != oozieerr.E1010 || res.Job.Status != "FAILED" || len(res.Actions) != 0 {
		t.Fatalf("%v %s %d", err, res.Job.Status, len(res.Actions))
	}
}

func TestStoredDocuments(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "<x/>", "<coordinator-app/>", `<coordinator-app frequency="1" freq_timeunit="DAY" start="bad"/>`} {
		if _, err := LoadJob(bad, nil, oozietime.UTC); err == nil {
			t.Errorf("LoadJob(%q) accepted", bad)
		}
		if _, err := ParseActionXML(bad, nil, oozietime.UTC); err == nil {
			t.Errorf("ParseActionXML(%q) accepted", bad)
		}
	}
	// An action document round-trips through ParseActionXML.
	job := rangeJob(t, 7, oozietime.Day, "2009-08-06T01:00Z", "UTC", "hdfs:///w/${YEAR}/${MONTH}/${DAY}", "${coord:current(-1)}", "${coord:current(0)}")
	actions, err := DryRun(job, testJobID, farFuture, DefaultSettings())
	if err != nil || len(actions) != 1 {
		t.Fatalf("%v %d", err, len(actions))
	}
	doc, err := ParseActionXML(actions[0].Row.ActionXML, job.Conf, oozietime.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Number != 1 || !doc.NominalTime.Equal(job.Start) || doc.XML() != actions[0].Row.ActionXML {
		t.Fatalf("round trip:\n%s\n---\n%s", actions[0].Row.ActionXML, doc.XML())
	}
}
