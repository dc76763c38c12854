package oozietime

import (
	"testing"
	"time"
)

func TestAddUnits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		start string
		unit  Unit
		n     int
		tz    string
		want  string
	}{
		{"day keeps wall clock over spring gap", "2009-03-06T10:00Z", Day, 2, "America/Los_Angeles", "2009-03-08T09:00Z"},
		{"nonexistent wall time uses DST offset", "2009-03-06T10:00Z", Day, 2, "America/Los_Angeles", "2009-03-08T09:00Z"},
		{"day keeps wall clock over fall change", "2009-10-31T08:00Z", Day, 2, "America/Los_Angeles", "2009-11-02T09:00Z"},
		{"week", "2009-01-08T00:00Z", Week, 3, "UTC", "2009-01-29T00:00Z"},
		{"hour is elapsed time", "2016-03-12T13:10Z", Hour, 20, "America/Los_Angeles", "2016-03-13T09:10Z"},
		{"minute is elapsed time", "2016-03-13T09:50Z", Minute, 20, "America/Los_Angeles", "2016-03-13T10:10Z"},
		{"month clamps the day", "2009-01-31T00:00Z", Month, 1, "UTC", "2009-02-28T00:00Z"},
		{"month from original start does not drift", "2009-01-31T00:00Z", Month, 2, "UTC", "2009-03-31T00:00Z"},
		{"negative months", "2015-01-02T00:45Z", Month, -3, "America/Los_Angeles", "2014-10-01T23:45Z"},
		{"year clamps Feb 29", "2008-02-29T00:00Z", Year, 1, "UTC", "2009-02-28T00:00Z"},
		{"D4 dateOffset MONTH", "2009-01-01T00:00Z", Month, 2, "UTC", "2009-03-01T00:00Z"},
		{"D4 dateOffset YEAR", "2009-01-01T00:00Z", Year, 1, "UTC", "2010-01-01T00:00Z"},
		{"D2 dateOffset DAY", "2009-09-08T23:59Z", Day, -1, "UTC", "2009-09-07T23:59Z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := AddUnits(utc(t, tc.start), tc.unit, tc.n, zone(t, tc.tz))
			if s := UTC.Format(got); s != tc.want {
				t.Fatalf("AddUnits(%s, %s, %d, %s) = %s, want %s", tc.start, tc.unit, tc.n, tc.tz, s, tc.want)
			}
		})
	}
}

func TestMoveToEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id   string
		in   []string
		tz   string
		unit Unit
		want string
	}{
		{"E2", []string{"2009-01-01T08:00Z"}, "America/Los_Angeles", EndOfDay, "2009-01-02T08:00Z"},
		{"E4", []string{"2009-01-01T18:00Z"}, "America/Los_Angeles", EndOfDay, "2009-01-02T08:00Z"},
		{"E6", []string{"2009-03-08T07:00Z"}, "America/Los_Angeles", EndOfDay, "2009-03-08T08:00Z"},
		{"E8", []string{"2009-01-01T00:00Z", "2009-01-01T08:00Z", "2009-01-31T08:00Z"}, "UTC", EndOfMonth, "2009-02-01T00:00Z"},
		{"E10", []string{"2009-02-02T08:00Z", "2009-02-01T08:00Z"}, "America/Los_Angeles", EndOfMonth, "2009-03-01T08:00Z"},
		{"E12", []string{"2017-01-04T08:00Z", "2017-01-06T08:00Z"}, "UTC", EndOfWeek, "2017-01-08T00:00Z"},
		{"E14", []string{"2017-01-08T00:00Z"}, "UTC", EndOfWeek, "2017-01-15T00:00Z"},
		{"Saturday moves one day", []string{"2017-01-07T12:00Z"}, "UTC", EndOfWeek, "2017-01-08T00:00Z"},
		{"no end-of flag", []string{"2017-01-07T12:00Z"}, "UTC", NoUnit, "2017-01-07T12:00Z"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			for _, in := range tc.in {
				got := MoveToEnd(utc(t, in), tc.unit, zone(t, tc.tz))
				if s := UTC.Format(got); s != tc.want {
					t.Errorf("MoveToEnd(%s, %s, %s) = %s, want %s", in, tc.unit, tc.tz, s, tc.want)
				}
			}
		})
	}
}

func TestHoursInDayAndDaysInMonth(t *testing.T) {
	t.Parallel()
	la := zone(t, "America/Los_Angeles")
	if got := HoursInDay(utc(t, "2009-03-08T08:00Z"), la); got != 23 {
		t.Errorf("spring forward day has %d hours", got)
	}
	if got := HoursInDay(utc(t, "2009-11-01T08:00Z"), la); got != 25 {
		t.Errorf("fall back day has %d hours", got)
	}
	if got := HoursInDay(utc(t, "2009-03-08T08:00Z"), time.UTC); got != 24 {
		t.Errorf("UTC day has %d hours", got)
	}
	if got := DaysInMonth(utc(t, "2009-03-01T07:00Z"), la); got != 28 {
		t.Errorf("local day is Feb 28: got %d days", got)
	}
	if got := DaysInMonth(utc(t, "2008-02-10T00:00Z"), time.UTC); got != 29 {
		t.Errorf("February 2008 has %d days", got)
	}
}

func TestDSTOffset(t *testing.T) {
	t.Parallel()
	la := zone(t, "America/Los_Angeles")
	kolkata := zone(t, "Asia/Kolkata")
	tests := []struct {
		id         string
		loc        *time.Location
		begin, end string
		want       time.Duration
	}{
		{"T10", la, "2013-01-18T00:00Z", "2014-01-18T00:00Z", 0},
		{"T12", la, "2013-01-18T00:00Z", "2013-07-19T00:00Z", -3600000 * time.Millisecond},
		{"DST to standard", la, "2013-07-18T00:00Z", "2014-01-19T00:00Z", time.Hour},
		{"both in DST", la, "2013-07-18T00:00Z", "2013-07-19T00:00Z", 0},
		{"zone without DST", kolkata, "2013-01-18T00:00Z", "2013-07-19T00:00Z", 0},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			if got := DSTOffset(tc.loc, utc(t, tc.begin), utc(t, tc.end)); got != tc.want {
				t.Fatalf("DSTOffset = %v, want %v", got, tc.want)
			}
		})
	}
}
