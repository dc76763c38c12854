package oozietime

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// CronSpec is a parsed cron frequency: five fields (minute, hour, day of month, month, day of
// week) with the semantics of Quartz, which Oozie uses for cron coordinators:
//
//   - values, a-b ranges (wrapping around, e.g. FRI-MON), lists, a/b and */b steps;
//   - months 1-12 or JAN-DEC, days of week 1-7 or SUN-SAT (Sunday is 1), case-insensitive;
//   - day of month: L (last day), L-n, LW (last weekday), nW (weekday nearest to day n, in
//     the same month); day of week: L alone (Saturday), nL (last n-day of the month), n#k
//     (k-th n-day of the month); ? in either day field means "no restriction from this field";
//   - if neither day field is ? and exactly one is *, the * one is ignored; if both are
//     restricted, a day matches when either field matches (Oozie evaluates two Quartz
//     expressions and takes the earlier fire time).
//
// Fire times are computed in the processing time zone (see Next).
type CronSpec struct {
	text    string
	minutes uint64
	hours   uint64
	months  uint64
	dom     dayOfMonth
	dow     dayOfWeek
}

// dayOfMonth is the parsed day-of-month field.
type dayOfMonth struct {
	any     bool   // '?' or '*' that does not restrict
	days    uint64 // bits 1..31
	last    bool   // L or L-n
	offset  int    // n of L-n
	lastWD  bool   // LW
	nearest int    // n of nW, 0 if unused
}

// dayOfWeek is the parsed day-of-week field (1 = Sunday … 7 = Saturday).
type dayOfWeek struct {
	any     bool
	days    uint64 // bits 1..7
	lastOf  int    // n of nL, 0 if unused
	nth     int    // n of n#k, 0 if unused
	nthWeek int    // k of n#k
}

// cronField describes the range and names of one field.
type cronField struct {
	name     string
	min, max int
	names    map[string]int
}

