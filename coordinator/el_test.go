package coordinator

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// b0 returns the baseline context B0 of oozie-cases.md (the fixture of Oozie's
// TestCoordELFunctions): a daily LA dataset from 2009-09-01T23:59Z checked by directory.
func b0(t testing.TB) *ELContext {
	t.Helper()
	la := zone(t, "America/Los_Angeles")
	return &ELContext{
		User: "test_user",
		Conf: conf.NewProperties("user.name", "test_user"),
		Dataset: &Dataset{Name: "test", Frequency: 1, Unit: oozietime.Day, EndOf: oozietime.NoUnit,
			InitialInstance: utc(t, "2009-09-01T23:59Z"), TimeZone: "America/Los_Angeles", Location: la,
			URITemplate: "hdfs://localhost:9000/user/test_user/US/${YEAR}/${MONTH}/${DAY}", HasDoneFlag: true},
		Action: &ActionContext{ID: "00000-oozie-C@1", Name: "mycoordinator-app",
			NominalTime: utc(t, "2009-09-09T23:59Z"), ActualTime: utc(t, "2009-09-10T23:59Z"), Location: la},
	}
}

// dsContext returns a context with a dataset (freq, unit, initial, zone, end-of flag) and an
// action at nominal time nt; the job zone is the dataset's.
func dsContext(t testing.TB, freq int, unit oozietime.Unit, initial, tz string, endOf oozietime.Unit, nt string) *ELContext {
	t.Helper()
	c := b0(t)
	loc := zone(t, tz)
	c.Dataset.Frequency, c.Dataset.Unit, c.Dataset.EndOf = freq, unit, endOf
	c.Dataset.InitialInstance = utc(t, initial)
	c.Dataset.TimeZone, c.Dataset.Location = tz, loc
	c.Action.NominalTime = utc(t, nt)
	c.Action.Location = loc
	return c
}

// elCase is one EL table row: evaluate expr in phase with the context and compare.
type elCase struct {
	id    string
	ctx   func(t testing.TB) *ELContext
	phase Phase
	expr  string
	want  string
	err   string // substring of the expected error; "" means success
}

func runELCases(t *testing.T, cases []elCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			c := tc.ctx(t)
			got, err := c.EvalString(tc.phase, tc.expr)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s in %s: got %q, %v; want error containing %q", tc.expr, tc.phase, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s in %s: %v", tc.expr, tc.phase, err)
			}
			if got != tc.want {
				t.Fatalf("%s in %s = %q, want %q", tc.expr, tc.phase, got, tc.want)
			}
		})
	}
}

func TestFrequencyFunctions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id    string
		expr  string
		want  string
		unit  oozietime.Unit
		endOf oozietime.Unit
	}{
		{"F1", "${coord:days(1)}", "1", oozietime.Day, oozietime.NoUnit},
		{"F3", "${coord:months(1)}", "1", oozietime.Month, oozietime.NoUnit},
		{"F3 arithmetic", "${coord:months(1) + 7}", "8", oozietime.Month, oozietime.NoUnit},
		{"F5", "${coord:months(coord:months(7))}", "7", oozietime.Month, oozietime.NoUnit},
		{"F7", "${coord:hours(coord:hours(1))}", "3600", oozietime.Minute, oozietime.NoUnit},
		{"F9", "${coord:endOfWeeks(3)}", "3", oozietime.Week, oozietime.EndOfWeek},
		{"F11", "${coord:minutes(1)}", "1", oozietime.Minute, oozietime.NoUnit},
		{"F11 nested", "${coord:minutes(coord:minutes(1))}", "1", oozietime.Minute, oozietime.NoUnit},
		{"endOfDays", "${coord:endOfDays(3)}", "3", oozietime.Day, oozietime.EndOfDay},
		{"endOfMonths", "${coord:endOfMonths(3)}", "3", oozietime.Month, oozietime.EndOfMonth},
		{"last unit wins", "${coord:days(1) + coord:months(1)}", "2", oozietime.Month, oozietime.NoUnit},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			c := &ELContext{}
			got, err := c.EvalString(PhaseSubmitFreq, tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || c.Unit != tc.unit || c.EndOf != tc.endOf {
				t.Fatalf("%s = %q %s %s, want %q %s %s", tc.expr, got, c.Unit, c.EndOf, tc.want, tc.unit, tc.endOf)
			}
		})
	}
	// F13: functions of later phases are unknown while evaluating a frequency.
	for _, expr := range []string{"frequency=${coord:daysInMonth(2)}", "frequency=${coord:hoursInDay(2)}",
		"frequency=${coord:tzOffset()}"} {
		if _, err := (&ELContext{}).EvalString(PhaseSubmitFreq, expr); err == nil || ErrorCode(err) != oozieerr.E1004 {
			t.Errorf("F13: %s evaluated: %v", expr, err)
		}
	}
	if _, err := (&ELContext{}).EvalString(PhaseSubmitFreq, "${coord:days(0)}"); err == nil {
		t.Error("coord:days(0) accepted")
	}
	// F15: coord:conf reads the job configuration.
	c := &ELContext{Conf: conf.NewProperties("my.test.variable", "test")}
	if got, err := c.EvalString(PhaseSubmitFreq, "${coord:conf('my.test.variable')}"); err != nil || got != "test" {
		t.Errorf("F15: got %q, %v", got, err)
	}
}

