package coordinator

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/el"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// instanceSeparator joins instances and URIs of one event.
const instanceSeparator = "#"

// datasetContext returns the context of an instance function, which needs a dataset and an
// action.
func datasetContext(env *el.Env) (*ELContext, error) {
	c, err := context(env)
	if err != nil {
		return nil, err
	}
	if c.Dataset == nil || c.Action == nil {
		return nil, errNoDataset
	}
	return c, nil
}

// currentRange returns instances a..b relative to the current instance at the nominal time,
// newest first, joined by '#'. Instances before the initial one are dropped; "" when the
// nominal time is before the initial instance. The span a..b counts against the instance
// bound (what names the call) before anything is built.
func (c *ELContext) currentRange(a, b int, what string) (string, error) {
	if err := c.countInstances(span(a, b), what); err != nil {
		return "", err
	}
	ds := c.Dataset
	k, ok := ds.CurrentIndex(c.Action.NominalTime)
	if !ok {
		return "", nil
	}
	var out []string
	for i := b; i >= a; i-- {
		if k+i < 0 {
			break
		}
		out = append(out, c.Format.Format(ds.Instance(k+i)))
	}
	return strings.Join(out, instanceSeparator), nil
}

// offsetInstance returns the instance of coord:offset(n, unit): the current instance plus n
// units (calendar arithmetic in the dataset zone), rewound to the latest instance at or before
// that time; false when there is none (nominal time or result before the initial instance).
func (c *ELContext) offsetInstance(n int, unit oozietime.Unit) (time.Time, bool) {
	raw, ok := c.offsetRaw(n, unit)
	if !ok {
		return time.Time{}, false
	}
	ds := c.Dataset
	j := ds.IndexAtOrBefore(raw)
	if j < 0 {
		return time.Time{}, false
	}
	return ds.Instance(j), true
}

// offsetRaw returns the current instance plus n units, before rewinding.
func (c *ELContext) offsetRaw(n int, unit oozietime.Unit) (time.Time, bool) {
	ds := c.Dataset
	k, ok := ds.CurrentIndex(c.Action.NominalTime)
	if !ok {
		return time.Time{}, false
	}
	return oozietime.AddUnits(ds.Instance(k), unit, n, ds.Location), true
}

// offsetUnit parses the unit argument of coord:offset and coord:dateOffset.
func offsetUnit(fn, s string) (oozietime.Unit, error) {
	u, ok := oozietime.ParseUnit(s)
	if !ok || u == oozietime.Cron || u == oozietime.NoUnit {
		return "", fmt.Errorf("coord:%s: %q is not a valid time unit (MINUTE, HOUR, DAY, WEEK, MONTH, YEAR)", fn, s)
	}
	return u, nil
}

// absoluteRange expands start-instance absolute(date) with end-instance current(end).
func (c *ELContext) absoluteRange(date string, end int) (string, error) {
	ds := c.Dataset
	start, err := c.Format.Parse(date)
	if err != nil {
		return "", oozieerr.At(oozieerr.E1010, "", "invalid start-instance date: %v", err)
	}
	ks, ok := ds.CurrentIndex(start)
	if !ok {
		return "", oozieerr.At(oozieerr.E1010, "",
			"initial-instance should be equal or earlier than the start-instance. initial-instance is %s and start-instance is %s",
			c.Format.Format(ds.Initial()), date)
	}
	if !ds.Instance(ks).Equal(start) {
		return "", oozieerr.At(oozieerr.E1010, "",
			"initial-instance is not in phase with start-instance. initial-instance is %s and start-instance is %s",
			c.Format.Format(ds.Initial()), c.Format.Format(start))
	}
	kn, ok := ds.CurrentIndex(c.Action.NominalTime)
	if !ok {
		return "", oozieerr.At(oozieerr.E1010, "",
			"initial-instance should be equal or earlier than the nominal time. initial-instance is %s and nominal time is %s",
			c.Format.Format(ds.Initial()), c.Format.Format(c.Action.NominalTime))
	}
	s := ks - kn
	if s > end {
		return "", oozieerr.At(oozieerr.E1010, "",
			"start-instance should be equal or earlier than the end-instance. startInstance is %s which is equivalent to current (%d) but end is specified as current (%d)",
			date, s, end)
	}
	return c.currentRange(s, end, fmt.Sprintf("absolute(%s) to current(%d)", date, end))
}

// endOfStart returns the start of the range of start-instance endOfMonths/Weeks/Days(n):
// local midnight (dataset zone) of the nominal time's day, moved to the first day of its month
// or week, plus n+1 months, weeks or days.
func (c *ELContext) endOfStart(kind string, n int) time.Time {
	loc := c.Dataset.Location
	nt := c.Action.NominalTime.In(loc)
	y, m, d := nt.Date()
	switch kind {
	case "endOfMonths":
		return oozietime.AddUnits(time.Date(y, m, 1, 0, 0, 0, 0, loc), oozietime.Month, n+1, loc)
	case "endOfWeeks":
		return oozietime.AddUnits(time.Date(y, m, d-int(nt.Weekday()), 0, 0, 0, 0, loc), oozietime.Week, n+1, loc)
	}
	return oozietime.AddUnits(time.Date(y, m, d, 0, 0, 0, 0, loc), oozietime.Day, n+1, loc)
}

