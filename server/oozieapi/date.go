package oozieapi

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DateLayout is Oozie's REST date format, Java's "EEE, dd MMM yyyy HH:mm:ss zzz" in US English.
const DateLayout = "Mon, 02 Jan 2006 15:04:05 MST"

// GMT is the zone Oozie formats REST dates in unless the request names another; its
// abbreviation is "GMT" (time.UTC would print "UTC").
var GMT = time.FixedZone("GMT", 0)

// Date is a point in time in a JSON document: null when zero, otherwise a string in
// DateLayout, formatted in the time's own location.
type Date struct {
	time.Time
}

// NewDate returns t as a Date in loc; a zero t stays zero (null).
func NewDate(t time.Time, loc *time.Location) Date {
	if t.IsZero() {
		return Date{}
	}
	return Date{t.In(loc)}
}

// MarshalJSON writes null for the zero time and the RFC 822 form otherwise.
func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return strconv.AppendQuote(nil, d.Format(DateLayout)), nil
}

// UnmarshalJSON reads null, "" or a date in DateLayout (see ParseDate).
func (d *Date) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*d = Date{}
		return nil
	}
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return fmt.Errorf("date %s: not a JSON string", b)
	}
	if s == "" {
		*d = Date{}
		return nil
	}
	t, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = Date{t}
	return nil
}

// ParseDate reads a date in DateLayout. Only zones whose offset the text itself fixes are
// accepted: GMT, UTC and Java's custom zones GMT+hh:mm / GMT-hh:mm. A zone abbreviation such
// as PST is refused, since it does not say which offset it means (Go's time.Parse would
// silently read it as +00:00); ask the server for GMT dates instead.
func ParseDate(s string) (time.Time, error) {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return time.Time{}, fmt.Errorf("date %q: want the form %q", s, DateLayout)
	}
	loc, err := zoneOf(s[i+1:])
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q: %w", s, err)
	}
	t, err := time.ParseInLocation("Mon, 02 Jan 2006 15:04:05", s[:i], loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q: want the form %q", s, DateLayout)
	}
	return t, nil
}

// zoneOf returns the location a zone token of a REST date stands for.
func zoneOf(z string) (*time.Location, error) {
	switch z {
	case "GMT":
		return GMT, nil
	case "UTC":
		return time.UTC, nil
	}
	if len(z) == 9 && strings.HasPrefix(z, "GMT") && (z[3] == '+' || z[3] == '-') && z[6] == ':' {
		hh, err1 := strconv.Atoi(z[4:6])
		mm, err2 := strconv.Atoi(z[7:9])
		if err1 == nil && err2 == nil && hh <= 23 && mm <= 59 {
			off := hh*3600 + mm*60
			if z[3] == '-' {
				off = -off
			}
			return time.FixedZone(z, off), nil
		}
	}
	return nil, fmt.Errorf("zone %q does not fix an offset (request GMT dates)", z)
}