func TestCurrent(t *testing.T) {
	t.Parallel()
	ctx := func(freq int, unit oozietime.Unit, initial, tz string, endOf oozietime.Unit, nt string) func(testing.TB) *ELContext {
		return func(t testing.TB) *ELContext { return dsContext(t, freq, unit, initial, tz, endOf, nt) }
	}
	four := "${coord:current(0)} ${coord:current(1)} ${coord:current(-1)} ${coord:current(-3)}"
	two := "${coord:current(0)} ${coord:current(1)}"
	runELCases(t, []elCase{
		{"B0 current(-1)", b0, PhaseActionCreate, "${coord:current(-1)}", "2009-09-08T23:59Z", ""},
		{"C2", ctx(1, oozietime.Day, "2009-01-02T00:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-05-30T00:45Z"), PhaseActionCreate,
			four, "2009-05-29T23:00Z 2009-05-30T23:00Z 2009-05-28T23:00Z 2009-05-26T23:00Z", ""},
		{"C4", ctx(1, oozietime.Day, "2009-01-02T00:00Z", "UTC", oozietime.NoUnit, "2009-05-30T00:00Z"), PhaseActionCreate,
			four, "2009-05-30T00:00Z 2009-05-31T00:00Z 2009-05-29T00:00Z 2009-05-27T00:00Z", ""},
		{"weekly UTC", ctx(7, oozietime.Day, "2009-01-08T00:00Z", "UTC", oozietime.NoUnit, "2009-05-30T00:00Z"), PhaseActionCreate,
			four, "2009-05-28T00:00Z 2009-06-04T00:00Z 2009-05-21T00:00Z 2009-05-07T00:00Z", ""},
		{"C6", ctx(1, oozietime.Day, "2009-03-06T10:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-03-08T10:45Z"), PhaseActionCreate,
			"${coord:current(-2)} ${coord:current(-1)} ${coord:current(0)} ${coord:current(1)} ${coord:current(2)}",
			"2009-03-06T10:00Z 2009-03-07T10:00Z 2009-03-08T09:00Z 2009-03-09T09:00Z 2009-03-10T09:00Z", ""},
		{"winter DST", ctx(1, oozietime.Day, "2009-10-30T08:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-11-01T08:00Z"), PhaseActionCreate,
			"${coord:current(-2)} ${coord:current(-1)} ${coord:current(0)} ${coord:current(1)} ${coord:current(2)}",
			"2009-10-30T08:00Z 2009-10-31T08:00Z 2009-11-01T08:00Z 2009-11-02T09:00Z 2009-11-03T09:00Z", ""},
		{"C8", ctx(1, oozietime.Day, "2009-01-02T09:00Z", "UTC", oozietime.EndOfDay, "2009-05-30T12:00Z"), PhaseActionCreate,
			two, "2009-05-30T00:00Z 2009-05-31T00:00Z", ""},
		{"C10", ctx(1, oozietime.Day, "2009-01-01T08:00Z", "America/Los_Angeles", oozietime.EndOfDay, "2009-01-01T08:00Z"), PhaseActionCreate,
			two, " ", ""},
		{"C12", ctx(1, oozietime.Day, "2009-01-01T07:00Z", "America/Los_Angeles", oozietime.EndOfDay, "2009-01-01T18:00Z"), PhaseActionCreate,
			two, "2009-01-01T08:00Z 2009-01-02T08:00Z", ""},
		{"C14", ctx(1, oozietime.Day, "2009-03-08T07:00Z", "America/Los_Angeles", oozietime.EndOfDay, "2009-03-08T08:00Z"), PhaseActionCreate,
			two, "2009-03-08T08:00Z 2009-03-09T07:00Z", ""},
		{"C16", ctx(2, oozietime.Day, "2009-03-09T07:00Z", "America/Los_Angeles", oozietime.EndOfDay, "2009-03-10T07:00Z"), PhaseActionCreate,
			two, "2009-03-10T07:00Z 2009-03-12T07:00Z", ""},
		{"C18", ctx(1, oozietime.Month, "2009-01-01T08:00Z", "UTC", oozietime.EndOfMonth, "2009-02-01T08:00Z"), PhaseActionCreate,
			two, "2009-02-01T00:00Z 2009-03-01T00:00Z", ""},
		{"C20", ctx(1, oozietime.Month, "2009-01-01T08:00Z", "America/Los_Angeles", oozietime.EndOfMonth, "2009-02-01T08:00Z"), PhaseActionCreate,
			two, "2009-02-01T08:00Z 2009-03-01T08:00Z", ""},
		{"C22", ctx(1, oozietime.Month, "2009-02-01T08:00Z", "America/Los_Angeles", oozietime.EndOfMonth, "2009-03-01T08:00Z"), PhaseActionCreate,
			two, "2009-03-01T08:00Z 2009-04-01T07:00Z", ""},
		{"EOM every 3 months", ctx(3, oozietime.Month, "2009-02-01T08:00Z", "America/Los_Angeles", oozietime.EndOfMonth, "2009-03-01T08:00Z"), PhaseActionCreate,
			two, "2009-03-01T08:00Z 2009-06-01T07:00Z", ""},
		{"C24", ctx(1, oozietime.Month, "2010-01-01T00:00Z", "UTC", oozietime.EndOfMonth, "2016-10-31T00:55Z"), PhaseActionCreate,
			"${coord:current(0)} ${coord:current(1)} ${coord:current(-1)}", "2016-10-01T00:00Z 2016-11-01T00:00Z 2016-09-01T00:00Z", ""},
		{"C26", b0, PhaseActionCreate, "${coord:currentRange(-1, 0)}", "2009-09-09T23:59Z#2009-09-08T23:59Z", ""},
		{"C28", ctx(1440, oozietime.Minute, "2009-01-01T00:00Z", "UTC", oozietime.NoUnit, "2009-09-08T01:00Z"), PhaseActionCreate,
			"${coord:current(0)}", "2009-09-08T00:00Z", ""},
		{"30 minutes", ctx(30, oozietime.Minute, "2009-01-08T00:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-05-30T00:45Z"), PhaseActionCreate,
			four, "2009-05-30T00:30Z 2009-05-30T01:00Z 2009-05-30T00:00Z 2009-05-29T23:00Z", ""},
		{"range drops instances before the initial one", b0, PhaseActionCreate, "${coord:currentRange(-10, -7)}",
			"2009-09-02T23:59Z#2009-09-01T23:59Z", ""},
		{"K7", ctx(7, oozietime.Day, "2009-08-20T01:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-08-20T01:00Z"), PhaseActionCreate,
			`${coord:absoluteRange("2009-08-20T01:00Z", 0)}`, "2009-08-20T01:00Z", ""},
		{"K9", ctx(7, oozietime.Day, "2009-08-20T01:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-08-20T01:00Z"), PhaseActionCreate,
			`${coord:absoluteRange("2009-08-20T01:00Z", -1)}`, "", "start-instance should be equal or earlier than the end-instance"},
		{"absoluteRange over two instances", ctx(7, oozietime.Day, "2009-08-20T01:00Z", "America/Los_Angeles", oozietime.NoUnit, "2009-08-27T01:00Z"), PhaseActionCreate,
			`${coord:absoluteRange("2009-08-20T01:00Z", 0)}`, "2009-08-27T01:00Z#2009-08-20T01:00Z", ""},
	})
}

