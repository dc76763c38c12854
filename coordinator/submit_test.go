package coordinator

import (
	"errors"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// appWith returns a coordinator 0.4 document with the given frequency and body, dates set by
// variables start and end.
func appWith(freq, body string) string {
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="${appName}" frequency="` + freq + `"
  start="${start}" end="${end}" timezone="America/Los_Angeles">` + body +
		`<action><workflow><app-path>${nameNode}/wf</app-path></workflow></action></coordinator-app>`
}

// submitConf is the configuration of the submission tests.
var submitConf = []Property{{Name: "user.name", Value: "joe"}, {Name: "appName", Value: "my-app"},
	{Name: "start", Value: "2009-01-01T00:00Z"}, {Name: "end", Value: "2009-01-02T00:00Z"},
	{Name: "nameNode", Value: "hdfs://nn"}}

// submitDoc parses and submits a document with the submission test configuration.
func submitDoc(doc string, s Settings, extra ...Property) (*Job, error) {
	app, err := Parse([]byte(doc))
	if err != nil {
		return nil, err
	}
	return Submit(app, SubmitRequest{Conf: conf.PropertiesOf(append(append([]Property{}, submitConf...), extra...)...), Settings: s})
}

func TestSubmitFrequencyTable(t *testing.T) {
	t.Parallel()
	// The stored frequency and time unit of §1.1.
	tests := []struct {
		freq, wantFreq, wantUnit string
		endOf                    oozietime.Unit
	}{
		{"45", "45", "MINUTE", oozietime.NoUnit},
		{"${coord:minutes(45)}", "45", "MINUTE", oozietime.NoUnit},
		{"${coord:hours(3)}", "180", "MINUTE", oozietime.NoUnit},
		{"${coord:days(2)}", "2", "DAY", oozietime.NoUnit},
		{"${coord:months(1)}", "1", "MONTH", oozietime.NoUnit},
		{"${coord:months(1) + 7}", "8", "MONTH", oozietime.NoUnit},
		{"${coord:endOfDays(1)}", "1", "DAY", oozietime.EndOfDay},
		{"${coord:endOfWeeks(1)}", "1", "WEEK", oozietime.EndOfWeek},
		{"${coord:endOfMonths(1)}", "1", "MONTH", oozietime.EndOfMonth},
		{"0/10 1/2 * * *", "0/10 1/2 * * *", "CRON", oozietime.NoUnit},
		{"1", "1", "MINUTE", oozietime.NoUnit},
		{"10", "10", "MINUTE", oozietime.NoUnit}, // S6: a plain number is a valid frequency
	}
	for _, tc := range tests {
		job, err := submitDoc(appWith(tc.freq, ""), DefaultSettings())
		if err != nil {
			t.Errorf("%s: %v", tc.freq, err)
			continue
		}
		row := job.Row()
		if row.Frequency != tc.wantFreq || row.TimeUnit != tc.wantUnit || job.Frequency.EndOf != tc.endOf {
			t.Errorf("%s: stored %q %q end-of %s, want %q %q %s", tc.freq, row.Frequency, row.TimeUnit,
				job.Frequency.EndOf, tc.wantFreq, tc.wantUnit, tc.endOf)
		}
		if row.AppName != "my-app" || row.Status != "PREP" || row.TimeZone != "America/Los_Angeles" {
			t.Errorf("%s: row %+v", tc.freq, row)
		}
	}
}

func TestSubmitControls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id       string
		controls string
		timeout  int
		throttle int
		conc     int
		exec     Execution
		err      string
	}{
		{"F17", "<timeout>${coord:days(10)}</timeout>", 14400, 12, 1, FIFO, ""},
		{"F19", "<timeout>${coord:minutes(10)}</timeout>", 10, 12, 1, FIFO, ""},
		{"F21", "", 120, 12, 1, FIFO, ""},
		{"hours", "<timeout>${coord:hours(2)}</timeout>", 120, 12, 1, FIFO, ""},
		{"months are 30 days", "<timeout>${coord:months(1)}</timeout>", 43200, 12, 1, FIFO, ""},
		{"-1 means the maximum", "<timeout>-1</timeout>", 86400, 12, 1, FIFO, ""},
		{"above the maximum", "<timeout>100000</timeout>", 86400, 12, 1, FIFO, ""},
		{"F23 zero", "<throttle>0</throttle>", 120, 500, 1, FIFO, ""},
		{"F23 above", "<throttle>1000</throttle>", 120, 500, 1, FIFO, ""},
		{"throttle kept", "<throttle>7</throttle>", 120, 7, 1, FIFO, ""},
		{"concurrency", "<concurrency>-1</concurrency><execution>LAST_ONLY</execution>", 120, 12, -1, LastOnly, ""},
		{"S10", "<execution>FIF</execution>", 0, 0, 0, "", "FIFO, LIFO, LAST_ONLY, NONE"},
		{"timeout not a number", "<timeout>soon</timeout>", 0, 0, 0, "", "must be an integer"},
		{"concurrency not a number", "<concurrency>x</concurrency>", 0, 0, 0, "", "must be an integer"},
		{"variable control", "<concurrency>${conc}</concurrency>", 120, 12, 4, FIFO, ""},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			job, err := submitDoc(appWith("60", "<controls>"+tc.controls+"</controls>"), DefaultSettings(),
				Property{Name: "conc", Value: "4"})
			if tc.err != "" {
				if err == nil || ErrorCode(err) != oozieerr.E1003 || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want E1003 containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if job.Timeout != tc.timeout || job.Throttle != tc.throttle || job.Concurrency != tc.conc || job.Execution != tc.exec {
				t.Fatalf("timeout %d throttle %d concurrency %d execution %s", job.Timeout, job.Throttle, job.Concurrency, job.Execution)
			}
		})
	}
}

func TestSubmitValidation(t *testing.T) {
	t.Parallel()
	ds := func(attrs string) string {
		return `<datasets><dataset name="a" ` + attrs + `><uri-template>hdfs:///a/${YEAR}/${MONTH}</uri-template></dataset></datasets>`
	}
	okDS := ds(`frequency="${coord:days(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC"`)
	in := func(inst string) string {
		return `<input-events><data-in name="in" dataset="a"><instance>` + inst + `</instance></data-in></input-events>`
	}
	minFreq := DefaultSettings()
	minFreq.CheckMaximumFrequency = true
	tests := []struct {
		id       string
		doc      string
		settings *Settings
		conf     []Property
		code     oozieerr.Code
		msg      string
	}{
		{id: "S2", doc: appWith("0/10 3 * * *", ""), conf: []Property{{Name: "start", Value: "2010-02-01T01:00Z"},
			{Name: "end", Value: "2010-02-01T02:00Z"}}, code: oozieerr.E1003, msg: "materializes no actions between start and end time."},
		{id: "cron with no fire time", doc: appWith("0 10 30 2 *", ""), code: oozieerr.E1003, msg: "Invalid coordinator cron frequency"},
		{id: "cron syntax", doc: appWith("0/10 3 * *", ""), code: oozieerr.E1003, msg: "must be an integer or a cron syntax"},
		{id: "S4", doc: appWith("3", ""), settings: &minFreq, code: oozieerr.E1003,
			msg: "Coordinator job with frequency [3] minutes is faster than allowed maximum of 5 minutes"},
		{id: "one minute without the check", doc: appWith("1", "")},
		{id: "zero frequency", doc: appWith("0", ""), code: oozieerr.E1003, msg: "greater than zero"},
		{id: "coord:days(0)", doc: appWith("${coord:days(0)}", ""), code: oozieerr.E1004, msg: "greater than zero"},
		{id: "start after end", doc: appWith("60", ""), conf: []Property{{Name: "start", Value: "2009-01-02T00:00Z"}},
			code: oozieerr.E1003, msg: "Coordinator Start Time must be earlier than End Time."},
		{id: "start equals end", doc: appWith("60", ""), conf: []Property{{Name: "end", Value: "2009-01-01T00:00Z"}},
			code: oozieerr.E1003, msg: "must be earlier"},
		{id: "S14", doc: appWith("60", ""), conf: []Property{{Name: "start", Value: "2009-01-01T24:00Z"}}, code: oozieerr.E1003,
			msg: "parameter [start] = [2009-01-01T24:00Z] must be Date in UTC format (yyyy-MM-dd'T'HH:mm'Z')"},
		{id: "S8 no Z", doc: appWith("60", ""), conf: []Property{{Name: "end", Value: "2009-02-01T01:00"}}, code: oozieerr.E1003, msg: "[end]"},
		{id: "undefined variable", doc: strings.Replace(appWith("60", ""), "${nameNode}", "${nn}", 1), code: oozieerr.E1004, msg: "nn"},
		{id: "invalid time zone", doc: strings.Replace(appWith("60", ""), "America/Los_Angeles", "GMT-7", 1), code: oozieerr.E1003,
			msg: "must be a valid TZ"},
		{id: "undefined dataset", doc: appWith("60", okDS+strings.Replace(in("${coord:current(0)}"), `dataset="a"`, `dataset="b"`, 1)),
			code: oozieerr.E1003, msg: "undefined dataset: b"},
		{id: "empty instance", doc: appWith("60", okDS+in(" ")), code: oozieerr.E1021, msg: "<instance> tag within input-events is empty!"},
		{id: "two instances in one", doc: appWith("60", okDS+in("${coord:current(0)},${coord:current(-1)}")), code: oozieerr.E1021,
			msg: "contains more than one date instance"},
		{id: "comma inside EL is fine", doc: appWith("60", okDS+in("${coord:offset(-1, 'DAY')}"))},
		{id: "unknown instance function", doc: appWith("60", okDS+in("${coord:yesterday()}")), code: oozieerr.E1004, msg: "yesterday"},
		{id: "H16 tzOffset dummy", doc: appWith("60", okDS+in("${coord:current(-coord:tzOffset())}"))},
		{id: "dataset frequency must be an integer", doc: appWith("60", ds(`frequency="* * * * *" initial-instance="2009-01-01T00:00Z" timezone="UTC"`)),
			code: oozieerr.E1003, msg: "must be an integer"},
		{id: "initial instance before 1970", doc: appWith("60", ds(`frequency="1" initial-instance="1969-12-31T00:00Z" timezone="UTC"`)),
			code: oozieerr.E1021, msg: "earlier than the default initial instance"},
		{id: "S12 initial instance with dateTzOffset", doc: appWith("60", ds(`frequency="1" initial-instance="${coord:dateTzOffset(startDate, 'UTC')}" timezone="UTC"`)+in("${coord:current(0)}")),
			conf: []Property{{Name: "startDate", Value: "2009-02-03T00:00Z"}}},
		{id: "duplicate data-in", doc: appWith("60", okDS+`<input-events><data-in name="in" dataset="a"><instance>${coord:current(0)}</instance></data-in>`+
			`<data-in name="in" dataset="a"><instance>${coord:current(0)}</instance></data-in></input-events>`), code: oozieerr.E1003, msg: "Duplicate"},
		{id: "undeclared dataIn in configuration", doc: strings.Replace(appWith("60", okDS+in("${coord:current(0)}")), "</app-path>",
			"</app-path><configuration><property><name>x</name><value>${coord:dataIn('nope')}</value></property></configuration>", 1),
			code: oozieerr.E1004, msg: "not valid"},
		{id: "async dataset", doc: appWith("60", `<datasets><async-dataset name="x" sequence-type="t" initial-version="1"><uri-template>u</uri-template></async-dataset></datasets>`),
			code: oozieerr.E1003, msg: "Asynchronous Dataset is not supported yet"},
		{id: "no user", doc: appWith("60", ""), conf: []Property{{Name: "user.name", Value: ""}}, code: "E0401", msg: "user.name"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			s := DefaultSettings()
			if tc.settings != nil {
				s = *tc.settings
			}
			job, err := submitDoc(tc.doc, s, tc.conf...)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				if tc.id == "S12 initial instance with dateTzOffset" && oozietime.UTC.Format(job.DataIns[0].Dataset.InitialInstance) != "2009-02-03T00:00Z" {
					t.Fatalf("initial instance %v", job.DataIns[0].Dataset.InitialInstance)
				}
				return
			}
			if err == nil || ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %s containing %q", err, tc.code, tc.msg)
			}
		})
	}
}