var (
	cronMinute = cronField{name: "minute", min: 0, max: 59}
	cronHour   = cronField{name: "hour", min: 0, max: 23}
	cronDOM    = cronField{name: "day-of-month", min: 1, max: 31}
	cronMonth  = cronField{name: "month", min: 1, max: 12, names: map[string]int{
		"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6,
		"JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12}}
	cronDOW = cronField{name: "day-of-week", min: 1, max: 7, names: map[string]int{
		"SUN": 1, "MON": 2, "TUE": 3, "WED": 4, "THU": 5, "FRI": 6, "SAT": 7}}
)

// cronSearchLimit is the last year searched for a fire time, as in Quartz.
const cronSearchLimit = 2999

// ParseCron parses a five-field cron frequency. Fields are separated by single spaces, as
// Oozie splits them; anything but exactly five non-empty fields is an error.
func ParseCron(expr string) (*CronSpec, error) {
	fields := strings.Split(expr, " ")
	for len(fields) > 0 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	if len(fields) != 5 {
		return nil, fmt.Errorf("cron frequency %q must have 5 fields separated by single spaces", expr)
	}
	for i, f := range fields {
		if f == "" {
			return nil, fmt.Errorf("cron frequency %q has an empty field %d", expr, i+1)
		}
		fields[i] = strings.ToUpper(f)
	}
	c := &CronSpec{text: expr}
	var err error
	if c.minutes, err = parseCronSet(fields[0], cronMinute); err != nil {
		return nil, fmt.Errorf("cron frequency %q: %w", expr, err)
	}
	if c.hours, err = parseCronSet(fields[1], cronHour); err != nil {
		return nil, fmt.Errorf("cron frequency %q: %w", expr, err)
	}
	if c.months, err = parseCronSet(fields[3], cronMonth); err != nil {
		return nil, fmt.Errorf("cron frequency %q: %w", expr, err)
	}
	domText, dowText := fields[2], fields[4]
	if domText == "?" && dowText == "?" {
		return nil, fmt.Errorf("cron frequency %q: '?' can only be used in one of day-of-month and day-of-week", expr)
	}
	if c.dom, err = parseDOM(domText); err != nil {
		return nil, fmt.Errorf("cron frequency %q: %w", expr, err)
	}
	if c.dow, err = parseDOW(dowText); err != nil {
		return nil, fmt.Errorf("cron frequency %q: %w", expr, err)
	}
	// A '*' day field parses as unrestricted, which is what Oozie's rewrite of '*' into '?'
	// (when the other day field is restricted) amounts to.
	return c, nil
}

// String returns the expression as written.
func (c *CronSpec) String() string { return c.text }

// parseDOM parses the day-of-month field.
func parseDOM(s string) (dayOfMonth, error) {
	switch {
	case s == "?" || s == "*":
		return dayOfMonth{any: true}, nil
	case s == "L":
		return dayOfMonth{last: true}, nil
	case s == "LW":
		return dayOfMonth{lastWD: true}, nil
	case strings.HasPrefix(s, "L-"):
		n, err := strconv.Atoi(s[2:])
		if err != nil || n < 0 || n > 30 {
			return dayOfMonth{}, fmt.Errorf("invalid day-of-month %q: offset from L must be 0-30", s)
		}
		return dayOfMonth{last: true, offset: n}, nil
	case strings.HasSuffix(s, "W"):
		n, err := strconv.Atoi(s[:len(s)-1])
		if err != nil || n < 1 || n > 31 {
			return dayOfMonth{}, fmt.Errorf("invalid day-of-month %q: W needs a single day 1-31", s)
		}
		return dayOfMonth{nearest: n}, nil
	case strings.ContainsAny(s, "LW#"):
		return dayOfMonth{}, fmt.Errorf("invalid day-of-month %q", s)
	}
	set, err := parseCronSet(s, cronDOM)
	return dayOfMonth{days: set}, err
}

// parseDOW parses the day-of-week field.
func parseDOW(s string) (dayOfWeek, error) {
	switch {
	case s == "?" || s == "*":
		return dayOfWeek{any: true}, nil
	case s == "L":
		return dayOfWeek{days: 1 << 7}, nil
	case strings.HasSuffix(s, "L"):
		n, ok := cronValue(s[:len(s)-1], cronDOW)
		if !ok {
			return dayOfWeek{}, fmt.Errorf("invalid day-of-week %q: L needs a single day 1-7", s)
		}
		return dayOfWeek{lastOf: n}, nil
	case strings.Contains(s, "#"):
		day, week, _ := strings.Cut(s, "#")
		n, ok := cronValue(day, cronDOW)
		k, err := strconv.Atoi(week)
		if !ok || err != nil || k < 1 || k > 5 {
			return dayOfWeek{}, fmt.Errorf("invalid day-of-week %q: expected day#week with week 1-5", s)
		}
		return dayOfWeek{nth: n, nthWeek: k}, nil
	}
	set, err := parseCronSet(s, cronDOW)
	return dayOfWeek{days: set}, err
}

// parseCronSet parses a list of values, ranges and steps into a bit set.
func parseCronSet(s string, f cronField) (uint64, error) {
	var set uint64
	for _, item := range strings.Split(s, ",") {
		bitsOf, err := parseCronItem(item, f)
		if err != nil {
			return 0, err
		}
		set |= bitsOf
	}
	return set, nil
}

// parseCronItem parses one list item: *, v, a-b, each optionally followed by /step.
func parseCronItem(item string, f cronField) (uint64, error) {
	rng, stepText, hasStep := strings.Cut(item, "/")
	step := 1
	if hasStep {
		n, err := strconv.Atoi(stepText)
		if err != nil || n < 1 || n > f.max {
			return 0, fmt.Errorf("invalid %s step in %q", f.name, item)
		}
		step = n
	}
	lo, hi := f.min, f.max
	switch {
	case rng == "*" || (rng == "" && hasStep):
	case strings.Contains(rng, "-"):
		a, b, _ := strings.Cut(rng, "-")
		var okA, okB bool
		lo, okA = cronValue(a, f)
		hi, okB = cronValue(b, f)
		if !okA || !okB {
			return 0, fmt.Errorf("invalid %s range %q", f.name, item)
		}
	default:
		v, ok := cronValue(rng, f)
		if !ok {
			return 0, fmt.Errorf("invalid %s value %q", f.name, item)
		}
		lo = v
		if !hasStep {
			hi = v
		}
	}
	span := f.max - f.min + 1
	end := hi
	if hi < lo { // Quartz lets ranges wrap around, e.g. FRI-MON or 22-2.
		end = hi + span
	}
	var set uint64
	for v := lo; v <= end; v += step {
		w := v
		if w > f.max {
			w -= span
		}
		set |= 1 << uint(w)
	}
	return set, nil
}

// cronValue reads a number or a name within the field's range.
func cronValue(s string, f cronField) (int, bool) {
	if v, ok := f.names[s]; ok {
		return v, true
	}
	if !allDigits(s) || len(s) > 2 {
		return 0, false
	}
	v, _ := strconv.Atoi(s)
	return v, v >= f.min && v <= f.max
}

// Next returns the first fire time strictly after t, computed in loc (Oozie's processing time
// zone, which has no daylight-saving time), and false if there is none before the year 3000.
func (c *CronSpec) Next(t time.Time, loc *time.Location) (time.Time, bool) {
	lt := t.In(loc)
	cur := time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), lt.Minute(), 0, 0, loc).Add(time.Minute)
	y, m, d := cur.Date()
	h, mi := cur.Hour(), cur.Minute()
	for y <= cronSearchLimit {
		if c.months&(1<<uint(m)) == 0 {
			y, m, d, h, mi = nextMonth(y, m)
			continue
		}
		last := daysIn(y, m)
		for ; d <= last; d, h, mi = d+1, 0, 0 {
			if !c.dayMatches(y, m, d, last) {
				continue
			}
			if hh, mm, ok := c.timeAtOrAfter(h, mi); ok {
				return time.Date(y, m, d, hh, mm, 0, 0, loc), true
			}
		}
		y, m, d, h, mi = nextMonth(y, m)
	}
	return time.Time{}, false
}