func TestOffset(t *testing.T) {
	t.Parallel()
	year := func(t testing.TB) *ELContext {
		return dsContext(t, 1, oozietime.Year, "2010-01-02T00:01Z", "America/Los_Angeles", oozietime.NoUnit, "2015-01-02T00:45Z")
	}
	minute := func(t testing.TB) *ELContext {
		return dsContext(t, 1, oozietime.Minute, "2010-01-02T00:01Z", "America/Los_Angeles", oozietime.NoUnit, "2015-01-02T00:45Z")
	}
	fourHours := func(t testing.TB) *ELContext {
		return dsContext(t, 4, oozietime.Hour, "2010-01-02T00:01Z", "America/Los_Angeles", oozietime.NoUnit, "2015-01-02T00:45Z")
	}
	yearly := "2015-01-02T00:01Z 2016-01-02T00:01Z 2014-01-02T00:01Z 2012-01-02T00:01Z"
	runELCases(t, []elCase{
		{"B0 -1440 MINUTE", b0, PhaseActionCreate, `${coord:offset(-1440, "MINUTE")}`, "2009-09-08T23:59Z", ""},
		{"B0 -24 HOUR", b0, PhaseActionCreate, `${coord:offset(-24, "HOUR")}`, "2009-09-08T23:59Z", ""},
		{"O2", b0, PhaseActionCreate, `${coord:offset(1, "MONTH")}`, "2009-10-09T23:59Z", ""},
		{"B0 1 YEAR", b0, PhaseActionCreate, `${coord:offset(1, "YEAR")}`, "2010-09-09T23:59Z", ""},
		{"O4", b0, PhaseActionCreate, `${coord:offset(-10, "DAY")}`, "", ""},
		{"O5 yearly dataset (context of O6/O8)", year, PhaseActionCreate,
			`${coord:offset(0, "YEAR")} ${coord:offset(1, "YEAR")} ${coord:offset(-1, "YEAR")} ${coord:offset(-3, "YEAR")}`, yearly, ""},
		{"O6", year, PhaseActionCreate,
			`${coord:offset(0, "MONTH")} ${coord:offset(12, "MONTH")} ${coord:offset(-12, "MONTH")} ${coord:offset(-36, "MONTH")}`, yearly, ""},
		{"O6 days", year, PhaseActionCreate,
			`${coord:offset(0, "DAY")} ${coord:offset(365, "DAY")} ${coord:offset(-365, "DAY")} ${coord:offset(-1096, "DAY")}`, yearly, ""},
		{"O8", year, PhaseActionCreate,
			`${coord:offset(0, "HOUR")} ${coord:offset(8760, "HOUR")} ${coord:offset(-8760, "HOUR")} ${coord:offset(-26304, "HOUR")}`, yearly, ""},
		{"O10", minute, PhaseActionCreate,
			`${coord:offset(0, "MINUTE")} ${coord:offset(1, "MINUTE")} ${coord:offset(-1, "MINUTE")} ${coord:offset(-3, "MINUTE")}`,
			"2015-01-02T00:45Z 2015-01-02T00:46Z 2015-01-02T00:44Z 2015-01-02T00:42Z", ""},
		{"O10 hours", minute, PhaseActionCreate,
			`${coord:offset(0, "HOUR")} ${coord:offset(1, "HOUR")} ${coord:offset(-1, "HOUR")} ${coord:offset(-3, "HOUR")}`,
			"2015-01-02T00:45Z 2015-01-02T01:45Z 2015-01-01T23:45Z 2015-01-01T21:45Z", ""},
		{"O12", minute, PhaseActionCreate,
			`${coord:offset(0, "DAY")} ${coord:offset(1, "DAY")} ${coord:offset(-1, "DAY")} ${coord:offset(-3, "DAY")}`,
			"2015-01-02T00:45Z 2015-01-03T00:45Z 2015-01-01T00:45Z 2014-12-30T00:45Z", ""},
		{"O12 months", minute, PhaseActionCreate,
			`${coord:offset(0, "MONTH")} ${coord:offset(1, "MONTH")} ${coord:offset(-1, "MONTH")} ${coord:offset(-3, "MONTH")}`,
			"2015-01-02T00:45Z 2015-02-02T00:45Z 2014-12-02T00:45Z 2014-10-01T23:45Z", ""},
		{"O14", minute, PhaseActionCreate,
			`${coord:offset(0, "YEAR")} ${coord:offset(1, "YEAR")} ${coord:offset(-1, "YEAR")} ${coord:offset(-3, "YEAR")}`,
			"2015-01-02T00:45Z 2016-01-02T00:45Z 2014-01-02T00:45Z 2012-01-02T00:45Z", ""},
		{"O15 rewind 5 MINUTE", fourHours, PhaseActionCreate, `${coord:offset(5, "MINUTE")}`, "2015-01-02T00:01Z", ""},
		{"O16", fourHours, PhaseActionCreate, `${coord:offset(1, "HOUR")}`, "2015-01-02T00:01Z", ""},
		{"O16 seven hours", fourHours, PhaseActionCreate, `${coord:offset(7, "HOUR")}`, "2015-01-02T04:01Z", ""},
		{"O18", fourHours, PhaseActionCreate, `${coord:offset(-2, "HOUR")}`, "2015-01-01T20:01Z", ""},
		{"O18 before initial", fourHours, PhaseActionCreate, `${coord:offset(-43825, "HOUR")}`, "", ""},
		{"O20 unit", fourHours, PhaseActionCreate, `${coord:offset(1, "blah")}`, "", "Unable to evaluate"},
		{"O20 fraction", fourHours, PhaseActionCreate, `${coord:offset(4.5, "blah")}`, "", "Unable to evaluate"},
	})
}

