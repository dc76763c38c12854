package coordinator

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/store"
)

// TimeFormat is Oozie's processing time zone together with its datetime mask. Every
// coordinator datetime (start, end, initial-instance, nominal times, EL results) is parsed and
// printed with it. The zero value is the default, UTC, whose mask is yyyy-MM-dd'T'HH:mm'Z'.
type TimeFormat struct {
	name   string         // "" (UTC) or "GMT+0530"
	suffix string         // "" (means "Z") or "+0530"
	loc    *time.Location // nil means UTC
}

// UTC is the default processing time zone.
var UTC = TimeFormat{}

// NewTimeFormat returns the format of a processing time zone, which Oozie restricts to "UTC"
// or "GMT" followed by a sign and four digits (oozie.processing.timezone). The offset becomes
// part of the mask: with GMT+0530 datetimes read and print as 2009-01-01T10:00+0530.
func NewTimeFormat(processingTZ string) (TimeFormat, error) {
	if processingTZ == "UTC" {
		return UTC, nil
	}
	if len(processingTZ) != 8 || !strings.HasPrefix(processingTZ, "GMT") ||
		(processingTZ[3] != '+' && processingTZ[3] != '-') || !allDigits(processingTZ[4:]) {
		return TimeFormat{}, fmt.Errorf("invalid processing time zone %q: it must be UTC or GMT(+/-)####",
			processingTZ)
	}
	hh, _ := strconv.Atoi(processingTZ[4:6])
	mm, _ := strconv.Atoi(processingTZ[6:8])
	if hh > 23 || mm > 59 {
		return TimeFormat{}, fmt.Errorf("invalid processing time zone %q: offset out of range", processingTZ)
	}
	secs := hh*3600 + mm*60
	if processingTZ[3] == '-' {
		secs = -secs
	}
	id := fmt.Sprintf("GMT%c%s:%s", processingTZ[3], processingTZ[4:6], processingTZ[6:8])
	return TimeFormat{name: processingTZ, suffix: processingTZ[3:], loc: time.FixedZone(id, secs)}, nil
}

// Name returns the processing time zone as configured ("UTC" or "GMT+0530").
func (f TimeFormat) Name() string {
	if f.name == "" {
		return "UTC"
	}
	return f.name
}

// Location returns the processing time zone.
func (f TimeFormat) Location() *time.Location {
	if f.loc == nil {
		return time.UTC
	}
	return f.loc
}

// Mask returns the Java date pattern of the format, as Oozie prints it in error messages.
func (f TimeFormat) Mask() string {
	if f.suffix == "" {
		return "yyyy-MM-dd'T'HH:mm'Z'"
	}
	return "yyyy-MM-dd'T'HH:mm" + f.suffix
}

// literal returns the text that must follow the minutes.
func (f TimeFormat) literal() string {
	if f.suffix == "" {
		return "Z"
	}
	return f.suffix
}

// Format prints t with the mask, e.g. 2009-09-08T23:59Z. Seconds are dropped, as in Oozie.
func (f TimeFormat) Format(t time.Time) string {
	return f.formatWall(t, f.Location())
}

// formatWall prints the wall-clock time of t in loc followed by the mask's zone literal, as
// Oozie's DateUtils.formatDate does for a calendar in another zone.
func (f TimeFormat) formatWall(t time.Time, loc *time.Location) string {
	lt := t.In(loc)
	var b strings.Builder
	b.Grow(17 + len(f.suffix))
	y := lt.Year()
	if y < 0 {
		b.WriteByte('-')
		y = -y
	}
	pad(&b, y, 4)
	b.WriteByte('-')
	pad(&b, int(lt.Month()), 2)
	b.WriteByte('-')
	pad(&b, lt.Day(), 2)
	b.WriteByte('T')
	pad(&b, lt.Hour(), 2)
	b.WriteByte(':')
	pad(&b, lt.Minute(), 2)
	b.WriteString(f.literal())
	return b.String()
}

// pad writes n with at least width digits.
func pad(b *strings.Builder, n, width int) {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
}

// maxFieldDigits bounds each numeric field so that absurd inputs cannot overflow.
const maxFieldDigits = 9

// Parse reads a datetime the way Oozie's strict (non-lenient) SimpleDateFormat does: leading
// and trailing blanks are ignored, each numeric field may have any number of digits
// ("2009-1-2T7:00Z" and "2009-03-06T010:00Z" are accepted, "09" is the year 9), the ranges of
// month, day, hour and minute are checked (hour 24 and February 30 are rejected), there are no
// seconds, and nothing may follow the zone literal.
func (f TimeFormat) Parse(s string) (time.Time, error) {
	orig := s
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	fail := func(why string) (time.Time, error) {
		return time.Time{}, fmt.Errorf("could not parse [%s] using [%s] mask: %s", orig, f.Mask(), why)
	}
	var fields [5]int
	seps := [5]byte{'-', '-', 'T', ':', 0}
	pos := 0
	for i := range fields {
		start := pos
		for pos < len(s) && pos-start < maxFieldDigits+1 && s[pos] >= '0' && s[pos] <= '9' {
			pos++
		}
		if pos == start {
			return fail("a number is expected at position " + strconv.Itoa(pos))
		}
		if pos-start > maxFieldDigits {
			return fail("number too long at position " + strconv.Itoa(start))
		}
		fields[i], _ = strconv.Atoi(s[start:pos])
		if seps[i] != 0 {
			if pos >= len(s) || s[pos] != seps[i] {
				return fail(fmt.Sprintf("'%c' is expected at position %d", seps[i], pos))
			}
			pos++
		}
	}
	lit := f.literal()
	if !strings.HasPrefix(s[pos:], lit) {
		return fail(fmt.Sprintf("%q is expected at position %d", lit, pos))
	}
	pos += len(lit)
	if pos != len(s) {
		return fail("correct datetime string is followed by invalid characters")
	}
	y, mo, d, h, mi := fields[0], fields[1], fields[2], fields[3], fields[4]
	switch {
	case y < 1:
		return fail("year out of range")
	case mo < 1 || mo > 12:
		return fail("month out of range")
	case d < 1 || d > daysIn(y, time.Month(mo)):
		return fail("day out of range")
	case h > 23:
		return fail("hour out of range")
	case mi > 59:
		return fail("minute out of range")
	}
	return time.Date(y, time.Month(mo), d, h, mi, 0, 0, f.Location()), nil
}

// ParseStored is Parse for a datetime that a job keeps (a start, an end, a pause or kick-off
// time): it must also lie in the range the store holds (store.MinTime to store.MaxTime, the
// years 1000 to 9999; 0001-01-01T00:00Z would be stored as "not set"), so that it is refused at submission rather than failing, or turning into "not
// set", when it is written.
func (f TimeFormat) ParseStored(s string) (time.Time, error) {
	t, err := f.Parse(s)
	if err != nil {
		return t, err
	}
	if t.Before(store.MinTime) || t.After(store.MaxTime) { // a parsed date is never "not set"
		return time.Time{}, fmt.Errorf("[%s] is outside the dates gozie stores, %s to %s", strings.TrimSpace(s),
			f.Format(store.MinTime), f.Format(store.MaxTime))
	}
	return t, nil
}

// daysIn returns the number of days of a month in the proleptic Gregorian calendar.
func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// allDigits reports whether s is non-empty and made of ASCII digits only.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