// hoursOrDays implements coord:hoursInDay and coord:daysInMonth: the nominal time plus
// n × the dataset frequency in the dataset's unit, measured in the dataset zone; -1 when the
// nominal time is before the initial instance.
func (c *ELContext) hoursOrDays(n int, measure func(time.Time, *time.Location) int) int64 {
	ds := c.Dataset
	nt := c.Action.NominalTime
	if nt.Before(ds.Initial()) {
		return -1
	}
	return int64(measure(oozietime.AddUnits(nt, ds.Unit, n*ds.Frequency, ds.Location), ds.Location))
}

// fnCurrent is coord:current(n) in the action-create phase.
func fnCurrent(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	n, err := argInt("current", args, 0)
	if err != nil {
		return nil, err
	}
	return c.currentRange(n, n, echoCall("current", "", strconv.Itoa(n)))
}

// fnCurrentRange is coord:currentRange(a, b) in the action-create phase.
func fnCurrentRange(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	a, err := argInt("currentRange", args, 0)
	if err != nil {
		return nil, err
	}
	b, err := argInt("currentRange", args, 1)
	if err != nil {
		return nil, err
	}
	return c.currentRange(a, b, echoCall("currentRange", ", ", strconv.Itoa(a), strconv.Itoa(b)))
}

// fnOffset is coord:offset(n, unit) in the action-create phase.
func fnOffset(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	n, err := argInt("offset", args, 0)
	if err != nil {
		return nil, err
	}
	unit, err := offsetUnit("offset", argString(args, 1))
	if err != nil {
		return nil, err
	}
	t, ok := c.offsetInstance(n, unit)
	if !ok {
		return "", nil
	}
	return c.Format.Format(t), nil
}

// fnAbsoluteRange is coord:absoluteRange(date, end).
func fnAbsoluteRange(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	end, err := argInt("absoluteRange", args, 1)
	if err != nil {
		return nil, err
	}
	return c.absoluteRange(argString(args, 0), end)
}

// fnHoursInDay is coord:hoursInDay(n).
func fnHoursInDay(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	n, err := argInt("hoursInDay", args, 0)
	if err != nil {
		return nil, err
	}
	return c.hoursOrDays(n, oozietime.HoursInDay), nil
}

// fnDaysInMonth is coord:daysInMonth(n).
func fnDaysInMonth(env *el.Env, args []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	n, err := argInt("daysInMonth", args, 0)
	if err != nil {
		return nil, err
	}
	return c.hoursOrDays(n, oozietime.DaysInMonth), nil
}

// fnTzOffset is coord:tzOffset(): dataset zone offset minus job zone offset at the nominal
// time, in minutes.
func fnTzOffset(env *el.Env, _ []any) (any, error) {
	c, err := datasetContext(env)
	if err != nil {
		return nil, err
	}
	nt := c.Action.NominalTime
	_, ds := nt.In(c.Dataset.Location).Zone()
	jobLoc := c.Action.Location
	if jobLoc == nil {
		jobLoc = time.UTC
	}
	_, job := nt.In(jobLoc).Zone()
	return int64((ds - job) / 60), nil
}

// instanceRef is an instance function kept unevaluated in the action-create-inst phase, with
// its arguments evaluated, so that start-instance/end-instance ranges can be expanded. Its
// String form is the echo Oozie produces for the call.
type instanceRef struct {
	kind  string // current, latest, future, offset, absolute, endOfMonths, endOfWeeks, endOfDays, …Range
	n, n2 int
	unit  string // offset unit as written
	limit string // future limit as written
	date  string // absolute date as written
}

// String renders the reference as Oozie's echo of the call.
func (r instanceRef) String() string {
	n, n2 := strconv.Itoa(r.n), strconv.Itoa(r.n2)
	switch r.kind {
	case "future":
		return echoCall(r.kind, ", ", n, r.limit)
	case "offset":
		return echoCall(r.kind, " , ", n, r.unit)
	case "absolute":
		return echoCall(r.kind, "", r.date)
	case "currentRange", "latestRange":
		return echoCall(r.kind, ", ", n, n2)
	case "futureRange":
		return echoCall(r.kind, ", ", n, n2, r.limit)
	}
	return echoCall(r.kind, "", n)
}

// refFunc returns the action-create-inst form of an instance function.
func refFunc(kind string) el.Func {
	return func(_ *el.Env, args []any) (any, error) {
		r := instanceRef{kind: kind}
		var err error
		switch kind {
		case "absolute":
			r.date = argString(args, 0)
			return r, nil
		case "offset":
			r.unit = argString(args, 1)
		case "future":
			r.limit = argString(args, 1)
		case "currentRange", "latestRange", "futureRange":
			if r.n2, err = argInt(kind, args, 1); err != nil {
				return nil, err
			}
			if kind == "futureRange" {
				r.limit = argString(args, 2)
			}
		}
		if r.n, err = argInt(kind, args, 0); err != nil {
			return nil, err
		}
		return r, nil
	}
}