func TestMeasureFunctions(t *testing.T) {
	t.Parallel()
	daily := func(tz string, endOf oozietime.Unit, nt string) func(testing.TB) *ELContext {
		return func(t testing.TB) *ELContext {
			return dsContext(t, 1, oozietime.Day, "2009-01-01T08:00Z", tz, endOf, nt)
		}
	}
	monthly := func(endOf oozietime.Unit) func(testing.TB) *ELContext {
		return func(t testing.TB) *ELContext {
			return dsContext(t, 1, oozietime.Month, "2009-01-01T00:00Z", "UTC", endOf, "2009-02-01T11:00Z")
		}
	}
	months := "${coord:daysInMonth(0)} ${coord:daysInMonth(-1)} ${coord:daysInMonth(2)} ${coord:daysInMonth(-3)} ${coord:daysInMonth(3)}"
	runELCases(t, []elCase{
		{"H2", daily("UTC", oozietime.NoUnit, "2009-01-01T08:00Z"), PhaseActionCreate, "${coord:hoursInDay(0)}", "24", ""},
		{"H4", daily("UTC", oozietime.NoUnit, "2009-03-08T08:00Z"), PhaseActionCreate, "${coord:hoursInDay(0)}", "24", ""},
		{"H6", daily("America/Los_Angeles", oozietime.NoUnit, "2009-03-08T08:00Z"), PhaseActionCreate,
			"${coord:hoursInDay(0)} ${coord:hoursInDay(1)}", "23 24", ""},
		{"fall back", daily("America/Los_Angeles", oozietime.NoUnit, "2009-11-01T08:00Z"), PhaseActionCreate, "${coord:hoursInDay(0)}", "25", ""},
		{"London", daily("Europe/London", oozietime.NoUnit, "2009-03-08T08:00Z"), PhaseActionCreate, "${coord:hoursInDay(0)}", "24", ""},
		{"H8", daily("America/Los_Angeles", oozietime.EndOfDay, "2009-03-08T08:00Z"), PhaseActionCreate,
			"${coord:hoursInDay(0)} ${coord:hoursInDay(1)} ${coord:hoursInDay(-1)}", "23 24 24", ""},
		{"before initial", daily("UTC", oozietime.EndOfDay, "2009-01-01T08:00Z"), PhaseActionCreate, "${coord:hoursInDay(0)}", "-1", ""},
		{"H10", monthly(oozietime.NoUnit), PhaseActionCreate, months, "28 31 30 30 31", ""},
		{"H12", monthly(oozietime.EndOfMonth), PhaseActionCreate, months, "28 31 30 30 31", ""},
		{"H14", func(t testing.TB) *ELContext {
			c := dsContext(t, 1, oozietime.Day, "2009-01-01T00:00Z", "America/Los_Angeles", oozietime.NoUnit, "2012-06-13T00:00Z")
			c.Action.Location = time.UTC
			return c
		}, PhaseActionCreate, "${coord:tzOffset()}", "-420", ""},
		{"tzOffset New York job", func(t testing.TB) *ELContext {
			c := b0(t)
			c.Action.Location = zone(t, "America/New_York")
			return c
		}, PhaseActionCreate, "${coord:tzOffset()}", "-180", ""},
		{"H16", b0, PhaseSubmitInstances, "${coord:current(-coord:tzOffset())}", "${coord:current(-3)}", ""},
		{"dummies", b0, PhaseSubmitInstances, "${coord:hoursInDay(1) + coord:daysInMonth(1)}", "54", ""},
	})
}

