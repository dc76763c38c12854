package oozietime

import "time"

// Unit is a time unit of a frequency or of an offset, named as Oozie names it. The XML parser
// produces MINUTE, DAY, WEEK, MONTH and CRON (coord:hours(n) is n×60 MINUTE); HOUR and YEAR
// appear in coord:offset/coord:dateOffset and in stored data.
type Unit string

// Units, as Oozie's TimeUnit enum spells them.
const (
	Minute     Unit = "MINUTE"
	Hour       Unit = "HOUR"
	Day        Unit = "DAY"
	Week       Unit = "WEEK"
	Month      Unit = "MONTH"
	Year       Unit = "YEAR"
	EndOfDay   Unit = "END_OF_DAY"
	EndOfWeek  Unit = "END_OF_WEEK"
	EndOfMonth Unit = "END_OF_MONTH"
	Cron       Unit = "CRON"
	NoUnit     Unit = "NONE"
)

// ParseUnit returns the unit named s (upper case, as in Oozie), or false.
func ParseUnit(s string) (Unit, bool) {
	switch u := Unit(s); u {
	case Minute, Hour, Day, Week, Month, Year, EndOfDay, EndOfWeek, EndOfMonth, Cron, NoUnit:
		return u, true
	}
	return "", false
}

// AddUnits adds n units to t the way java.util.GregorianCalendar does in zone loc:
//   - MINUTE and HOUR are elapsed time, so a daylight-saving change shifts the wall clock;
//   - DAY and WEEK keep the wall-clock time (23 and 25 hour days are absorbed); a wall time
//     that does not exist is read with the offset after the gap, an ambiguous one as the
//     first occurrence, which is what time.Date does;
//   - MONTH and YEAR keep the wall-clock time and clamp the day of the month (January 31 plus
//     one month is February 28), unlike time.AddDate which overflows into March.
//
// The END_OF_* units add like their base unit. Callers always add k×frequency to the original
// start instead of chaining additions, so clamping never drifts.
func AddUnits(t time.Time, u Unit, n int, loc *time.Location) time.Time {
	loc = orUTC(loc)
	switch u {
	case Minute:
		return addSeconds(t, int64(n)*60)
	case Hour:
		return addSeconds(t, int64(n)*3600)
	case Day, EndOfDay:
		lt := t.In(loc)
		return time.Date(lt.Year(), lt.Month(), lt.Day()+n, lt.Hour(), lt.Minute(), lt.Second(), lt.Nanosecond(), loc)
	case Week, EndOfWeek:
		lt := t.In(loc)
		return time.Date(lt.Year(), lt.Month(), lt.Day()+7*n, lt.Hour(), lt.Minute(), lt.Second(), lt.Nanosecond(), loc)
	case Month, EndOfMonth:
		return addMonths(t, n, loc)
	case Year:
		return addMonths(t, 12*n, loc)
	}
	return t
}

// addSeconds adds s seconds to t. time.Duration overflows past 292 years, which an instance
// offset such as coord:current(-3000000) on a one-minute dataset reaches; Unix seconds do not.
func addSeconds(t time.Time, s int64) time.Time {
	const maxDuration = int64(1<<63-1) / int64(time.Second)
	if s > -maxDuration && s < maxDuration {
		return t.Add(time.Duration(s) * time.Second)
	}
	return time.Unix(t.Unix()+s, int64(t.Nanosecond())).In(t.Location())
}

// addMonths adds n calendar months in loc, clamping the day of the month.
func addMonths(t time.Time, n int, loc *time.Location) time.Time {
	lt := t.In(loc)
	total := lt.Year()*12 + int(lt.Month()) - 1 + n
	y, m := floorDiv(total, 12), time.Month(floorMod(total, 12)+1)
	d := min(lt.Day(), daysIn(y, m))
	return time.Date(y, m, d, lt.Hour(), lt.Minute(), lt.Second(), lt.Nanosecond(), loc)
}

// StepIndex returns the largest k (possibly negative) with AddUnits(start, u, k×freq, loc) at
// or before t, the index of the step of a series (dataset instances, nominal times) that is
// current at t; it is 0 when freq is not positive.
func StepIndex(start time.Time, u Unit, freq int, loc *time.Location, t time.Time) int {
	if freq <= 0 {
		return 0
	}
	k := estimateSteps(start, u, freq, loc, t)
	for k > -1<<40 && AddUnits(start, u, k*freq, loc).After(t) {
		k--
	}
	for k < 1<<40 && !AddUnits(start, u, (k+1)*freq, loc).After(t) {
		k++
	}
	return k
}

