package oozietime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Go layouts of the datetimes Oozie reads and prints, for code that needs a plain time.Parse
// or time.Format rather than the processing zone's Format (which is stricter and zone-aware).
const (
	// Layout is Oozie's UTC mask, yyyy-MM-dd'T'HH:mm'Z' (DateUtils.ISO8601_UTC_MASK):
	// 2009-09-08T23:59Z.
	Layout = "2006-01-02T15:04Z"
	// OffsetLayout is the mask of a GMT±HHMM processing time zone, yyyy-MM-dd'T'HH:mm
	// followed by the offset: 2009-09-09T05:29+0530.
	OffsetLayout = "2006-01-02T15:04-0700"
	// ZonedLayout prints a minute-precision datetime in any zone with the offset in ISO 8601
	// form, Z in UTC and ±hh:mm elsewhere (2009-09-08T16:59-07:00); gozie's job log uses it
	// for times shown in the caller's zone.
	ZonedLayout = "2006-01-02T15:04Z07:00"
	// JavaDateLayout is what java.util.Date.toString prints, "EEE MMM dd HH:mm:ss zzz yyyy"
	// (Tue Sep 08 23:59:00 UTC 2009): Oozie's CLI shows bundle times with it, and
	// java.util.Properties.store writes it in its header comment.
	JavaDateLayout = "Mon Jan 02 15:04:05 MST 2006"
)

// Format is Oozie's processing time zone together with its datetime mask. Every
// coordinator datetime (start, end, initial-instance, nominal times, EL results) is parsed and
// printed with it. The zero value is the default, UTC, whose mask is yyyy-MM-dd'T'HH:mm'Z'.
type Format struct {
	name   string         // "" (UTC) or "GMT+0530"
	suffix string         // "" (means "Z") or "+0530"
	loc    *time.Location // nil means UTC
}

// UTC is the default processing time zone.
var UTC = Format{}

// NewFormat returns the format of a processing time zone, which Oozie restricts to "UTC"
// or "GMT" followed by a sign and four digits (oozie.processing.timezone). The offset becomes
// part of the mask: with GMT+0530 datetimes read and print as 2009-01-01T10:00+0530.
func NewFormat(processingTZ string) (Format, error) {
	if processingTZ == "UTC" {
		return UTC, nil
	}
	if len(processingTZ) != 8 || !strings.HasPrefix(processingTZ, "GMT") ||
		(processingTZ[3] != '+' && processingTZ[3] != '-') || !allDigits(processingTZ[4:]) {
		return Format{}, fmt.Errorf("invalid processing time zone %q: it must be UTC or GMT(+/-)####",
			processingTZ)
	}
	hh, _ := strconv.Atoi(processingTZ[4:6])
	mm, _ := strconv.Atoi(processingTZ[6:8])
	if hh > 23 || mm > 59 {
		return Format{}, fmt.Errorf("invalid processing time zone %q: offset out of range", processingTZ)
	}
	secs := hh*3600 + mm*60
	if processingTZ[3] == '-' {
		secs = -secs
	}
	id := fmt.Sprintf("GMT%c%s:%s", processingTZ[3], processingTZ[4:6], processingTZ[6:8])
	return Format{name: processingTZ, suffix: processingTZ[3:], loc: time.FixedZone(id, secs)}, nil
}

// Name returns the processing time zone as configured ("UTC" or "GMT+0530").
func (f Format) Name() string {
	if f.name == "" {
		return "UTC"
	}
	return f.name
}

// Location returns the processing time zone.
func (f Format) Location() *time.Location {
	if f.loc == nil {
		return time.UTC
	}
	return f.loc
}

// Mask returns the Java date pattern of the format, as Oozie prints it in error messages.
func (f Format) Mask() string {
	if f.suffix == "" {
		return "yyyy-MM-dd'T'HH:mm'Z'"
	}
	return "yyyy-MM-dd'T'HH:mm" + f.suffix
}

// literal returns the text that must follow the minutes.
func (f Format) literal() string {
	if f.suffix == "" {
		return "Z"
	}
	return f.suffix
}

// Format prints t with the mask, e.g. 2009-09-08T23:59Z. Seconds are dropped, as in Oozie.
func (f Format) Format(t time.Time) string {
	return f.FormatIn(t, f.Location())
}

// FormatIn prints the wall-clock time of t in loc followed by the mask's zone literal, as
// Oozie's DateUtils.formatDate does for a calendar in another zone (coord:dateTzOffset):
// the result reads as a datetime of the mask but names the wall clock of loc.
func (f Format) FormatIn(t time.Time, loc *time.Location) string {
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
func (f Format) Parse(s string) (time.Time, error) {
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