func TestDateAndActionFunctions(t *testing.T) {
	t.Parallel()
	withDate := func(t testing.TB) *ELContext {
		c := b0(t)
		c.Conf.Set("date", "2009-09-08T23:59Z")
		return c
	}
	unresolvedABC := func(t testing.TB) *ELContext {
		c := b0(t)
		c.DataIn = map[string]DataValue{"ABC": {URIs: []string{"file:///tmp/coord/US/2009/1/30"}, Unresolved: true}}
		return c
	}
	resolvedABC := func(t testing.TB) *ELContext {
		c := b0(t)
		c.DataIn = map[string]DataValue{"ABC": {URIs: []string{"file:///tmp/coord/US/2009/1/30", "file:///tmp/coord/US/2009/1/31"}}}
		c.DataOut = map[string]DataValue{"OUT": {URIs: []string{"file:///tmp/out/1", "file:///tmp/out/2"}}}
		return c
	}
	declared := func(t testing.TB) *ELContext {
		c := b0(t)
		c.DataNames = map[string]string{"ABC": "data-in", "EFG": "data-out"}
		return c
	}
	runELCases(t, []elCase{
		{"D2", b0, PhaseActionStart, `${coord:dateOffset("2009-09-08T23:59Z", -1, "DAY")}`, "2009-09-07T23:59Z", ""},
		{"dateOffset +2 DAY", b0, PhaseActionStart, `${coord:dateOffset("2009-09-08T23:59Z", 2, "DAY")}`, "2009-09-10T23:59Z", ""},
		{"D4 MONTH", b0, PhaseActionStart, `${coord:dateOffset("2009-01-01T00:00Z", 2, "MONTH")}`, "2009-03-01T00:00Z", ""},
		{"D4 YEAR", b0, PhaseActionStart, `${coord:dateOffset("2009-01-01T00:00Z", 1, "YEAR")}`, "2010-01-01T00:00Z", ""},
		{"D6", b0, PhaseActionStart, `${coord:dateTzOffset("2012-06-13T00:00Z", "PST")}`, "2012-06-12T17:00Z", ""},
		{"S12 dateTzOffset UTC", b0, PhaseSubmitInitialInstance, `${coord:dateTzOffset("2009-02-03T00:00Z", "UTC")}`, "2009-02-03T00:00Z", ""},
		{"D8 create", b0, PhaseActionCreate, `${coord:formatTime("2009-09-08T23:59Z", "yyyy")}`, "2009", ""},
		{"D8 create-inst", b0, PhaseActionCreateInst, `${coord:formatTime("2009-09-08T23:59Z", "yyyy")}`, "2009", ""},
		{"D8 start", b0, PhaseActionStart, `${coord:formatTime("2009-09-08T23:59Z", "yyyy")}`, "2009", ""},
		{"D8 pattern", b0, PhaseActionStart, `${coord:formatTime("2009-09-08T23:59Z", "yyyyMMdd_HHmmss")}`, "20090908_235900", ""},
		{"D10 submit-instances", withDate, PhaseSubmitInstances, `${coord:formatTime(date, "yyyy")}`,
			"${coord:formatTime('2009-09-08T23:59Z' , yyyy)}", ""},
		{"D10 submit-data", withDate, PhaseSubmitData, `${coord:formatTime(date, "yyyy")}`,
			"${coord:formatTime('2009-09-08T23:59Z' , yyyy)}", ""},
		{"D10 sla-submit", withDate, PhaseSLASubmit, `${coord:formatTime(date, "yyyy")}`,
			"${coord:formatTime('2009-09-08T23:59Z' , yyyy)}", ""},
		{"D12", withDate, PhaseSubmitInstances, `${coord:epochTime(date, "true")}`,
			"${coord:epochTime('2009-09-08T23:59Z' , true)}", ""},
		{"D12 submit-data", withDate, PhaseSubmitData, `${coord:epochTime(date, "true")}`,
			"${coord:epochTime('2009-09-08T23:59Z' , true)}", ""},
		{"epochTime millis", b0, PhaseActionStart, `${coord:epochTime("2009-09-08T23:59Z", "true")}`, "1252454340000", ""},
		{"epochTime seconds", b0, PhaseActionStart, `${coord:epochTime("2009-09-08T23:59Z", "false")}`, "1252454340", ""},
		{"D14 action-start", b0, PhaseActionStart, "${coord:nominalTime()}", "2009-09-09T23:59Z", ""},
		{"D14 sla-create", b0, PhaseSLACreate, "${coord:nominalTime()}", "2009-09-09T23:59Z", ""},
		{"actualTime", b0, PhaseActionStart, "${coord:actualTime()}", "2009-09-10T23:59Z", ""},
		{"D16", b0, PhaseSLASubmit, "${coord:actualTime()}", "${coord:actualTime()}", ""},
		{"sla-submit nominalTime dummy", b0, PhaseSLASubmit, "${coord:nominalTime()}", "2009-03-06T010:00", ""},
		{"D18", b0, PhaseActionStart, "${coord:name()}", "mycoordinator-app", ""},
		{"actionId", b0, PhaseActionStart, "${coord:actionId()}", "00000-oozie-C@1", ""},
		{"D20", unresolvedABC, PhaseActionStart, "${coord:dataIn('ABC')}", "${coord:dataIn('ABC')}", ""},
		{"dataIn resolved", resolvedABC, PhaseActionStart, "${coord:dataIn('ABC')}",
			"file:///tmp/coord/US/2009/1/30,file:///tmp/coord/US/2009/1/31", ""},
		{"dataOut", resolvedABC, PhaseActionStart, "${coord:dataOut('OUT')}", "file:///tmp/out/1,file:///tmp/out/2", ""},
		{"D22 declared data-in", declared, PhaseSubmitData, "${coord:dataIn('ABC')}", "${coord:dataIn('ABC')}", ""},
		{"D22 undeclared data-in", declared, PhaseSubmitData, "${coord:dataIn('ABCD')}", "", "is not valid"},
		{"D22 declared data-out", declared, PhaseSubmitData, "${coord:dataOut('EFG')}", "${coord:dataOut('EFG')}", ""},
		{"D22 undeclared data-out", declared, PhaseSubmitData, "${coord:dataOut('EFGH')}", "", "is not valid"},
		{"D22 data-out is not a data-in", declared, PhaseSubmitData, "${coord:dataIn('EFG')}", "", "is not valid"},
		{"user everywhere", b0, PhaseSLACreate, "${coord:user()}", "test_user", ""},
		{"L9", b0, PhaseSubmitInstances, "${coord:future(1, 10)}", "${coord:future(1, 10)}", ""},
		{"nofuncs echoes date variables", b0, PhaseSubmitNoFuncs, "/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}",
			"/logs/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}", ""},
		{"freq phase has no YEAR", b0, PhaseSubmitFreq, "${YEAR}", "", "Unable to evaluate"},
		{"sla constants", b0, PhaseSLACreate, "${10 * MINUTES + 2 * HOURS + DAYS}", "1570", ""},
	})
}