// estimateSteps guesses the number of whole frequency steps from start to t; StepIndex
// corrects the guess by at most a few steps (daylight-saving days, month lengths).
func estimateSteps(start time.Time, u Unit, freq int, loc *time.Location, t time.Time) int {
	var units int
	secs := int(t.Unix() - start.Unix()) // not t.Sub: a Duration saturates past 292 years
	switch u {
	case Minute:
		units = secs / 60
	case Hour:
		units = secs / 3600
	case Day, EndOfDay:
		units = secs / (24 * 3600)
	case Week, EndOfWeek:
		units = secs / (7 * 24 * 3600)
	case Month, EndOfMonth, Year:
		a, b := start.In(loc), t.In(loc)
		units = (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month())
		if u == Year {
			units = floorDiv(units, 12)
		}
	default:
		return 0
	}
	return floorDiv(units, freq)
}

// MoveToEnd applies Oozie's end-of-duration adjustment to a coordinator start or a dataset
// initial instance whose frequency uses coord:endOfDays/endOfWeeks/endOfMonths. It always
// moves forward, even from an instant that is already at the boundary:
//   - END_OF_DAY: the next local midnight;
//   - END_OF_WEEK: the first Sunday 00:00 strictly after the local date (the first day of the
//     week is Sunday, as with Oozie's usual en_US default locale);
//   - END_OF_MONTH: 00:00 on the first day of the next local month.
//
// Other units return t unchanged.
func MoveToEnd(t time.Time, endOf Unit, loc *time.Location) time.Time {
	loc = orUTC(loc)
	lt := t.In(loc)
	switch endOf {
	case EndOfDay:
		return time.Date(lt.Year(), lt.Month(), lt.Day()+1, 0, 0, 0, lt.Nanosecond(), loc)
	case EndOfWeek:
		return time.Date(lt.Year(), lt.Month(), lt.Day()+7-int(lt.Weekday()), 0, 0, 0, lt.Nanosecond(), loc)
	case EndOfMonth:
		return time.Date(lt.Year(), lt.Month()+1, 1, 0, 0, 0, lt.Nanosecond(), loc)
	}
	return t
}

// HoursInDay returns the length in hours (23, 24 or 25) of the local calendar day of t in
// loc, measured as Oozie does: 00:30 local time plus 24 elapsed hours lands at 01:30 on a
// 23-hour day and at 23:30 of the same day on a 25-hour day.
func HoursInDay(t time.Time, loc *time.Location) int {
	loc = orUTC(loc)
	lt := t.In(loc)
	probe := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 30, 0, 0, loc).Add(24 * time.Hour)
	switch probe.In(loc).Hour() {
	case 1:
		return 23
	case 23:
		return 25
	}
	return 24
}

// DaysInMonth returns the number of days of the local month of t in loc.
func DaysInMonth(t time.Time, loc *time.Location) int {
	lt := t.In(orUTC(loc))
	return daysIn(lt.Year(), lt.Month())
}

// DSTOffset returns the daylight-saving correction Oozie applies to a day-or-longer cron
// frequency (DaylightOffsetCalculator): if begin is in daylight time in loc and end is not,
// the daylight amount at begin (positive); if end is and begin is not, minus the daylight
// amount at end; otherwise zero.
func DSTOffset(loc *time.Location, begin, end time.Time) time.Duration {
	loc = orUTC(loc)
	b, e := begin.In(loc), end.In(loc)
	_, bOff := b.Zone()
	_, eOff := e.Zone()
	switch {
	case b.IsDST() && !e.IsDST():
		return time.Duration(bOff-eOff) * time.Second
	case !b.IsDST() && e.IsDST():
		return -time.Duration(eOff-bOff) * time.Second
	}
	return 0
}

// orUTC returns loc, or UTC when it is nil.
func orUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// floorDiv divides rounding towards negative infinity.
func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// floorMod is the remainder matching floorDiv.
func floorMod(a, b int) int {
	return a - floorDiv(a, b)*b
}
