package oozietime

import (
	"testing"
	"time"
)

// FuzzParseDatetime checks that the datetime parser never panics and that whatever it accepts
// formats back to a string that parses to the same instant.
func FuzzParseDatetime(f *testing.F) {
	for _, s := range []string{"2009-02-01T01:00Z", "2009-1-2T7:00Z", "2009-01-01T24:00Z", " 09-01-01T00:00Z", "2009-02-30T00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := UTC.Parse(s)
		if err != nil {
			return
		}
		back, err := UTC.Parse(UTC.Format(v))
		if err != nil || !back.Equal(v) {
			t.Fatalf("%q parsed as %v, formatted as %q, re-parsed as %v, %v", s, v, UTC.Format(v), back, err)
		}
	})
}

// FuzzParseCron checks that the cron parser never panics and that fire times are strictly
// increasing whole minutes.
func FuzzParseCron(f *testing.F) {
	for _, s := range []string{"0/10 * * * *", "20-30 * 20 5-7 4,5", "0 0 L-3 * ?", "0 0 ? * 6#3", "0 9-16 * * MON-FRI", "0 0 15W * ?"} {
		f.Add(s)
	}
	start := time.Date(2013, 7, 18, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCron(s)
		if err != nil {
			return
		}
		at := start
		for i := 0; i < 3; i++ {
			next, ok := c.Next(at, time.UTC)
			if !ok {
				return
			}
			if !next.After(at) || next.Second() != 0 {
				t.Fatalf("%q after %v: %v", s, at, next)
			}
			at = next
		}
	})
}