func TestSubmitParametersAndBundles(t *testing.T) {
	t.Parallel()
	params := `<parameters><property><name>nameNode</name></property><property><name>queue</name><value>default</value></property>` +
		`<property><name>missing1</name></property><property><name>missing2</name></property></parameters>`
	_, err := submitDoc(appWith("60", params), DefaultSettings())
	if ErrorCode(err) != oozieerr.E0738 || !strings.Contains(err.Error(),
		"The following 2 parameters are required but were not defined and no default values are available: missing1, missing2") {
		t.Fatalf("E0738: %v", err)
	}
	job, err := submitDoc(appWith("60", `<parameters><property><name>queue</name><value>default</value></property></parameters>`),
		DefaultSettings())
	if err != nil || job.Conf.Value("queue") != "default" {
		t.Fatalf("parameter default: %v", err)
	}
	job, err = submitDoc(appWith("60", `<parameters><property><name>queue</name><value>default</value></property></parameters>`),
		DefaultSettings(), Property{Name: "queue", Value: "mine"})
	if err != nil || job.Conf.Value("queue") != "mine" {
		t.Fatalf("job conf wins: %v", err)
	}
	_, err = submitDoc(appWith("60", `<parameters><property><name></name></property></parameters>`), DefaultSettings())
	if ErrorCode(err) != oozieerr.E0739 {
		t.Fatalf("E0739: %v", err)
	}
	// A bundle names its coordinators and may not use schema 0.1.
	app, err := Parse([]byte(strings.Replace(appWith("60", ""), "coordinator:0.4", "coordinator:0.2", 1)))
	if err != nil {
		t.Fatal(err)
	}
	job, err = Submit(app, SubmitRequest{Conf: conf.PropertiesOf(submitConf...), BundleCoordName: "from-bundle"})
	if err != nil || job.Name != "from-bundle" {
		t.Fatalf("bundle name: %v", err)
	}
	app, err = Parse([]byte(strings.Replace(appWith("60", ""), "coordinator:0.4", "coordinator:0.1", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Submit(app, SubmitRequest{Conf: conf.PropertiesOf(submitConf...), BundleCoordName: "x"}); ErrorCode(err) != oozieerr.E1319 {
		t.Fatalf("E1319: %v", err)
	}
}

func TestSubmitIncludes(t *testing.T) {
	t.Parallel()
	file := func(names ...string) []byte {
		var b strings.Builder
		b.WriteString(`<datasets xmlns="uri:oozie:coordinator:0.4">`)
		for _, n := range names {
			b.WriteString(`<dataset name="` + n + `" frequency="${coord:days(1)}" initial-instance="2009-01-01T00:00Z" timezone="UTC">` +
				`<uri-template>hdfs:///included/` + n + `/${YEAR}</uri-template></dataset>`)
		}
		b.WriteString(`</datasets>`)
		return []byte(b.String())
	}
	files := map[string][]byte{"hdfs://nn/ds1.xml": file("a", "b"), "hdfs://nn/ds2.xml": file("c"), "hdfs://nn/dup.xml": file("a")}
	read := func(p string) ([]byte, error) {
		if d, ok := files[p]; ok {
			return d, nil
		}
		return nil, errors.New("no such file " + p)
	}
	body := func(includes string) string {
		return `<datasets>` + includes + `<dataset name="b" frequency="60" initial-instance="2009-01-01T00:00Z" timezone="UTC">` +
			`<uri-template>hdfs:///inline/b</uri-template></dataset></datasets><input-events>` +
			`<data-in name="ia" dataset="a"><instance>${coord:current(0)}</instance></data-in>` +
			`<data-in name="ib" dataset="b"><instance>${coord:current(0)}</instance></data-in></input-events>`
	}
	submit := func(includes string) (*Job, error) {
		app, err := Parse([]byte(appWith("60", body(includes))))
		if err != nil {
			return nil, err
		}
		return Submit(app, SubmitRequest{Conf: conf.PropertiesOf(submitConf...), ReadInclude: read})
	}
	job, err := submit(`<include>${nameNode}/ds1.xml</include><include>${nameNode}/ds2.xml</include>`)
	if err != nil {
		t.Fatal(err)
	}
	if job.DataIns[0].Dataset.URITemplate != "hdfs:///included/a/${YEAR}" || job.DataIns[1].Dataset.URITemplate != "hdfs:///inline/b" {
		t.Fatalf("datasets %s %s", job.DataIns[0].Dataset.URITemplate, job.DataIns[1].Dataset.URITemplate)
	}
	if _, err := submit(`<include>${nameNode}/ds1.xml</include><include>${nameNode}/dup.xml</include>`); err == nil ||
		!strings.Contains(err.Error(), "Duplicate Dataset") {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := submit(`<include>${nameNode}/none.xml</include>`); err == nil || !strings.Contains(err.Error(), "none.xml") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestFirstNominalTimeIsStart(t *testing.T) {
	t.Parallel()
	// E16: non end-of frequencies start exactly at start, even off local midnight.
	for _, freq := range []string{"${coord:days(1)}", "${coord:hours(3)}", "${coord:months(1)}"} {
		job, err := submitDoc(appWith(freq, ""), DefaultSettings(), Property{Name: "start", Value: "2009-03-09T08:00Z"},
			Property{Name: "end", Value: "2009-06-09T08:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		actions, err := DryRun(job, testJobID, farFuture, DefaultSettings())
		if err != nil || len(actions) == 0 || oozietime.UTC.Format(actions[0].Row.NominalTime) != "2009-03-09T08:00Z" {
			t.Fatalf("E16 %s: %v %v", freq, err, nominalTimes(actions))
		}
	}
	// With endOfDays the first nominal time is the next local midnight.
	job, err := submitDoc(appWith("${coord:endOfDays(1)}", ""), DefaultSettings(), Property{Name: "start", Value: "2009-01-01T18:00Z"},
		Property{Name: "end", Value: "2009-01-10T08:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	row := job.Row()
	res, err := Materialize(MaterializeRequest{Job: job, JobID: testJobID, Row: row, Now: farFuture, Settings: DefaultSettings()})
	if err != nil || len(res.Actions) == 0 || oozietime.UTC.Format(res.Actions[0].Row.NominalTime) != "2009-01-02T08:00Z" {
		t.Fatalf("E4 through materialization: %v %v", err, nominalTimes(res.Actions))
	}
}