func TestDatasetURI(t *testing.T) {
	t.Parallel()
	// D24: the template takes the instance's fields in the processing time zone.
	ds := &Dataset{URITemplate: "hdfs://p1/p2/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}/", Location: time.UTC}
	got, err := ds.URI(utc(t, "2009-08-09T23:59Z"), oozietime.UTC)
	if err != nil || got != "hdfs://p1/p2/2009/08/09/23/59/" {
		t.Fatalf("D24: %q, %v", got, err)
	}
	ds.URITemplate = "hdfs://p1/p2/${YEAR}/${MONTH}/${DAY}/${MINUTE}/"
	if got, _ := ds.URI(utc(t, "2009-08-09T23:59Z"), oozietime.UTC); got != "hdfs://p1/p2/2009/08/09/59/" {
		t.Fatalf("D24 without hour: %q", got)
	}
	ds.URITemplate = "hdfs://p1/${unknown}/${YEAR}"
	if _, err := ds.URI(utc(t, "2009-08-09T23:59Z"), oozietime.UTC); err == nil {
		t.Fatal("an unknown variable in a URI template expanded")
	}
	for _, tc := range []struct {
		flag    string
		hasFlag bool
		want    string
	}{{"", false, "/d/_SUCCESS"}, {"", true, "/d"}, {"done", true, "/d/done"}} {
		ds := &Dataset{DoneFlag: tc.flag, HasDoneFlag: tc.hasFlag}
		if got := ds.WithDoneFlag("/d"); got != tc.want {
			t.Errorf("done-flag %q (present %v): %q, want %q", tc.flag, tc.hasFlag, got, tc.want)
		}
	}
}