// nextMonth returns the first minute of the month after y-m.
func nextMonth(y int, m time.Month) (int, time.Month, int, int, int) {
	if m == time.December {
		return y + 1, time.January, 1, 0, 0
	}
	return y, m + 1, 1, 0, 0
}

// timeAtOrAfter returns the first (hour, minute) of the day at or after h:mi that matches.
func (c *CronSpec) timeAtOrAfter(h, mi int) (int, int, bool) {
	for ; h < 24; h, mi = h+1, 0 {
		if c.hours&(1<<uint(h)) == 0 {
			continue
		}
		rest := c.minutes >> uint(mi)
		if rest != 0 {
			return h, mi + bits.TrailingZeros64(rest), true
		}
	}
	return 0, 0, false
}

// dayMatches applies the day-of-month and day-of-week fields to one date.
func (c *CronSpec) dayMatches(y int, m time.Month, d, last int) bool {
	switch {
	case c.dom.any && c.dow.any:
		return true
	case c.dom.any:
		return c.dow.matches(y, m, d, last)
	case c.dow.any:
		return c.dom.matches(y, m, d, last)
	}
	return c.dom.matches(y, m, d, last) || c.dow.matches(y, m, d, last)
}

// matches reports whether day d of month y-m (which has last days) matches the field.
func (f dayOfMonth) matches(y int, m time.Month, d, last int) bool {
	switch {
	case f.any:
		return true
	case f.last:
		return d == last-f.offset
	case f.lastWD:
		target := last
		switch weekday(y, m, last) {
		case time.Saturday:
			target = last - 1
		case time.Sunday:
			target = last - 2
		}
		return d == target
	case f.nearest > 0:
		n := f.nearest
		if n > last {
			return false
		}
		switch weekday(y, m, n) {
		case time.Saturday:
			if n == 1 {
				n = 3
			} else {
				n--
			}
		case time.Sunday:
			if n == last {
				n -= 2
			} else {
				n++
			}
		}
		return d == n
	}
	return f.days&(1<<uint(d)) != 0
}

// matches reports whether day d of month y-m (which has last days) matches the field.
func (f dayOfWeek) matches(y int, m time.Month, d, last int) bool {
	wd := int(weekday(y, m, d)) + 1
	switch {
	case f.any:
		return true
	case f.lastOf > 0:
		return wd == f.lastOf && d+7 > last
	case f.nth > 0:
		return wd == f.nth && (d-1)/7+1 == f.nthWeek
	}
	return f.days&(1<<uint(wd)) != 0
}

// weekday returns the day of the week of a date.
func weekday(y int, m time.Month, d int) time.Weekday {
	return time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Weekday()
}
